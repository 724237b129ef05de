//===- GpuSteps.cpp - The GPU step runner: device mirrors of the model ------===//
//
// Implements createGpuStepRunner. Two modes:
//  * mirrored (eval, predict, and training with gradient accumulation or
//    clipping): each step uploads what the host changed (parameters after
//    the host optimizer's update, state, the batch), calls the program's
//    gpu_* entry point with device pointers, and downloads the gradients and
//    the updated state;
//  * resident (training after adoptOptimizer): parameters, state, gradients
//    and moments stay on the device; a step uploads the batch, runs the
//    program and downloads the loss and the gradients' global norm (4
//    bytes; all gradients only when it is not finite, so that the trainer
//    names the bad element); the update is DeviceOptimizer's fused launch;
//    syncToHost brings everything back for checkpoints.
// A training step's batch goes through pinned memory and is uploaded
// without a wait (stage(), called ahead by the trainer while the previous
// step runs, or by train() itself). The step is the program's
// gpu_train_enqueue (plus the gradients' norm, into a scratch cell), then
// gpu_train_finish, whose one fetch brings the loss, the metric counts and
// the norm back with one wait. The enqueued part is replayed as a CUDA
// graph (StepGraphs.h) after its first run, unless MODELRT_CUDA_GRAPHS=0.
// The buffers are allocated once, at the first step (the batch buffers grow
// to the largest batch), from the runtime's device pool. A CUDA error
// anywhere becomes an error naming the step and the CUDA message.
// Data parallelism (several ranks): with NCCL (sumOnDevice, Nccl.h) the
// resident mode's gradients and running statistics are summed over the
// ranks on the device; without it the trainer's host gradients, which the
// mirrored mode downloads into, are page-locked (gradientBuffers).
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Device.h"

#include "Nccl.h"
#include "StepGraphs.h"
#include "modelrt/core/Profile.h"
#include "modelrt/cuda/Cuda.h"
#include "modelrt/cuda/DeviceOptimizer.h"
#include "modelrt/cuda/GpuAbi.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <utility>

namespace modelrt {
namespace {

/// Device copies of a list of host tensors, with their pointer table.
struct Mirror {
  std::vector<cuda::DeviceBuffer> buffers;
  std::vector<float *> ptrs;
  std::vector<int64_t> sizes; ///< floats in each

  /// Allocates one buffer per host vector (once).
  Status allocate(const std::vector<std::vector<float>> &host) {
    if (!buffers.empty() || host.empty())
      return Status::ok();
    for (const std::vector<float> &t : host) {
      auto b = cuda::DeviceBuffer::allocate(std::max<uint64_t>(t.size(), 1) * sizeof(float));
      if (!b)
        return b.status();
      ptrs.push_back(b->floats());
      sizes.push_back(int64_t(t.size()));
      buffers.push_back(b.take());
    }
    return Status::ok();
  }
  Status upload(const std::vector<std::vector<float>> &host) {
    for (size_t i = 0; i < host.size(); ++i)
      MODELRT_TRY(cuda::uploadFloats(buffers[i], host[i].data(), host[i].size()));
    return Status::ok();
  }
  Status download(std::vector<std::vector<float>> &host) {
    for (size_t i = 0; i < host.size(); ++i)
      MODELRT_TRY(cuda::downloadFloats(host[i].data(), buffers[i], host[i].size()));
    return Status::ok();
  }
};

/// A device buffer that grows to the largest request.
struct Staging {
  cuda::DeviceBuffer buffer;
  Expected<void *> fit(uint64_t bytes) {
    if (buffer.size() < bytes) {
      auto b = cuda::DeviceBuffer::allocate(bytes);
      if (!b)
        return b.status();
      buffer = b.take();
    }
    return buffer.data();
  }
  /// Uploads \p bytes of \p host; returns the device pointer.
  Expected<void *> put(const void *host, uint64_t bytes) {
    auto dev = fit(std::max<uint64_t>(bytes, 1));
    if (!dev)
      return dev;
    MODELRT_TRY(cuda::upload(*dev, host, bytes));
    return *dev;
  }
};


/// The CUDA error after an entry point returned \p rc.
Status cudaFailure(const char *what, int rc) {
  Status sticky = cuda::stickyStatus();
  if (!sticky.isOk())
    return errorf("%s on the GPU: %s", what, sticky.message().c_str());
  return errorf("%s on the GPU failed (code %d)", what, rc);
}

class GpuStepRunner final : public StepRunner {
public:
  explicit GpuStepRunner(const ModelrtProgram &p) : StepRunner(p, Device::Cuda) {}

