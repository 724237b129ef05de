//===- Device.cpp - Choosing the device; the CPU step runner ---------------===//
//
// Implements chooseDevice (the --device rules of Device.h) and the CPU
// StepRunner, which calls the program's own entry points.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Device.h"

#include "modelrt/core/FrozenParameters.h"
#include "modelrt/core/Profile.h"
#include "modelrt/cuda/Cuda.h"

#include <algorithm>
#include <cstdlib>

namespace modelrt {

const char *deviceName(Device device) {
  return device == Device::Cuda ? "cuda" : "cpu";
}

Expected<Device> chooseDevice(const ModelrtProgram &p, const std::string &request,
                              std::string &note) {
  note.clear();
  std::string want = request;
  const char *asked = "--device "; // where the request came from, for messages
  if (want.empty()) {
    const char *env = std::getenv("MODELRT_DEVICE");
    want = env && *env ? env : "auto";
    asked = "MODELRT_DEVICE=";
  }
  if (want == "cpu")
    return Device::Cpu;
  if (want != "auto" && want != "cuda")
    return errorf("%s'%s': expected auto, cpu or cuda", asked, want.c_str());
  bool hasGpuCode = p.gpu_train_step && p.gpu_eval_step && p.gpu_predict;
  if (!hasGpuCode) {
    if (want == "cuda")
      return errorf("%scuda: this executable has no GPU code (it was compiled with --no-gpu)",
                    asked);
    note = "running on the CPU (compiled with --no-gpu: no GPU code)";
    return Device::Cpu;
  }
  note = cuda::describe();
  if (cuda::cudaUsable()) {
    MODELRT_TRY(cuda::initCuda());
    return Device::Cuda;
  }
  if (want == "cuda")
    return errorf("%scuda: %s", asked, cuda::probeCuda().reason.c_str());
  return Device::Cpu;
}

StepRunner::~StepRunner() = default;

Expected<bool> StepRunner::adoptOptimizer(ModelState &, Optimizer &) { return false; }

Status StepRunner::update(Optimizer &, double) {
  return errorf("internal error: update() on a runner that adopted no optimizer");
}

Status StepRunner::syncToHost(ModelState &, Optimizer &) { return Status::ok(); }

Expected<std::vector<float *>> StepRunner::gradientBuffers(const std::vector<int64_t> &sizes) {
  hostGradients.clear();
  std::vector<float *> ptrs;
  for (int64_t n : sizes)
    hostGradients.emplace_back(size_t(n), 0.0f);
  for (std::vector<float> &g : hostGradients)
    ptrs.push_back(g.data());
  return ptrs;
}

Expected<bool> StepRunner::sumOnDevice(Collective &, std::string &how) {
  how.clear();
  return false;
}

Status StepRunner::sumGradients(float) {
  return errorf("internal error: sumGradients() on a runner that sums on the host");
}

Status StepRunner::averageState() {
  return errorf("internal error: averageState() on a runner that sums on the host");
}

Status StepRunner::planMemory(ModelState &, int64_t) { return Status::ok(); }

Batch zeroBatch(const ModelrtProgram &p, int64_t n) {
  Batch b;
  std::vector<int64_t> in = {n}, lab = {n};
  in.insert(in.end(), p.input_shape, p.input_shape + p.input_rank);
  bool classes = p.label_dtype == MODELRT_I64;
  lab.insert(lab.end(), p.label_shape, p.label_shape + p.label_rank);
  b.inputs = Tensor(inputType(p), in);
  b.labels = Tensor(classes ? DType::I64 : DType::F32, lab);
  b.size = n;
  return b;
}

Status StepRunner::warmUp(ModelState &m, StepKind kind, int64_t batch) {
  if (batch <= 0 || !warmed.insert({kind, batch}).second)
    return Status::ok();
  ProfilingPaused paused; // set-up, not evaluation
  Batch b = zeroBatch(prog, batch);
  if (kind == StepKind::Eval) {
    float loss = 0;
    std::vector<double> metrics(size_t(std::max<int32_t>(prog.num_metrics, 0)));
    return eval(m, b, &loss, metrics.data());
  }
  int64_t out = 1;
  for (int32_t i = 0; i < prog.output_rank; ++i)
    out *= prog.output_shape[i];
  std::vector<float> outputs(size_t(batch * out));
  return predict(m, b.inputs.data(), batch, outputs.data());
}

Status StepRunner::stage(const Batch &) { return Status::ok(); }

namespace {

/// Calls the program's CPU entry points.
class CpuStepRunner final : public StepRunner {
public:
  explicit CpuStepRunner(const ModelrtProgram &p) : StepRunner(p, Device::Cpu) {}

