//===- BlasKernels.h - The embedded PTX of the matrix-product kernels -----===//
//
// Names and parameters of runtime/lib/cuda/BlasKernels.cu (nvcc
// -arch=compute_90, checked with ptxas, embedded in modelrt): the second
// half of a split-K product (CudaBlas.cpp), which adds the slices' partial
// products.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CUDA_BLASKERNELS_H
#define MODELRT_CUDA_BLASKERNELS_H

#include <cstddef>
#include <cstdint>

namespace modelrt {

/// The sum kernel's block: outputs (x) by groups of slices (y).
constexpr int kSplitKSumOutputs = 32;
constexpr int kSplitKSumGroups = 8;

/// modelrt_splitk_sum(const float *partials, int32_t slices, int32_t m,
///                    int32_t n, float beta, float *C, int32_t ldc)
///   C[i + j*ldc] = the sum over s < slices of partials[s][i + j*m] (slice s
///   at partials + s*m*n; each of kSplitKSumGroups threads adds every
///   kSplitKSumGroups-th slice, then their sums are added in order), plus
///   beta * C[i + j*ldc] when beta != 0 (C is not read otherwise). Blocks of
///   kSplitKSumOutputs x kSplitKSumGroups threads, one block per
///   kSplitKSumOutputs elements of the column-major m x n result.
constexpr const char *kSplitKSumKernel = "modelrt_splitk_sum";

} // namespace modelrt

/// The PTX text (NUL-terminated; *size = its length without the NUL) of the
/// kernels above, for cuModuleLoadData. Target sm_90, PTX ISA of CUDA 13.
extern "C" const char *modelrt_blas_ptx(size_t *size);

#endif // MODELRT_CUDA_BLASKERNELS_H
