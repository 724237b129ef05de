//===- CheckDevice.cpp - The check-device command: GPU against CPU ----------===//
//
// Implements `./net check-device`: the same model (initialised with the
// compiled seed), the same first training batches and the same step seeds go
// through the CPU and the GPU entry points, and every output is compared:
// the loss, the metric sums, each parameter's gradient, each state tensor,
// the eval loss and the predict outputs of one step; then the parameters
// after N optimizer steps, with each device's own gradients (which checks
// the whole training loop, dropout masks included), and once more with the
// optimizer on the GPU (the fused kernels). A tensor passes when its
// largest difference is within the tolerance times its largest magnitude
// (float32 results of different summation orders). Prints one line per
// tensor; fails when any tensor is off or the GPU is not usable.
//
//===----------------------------------------------------------------------===//
#include "cli/CliInternal.h"

#include "modelrt/core/Rng.h"
#include "modelrt/cuda/Cuda.h"
#include "modelrt/train/Trainer.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace modelrt {
namespace {

/// Compares one tensor; prints its line; returns true when within \p tol.
bool compare(const std::string &name, const float *cpu, const float *gpu, size_t n,
             double tol) {
  double scale = 0, diff = 0;
  bool finite = true;
  for (size_t i = 0; i < n; ++i) {
    finite = finite && std::isfinite(cpu[i]) && std::isfinite(gpu[i]);
    scale = std::max(scale, double(std::fabs(cpu[i])));
    diff = std::max(diff, double(std::fabs(cpu[i] - gpu[i])));
  }
  bool ok = finite && diff <= tol * std::max(scale, 1e-6);
  std::printf("  %-40s %10zu values  max |cpu| %10.4g  max |gpu-cpu| %10.4g  %s\n", name.c_str(),
              n, scale, diff, ok ? "ok" : finite ? "MISMATCH" : "NOT FINITE");
  return ok;
}

/// The outputs of one training step on one device.
struct StepOutputs {
  float loss = 0;
  std::vector<double> metrics;
  std::vector<std::vector<float>> grads;
  ModelState model;
};

Expected<StepOutputs> runTrainStep(const ModelrtProgram &p, StepRunner &runner,
                                   const ModelState &init, const Batch &b, uint64_t seed) {
  StepOutputs o;
  o.model = init;
  o.model.bind();
  o.metrics.assign(p.num_metrics, 0.0);
  std::vector<float *> gp;
  for (const std::vector<float> &w : o.model.params)
    o.grads.emplace_back(w.size(), 0.0f);
  for (std::vector<float> &g : o.grads)
    gp.push_back(g.data());
  MODELRT_TRY(runner.train(o.model, b, seed, 0, &o.loss, gp.data(), o.metrics.data()));
  return o;
}

/// Compares one training step's outputs; true when all match.
bool compareStep(const ModelrtProgram &p, const StepOutputs &c, const StepOutputs &g,
                 double tol) {
  bool ok = compare("train loss", &c.loss, &g.loss, 1, tol);
  for (int32_t i = 0; i < p.num_metrics; ++i) {
    float a = float(c.metrics[i]), b = float(g.metrics[i]);
    ok = compare(std::string("train ") + p.metric_names[i] + " (sum)", &a, &b, 1, tol) && ok;
  }
  for (int32_t i = 0; i < p.num_params; ++i)
    ok = compare(std::string("grad ") + p.params[i].name, c.grads[i].data(), g.grads[i].data(),
                 c.grads[i].size(), tol) && ok;
  for (int32_t i = 0; i < p.num_state; ++i)
    ok = compare(std::string("state ") + p.state[i].name, c.model.state[i].data(),
                 g.model.state[i].data(), c.model.state[i].size(), tol) && ok;
  return ok;
}

/// Eval loss and predict outputs of \p b on both devices.
Expected<bool> compareEval(const ModelrtProgram &p, StepRunner &cpu, StepRunner &gpu,
                           ModelState &m, const Batch &b, double tol) {
  float lc = 0, lg = 0;
  std::vector<double> mc(p.num_metrics), mg(p.num_metrics);
  MODELRT_TRY(cpu.eval(m, b, &lc, mc.data()));
  MODELRT_TRY(gpu.eval(m, b, &lg, mg.data()));
  bool ok = compare("eval loss", &lc, &lg, 1, tol);
  int64_t per = 1;
  for (int32_t i = 0; i < p.output_rank; ++i)
    per *= p.output_shape[i];
  std::vector<float> oc(b.size * per), og(b.size * per);
  MODELRT_TRY(cpu.predict(m, b.inputs.data(), b.size, oc.data()));
  MODELRT_TRY(gpu.predict(m, b.inputs.data(), b.size, og.data()));
  return compare("predict outputs", oc.data(), og.data(), oc.size(), tol) && ok;
}

/// Trains \p steps steps on one device from \p init; returns the model.
Expected<ModelState> trainSteps(const ModelrtProgram &p, StepRunner &runner,
                                const ModelState &init, DataLoader &loader, int64_t steps) {
  ModelState m = init;
  m.bind();
  Optimizer opt(toOptimizerConfig(p.config.optimizer), m.paramSizes());
  StepOutputs o;
  Batch b;
  for (int64_t s = 0; s < steps && loader.next(b); ++s) {
    auto out = runTrainStep(p, runner, m, b, mixSeed(p.config.seed, 0x57e9, uint64_t(s)));
    if (!out)
      return out.status();
    m = std::move(out->model);
    m.bind();
    std::vector<const float *> g;
    for (const std::vector<float> &v : out->grads)
      g.push_back(v.data());
    opt.step(m.paramPtrs.data(), g.data(), p.config.optimizer.lr);
  }
  return m;
}

/// Trains \p steps steps on the GPU with the optimizer on the device too
/// (adoptOptimizer: the fused optimizer kernels); returns the synced model.
Expected<ModelState> trainResident(const ModelrtProgram &p, const ModelState &init,
                                   DataLoader &loader, int64_t steps) {
  auto gpu = StepRunner::create(p, Device::Cuda);
  if (!gpu)
    return gpu.status();
  ModelState m = init;
  m.bind();
  Optimizer opt(toOptimizerConfig(p.config.optimizer), m.paramSizes());
  auto adopted = (*gpu)->adoptOptimizer(m, opt);
  if (!adopted)
    return adopted.status();
  std::vector<std::vector<float>> grads;
  std::vector<float *> gp;
  for (int64_t n : m.paramSizes())
    grads.emplace_back(n, 0.0f);
  for (std::vector<float> &g : grads)
    gp.push_back(g.data());
  std::vector<double> metrics(p.num_metrics);
  Batch b;
  for (int64_t s = 0; s < steps && loader.next(b); ++s) {
    float loss = 0;
    MODELRT_TRY((*gpu)->train(m, b, mixSeed(p.config.seed, 0x57e9, uint64_t(s)), 0, &loss,
                              gp.data(), metrics.data()));
    MODELRT_TRY((*gpu)->update(opt, p.config.optimizer.lr));
  }
  MODELRT_TRY((*gpu)->syncToHost(m, opt));
  if (std::string how = (*gpu)->summary(); !how.empty())
    std::printf("  (%s)\n", how.c_str()); // whether these steps were CUDA graphs
  return m;
}

} // namespace

