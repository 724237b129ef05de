//===- InfoCommand.cpp - The info subcommand: the model's summary ---------===//
//
// `NAME info [--batch N] [--memory SIZE]` (docs/cli.md): the parameter
// table, totals, FLOPs, class names and the decoding step; the layer table
// the compiler wrote (ModelrtProgram.layers); the training and evaluation
// memory plans at the batch size; and the largest batch whose training
// plan fits in SIZE (default: this machine's physical RAM). Everything is
// computed from the program's tables: nothing is allocated or run. The GPU
// is not consulted; for GPU code whose convolutions call cuDNN, cuDNN is
// loaded to say whether it can be.
//
//===----------------------------------------------------------------------===//
#include "CliInternal.h"

#include "modelrt/core/Bf16.h"
#include "modelrt/core/Blas.h"
#include "modelrt/core/Conv.h"
#include "modelrt/core/CpuFeatures.h"
#include "modelrt/cuda/Cuda.h"
#include "modelrt/train/Optimizer.h"
#include "modelsupport/Precision.h"
#include "modelsupport/ShapeArith.h"
#include "modelsupport/TrainSchema.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace modelrt {
namespace {

/// The byte totals the memory plans are made of.
struct MemoryPlan {
  double params = 0, grads = 0, optimizer = 0, state = 0;
  double inputPerSample = 0;      ///< one input sample, f32
  double activationsPerSample = 0; ///< sum of the layers' outputs
  double largestPairPerSample = 0; ///< largest consecutive pair (input first)
  const ModelrtProductOperands *bf16Products = nullptr; ///< none in f32
  int32_t numBf16Products = 0;
  Bf16Path bf16Path = Bf16Path::Emulated; ///< where the bf16 products run

