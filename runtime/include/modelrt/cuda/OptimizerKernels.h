//===- OptimizerKernels.h - The embedded PTX of the optimizer kernels -------===//
//
// Declares the accessor of the PTX text that the build compiles from
// runtime/lib/cuda/OptimizerKernels.cu (nvcc -arch=compute_90, checked with
// ptxas -arch=sm_90) and embeds in libmodelrt, and documents every kernel
// of that module so that a launcher over the CUDA driver API
// (cuModuleLoadData + cuModuleGetFunction + cuLaunchKernel) can be written
// against it. Nothing here needs a GPU or links libcudart.
//
// Conventions, for every kernel:
//  * names are extern "C" (unmangled), as listed below;
//  * blockDim = (kOptimizerBlockSize = 256, 1, 1), no dynamic shared memory;
//  * gridDim.x = any number >= 1 of blocks: block b handles chunks b,
//    b + gridDim.x, ... of the chunk table (OptimizerMath.h:
//    buildChunkTable / forEachChunkElement), so min(numChunks, 2 * SMs) or
//    simply numChunks both work (except modelrt_grad_norm_finalize: 1 block);
//  * pointers are device pointers; structs passed by value have the host
//    layout of OptimizerMath.h (StepCoeffs: 9 x f32 = 36 bytes).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CUDA_OPTIMIZERKERNELS_H
#define MODELRT_CUDA_OPTIMIZERKERNELS_H

#include "modelrt/train/OptimizerMath.h"

#include <cstddef>
#include <cstdint>

namespace modelrt {

/// One parameter of a multi-tensor optimizer launch (40 bytes, 8-aligned).
/// `m` / `v` may be null when the variant does not use them (SGD has no v;
/// SGD and RMSprop without momentum have no m).
struct OptTensor {
  float *param;
  float *grad; ///< read by the step; scaled in place by clipping
  float *m;    ///< first moment (momentum buffer)
  float *v;    ///< second moment
  int64_t size;
};

/// One pair of an accumulate launch (24 bytes, 8-aligned).
struct AccumTensor {
  float *dst;
  const float *src;
  int64_t size;
};

/// The kernels of the module, in the order of the table below.
/// Step kernels (one per StepVariant, same parameters):
///   (const OptTensor *tensors, const OptChunk *chunks, int32_t numChunks,
///    int64_t chunkSize, StepCoeffs coeffs)
/// apply OptimizerMath.h's stepElement to every element of every tensor.
constexpr const char *kStepKernelNames[] = {
    "modelrt_opt_step_sgd",              // StepVariant::Sgd
    "modelrt_opt_step_sgd_momentum",     // StepVariant::SgdMomentum
    "modelrt_opt_step_sgd_nesterov",     // StepVariant::SgdNesterov
    "modelrt_opt_step_rmsprop",          // StepVariant::Rmsprop
    "modelrt_opt_step_rmsprop_momentum", // StepVariant::RmspropMomentum
    "modelrt_opt_step_adam",             // StepVariant::Adam (and AdamW)
};

/// The step kernel's name for \p variant.
inline const char *stepKernelName(StepVariant variant) {
  return kStepKernelNames[static_cast<int32_t>(variant)];
}

/// modelrt_grad_sumsq(const OptTensor *tensors, const OptChunk *chunks,
///                    int32_t numChunks, int64_t chunkSize, double *partials)
///   partials[k] = sum of grad[i]^2 over chunk k, in f64 (partials has
///   numChunks entries; each is written by the block that handles chunk k,
///   in a fixed order, so the result is deterministic for a given grid).
constexpr const char *kGradSumsqKernel = "modelrt_grad_sumsq";
/// modelrt_grad_norm_finalize(const double *partials, int32_t numChunks,
///                            float maxNorm, float *out)
///   gridDim.x must be 1. out[0] = sqrt(sum of partials) (the global norm);
///   out[1] = maxNorm / (norm + 1e-6) if norm > maxNorm, else 1 (PyTorch's
///   clip_grad_norm_). maxNorm <= 0 or inf: out[1] = 1 (norm only).
constexpr const char *kGradNormFinalizeKernel = "modelrt_grad_norm_finalize";
/// modelrt_grad_scale(const OptTensor *tensors, const OptChunk *chunks,
///                    int32_t numChunks, int64_t chunkSize, const float *scale)
///   grad[i] *= *scale (scale is out + 1 of the finalize kernel). Nothing
///   is written when *scale == 1.
constexpr const char *kGradScaleKernel = "modelrt_grad_scale";
/// modelrt_accumulate(const AccumTensor *tensors, const OptChunk *chunks,
///                    int32_t numChunks, int64_t chunkSize, float scale)
///   dst[i] += src[i] * scale (gradient accumulation: scale = 1/k adds the
///   mean of k micro-batches into a zeroed dst).
constexpr const char *kAccumulateKernel = "modelrt_accumulate";

} // namespace modelrt

/// The PTX text (NUL-terminated; *size = its length without the NUL) of the
/// optimizer kernels, for cuModuleLoadData. Target sm_90, PTX ISA of CUDA 13.
extern "C" const char *modelrt_optimizer_ptx(size_t *size);

#endif // MODELRT_CUDA_OPTIMIZERKERNELS_H