  Status train(ModelState &m, const Batch &b, uint64_t seed, int64_t step, float *loss,
               float *const *grads, double *metrics) override {
    FrozenParameters frozen(m.params); // the step reads them; the optimizer runs after it
    if (prog.train_step(prog.context, m.paramPtrs.data(), m.statePtrs.data(),
                        static_cast<const float *>(b.inputs.data()), b.labels.data(), b.size,
                        seed, step, loss, grads,
                        metrics) != 0)
      return errorf("train_step failed");
    // A CPU program built to call the GPU's libraries (the GPU emulation's
    // cuBLAS and cuDNN products) records their errors as CUDA's sticky one.
    return cuda::stickyStatus();
  }
  /// One training step of \p batch zeros before the first timed step:
  /// oneDNN compiles the kernels of the step's product shapes and the pool
  /// fills with the step's buffers. The step reads the parameters and
  /// writes only the state (restored after it) and scratch gradients, so
  /// \p m is unchanged.
  Status planMemory(ModelState &m, int64_t batch) override {
    if (batch <= 0)
      return Status::ok();
    ProfilingPaused paused; // set-up, not training
    Batch b = zeroBatch(prog, batch);
    std::vector<std::vector<float>> state = m.state, grads;
    std::vector<float *> gradPtrs;
    for (const std::vector<float> &p : m.params)
      grads.emplace_back(p.size());
    for (std::vector<float> &g : grads)
      gradPtrs.push_back(g.data());
    std::vector<double> metrics(size_t(std::max<int32_t>(prog.num_metrics, 0)));
    float loss = 0;
    Status st = train(m, b, 0, 0, &loss, gradPtrs.data(), metrics.data());
    for (size_t i = 0; i < state.size(); ++i) // batch statistics and the like
      std::copy(state[i].begin(), state[i].end(), m.state[i].begin());
    return st;
  }
  /// Evaluation and prediction are per sample (no batch statistics in
  /// eval mode), so a large batch runs in chunks whose activations stay in
  /// the caches (chunkSize); a model with small activations gets large
  /// chunks (the MLP's batch of 1000 runs in one piece, its many-row
  /// products on every core). The loss is the chunks' means weighted by
  /// their sizes.
  Status eval(ModelState &m, const Batch &b, float *loss, double *metrics) override {
    int64_t n = b.size, chunk = evenChunk(n);
    size_t inBytes = n ? b.inputs.numBytes() / size_t(n) : 0;
    size_t labBytes = n ? b.labels.numBytes() / size_t(n) : 0;
    double lossSum = 0;
    for (int64_t at = 0; at < n || (n == 0 && at == 0); at += chunk) {
      int64_t size = std::min(chunk, n - at);
      float part = 0;
      const char *in = static_cast<const char *>(b.inputs.data()) + size_t(at) * inBytes;
      const char *lab = static_cast<const char *>(b.labels.data()) + size_t(at) * labBytes;
      if (prog.eval_step(prog.context, m.paramPtrs.data(), m.statePtrs.data(),
                         reinterpret_cast<const float *>(in), lab, size, &part, metrics) != 0)
        return errorf("eval_step failed");
      MODELRT_TRY(cuda::stickyStatus()); // as in train
      lossSum += double(part) * double(size);
      if (n == 0)
        break;
    }
    *loss = n ? float(lossSum / double(n)) : 0.0f;
    return Status::ok();
  }
  Status predict(ModelState &m, const void *inputs, int64_t count, float *outputs) override {
    int64_t chunk = evenChunk(count);
    size_t inBytes = size_t(elements(prog.input_rank, prog.input_shape)) *
                     dtypeSize(inputType(prog));
    int64_t out = elements(prog.output_rank, prog.output_shape);
    for (int64_t at = 0; at < count; at += chunk)
      if (prog.predict(prog.context, m.paramPtrs.data(), m.statePtrs.data(),
                       reinterpret_cast<const float *>(static_cast<const char *>(inputs) +
                                                       size_t(at) * inBytes),
                       std::min(chunk, count - at), outputs + at * out) != 0)
        return errorf("predict failed");
    return Status::ok();
  }

private:
  /// The samples per eval_step/predict call: about 1 GFLOP of training work
  /// (train_flops_per_sample: a proxy for the activations' size; the CNN's
  /// 25 MFLOP per sample give 40, the MLP's 1 MFLOP give 1000), and never
  /// fewer than the training batch size or 64.
  int64_t chunkSize() const {
    int64_t least = std::max<int64_t>(64, prog.config.batch_size);
    double flops = prog.train_flops_per_sample;
    if (!(flops > 0))
      return least;
    return std::max<int64_t>(least, int64_t(1e9 / flops));
  }
  /// chunkSize() adjusted so that \p n splits into round(n / chunkSize())
  /// equal parts (1000 samples with a chunk of 993 stay one call).
  int64_t evenChunk(int64_t n) const {
    int64_t c = chunkSize();
    int64_t parts = std::max<int64_t>(1, (n + c / 2) / c);
    return std::max<int64_t>(1, (n + parts - 1) / parts);
  }
  static int64_t elements(int32_t rank, const int64_t *shape) {
    int64_t n = 1;
    for (int32_t i = 0; i < rank; ++i)
      n *= shape[i];
    return n;
  }
};

} // namespace

Expected<std::unique_ptr<StepRunner>> StepRunner::create(const ModelrtProgram &p, Device d) {
  if (d == Device::Cuda)
    return createGpuStepRunner(p);
  return std::unique_ptr<StepRunner>(new CpuStepRunner(p));
}

} // namespace modelrt
