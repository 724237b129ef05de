//===- Cuda.h - The runtime's CUDA layer (driver loaded at run time) ------===//
//
// Declares modelrt's CUDA layer. Nothing here links against CUDA: the driver
// (libcuda.so.1) and cuBLAS (libcublas.so.13) are opened with dlopen on first
// use, so every compiled model starts and runs on the CPU on a machine without
// a GPU. The layer provides
//   - the availability probe (`probeCuda`, `describe`, `cudaUsable`);
//   - the context, the runtime-owned compute stream and a copy stream
//     (`initCuda`, `synchronize`);
//   - device buffers from a caching pool, pinned host buffers, copies;
//   - the `mgpu*` functions that MLIR 22's `gpu-to-llvm` host code and
//     gpu.binary translation call (declared below, see docs/gpu.md);
//   - `modelrt_cuda_*` C helpers for the compiled entry adapters.
// Errors inside C functions that return nothing are sticky: the first one is
// kept (with the function and the CUresult name), `modelrt_cuda_status()`
// reports it, and later launches are skipped.
//
// Environment: MODELRT_DEVICE=cpu forces the CPU; MODELRT_CUDA_DEVICE=N picks
// device N (default 0); MODELRT_CUDA_DRIVER=PATH and MODELRT_CUBLAS=PATH
// override the library paths.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CUDA_H
#define MODELRT_CUDA_H

#include "modelrt/Status.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

extern "C" {
/// cblas_sgemm on the GPU (device pointers), ordered on the compute stream.
/// \p order is 101 (row-major) or 102 (column-major); \p transA / \p transB
/// are 111 (no transpose) or 112 (transpose). Errors are sticky.
/// The integer arguments are 32-bit, exactly as cblas_sgemm's: the GPU
/// pipeline rewrites matrix products into calls with that signature.
void modelrt_cuda_sgemm(int32_t order, int32_t transA, int32_t transB,
                        int32_t M, int32_t N, int32_t K, float alpha,
                        const float *A, int32_t lda, const float *B,
                        int32_t ldb, float beta, float *C, int32_t ldc);
/// A device pointer to the persistent, zero-initialised 64-byte cell \p slot
/// (0..63), for scalars (seed, loss, counts). Null (and a sticky error) when
/// the GPU is not usable or the slot is out of range.
void *modelrt_cuda_scratch(int32_t slot);
/// The device cell of the training seed (scratch cell 63; results use the
/// cells from 0 up), with \p seed written into it on the compute stream
/// (except while a graph is being captured: the replay's caller writes it).
/// Null (and a sticky error) when the GPU is not usable.
void *modelrt_cuda_seed_cell(uint64_t seed);
/// Copies the scratch cells (all 64, 4 KiB: the program's \p cells, 1..64,
/// and the runtime's kRuntimeScratchCell) to their pinned host mirror with one
/// copy and one wait for the compute stream; returns the mirror (cell i at
/// byte i * 64). After an error (sticky), a block of zeros.
const void *modelrt_cuda_fetch_scratch(int32_t cells);
/// Copies \p bytes from host to device on the compute stream; \p host may be
/// reused when this returns (pageable memory is staged by the driver).
void modelrt_cuda_upload(void *dev, const void *host, int64_t bytes);
/// Copies \p bytes from device to host; waits for the compute stream, so the
/// host data is valid when this returns.
void modelrt_cuda_download(void *host, const void *dev, int64_t bytes);
/// Copies \p bytes from device to device on the compute stream.
void modelrt_cuda_copy(void *dst, const void *src, int64_t bytes);

// ---- The mgpu ABI of MLIR 22 (CUmodule/CUfunction/CUstream/CUevent as void*).
// A null stream means the compute stream. The module loads run in global
// constructors and touch no CUDA: the image is loaded on the first
// mgpuModuleGetFunction.
void *mgpuModuleLoad(void *data, size_t size);
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount);
void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, void *stream, void **params,
                             void **extra, size_t paramsCount);
/// Returns the runtime's compute stream; mgpuStreamDestroy of it is a no-op.
void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate(void);
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);
/// From the caching device pool (managed memory when \p isHostShared).
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream);
void mgpuMemset16(void *dst, unsigned short value, size_t count,
                  void *stream);
void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes);
void mgpuMemHostUnregister(void *ptr);
void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementSizeBytes);
void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes);
/// Accepted only for the device modelrt uses (MODELRT_CUDA_DEVICE).
void mgpuSetDefaultDevice(int32_t device);