  /// Bytes of the bf16 products' rounded operand copies at \p batch.
  double bf16Copies(double batch) const {
    return bf16OperandCopyBytes(bf16Products, numBf16Products, batch, bf16Path, params / 4);
  }
  /// Bytes one training step holds at \p batch: parameters, gradients,
  /// optimizer state, state, the input batch, every layer's output (an
  /// estimate of the forward values the backward pass reads: views are
  /// counted, the values inside a layer are not) and the bf16 copies.
  double training(double batch) const {
    return params + grads + optimizer + state +
           batch * (inputPerSample + activationsPerSample) + bf16Copies(batch);
  }
  /// Bytes an evaluation step holds at \p batch: parameters, state, the
  /// largest pair of consecutive activations (a layer's input and output)
  /// and the bf16 copies (those of the training step: an upper bound, as
  /// evaluation runs the forward products only).
  double evaluation(double batch) const {
    return params + state + batch * largestPairPerSample + bf16Copies(batch);
  }
};

/// Prints the parameter and state table; returns the element totals.
void printTensorTable(const ModelrtProgram &p, int64_t &total, int64_t &stateTotal) {
  std::vector<TensorInfo> params = paramTable(p), state = stateTable(p);
  size_t width = 9;
  for (const auto *t : {&params, &state})
    for (const TensorInfo &i : *t)
      width = std::max(width, i.name.size());
  std::printf("model %s\n\n%-*s  %-20s %12s\n", p.name, int(width), "parameter", "shape", "count");
  for (const auto *t : {&params, &state})
    for (const TensorInfo &i : *t) {
      int64_t n = shapeNumElements(i.shape);
      (t == &params ? total : stateTotal) += n;
      std::printf("%-*s  %-20s %12lld%s\n", int(width), i.name.c_str(),
                  shapeToString(i.shape).c_str(), (long long)n, t == &params ? "" : "  (state)");
    }
}

/// True when the program has a rank-4 parameter: a convolution's OIHW
/// weights, so that it can run convolutions.
bool hasConvolutionWeights(const ModelrtProgram &p) {
  for (int32_t i = 0; i < p.num_params; ++i)
    if (p.params[i].rank == 4)
      return true;
  return false;
}

/// The program's layer table, one line per layer, then the totals.
void printLayerTable(const ModelrtProgram &p) {
  if (p.num_layers <= 0 || !p.layers) {
    std::printf("\nlayers: unknown (the program does not say)\n");
    return;
  }
  size_t width = 5;
  for (int32_t i = 0; i < p.num_layers; ++i)
    width = std::max(width, std::strlen(p.layers[i].name));
  std::printf("\n%-*s  %-20s %12s %14s %14s\n", int(width), "layer", "output (per sample)",
              "params", "FLOPs/sample", "bytes/sample");
  int64_t params = 0, bytes = 0;
  double flops = 0;
  for (int32_t i = 0; i < p.num_layers; ++i) {
    const ModelrtLayerInfo &l = p.layers[i];
    std::vector<int64_t> shape(l.shape, l.shape + l.rank);
    std::printf("%-*s  %-20s %12lld %14.0f %14lld\n", int(width), l.name,
                shapeToString(shape).c_str(), (long long)l.num_params, l.flops,
                (long long)l.activation_bytes);
    params += l.num_params, flops += l.flops, bytes += l.activation_bytes;
  }
  std::printf("%-*s  %-20s %12lld %14.0f %14lld\n", int(width), "total", "",
              (long long)params, flops, (long long)bytes);
}

/// The optimizer's name for the plan ("adam"), as the train block spells
/// it (the schema's kinds).
const char *optimizerName(OptimizerKind kind) {
  for (const modelsupport::KindInfo &k : modelsupport::kKinds)
    if (k.group == modelsupport::Group::Optimizer && k.value == int32_t(kind))
      return k.name;
  return "?";
}

/// The plan's per-sample parts from the program's input and layer tables.
void planActivations(const ModelrtProgram &p, MemoryPlan &plan) {
  double input = double(dtypeSize(inputType(p)));
  for (int32_t d = 0; d < p.input_rank; ++d)
    input *= double(p.input_shape[d]);
  plan.inputPerSample = input;
  double previous = input;
  for (int32_t i = 0; i < p.num_layers && p.layers; ++i) {
    double out = double(p.layers[i].activation_bytes);
    plan.activationsPerSample += out;
    plan.largestPairPerSample = std::max(plan.largestPairPerSample, previous + out);
    previous = out;
  }
  if (p.num_layers <= 0)
    plan.largestPairPerSample = input;
}

/// One line of the plans' table: a training and an evaluation figure (a
/// negative one prints as "-").
void planLine(const char *what, double train, double eval) {
  std::printf("  %-26s %14s %14s\n", what, formatBytes(train).c_str(),
              eval < 0 ? "-" : formatBytes(eval).c_str());
}

/// What the plan's bf16 copies count, under the table.
void printBf16CopiesNote(const MemoryPlan &plan) {
  if (plan.bf16Path == Bf16Path::Emulated)
    std::printf("  (bf16 copies: an f32 copy of the largest activations and gradients of the "
                "%d bf16 products, rounded, which the emulation reuses; and of the weights, "
                "rounded once a step)\n",
                plan.numBf16Products);
  else
    std::printf("  (bf16 copies: a bf16 copy of both operands of each of the %d bf16 products, "
                "kept by oneDNN's cached primitives; at most)\n", plan.numBf16Products);
}

/// Prints both plans at \p batch.
void printPlans(const MemoryPlan &plan, OptimizerKind kind, int64_t batch) {
  double b = double(batch);
  std::printf("\nmemory plan (batch %lld, %s):  %14s %14s\n", (long long)batch,
              plan.bf16Products ? "bf16 products, f32 values" : "f32", "training",
              "evaluation");
  planLine("parameters", plan.params, plan.params);
  planLine("gradients", plan.grads, -1);
  std::string opt = std::string("optimizer state (") + optimizerName(kind) + ")";
  planLine(opt.c_str(), plan.optimizer, -1);
  planLine("state", plan.state, plan.state);
  planLine("input batch", b * plan.inputPerSample, -1);
  planLine("activations", b * plan.activationsPerSample,
           b * plan.largestPairPerSample);
  if (plan.bf16Products) {
    std::string copies = std::string("bf16 copies (") + bf16PathName(plan.bf16Path) + ")";
    planLine(copies.c_str(), plan.bf16Copies(b), plan.bf16Copies(b));
  }
  planLine("total", plan.training(b), plan.evaluation(b));
  if (plan.bf16Products)
    printBf16CopiesNote(plan);
}

/// The largest batch (at most modelsupport::kMaxBatch) whose training plan
/// fits in \p bytes; 0 when not even one sample fits. The plan grows with
/// the batch (linearly but for the emulation's largest copies): bisection.
int64_t largestBatch(const MemoryPlan &plan, double bytes) {
  int64_t fits = 0, over = modelsupport::kMaxBatch + 1;
  while (over - fits > 1) {
    int64_t mid = fits + (over - fits) / 2;
    (plan.training(double(mid)) <= bytes ? fits : over) = mid;
  }
  return fits;
}

/// This machine's physical memory (sysconf: pages x page size), 0 if unknown.
double machineMemory() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? double(pages) * double(page) : 0;
}

