//===- Device.h - Where a compiled model's steps run: CPU or GPU -----------===//
//
// Implements the choice of the device (`--device auto|cpu|cuda`, the
// environment variable MODELRT_DEVICE) and `StepRunner`, which calls a
// program's entry points on that device. On the CPU it calls the program's
// own train_step / eval_step / predict. On the GPU it calls the gpu_*
// entry points (compiled by modelc's GPU pipeline) with device mirrors of
// the parameters, state, gradients and batch: the host copy of the model
// stays the reference (the optimizer, checkpoints and the NaN check use
// it), so every runtime feature works the same on both devices and a
// checkpoint written on one resumes on the other.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CORE_DEVICE_H
#define MODELRT_CORE_DEVICE_H

#include "modelrt/core/Model.h"
#include "modelrt/core/Status.h"
#include "modelrt/data/DataLoader.h"

#include <cstdio>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace modelrt {

class Collective;

/// The devices a program can run on.
enum class Device { Cpu, Cuda };

/// The device's name as the CLI spells it ("cpu", "cuda").
const char *deviceName(Device device);

/// A batch of \p n zero samples with \p program's input and label types
/// (the steps of zeros of warmUp() and of the GPU's memory plan).
Batch zeroBatch(const ModelrtProgram &program, int64_t n);

/// Resolves a --device request ("auto", "cpu" or "cuda"; "" means
/// MODELRT_DEVICE or else "auto"). "auto" picks the GPU when the program
/// has GPU code and a usable GPU is found; \p note then names the GPU, or
/// says why the program runs on the CPU ("" for an explicit "cpu").
/// "cuda" fails with that reason.
Expected<Device> chooseDevice(const ModelrtProgram &program,
                              const std::string &request, std::string &note);

/// A program's entry points bound to one device.
class StepRunner {
public:
  /// Creates the runner; for the GPU this initialises CUDA.
  static Expected<std::unique_ptr<StepRunner>>
  create(const ModelrtProgram &program, Device device);
  virtual ~StepRunner();

  /// One training step: \p grads receives the gradients, \p loss the mean
  /// loss, \p metrics the metric sums (host memory); \p model's state may be
  /// updated (running statistics).
  virtual Status train(ModelState &model, const Batch &batch, uint64_t seed,
                       int64_t step, float *loss, float *const *grads,
                       double *metrics) = 0;
  /// One evaluation step (loss mean and metric sums).
  virtual Status eval(ModelState &model, const Batch &batch, float *loss,
                      double *metrics) = 0;
  /// The outputs of \p count samples of \p inputs ([count, input...] of
  /// the program's input type).
  virtual Status predict(ModelState &model, const void *inputs,
                         int64_t count, float *outputs) = 0;

  /// Takes over \p optimizer's updates, with \p model's parameters and
  /// state kept on the device between steps (the GPU runner: the fused
  /// optimizer kernels, no copies of parameters or gradients per step).
  /// Returns false when the runner updates nothing itself (the CPU runner):
  /// the caller then calls Optimizer::step on the host copies.
  virtual Expected<bool> adoptOptimizer(ModelState &model, Optimizer &optimizer);
  /// One update of the adopted optimizer with learning rate \p lr (its
  /// step count advances as on the host).
  virtual Status update(Optimizer &optimizer, double lr);
  /// Sets aside the device memory of training steps of \p batch samples
  /// before the first step (GPU: runs steps of zeros of 16 and 256 samples to
  /// measure the memory per sample, fails when \p batch cannot fit, naming
  /// the bytes needed and free and the largest batch that fits, else runs
  /// one step of \p batch so that the pool holds every buffer; CPU: one
  /// step of \p batch zeros, so that oneDNN has compiled the step's product
  /// kernels before the first timed step). \p model is unchanged.
  virtual Status planMemory(ModelState &model, int64_t batch);
  /// What warmUp() prepares: evaluation or prediction steps.
  enum class StepKind { Eval, Predict };
  /// Runs one untimed \p kind step of \p batch zero samples, once per kind
  /// and batch size, before the first real one: the buffer pool then holds
  /// its buffers, and the product libraries have compiled or loaded the
  /// kernels of its shapes (oneDNN's JIT on the CPU, cuBLAS on the GPU), a
  /// one-time cost of milliseconds per shape that would otherwise fall on
  /// the first batch. \p model is unchanged.
  Status warmUp(ModelState &model, StepKind kind, int64_t batch);
  /// After adoptOptimizer: copies the parameters, the state and the
  /// optimizer's moments back into \p model and \p optimizer (before a
  /// checkpoint, and at the end of training).
  virtual Status syncToHost(ModelState &model, Optimizer &optimizer);
  /// Copies \p batch towards the device ahead of the train() call that will
  /// get this same Batch object (GPU: into pinned memory, then an upload
  /// ordered after the step in flight), so that this host work overlaps the
  /// step. Nothing to do on the CPU.
  virtual Status stage(const Batch &batch);
  /// A hook train() calls once the step's work is enqueued and before it
  /// waits for it (GPU): the trainer fetches and stage()s the next batch
  /// there. Null (the default): nothing. The CPU runner never calls it.
  void setWhileRunning(std::function<void()> hook) { whileRunning = std::move(hook); }
  /// True when the last train() found every gradient finite on the device
  /// and so left the host's gradient buffers as they were (the GPU's
  /// resident mode): the caller has nothing to check there.
  bool gradientsCheckedFinite() const { return gradsFinite; }
  /// Host memory for a training step's gradients (the train() argument),
  /// \p sizes floats each, zeroed and owned by the runner: ordinary memory
  /// on the CPU, page-locked on the GPU (cuMemAllocHost), so that the
  /// gradients' downloads are direct copies.
  virtual Expected<std::vector<float *>> gradientBuffers(const std::vector<int64_t> &sizes);
  /// Data parallelism over \p ranks (collective: every rank calls it). True
  /// when the runner sums the gradients over the ranks on the device from
  /// now on (the GPU with NCCL, runtime/lib/cuda/Nccl.h): train() then
  /// leaves them there, sumGradients() sums them and adoptOptimizer() may
  /// keep the model there; \p how names the library. False when they are
  /// summed on the host (DataParallel), \p how then saying why ("" on the
  /// CPU).
  virtual Expected<bool> sumOnDevice(Collective &ranks, std::string &how);
  /// After sumOnDevice() and train(): replaces the device gradients by the
  /// sum over the ranks of \p weight times them (0: this rank had no
  /// sample, its contribution is zero), and waits for it.
  virtual Status sumGradients(float weight);
  /// After sumOnDevice(): replaces the model's state on the device (batch
  /// norm's running statistics) by its mean over the ranks.
  virtual Status averageState();
  /// One line on how the steps ran, for the user after training ("" when
  /// there is nothing to say; the GPU: its CUDA graphs).
  virtual std::string summary() const { return ""; }
  Device device() const { return dev; }

protected:
  StepRunner(const ModelrtProgram &program, Device device)
      : prog(program), dev(device) {}
  const ModelrtProgram &prog;
  std::set<std::pair<StepKind, int64_t>> warmed; ///< warmUp()'s kinds and sizes done
  Device dev;
  std::function<void()> whileRunning;
  bool gradsFinite = false; ///< see gradientsCheckedFinite()
  std::vector<std::vector<float>> hostGradients; ///< gradientBuffers() on the CPU
};

/// Creates the GPU runner (DeviceSteps.cpp; needs a usable GPU).
Expected<std::unique_ptr<StepRunner>>
createGpuStepRunner(const ModelrtProgram &program);

} // namespace modelrt

#endif // MODELRT_CORE_DEVICE_H
