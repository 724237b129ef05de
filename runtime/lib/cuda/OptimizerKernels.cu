//===- OptimizerKernels.cu - Multi-tensor optimizer kernels for CUDA -------===//
//
// The optimizer's update of ALL parameters in one launch per step, one
// kernel per StepVariant, running the same per-element code as the CPU loop
// (OptimizerMath.h: stepElement, forEachChunkElement); global-norm gradient
// clipping (per-chunk sums of squares, a one-block finalize, a scale); and
// the accumulate kernel of gradient accumulation. Compiled at build time to
// PTX (runtime/cuda-kernels.cmake) and embedded in libmodelrt; names and
// parameters are documented in modelrt/cuda/OptimizerKernels.h. No libcudart.
//
//===----------------------------------------------------------------------===//
#include "modelrt/cuda/OptimizerKernels.h"
#include "modelrt/train/OptimizerMath.h"

using namespace modelrt;

namespace {

/// The body of a step kernel for one variant.
struct StepBody {
  template <bool Second, bool NormaliseFirst, bool First, bool Nesterov, bool Adam>
  __device__ static void run(const OptTensor *tensors, const OptChunk *chunks,
                             int32_t numChunks, int64_t chunkSize, const StepCoeffs &c) {
    forEachChunkElement(
        chunks, numChunks, chunkSize, blockIdx.x, gridDim.x, threadIdx.x, blockDim.x,
        [&](int32_t t) { return tensors[t].size; },
        [&](int32_t t, int64_t i) {
          const OptTensor &x = tensors[t];
          float mz = 0, vz = 0;
          stepElement<Second, NormaliseFirst, First, Nesterov, Adam>(
              c, x.param[i], x.grad[i], First ? x.m[i] : mz, Second ? x.v[i] : vz);
        });
  }
};

/// The sum of \p x over the block (blockDim.x == kOptimizerBlockSize), in a
/// fixed order; valid in thread 0.
__device__ double blockSum(double x) {
  __shared__ double warpSums[kOptimizerBlockSize / 32];
  for (int off = 16; off > 0; off /= 2)
    x += __shfl_down_sync(0xffffffffu, x, off);
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0)
    warpSums[warp] = x;
  __syncthreads();
  double total = 0;
  if (threadIdx.x == 0)
    for (int w = 0; w < int(blockDim.x / 32); ++w)
      total += warpSums[w];
  __syncthreads(); // warpSums is reused by the next call
  return total;
}

} // namespace

#define MODELRT_STEP_KERNEL(NAME, VARIANT)                                                   \
  extern "C" __global__ void __launch_bounds__(kOptimizerBlockSize)                          \
      NAME(const OptTensor *__restrict__ tensors, const OptChunk *__restrict__ chunks,      \
           int32_t numChunks,                                                                \
           int64_t chunkSize, StepCoeffs coeffs) {                                           \
    dispatchStepVariant<StepBody>(StepVariant::VARIANT, tensors, chunks, numChunks,         \
                                  chunkSize, coeffs);                                        \
  }

MODELRT_STEP_KERNEL(modelrt_opt_step_sgd, Sgd)
MODELRT_STEP_KERNEL(modelrt_opt_step_sgd_momentum, SgdMomentum)
MODELRT_STEP_KERNEL(modelrt_opt_step_sgd_nesterov, SgdNesterov)
MODELRT_STEP_KERNEL(modelrt_opt_step_rmsprop, Rmsprop)
MODELRT_STEP_KERNEL(modelrt_opt_step_rmsprop_momentum, RmspropMomentum)
MODELRT_STEP_KERNEL(modelrt_opt_step_adam, Adam)

#undef MODELRT_STEP_KERNEL

/// partials[k] = sum over chunk k of grad^2, for the chunks of this block.
extern "C" __global__ void __launch_bounds__(kOptimizerBlockSize)
    modelrt_grad_sumsq(const OptTensor *tensors, const OptChunk *chunks, int32_t numChunks,
                       int64_t chunkSize, double *partials) {
  for (int64_t k = blockIdx.x; k < numChunks; k += gridDim.x) {
    OptChunk c = chunks[k];
    ChunkRange r = chunkRange(c, tensors[c.tensor].size, chunkSize);
    const float *g = tensors[c.tensor].grad;
    double s = 0;
    for (int64_t i = r.begin + threadIdx.x; i < r.end; i += blockDim.x)
      s += double(g[i]) * double(g[i]);
    s = blockSum(s);
    if (threadIdx.x == 0)
      partials[k] = s;
  }
}

/// out[0] = the global norm, out[1] = the clipping scale (one block).
extern "C" __global__ void __launch_bounds__(kOptimizerBlockSize)
    modelrt_grad_norm_finalize(const double *partials, int32_t numChunks, float maxNorm,
                               float *out) {
  double s = 0;
  for (int64_t k = threadIdx.x; k < numChunks; k += blockDim.x)
    s += partials[k];
  s = blockSum(s);
  if (threadIdx.x != 0)
    return;
  double norm = sqrt(s);
  bool clip = maxNorm > 0 && !isinf(maxNorm) && norm > double(maxNorm);
  out[0] = float(norm);
  out[1] = clip ? float(double(maxNorm) / (norm + 1e-6)) : 1.0f;
}

/// grad *= *scale over every tensor (a no-op when *scale == 1).
extern "C" __global__ void __launch_bounds__(kOptimizerBlockSize)
    modelrt_grad_scale(const OptTensor *tensors, const OptChunk *chunks, int32_t numChunks,
                       int64_t chunkSize, const float *scale) {
  const float s = *scale;
  if (s == 1.0f)
    return;
  forEachChunkElement(
      chunks, numChunks, chunkSize, blockIdx.x, gridDim.x, threadIdx.x, blockDim.x,
      [&](int32_t t) { return tensors[t].size; },
      [&](int32_t t, int64_t i) { tensors[t].grad[i] *= s; });
}

/// dst += src * scale over every pair.
extern "C" __global__ void __launch_bounds__(kOptimizerBlockSize)
    modelrt_accumulate(const AccumTensor *tensors, const OptChunk *chunks, int32_t numChunks,
                       int64_t chunkSize, float scale) {
  forEachChunkElement(
      chunks, numChunks, chunkSize, blockIdx.x, gridDim.x, threadIdx.x, blockDim.x,
      [&](int32_t t) { return tensors[t].size; },
      [&](int32_t t, int64_t i) { tensors[t].dst[i] += tensors[t].src[i] * scale; });
}