Status runCheckDevice(const ModelrtProgram &p, const CliArgs &a) {
  ModelrtTrainConfig cfg = p.config;
  std::vector<std::string> dataPaths;
  MODELRT_TRY(applyDataDir(cfg.data, a, dataPaths));
  int64_t steps = 20;
  double tol = 1e-3;
  MODELRT_TRY(batchFlag(a, cfg.batch_size));
  MODELRT_TRY(integerFlag(a, "--steps", steps, true));
  MODELRT_TRY(numberFlag(a, "--tolerance", tol, true));
  MODELRT_TRY(validateProgram(p));
  if (!p.gpu_train_step)
    return errorf("check-device: this executable has no GPU code (compiled with --no-gpu)");
  if (!cuda::cudaUsable())
    return errorf("check-device: %s", cuda::probeCuda().reason.c_str());
  std::printf("%s\n", cuda::describe().c_str());
  auto data = loadTrainingData(p, cfg);
  if (!data)
    return data.status();
  auto cpu = StepRunner::create(p, Device::Cpu);
  auto gpu = cpu ? StepRunner::create(p, Device::Cuda) : std::move(cpu);
  if (!gpu)
    return gpu.status();
  LoaderConfig lc;
  lc.batchSize = cfg.batch_size, lc.shuffle = false, lc.prefetch = 0;
  lc.oneHotClasses = cfg.data.one_hot ? p.num_classes : 0;
  DataLoader first(data->train, lc);
  MODELRT_TRY(first.validate());
  Batch b;
  if (!first.next(b))
    return errorf("check-device: the training set is empty");
  ModelState init = initModelState(p, cfg.seed);
  uint64_t seed = mixSeed(cfg.seed, 0x57e9, 0);
  std::printf("one training step (batch %lld):\n", (long long)b.size);
  auto c = runTrainStep(p, **cpu, init, b, seed);
  auto g = c ? runTrainStep(p, **gpu, init, b, seed) : std::move(c);
  if (!g)
    return g.status();
  bool ok = compareStep(p, *c, *g, tol);
  std::printf("evaluation and prediction:\n");
  auto e = compareEval(p, **cpu, **gpu, init, b, tol);
  if (!e)
    return e.status();
  ok = *e && ok;
  std::printf("parameters after %lld optimizer steps:\n", (long long)steps);
  DataLoader lcpu(data->train, lc), lgpu(data->train, lc);
  auto mc = trainSteps(p, **cpu, init, lcpu, steps);
  auto mg = mc ? trainSteps(p, **gpu, init, lgpu, steps) : std::move(mc);
  if (!mg)
    return mg.status();
  for (int32_t i = 0; i < p.num_params; ++i)
    ok = compare(p.params[i].name, mc->params[i].data(), mg->params[i].data(),
                 mc->params[i].size(), tol * 10) && ok;
  std::printf("the same steps with the optimizer on the GPU (fused kernels):\n");
  DataLoader lres(data->train, lc);
  auto mr = trainResident(p, init, lres, steps);
  if (!mr)
    return mr.status();
  for (int32_t i = 0; i < p.num_params; ++i)
    ok = compare(p.params[i].name, mc->params[i].data(), mr->params[i].data(),
                 mc->params[i].size(), tol * 10) && ok;
  if (!ok)
    return errorf("check-device: the GPU results differ from the CPU results (tolerance %g)",
                  tol);
  std::printf("check-device: every GPU result matches the CPU within %g\n", tol);
  return Status::ok();
}

} // namespace modelrt
