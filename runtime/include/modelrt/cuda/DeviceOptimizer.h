//===- DeviceOptimizer.h - The optimizer's update on the GPU ----------------===//
//
// Implements `DeviceOptimizer`: the update of OptimizerMath.h (the same
// per-element rule as the CPU `Optimizer`) over parameters, gradients and
// moments that live in device memory, as one fused multi-tensor launch per
// step (runtime/lib/cuda/OptimizerKernels.cu, loaded from the PTX embedded
// in the runtime through the mgpu functions). The moments move to and from
// a host `Optimizer` for checkpoints and resumption.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CUDA_DEVICEOPTIMIZER_H
#define MODELRT_CUDA_DEVICEOPTIMIZER_H

#include "modelrt/cuda/Cuda.h"
#include "modelrt/cuda/OptimizerKernels.h"
#include "modelrt/train/Optimizer.h"

#include <memory>
#include <vector>

namespace modelrt {

class DeviceOptimizer {
public:
  /// Prepares the update of the device tensors \p params with gradients
  /// \p grads (device pointers, \p sizes elements each): allocates the
  /// moments the variant needs, zeroed, and the launch tables.
  static Expected<std::unique_ptr<DeviceOptimizer>>
  create(const OptimizerConfig &config, const std::vector<float *> &params,
         const std::vector<float *> &grads, const std::vector<int64_t> &sizes);

  /// Copies \p host's moments to the device (after a resume).
  Status uploadMoments(Optimizer &host);
  /// Copies the device moments into \p host (for a checkpoint).
  Status downloadMoments(Optimizer &host);
  /// One update with learning rate \p lr; \p step is the 1-based update
  /// count (Adam's bias correction, SGD's first momentum step).
  Status step(int64_t step, double lr);
  /// The global L2 norm of the gradients (NaN or infinite when any gradient
  /// is): two launches and one 4-byte download.
  Expected<float> gradNorm();
  /// Enqueues the two launches of gradNorm() and nothing else: the norm is
  /// written as a float to the device address \p out (8 bytes are written:
  /// a scratch cell that the step's fetch brings back, for example).
  /// Capturable into a graph.
  Status enqueueGradNorm(void *out);

private:
  DeviceOptimizer(const OptimizerConfig &config, std::vector<int64_t> sizes)
      : cfg(config), sizes(std::move(sizes)) {}
  Status allocate(const std::vector<float *> &params, const std::vector<float *> &grads);
  OptimizerConfig cfg;
  std::vector<int64_t> sizes;
  std::vector<cuda::DeviceBuffer> firstMoments, secondMoments;
  cuda::DeviceBuffer tensorTable, chunkTable;
  cuda::DeviceBuffer partials, normOut; ///< grad-norm scratch (f64 per chunk, 2 f32)
  int32_t numChunks = 0;
  void *function = nullptr; ///< the step kernel of the variant
  void *sumsq = nullptr, *finalize = nullptr; ///< the grad-norm kernels
};

} // namespace modelrt

#endif // MODELRT_CUDA_DEVICEOPTIMIZER_H