/// 0 when no CUDA error happened so far; else the CUresult of the first error
/// (or -1 for an error that has none, e.g. "the GPU is not usable").
int32_t modelrt_cuda_status(void);
/// The first error's message ("" when none); the pointer stays valid.
const char *modelrt_cuda_error_message(void);
}

namespace modelrt {
namespace cuda {

/// What the probe found: the device, or one reason the GPU is not used.
struct Availability {
  bool usable = false;
  /// Why the GPU is not used (empty when usable).
  std::string reason;
  int deviceIndex = 0;
  std::string name;
  int ccMajor = 0, ccMinor = 0;
  uint64_t totalBytes = 0, freeBytes = 0;
  /// From cuDriverGetVersion: 13000 means 13.0.
  int driverVersion = 0;
  int cublasMajor = 0, cublasMinor = 0;
};

/// Probes once (cached, thread-safe): MODELRT_DEVICE, the driver, cuInit, the
/// device, its compute capability (>= 9.0), cuBLAS. When the GPU is usable it
/// retains the device's primary context (the one initCuda() uses) to read the
/// free memory.
const Availability &probeCuda();

/// One line for the user: `GPU: NVIDIA H200 (sm_90, 139.8 GiB, driver 13.0,
/// cuBLAS 13.0)` or `GPU not used: <reason>; running on the CPU`.
std::string describe();

/// True when probeCuda() found a usable GPU.
bool cudaUsable();

/// Makes the primary context of the probed device current on this thread and
/// creates the compute and copy streams (once). Fails with the probe's reason.
Status initCuda();

/// The one-time work of the first step, done ahead (after initCuda()): the
/// driver's JIT of every embedded kernel module and cuBLAS's handle. A step
/// timed later then measures the step alone. Errors are sticky ones.
Status warmUp();

/// Waits for the compute stream; returns the sticky error if there is one.
Status synchronize();

/// Under `--profile`: waits for the kernels launched since the last call and
/// adds their device times (CUDA events around each launch and sgemm) to the
/// profile's kernel table. Nothing to do otherwise.
Status collectProfile();

/// The sticky error as a Status (ok when none).
Status stickyStatus();

/// The runtime-owned stream that orders launches, sgemm and copies (a
/// CUstream; null before initCuda()).
void *computeStream();

/// Statistics of the device memory pool.
struct DevicePoolStats {
  uint64_t backendAllocations = 0; ///< cuMemAlloc calls that succeeded
  uint64_t reuses = 0;             ///< requests served from the cache
  uint64_t bytesInUse = 0;         ///< in blocks handed out
  uint64_t bytesCached = 0;        ///< in free blocks kept for reuse
  uint64_t peakInUse = 0;          ///< largest bytesInUse
  uint64_t peakReserved = 0;       ///< largest bytesInUse + bytesCached
};

/// A snapshot of the device pool's counters.
DevicePoolStats devicePoolStats();

/// Starts a new peak measurement (peakInUse = bytesInUse).
void devicePoolResetPeak();

/// Returns the pool's cached blocks to the driver (waits for the stream).
void devicePoolTrim();

/// Bytes modelrt can still get: free on the device (cuMemGetInfo) plus the
/// pool's cached blocks. 0 when the GPU is not initialised.
uint64_t availableDeviceBytes();

/// A device allocation from the pool, freed (back to the pool) on destruction.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  /// Allocates \p bytes (initialises CUDA on first use).
  static Expected<DeviceBuffer> allocate(uint64_t bytes);
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer();
  void *data() const { return ptr; }
  float *floats() const { return static_cast<float *>(ptr); }
  uint64_t size() const { return bytes; }

private:
  void reset();
  void *ptr = nullptr;
  uint64_t bytes = 0;
};

/// Page-locked host memory (cuMemAllocHost), for asynchronous uploads.
class PinnedBuffer {
public:
  PinnedBuffer() = default;
  static Expected<PinnedBuffer> allocate(uint64_t bytes);
  PinnedBuffer(PinnedBuffer &&other) noexcept;
  PinnedBuffer &operator=(PinnedBuffer &&other) noexcept;
  PinnedBuffer(const PinnedBuffer &) = delete;
  PinnedBuffer &operator=(const PinnedBuffer &) = delete;
  ~PinnedBuffer();
  void *data() const { return ptr; }
  float *floats() const { return static_cast<float *>(ptr); }
  uint64_t size() const { return bytes; }

private:
  void reset();
  void *ptr = nullptr;
  uint64_t bytes = 0;
};

/// Orders one asynchronous upload: the copy stream waits for the work enqueued
/// on the compute stream before it, and the compute stream's later work waits
/// for the copy. `wait()` blocks the host until the copy finished (the pinned
/// buffer may then be refilled).
class UploadFence {
public:
  UploadFence() = default;
  static Expected<UploadFence> create();
  UploadFence(UploadFence &&other) noexcept;
  UploadFence &operator=(UploadFence &&other) noexcept;
  UploadFence(const UploadFence &) = delete;
  UploadFence &operator=(const UploadFence &) = delete;
  ~UploadFence();
  /// Blocks until the last upload recorded on this fence completed.
  Status wait();

private:
  friend Status uploadAsync(void *, const PinnedBuffer &, uint64_t,
                            UploadFence &);
  friend Status uploadPinned(void *, const void *, uint64_t, UploadFence &);
  void reset();
  void *computeDone = nullptr; ///< CUevent on the compute stream
  void *copyDone = nullptr;    ///< CUevent on the copy stream
};

/// Copies the first \p bytes of \p host to \p dev on the copy stream, after
/// everything already enqueued on the compute stream, and makes later compute
/// work wait for it. Double-buffering: enqueue the upload of batch t+1 BEFORE
/// launching step t, into the device buffer step t-1 used.
Status uploadAsync(void *dev, const PinnedBuffer &host, uint64_t bytes,
                   UploadFence &fence);

/// Work enqueued on the compute stream, recorded once as a CUDA graph and
/// replayed (one cuGraphLaunch instead of a launch per kernel). The capture
/// runs the host code once without executing anything on the device; every
/// pointer and scalar it passes is baked into the graph, so a replay must see
/// the same buffers (values in device memory may change: the seed cell is
/// written before each replay, see modelrt_cuda_seed_cell). The device pool
/// blocks the capture used stay reserved for the graph until it is destroyed.
class StepGraph {
public:
  StepGraph() = default;
  /// Captures what \p enqueue enqueues on the compute stream (relaxed mode)
  /// and instantiates it. Any failure, including a CUDA error inside
  /// \p enqueue (e.g. a wait for the stream, which a capture forbids), is
  /// returned without becoming sticky: the caller can run the work eagerly.
  static Expected<StepGraph> capture(const std::function<Status()> &enqueue);
  StepGraph(StepGraph &&other) noexcept;
  StepGraph &operator=(StepGraph &&other) noexcept;
  StepGraph(const StepGraph &) = delete;
  StepGraph &operator=(const StepGraph &) = delete;
  ~StepGraph();
  /// Enqueues one replay on the compute stream.
  Status launch();
  /// The number of nodes (kernels, copies, memsets) in the graph.
  size_t nodeCount() const { return nodes; }

private:
  void reset();
  void *graph = nullptr; ///< CUgraph
  void *exec = nullptr;  ///< CUgraphExec
  size_t nodes = 0;
  std::vector<void *> blocks; ///< pool blocks reserved for the replays
};

/// True while the compute stream is being captured (StepGraph::capture).
bool capturing();

/// The scratch cell the runtime's own kernels write a result to (the
/// gradients' global norm), fetched with the program's cells.
constexpr int32_t kRuntimeScratchCell = 62;

/// The pinned mirror of the scratch cells as of the last
/// modelrt_cuda_fetch_scratch (cell i at byte i * 64).
const void *fetchedScratch();

/// Copies \p bytes of page-locked host memory at \p host (inside a
/// PinnedBuffer) to \p dev on the compute stream, in order with the work
/// enqueued there, without waiting for it; records \p fence after the copy:
/// `fence.wait()` returns when \p host may be rewritten.
Status uploadPinned(void *dev, const void *host, uint64_t bytes, UploadFence &fence);

/// Host to device on the compute stream (host reusable on return).
Status upload(void *dev, const void *host, uint64_t bytes);
/// Device to host; waits for the compute stream.
Status download(void *host, const void *dev, uint64_t bytes);
/// Uploads \p count floats.
inline Status uploadFloats(DeviceBuffer &dev, const float *host,
                           size_t count) {
  return upload(dev.data(), host, count * sizeof(float));
}
/// Downloads \p count floats.
inline Status downloadFloats(float *host, const DeviceBuffer &dev,
                             size_t count) {
  return download(host, dev.data(), count * sizeof(float));
}

/// Records the module of an embedded PTX text (\p ptx: the runtime's
/// modelrt_*_ptx functions), loaded lazily by the mgpu shim; callers keep
/// the handle in a static, so that each text is recorded once.
inline void *embeddedModule(const char *(*ptx)(size_t *size)) {
  size_t size = 0;
  return mgpuModuleLoadJIT(const_cast<char *>(ptx(&size)), 2);
}

} // namespace cuda
} // namespace modelrt

#endif // MODELRT_CUDA_H
