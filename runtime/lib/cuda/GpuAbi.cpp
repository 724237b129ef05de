//===- GpuAbi.cpp - Device buffers for the compiled GPU entry adapters -----===//
//
// Implements the two C functions of GpuAbi.h that the GPU adapters emitted by
// modelc (compiler/lib/Codegen/Adapters.cpp) call for the scratch buffer of a
// state output: `modelrt_cuda_alloc` and `modelrt_cuda_free`, over the device
// pool that also serves the kernels' own allocations
// (mgpuMemAlloc/mgpuMemFree).
//
//===----------------------------------------------------------------------===//
#include "modelrt/cuda/GpuAbi.h"

extern "C" void *modelrt_cuda_alloc(int64_t bytes) {
  return mgpuMemAlloc(uint64_t(bytes > 0 ? bytes : 1), nullptr, false);
}

extern "C" void modelrt_cuda_free(void *ptr) { mgpuMemFree(ptr, nullptr); }