  Status train(ModelState &m, const Batch &b, uint64_t seed, int64_t step, float *loss,
               float *const *grads, double *metrics) override {
    gradsFinite = false;
    if (!resident)
      MODELRT_TRY(bindModel(m));
    MODELRT_TRY(gradMirror.allocate(m.params));
    if (!staged.holds(b))
      MODELRT_TRY(stage(b));
    TrainArgs a{static_cast<const float *>(staged.inputs), staged.labels, b.size, seed, step,
                loss, grads, metrics};
    staged = {}; // consumed
    bool withNorm = resident && optimizer;
    if (!prog.gpu_train_enqueue || !prog.gpu_train_finish) { // compiled before the halves
      MODELRT_TRY(call(prog.gpu_train_step, a));
    } else {
      MODELRT_TRY(enqueueStep(a, withNorm));
      if (whileRunning)
        whileRunning(); // the trainer stages the next batch meanwhile
      MODELRT_TRY(call(prog.gpu_train_finish, a)); // one copy, one wait
    }
    MODELRT_TRY(cuda::collectProfile());
    if (withNorm) {
      float norm = 0;
      if (prog.gpu_train_finish) {
        auto *cells = static_cast<const char *>(cuda::fetchedScratch());
        std::memcpy(&norm, cells + 64 * cuda::kRuntimeScratchCell, sizeof norm);
      } else {
        auto n = optimizer->gradNorm();
        if (!n)
          return n.status();
        norm = *n;
      }
      if ((gradsFinite = std::isfinite(norm)))
        return Status::ok();
    }
    for (size_t i = 0; i < m.params.size(); ++i)
      MODELRT_TRY(cuda::downloadFloats(grads[i], gradMirror.buffers[i], m.params[i].size()));
    return state.download(m.state);
  }

  std::string summary() const override { return graphs.summary(); }

  Expected<std::vector<float *>> gradientBuffers(const std::vector<int64_t> &sizes) override {
    auto padded = [](int64_t n) { return uint64_t(n + 15) / 16 * 16; }; // 64-byte aligned
    uint64_t total = 1;
    for (int64_t n : sizes)
      total += padded(n);
    auto p = cuda::PinnedBuffer::allocate(total * sizeof(float));
    if (!p)
      return p.status();
    pinnedGrads = p.take();
    std::memset(pinnedGrads.data(), 0, total * sizeof(float));
    std::vector<float *> ptrs;
    float *at = static_cast<float *>(pinnedGrads.data());
    for (int64_t n : sizes)
      ptrs.push_back(at), at += padded(n);
    return ptrs;
  }

  Expected<bool> sumOnDevice(Collective &ranks, std::string &how) override {
    auto sums = cuda::NcclSums::join(ranks, how);
    if (!sums)
      return sums.status();
    if (!*sums)
      return false;
    nccl = sums.take();
    worldSize = ranks.size();
    how = nccl->describe();
    return true;
  }

  Status sumGradients(float weight) override {
    if (weight == 0) // no sample here: the buffers hold an earlier step's gradients
      for (size_t i = 0; i < gradMirror.ptrs.size(); ++i)
        mgpuMemset32(gradMirror.ptrs[i], 0, size_t(gradMirror.sizes[i]), nullptr);
    return nccl->sum(gradMirror.ptrs, gradMirror.sizes, weight, "the sum of the gradients");
  }

  Status averageState() override {
    return nccl->sum(state.ptrs, state.sizes, 1.0f / float(worldSize),
                     "the mean of the model's state");
  }

  Status stage(const Batch &b) override {
    uint64_t inBytes = b.inputs.numBytes(), labBytes = b.labels.numBytes();
    uint64_t labOffset = (inBytes + 255) / 256 * 256;
    if (!fence) {
      auto f = cuda::UploadFence::create();
      if (!f)
        return f.status();
      fence = std::make_unique<cuda::UploadFence>(f.take());
    } else {
      MODELRT_TRY(fence->wait()); // the last copies out of `pinned` are done
    }
    if (pinned.size() < labOffset + labBytes) {
      auto p = cuda::PinnedBuffer::allocate(labOffset + labBytes);
      if (!p)
        return p.status();
      pinned = p.take();
    }
    auto *host = static_cast<char *>(pinned.data());
    std::memcpy(host, b.inputs.data(), inBytes);
    std::memcpy(host + labOffset, b.labels.data(), labBytes);
    auto in = inputs.fit(std::max<uint64_t>(inBytes, 1));
    auto lab = in ? labels.fit(std::max<uint64_t>(labBytes, 1)) : in;
    if (!lab)
      return lab.status();
    MODELRT_TRY(cuda::uploadPinned(*in, host, inBytes, *fence));
    MODELRT_TRY(cuda::uploadPinned(*lab, host + labOffset, labBytes, *fence));
    staged = {b.inputs.data(), b.labels.data(), b.size, *in, *lab};
    return Status::ok();
  }

