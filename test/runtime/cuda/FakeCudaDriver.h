//===- FakeCudaDriver.h - Control of the fake libcuda used by CudaTests ----===//
//
// Declares the control functions of FakeCudaDriver.cpp, a shared library that
// implements the subset of the CUDA driver API and cuBLAS that modelrt loads,
// over host memory: "device" pointers are host pointers, every stream runs
// synchronously (except one being captured into a graph: its work is then
// recorded, and a graph launch runs it; a wait for it invalidates the
// capture), and modules know the kernels `fake_fill` (float *dst, float
// value, int64_t n), `fake_scale` (float *data, float factor, int64_t n),
// `fill_kernel`, the host-side twin of the kernel in GeneratedHostCode.mlir,
// and the optimizer's. Tests point MODELRT_CUDA_DRIVER and MODELRT_CUBLAS
// at it, and MODELRT_CUDNN (the fake cuDNN of FakeCudnn.cpp, in the same
// library).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_TEST_FAKECUDADRIVER_H
#define MODELRT_TEST_FAKECUDADRIVER_H

#include <cstdint>

extern "C" {
/// What the fake device looks like.
struct FakeCudaConfig {
  int initResult;        ///< what cuInit returns (0 = CUDA_SUCCESS)
  int deviceCount;
  int ccMajor, ccMinor;
  uint64_t totalBytes;   ///< cuMemAlloc fails with OUT_OF_MEMORY beyond this
  int driverVersion;     ///< e.g. 13000
};

/// Counts of calls since the last fakeCudaConfigure.
struct FakeCudaCounters {
  int inits, contextRetains, memAllocs, memFrees, moduleLoads, launches,
      sgemms, eventRecords, streamWaits;
  uint64_t bytesAllocated;
  int jitOptLevel; ///< CU_JIT_OPTIMIZATION_LEVEL of the last JIT (-1: none)
  int captures;     ///< cuStreamBeginCapture calls
  int graphLaunches;
  int cudnnConvs;   ///< cudnnConvolution{Forward,BackwardData,BackwardFilter} calls
  int cudnnAlgoQueries; ///< cudnnGetConvolution*Algorithm_v7 calls
  int cudnnDescriptors; ///< tensor, filter and convolution descriptors created
};

/// Resets the fake (frees its memory) and sets the device's description.
void fakeCudaConfigure(const FakeCudaConfig *config);
/// The counters.
FakeCudaCounters fakeCudaCounters(void);

typedef void (*FakeCudaConfigureFn)(const FakeCudaConfig *);
typedef FakeCudaCounters (*FakeCudaCountersFn)(void);
}

#endif // MODELRT_TEST_FAKECUDADRIVER_H