/// Prints the largest batch for \p memory bytes (--memory SIZE), or for
/// this machine's RAM when \p memory is 0.
void printLargestBatch(const MemoryPlan &plan, double memory) {
  bool given = memory > 0;
  double bytes = given ? memory : machineMemory();
  if (bytes <= 0)
    return;
  int64_t b = largestBatch(plan, bytes);
  std::printf("largest batch that fits in %s%s: %lld%s\n", formatBytes(bytes).c_str(),
              given ? "" : " (this machine's RAM)", (long long)b,
              b == 0 ? " (not even one sample fits)" : "");
}

} // namespace

Status memoryFlag(const CliArgs &a, double &bytes) {
  auto it = a.flags.find("--memory");
  if (it == a.flags.end())
    return Status::ok();
  const std::string &v = it->second;
  char *end = nullptr;
  double n = std::strtod(v.c_str(), &end);
  static const std::pair<const char *, double> units[] = {
      {"B", 1}, {"KiB", 1024.0}, {"MiB", 1024.0 * 1024}, {"GiB", 1024.0 * 1024 * 1024}};
  for (const auto &[unit, scale] : units)
    if (end != v.c_str() && !std::strcmp(end, unit) && std::isfinite(n * scale) && n > 0 &&
        std::isdigit((unsigned char)v[0])) {
      bytes = n * scale;
      return Status::ok();
    }
  return errorf("option --memory: invalid value '%s' (expected a positive size: a number and "
                "B, KiB, MiB or GiB, e.g. 8GiB)", v.c_str());
}

