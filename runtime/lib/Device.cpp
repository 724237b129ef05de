//===- Device.cpp - Choosing the device; the CPU step runner ---------------===//
//
// Implements chooseDevice (the --device rules of Device.h) and the CPU
// StepRunner, which calls the program's own entry points.
//
//===----------------------------------------------------------------------===//
#include "modelrt/Device.h"

#include "modelrt/Cuda.h"

#include <cstdlib>

namespace modelrt {

const char *deviceName(Device device) {
  return device == Device::Cuda ? "cuda" : "cpu";
}

Expected<Device> chooseDevice(const ModelrtProgram &p, const std::string &request,
                              std::string &note) {
  note.clear();
  std::string want = request;
  if (want.empty()) {
    const char *env = std::getenv("MODELRT_DEVICE");
    want = env && *env ? env : "auto";
  }
  if (want == "cpu")
    return Device::Cpu;
  if (want != "auto" && want != "cuda")
    return errorf("--device '%s': expected auto, cpu or cuda", want.c_str());
  bool hasGpuCode = p.gpu_train_step && p.gpu_eval_step && p.gpu_predict;
  if (!hasGpuCode) {
    if (want == "cuda")
      return errorf("--device cuda: this executable has no GPU code (it was compiled with "
                    "--no-gpu)");
    note = "running on the CPU (compiled with --no-gpu: no GPU code)";
    return Device::Cpu;
  }
  note = cuda::describe();
  if (cuda::cudaUsable()) {
    MODELRT_TRY(cuda::initCuda());
    return Device::Cuda;
  }
  if (want == "cuda")
    return errorf("--device cuda: %s", cuda::probeCuda().reason.c_str());
  return Device::Cpu;
}

StepRunner::~StepRunner() = default;

Expected<bool> StepRunner::adoptOptimizer(ModelState &, Optimizer &) { return false; }

Status StepRunner::update(Optimizer &, double) {
  return errorf("internal error: update() on a runner that adopted no optimizer");
}

Status StepRunner::syncToHost(ModelState &, Optimizer &) { return Status::ok(); }

Status StepRunner::planMemory(ModelState &, int64_t) { return Status::ok(); }

namespace {

/// Calls the program's CPU entry points.
class CpuStepRunner final : public StepRunner {
public:
  explicit CpuStepRunner(const ModelrtProgram &p) : StepRunner(p, Device::Cpu) {}

  Status train(ModelState &m, const Batch &b, uint64_t seed, int64_t step, float *loss,
               float *const *grads, double *metrics) override {
    if (prog.train_step(prog.context, m.paramPtrs.data(), m.statePtrs.data(),
                        b.inputs.as<float>(), b.labels.data(), b.size, seed, step, loss, grads,
                        metrics) != 0)
      return errorf("train_step failed");
    return Status::ok();
  }
  Status eval(ModelState &m, const Batch &b, float *loss, double *metrics) override {
    if (prog.eval_step(prog.context, m.paramPtrs.data(), m.statePtrs.data(),
                       b.inputs.as<float>(), b.labels.data(), b.size, loss, metrics) != 0)
      return errorf("eval_step failed");
    return Status::ok();
  }
  Status predict(ModelState &m, const float *inputs, int64_t count, float *outputs) override {
    if (prog.predict(prog.context, m.paramPtrs.data(), m.statePtrs.data(), inputs, count,
                     outputs) != 0)
      return errorf("predict failed");
    return Status::ok();
  }
};

} // namespace

Expected<std::unique_ptr<StepRunner>> StepRunner::create(const ModelrtProgram &p, Device d) {
  if (d == Device::Cuda)
    return createGpuStepRunner(p);
  return std::unique_ptr<StepRunner>(new CpuStepRunner(p));
}

} // namespace modelrt