  Expected<bool> adoptOptimizer(ModelState &m, Optimizer &opt) override {
    MODELRT_TRY(bindModel(m));
    MODELRT_TRY(gradMirror.allocate(m.params));
    auto dev = DeviceOptimizer::create(opt.config(), params.ptrs, gradMirror.ptrs, opt.sizes());
    if (!dev)
      return dev.status();
    optimizer = dev.take();
    MODELRT_TRY(optimizer->uploadMoments(opt));
    resident = true;
    return true;
  }

  Status update(Optimizer &opt, double lr) override {
    if (!optimizer)
      return StepRunner::update(opt, lr);
    opt.setStepCount(opt.stepCount() + 1);
    return optimizer->step(opt.stepCount(), lr);
  }

  Status planMemory(ModelState &m, int64_t batch) override {
    ProfilingPaused paused; // the steps of zeros are set-up, not training
    MODELRT_TRY(bindModel(m));
    // The peak memory of steps of two sizes gives the bytes per sample
    // (sizes of 16 and 256 samples at most: large enough that the pool's
    // size classes round little, small enough to fit where the batch would).
    int64_t sizes[2] = {std::min<int64_t>(batch, 16), std::min<int64_t>(batch, 256)};
    uint64_t peak[2];
    for (int k = 0; k < 2; ++k) {
      cuda::devicePoolResetPeak();
      MODELRT_TRY(zeroStep(m, sizes[k]));
      peak[k] = cuda::devicePoolStats().peakInUse;
    }
    int64_t extra = sizes[1] - sizes[0];
    uint64_t perSample =
        extra > 0 && peak[1] > peak[0] ? (peak[1] - peak[0] + extra - 1) / uint64_t(extra) : 0;
    uint64_t fixed = peak[0] - std::min(peak[0], perSample * uint64_t(sizes[0]));
    // The pool rounds blocks up by at most 1/8.
    uint64_t need = (fixed + uint64_t(batch) * perSample) / 8 * 9;
    uint64_t have = cuda::availableDeviceBytes() + cuda::devicePoolStats().bytesInUse;
    if (need > have) {
      uint64_t usable = have / 9 * 8;
      int64_t fits = perSample && usable > fixed ? int64_t((usable - fixed) / perSample) : 0;
      return errorf("GPU memory: a training step of %lld samples needs about %llu bytes (%s: "
                    "%s per sample + %s for the model and optimizer), %llu (%s) are free; %s",
                    (long long)batch, (unsigned long long)need, formatBytes(need).c_str(),
                    formatBytes(perSample).c_str(), formatBytes(fixed).c_str(), (unsigned long long)have,
                    formatBytes(have).c_str(),
                    fits > 0 ? ("the largest batch that fits is " + std::to_string(fits) +
                                " (--batch " + std::to_string(fits) + ")").c_str()
                             : "not even one sample fits");
    }
    MODELRT_TRY(zeroStep(m, batch)); // the pool now holds every buffer
    graphs.resetCounts();            // the summary counts training steps
    return bindModel(m);             // undo the state the steps changed
  }


  Status syncToHost(ModelState &m, Optimizer &opt) override {
    if (!resident)
      return Status::ok();
    MODELRT_TRY(params.download(m.params));
    MODELRT_TRY(state.download(m.state));
    return optimizer->downloadMoments(opt);
  }

  Status eval(ModelState &m, const Batch &b, float *loss, double *metrics) override {
    if (!resident)
      MODELRT_TRY(bindModel(m));
    if (!staged.holds(b))
      MODELRT_TRY(stage(b)); // through pinned memory, as for training
    const void *in = staged.inputs, *lab = staged.labels;
    staged = {};
    int rc = prog.gpu_eval_step(prog.context, params.ptrs.data(), state.ptrs.data(),
                                static_cast<const float *>(in), lab, b.size, loss, metrics);
    if (rc != 0)
      return cudaFailure("eval_step", rc);
    MODELRT_TRY(cuda::synchronize());
    return cuda::collectProfile();
  }

