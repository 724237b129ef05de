//===- CudaDriver.h - The driver and cuBLAS function tables (internal) -----===//
//
// Declares the tables of CUDA driver API and cuBLAS entry points that
// CudaDriver.cpp fills with dlsym, the process-wide CUDA state (context,
// streams, scratch cells) and the sticky error. Internal to modelrt: the
// public API is modelrt/cuda/Cuda.h (C++) and modelrt/cuda/GpuAbi.h (the C
// functions generated code calls). cuda.h is used only for its types.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_CUDA_CUDADRIVER_H
#define MODELRT_LIB_CUDA_CUDADRIVER_H

#include "modelrt/cuda/Cuda.h"
#include "modelrt/cuda/GpuAbi.h"

#include <atomic>
#include <cuda.h>

#include <string>

/// X-macro over every driver entry point modelrt uses. The name given to
/// dlsym is the macro-expanded one, so cuda.h picks the versioned symbol
/// (cuMemAlloc -> cuMemAlloc_v2, cuStreamDestroy -> cuStreamDestroy_v2).
#define MODELRT_CUDA_DRIVER_FUNCTIONS(X)                                       \
  X(cuInit) X(cuDriverGetVersion) X(cuGetErrorName) X(cuGetErrorString)       \
  X(cuDeviceGetCount) X(cuDeviceGet) X(cuDeviceGetName)                        \
  X(cuDeviceGetAttribute) X(cuDeviceTotalMem) X(cuDevicePrimaryCtxRetain)      \
  X(cuCtxSetCurrent) X(cuMemGetInfo) X(cuMemAlloc) X(cuMemFree)               \
  X(cuMemAllocManaged) X(cuMemAllocHost) X(cuMemFreeHost)                      \
  X(cuMemHostRegister) X(cuMemHostUnregister) X(cuMemcpyAsync)                 \
  X(cuMemcpyHtoDAsync) X(cuMemcpyDtoHAsync) X(cuMemcpyDtoDAsync)               \
  X(cuMemsetD32Async) X(cuMemsetD16Async) X(cuMemsetD8Async)                   \
  X(cuStreamCreate) X(cuStreamDestroy) X(cuStreamSynchronize) X(cuStreamQuery)   \
  X(cuStreamWaitEvent) X(cuEventCreate) X(cuEventDestroy) X(cuEventRecord)     \
  X(cuEventSynchronize) X(cuEventElapsedTime) X(cuModuleLoadData) X(cuModuleLoadDataEx)              \
  X(cuModuleUnload) X(cuModuleGetFunction) X(cuFuncSetAttribute)               \
  X(cuLaunchKernel) X(cuLaunchKernelEx) X(cuStreamBeginCapture)               \
  X(cuStreamEndCapture) X(cuGraphInstantiate) X(cuGraphLaunch)                 \
  X(cuGraphExecDestroy) X(cuGraphDestroy) X(cuGraphGetNodes)

namespace modelrt {
namespace cuda {

#define MODELRT_CUDA_POINTER(name) decltype(&::name) name = nullptr;
/// The driver entry points, resolved once.
struct DriverApi {
  MODELRT_CUDA_DRIVER_FUNCTIONS(MODELRT_CUDA_POINTER)
};
#undef MODELRT_CUDA_POINTER

/// The driver table, loading libcuda.so.1 (or MODELRT_CUDA_DRIVER) on first
/// use; null with \p why set when it cannot be loaded.
const DriverApi *driverApi(std::string *why = nullptr);

/// "CUDA_ERROR_NO_DEVICE" for a CUresult, or "CUresult N" when unknown.
std::string resultName(CUresult result);

/// Loads the driver table from \p path (no caching): used by driverApi().
/// \p fromEnv says the path came from MODELRT_CUDA_DRIVER (for the message).
bool loadDriverApi(const char *path, bool fromEnv, DriverApi &api,
                   std::string &why);

/// Records the first error (later ones are dropped). \p code is the CUresult
/// or -1. Always returns an error Status with the recorded text of this call.
Status setStickyError(int32_t code, const std::string &message);

/// Records "\p what failed with NAME" when \p result is not CUDA_SUCCESS.
/// Returns true on success.
bool checkCu(CUresult result, const char *what);

/// True when an error was recorded (or, during a graph capture, when the
/// capture recorded one).
bool hasStickyError();

/// Starts a graph capture's error scope: until endCaptureErrors(), errors go
/// to the capture (which then fails) instead of becoming sticky, so that the
/// step can still run without the graph.
void beginCaptureErrors();
/// Ends the scope; returns the first error recorded in it (ok when none).
Status endCaptureErrors();

/// The process-wide CUDA objects, valid after initCuda() succeeded.
struct CudaState {
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUstream compute = nullptr;
  CUstream copy = nullptr;
  CUdeviceptr scratch = 0; ///< 64 cells of 64 bytes
  void *scratchHost = nullptr; ///< their pinned host mirror (fetchScratch)
  /// An mgpuMemcpy (gpu.memcpy, which may write host memory) is queued on
  /// the compute stream: the next mgpuStreamSynchronize of it must wait.
  std::atomic<bool> memcpyPending{false};
  /// The compute stream is being captured into a graph (CudaGraph.cpp):
  /// modelrt_cuda_seed_cell leaves the seed to the replay.
  std::atomic<bool> capturing{false};
};

/// The state after a successful initCuda(), or null (no error recorded).
CudaState *cudaState();

/// initCuda() for the C entry points: the state, or null after recording a
/// sticky error that names \p caller.
CudaState *requireCuda(const char *caller);

/// Forgets the cached probe, the state and the sticky error (tests only: the
/// next call probes again, reading the environment).
void resetForTesting();

/// Internal parts of resetForTesting in other files.
void resetProbeForTesting();
void resetStateForTesting();
void resetBlasForTesting();
void resetPoolForTesting();
void resetCudnnForTesting();

/// GPU kernel times for `--profile` (GpuProfile.cpp). nameKernel records the
/// name of a function (once, when it is looked up); kernelName returns it.
void nameKernel(CUfunction fn, const char *name);
const char *kernelName(CUfunction fn);
/// \p label interned for the life of the process (a profile entry's name).
const char *profileLabel(const std::string &label);
/// The interned profile label "cuBLAS <kind> MxNxK" of a product of this
/// shape (\p kind: "sgemm", "gemm bf16", ...).
const char *gemmLabel(const char *kind, int64_t m, int64_t n, int64_t k);
/// Records the start event of a launch on \p stream when profiling; true
/// when it did (then profileEnd must follow the launch).
bool profileStart(CUstream stream);
/// Records the end event; the bracket is read by collectProfile().
void profileEnd(CUstream stream, const char *name, double flops);

/// Loads every module the executable's constructors recorded (MgpuModule.cpp);
/// false (error recorded) on failure.
bool loadRecordedModules();

/// Creates the cuBLAS handle on the compute stream now (CudaBlas.cpp), with
/// its own workspace (so that a captured sgemm allocates nothing); false
/// (error recorded) on failure.
bool createBlasHandle();

/// The cuBLAS version as {major, minor}, or an error naming the library
/// (libcublas.so.13 or MODELRT_CUBLAS).
Expected<std::pair<int, int>> cublasVersion();

} // namespace cuda
} // namespace modelrt

#endif // MODELRT_LIB_CUDA_CUDADRIVER_H
