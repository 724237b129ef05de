//===- ConvertKernels.cu - f32 <-> bf16 conversions on the GPU -----------===//
//
// The conversions of modelrt/cuda/ConvertKernels.h, around the bf16
// convolutions of cuDNN (CudnnConv.cpp): each thread converts every
// gridDim.x * blockDim.x-th element from its own. Compiled at build time to
// PTX (runtime/cuda-kernels.cmake) and embedded in libmodelrt. No libcudart.
//
//===----------------------------------------------------------------------===//
#include "modelrt/cuda/ConvertKernels.h"

#include <cuda_bf16.h>

extern "C" __global__ void __launch_bounds__(modelrt::kConvertThreads)
    modelrt_f32_to_bf16(const float *__restrict__ in, __nv_bfloat16 *__restrict__ out,
                        int64_t n) {
  int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step)
    out[i] = __float2bfloat16_rn(in[i]);
}

extern "C" __global__ void __launch_bounds__(modelrt::kConvertThreads)
    modelrt_bf16_to_f32(const __nv_bfloat16 *__restrict__ in, float *__restrict__ out,
                        int64_t n) {
  int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step)
    out[i] = __bfloat162float(in[i]);
}