namespace {

/// Prints the model input's type ("input: i64 [16] (ids in [0, 65))") and a
/// text vocabulary's size.
void printInput(const ModelrtProgram &p) {
  std::vector<int64_t> shape(p.input_shape, p.input_shape + p.input_rank);
  std::printf("input: %s %s", dtypeName(inputType(p)), shapeToString(shape).c_str());
  if (p.input_id_limit > 0)
    std::printf(" (ids in [0, %lld))", (long long)p.input_id_limit);
  std::printf("\n");
  if (p.num_vocab > 0)
    std::printf("vocabulary: %d characters\n", p.num_vocab);
  else if (p.config.data.tokens == MODELRT_TOKENS_BYTES)
    std::printf("vocabulary: 256 bytes\n");
}

/// Prints the totals, the input, class names, FLOPs and the memory of params
/// + grads + state + optimizer state (in f32 values).
void printTotals(const ModelrtProgram &p, int64_t batch, int64_t total, int64_t stateTotal,
                 int64_t optimState) {
  std::printf("\ntotal parameters: %lld\nstate values: %lld\n", (long long)total,
              (long long)stateTotal);
  printInput(p);
  if (p.num_class_names > 0) {
    std::string names;
    for (const std::string &n : classNames(p))
      names += (names.empty() ? "" : ", ") + n;
    std::printf("classes: %d (%s)\n", p.num_class_names, names.c_str());
  }
  const char *precision = p.precision == MODELRT_PRECISION_BF16   ? "bf16"
                          : p.precision == MODELRT_PRECISION_TF32 ? "tf32"
                                                                  : "f32";
  std::string summary = modelsupport::precisionSummary(precision);
  std::printf("precision: %s%s%s%s\n", precision, summary.empty() ? "" : " (",
              summary.c_str(), summary.empty() ? "" : ")");
  if (p.train_flops_per_sample > 0)
    std::printf("FLOPs per training step (batch %lld): %.4g\n", (long long)batch,
                p.train_flops_per_sample * double(batch));
  else
    std::printf("FLOPs per training step: unknown (the program does not say)\n");
  double bytes = 4.0 * double(2 * total + stateTotal + optimState);
  std::printf("memory for params + grads + state + optimizer state: %s (%lld + %lld + %lld + "
              "%lld f32 values)\n", formatBytes(bytes).c_str(), (long long)total,
              (long long)total, (long long)stateTotal, (long long)optimState);
}

/// The decoding step, when the program has one: its positions and caches.
void printDecoding(const ModelrtProgram &p) {
  if (!p.decode_step)
    return;
  double values = 0;
  for (int32_t c = 0; c < p.num_caches; ++c) {
    double n = 1;
    for (int32_t d = 0; d < p.caches[c].rank; ++d)
      n *= double(p.caches[c].shape[d]);
    values += n;
  }
  std::printf("decoding step: one position of %lld at a time, %d key/value caches (%s)\n",
              (long long)p.decode_length, p.num_caches, formatBytes(4.0 * values).c_str());
}

/// The CPU and what runs the products (the bf16 ones too, in a bf16 build)
/// and convolutions (the GPU code's convolutions too, when it has any).
void printKernels(const ModelrtProgram &p) {
  std::printf("\nCPU: %s\n", describeCpu(hostCpuFeatures(), hostKernels()).c_str());
  Status blas = loadBlas(); // info still answers without a BLAS library
  std::printf("matrix products: %s\n",
              blas.isOk() ? blasKernels().c_str() : ("unavailable: " + blas.message()).c_str());
  if (blas.isOk() && p.precision == MODELRT_PRECISION_BF16 && p.num_bf16_products > 0)
    std::printf("%s\n", bf16PlannedKernels().c_str());
  if (!hasConvolutionWeights(p))
    return;
  std::printf("convolutions: %s\n", blas.isOk() ? convolutionKernels().c_str()
                                                : ("unavailable: " + blas.message()).c_str());
  if (p.gpu_train_step && p.gpu_convolutions == MODELRT_GPU_CONV_CUDNN)
    std::printf("GPU convolutions: %s\n", cuda::cudnnAvailability().c_str());
  else if (p.gpu_train_step && p.gpu_convolutions == MODELRT_GPU_CONV_IM2COL)
    std::printf("GPU convolutions: im2col + cuBLAS products (compiled with --gpu-conv=im2col)\n");
}

} // namespace

Status runInfo(const ModelrtProgram &p, const CliArgs &a) {
  MODELRT_TRY(validateProgram(p));
  int64_t batch = p.config.batch_size > 0 ? p.config.batch_size : 1;
  MODELRT_TRY(batchFlag(a, batch));
  double memory = 0;
  MODELRT_TRY(memoryFlag(a, memory));
  int64_t total = 0, stateTotal = 0;
  printTensorTable(p, total, stateTotal);
  OptimizerConfig oc = toOptimizerConfig(p.config.optimizer);
  MODELRT_TRY(validateOptimizerConfig(oc));
  Optimizer opt(oc, initModelState(p, 0).paramSizes());
  int64_t optimState = 0;
  for (size_t i = 0; i < opt.firstMoments().size(); ++i)
    optimState += int64_t(opt.firstMoments()[i].size() + opt.secondMoments()[i].size());
  printTotals(p, batch, total, stateTotal, optimState);
  printDecoding(p);
  printLayerTable(p);
  MemoryPlan plan;
  plan.params = plan.grads = 4.0 * double(total);
  plan.state = 4.0 * double(stateTotal);
  plan.optimizer = 4.0 * double(optimState);
  planActivations(p, plan);
  if (p.precision == MODELRT_PRECISION_BF16 && p.num_bf16_products > 0) {
    plan.bf16Products = p.bf16_products;
    plan.numBf16Products = p.num_bf16_products;
    plan.bf16Path = loadBlas().isOk() ? bf16ProductPath() : Bf16Path::Emulated;
  }
  printPlans(plan, oc.kind, batch);
  printLargestBatch(plan, memory);
  printKernels(p);
  return Status::ok();
}

} // namespace modelrt