  Status predict(ModelState &m, const void *x, int64_t count, float *outputs) override {
    if (!resident)
      MODELRT_TRY(bindModel(m));
    staged = {}; // the input buffer is overwritten
    uint64_t inBytes = uint64_t(count) * perSample(prog.input_rank, prog.input_shape) /
                       sizeof(float) * dtypeSize(inputType(prog));
    uint64_t outBytes = uint64_t(count) * perSample(prog.output_rank, prog.output_shape);
    auto in = inputs.put(x, inBytes);
    auto out = in ? results.fit(std::max<uint64_t>(outBytes, 1)) : in;
    if (!out)
      return out.status();
    int rc = prog.gpu_predict(prog.context, params.ptrs.data(), state.ptrs.data(),
                              static_cast<const float *>(*in), count,
                              static_cast<float *>(*out));
    if (rc != 0)
      return cudaFailure("predict", rc);
    MODELRT_TRY(cuda::download(outputs, *out, outBytes));
    return cuda::collectProfile();
  }

private:
  /// The arguments of one training step, device pointers for the batch.
  struct TrainArgs {
    const float *inputs;
    const void *labels;
    int64_t batch;
    uint64_t seed;
    int64_t step;
    float *loss;
    float *const *grads;
    double *metrics;
  };
  /// Calls a training entry point (the whole step or one half).
  Status call(ModelrtTrainStepFn fn, const TrainArgs &a) {
    int rc = fn(prog.context, params.ptrs.data(), state.ptrs.data(), a.inputs, a.labels,
                a.batch, a.seed, a.step, a.loss, gradMirror.ptrs.data(), a.metrics);
    return rc == 0 ? Status::ok() : cudaFailure("train_step", rc);
  }
  /// Enqueues the step's device work (and, with \p withNorm, the gradients'
  /// norm into the runtime's scratch cell): eagerly, or as the replay of the
  /// graph captured for these buffers.
  Status enqueueStep(const TrainArgs &a, bool withNorm) {
    auto work = [&]() -> Status {
      MODELRT_TRY(call(prog.gpu_train_enqueue, a));
      if (!withNorm)
        return Status::ok();
      return optimizer->enqueueGradNorm(modelrt_cuda_scratch(cuda::kRuntimeScratchCell));
    };
    GraphKey key{a.batch, a.inputs, a.labels, withNorm};
    cuda::StepGraph *graph = graphs.find(key, work);
    if (!graph)
      return work();
    if (!modelrt_cuda_seed_cell(a.seed)) // the graph reads the seed's cell
      return cudaFailure("train_step", modelrt_cuda_status());
    return graph->launch();
  }

  /// The batch stage() uploaded (host addresses, to recognise it) and its
  /// device buffers.
  struct StagedBatch {
    const void *hostInputs = nullptr, *hostLabels = nullptr;
    int64_t size = -1;
    void *inputs = nullptr, *labels = nullptr;
    bool holds(const Batch &b) const {
      return hostInputs == b.inputs.data() && hostLabels == b.labels.data() && size == b.size;
    }
  };

  Mirror params, state, gradMirror;
  StepGraphs graphs;
  cuda::PinnedBuffer pinned; ///< the staged batch: inputs, then labels
  std::unique_ptr<cuda::UploadFence> fence; ///< after the last copy out of `pinned`
  StagedBatch staged;
  Staging inputs, labels, results;
  std::unique_ptr<DeviceOptimizer> optimizer;
  cuda::PinnedBuffer pinnedGrads; ///< gradientBuffers(): the host's gradients
  std::unique_ptr<cuda::NcclSums> nccl; ///< sumOnDevice(): the sums over the ranks
  int worldSize = 1;
  bool resident = false; ///< the device copies are the reference

  /// Bytes of one f32 sample of the given shape.
  static uint64_t perSample(int32_t rank, const int64_t *shape) {
    uint64_t n = sizeof(float);
    for (int32_t i = 0; i < rank; ++i)
      n *= uint64_t(shape[i]);
    return n;
  }
  /// One training step on \p n zero samples (gradients and state change on
  /// the device only); waits for it.
  Status zeroStep(const ModelState &m, int64_t n) {
    Batch b = zeroBatch(prog, n);
    ModelState scratch = m; // receives whatever the step downloads
    scratch.bind();
    std::vector<float *> grads;
    std::vector<std::vector<float>> host;
    for (const std::vector<float> &p : m.params)
      host.emplace_back(p.size());
    for (std::vector<float> &h : host)
      grads.push_back(h.data());
    std::vector<double> metrics(prog.num_metrics);
    float loss = 0;
    bool wasResident = resident;
    resident = true; // runs on the device copies as they are
    Status st = train(scratch, b, 0, 0, &loss, grads.data(), metrics.data());
    resident = wasResident;
    MODELRT_TRY(st);
    return cuda::synchronize();
  }

  /// Uploads the host model (the reference copy) into the mirrors.
  Status bindModel(const ModelState &m) {
    MODELRT_TRY(params.allocate(m.params));
    MODELRT_TRY(state.allocate(m.state));
    MODELRT_TRY(params.upload(m.params));
    return state.upload(m.state);
  }
};

} // namespace

Expected<std::unique_ptr<StepRunner>> createGpuStepRunner(const ModelrtProgram &p) {
  if (!p.gpu_train_step || !p.gpu_eval_step || !p.gpu_predict)
    return errorf("this executable has no GPU code (compiled with --no-gpu)");
  MODELRT_TRY(cuda::initCuda());
  MODELRT_TRY(cuda::warmUp()); // the kernels' JIT and cuBLAS, before any timed step
  return std::unique_ptr<StepRunner>(new GpuStepRunner(p));
}

} // namespace modelrt
