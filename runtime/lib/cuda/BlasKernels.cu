//===- BlasKernels.cu - Kernels of the matrix products -------------------===//
//
// The sum of a split-K product's partial products (modelrt/cuda/BlasKernels.h):
// cuBLAS computes each slice of the inner dimension into its own m x n
// block of a workspace, this kernel adds the blocks in slice order. Compiled
// at build time to PTX (runtime/cuda-kernels.cmake) and embedded in
// libmodelrt. No libcudart.
//
//===----------------------------------------------------------------------===//
#include "modelrt/cuda/BlasKernels.h"

using namespace modelrt;

// A block is kSplitKSumOutputs x kSplitKSumGroups threads: thread (x, y)
// adds slices y, y + groups, ... of output blockIdx.x * outputs + x (a
// warp reads 32 neighbouring floats of one slice at a time), then thread
// (x, 0) adds the groups' sums in order. Few outputs over hundreds of
// slices thus still have 8 loads in flight per output, not one.
extern "C" __global__ void __launch_bounds__(kSplitKSumOutputs * kSplitKSumGroups)
    modelrt_splitk_sum(const float *__restrict__ partials, int32_t slices, int32_t m,
                       int32_t n, float beta, float *__restrict__ C, int32_t ldc) {
  __shared__ float groupSums[kSplitKSumGroups][kSplitKSumOutputs];
  int64_t size = int64_t(m) * n;
  int64_t e = int64_t(blockIdx.x) * kSplitKSumOutputs + threadIdx.x;
  float sum = 0.0f;
  if (e < size)
    for (int32_t s = threadIdx.y; s < slices; s += kSplitKSumGroups)
      sum += partials[s * size + e];
  groupSums[threadIdx.y][threadIdx.x] = sum;
  __syncthreads();
  if (threadIdx.y != 0 || e >= size)
    return;
  sum = 0.0f;
  for (int g = 0; g < kSplitKSumGroups; ++g)
    sum += groupSums[g][threadIdx.x];
  int64_t i = e % m, j = e / m;
  float *out = C + i + j * int64_t(ldc);
  *out = beta != 0.0f ? sum + beta * *out : sum;
}
