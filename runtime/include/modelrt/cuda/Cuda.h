//===- Cuda.h - The runtime's CUDA layer: probe, context, pool, buffers ---===//
//
// Declares the C++ API of modelrt's CUDA layer. Nothing here links against
// CUDA: the driver (libcuda.so.1) and cuBLAS (libcublas.so.13) are opened
// with dlopen on first use, so every compiled model starts and runs on the
// CPU on a machine without a GPU. The layer provides
//   - the availability probe (`probeCuda`, `describe`, `cudaUsable`);
//   - the context, the runtime-owned compute stream and a copy stream
//     (`initCuda`, `synchronize`);
//   - device buffers from a caching pool and pinned host buffers (one RAII
//     template, `Buffer`), copies, asynchronous uploads;
//   - CUDA graphs of a step (`StepGraph`).
// The C functions that generated code calls (`modelrt_cuda_*`, `mgpu*`) are
// GpuAbi.h; this header does not declare them.
//
// Environment: MODELRT_DEVICE=cpu forces the CPU; MODELRT_CUDA_DEVICE=N picks
// device N (default 0); MODELRT_CUDA_DRIVER=PATH and MODELRT_CUBLAS=PATH
// override the library paths.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CUDA_CUDA_H
#define MODELRT_CUDA_CUDA_H

#include "modelrt/core/Status.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

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

/// "cuDNN 9.19.0 (libcudnn.so.9)" once a GPU convolution has loaded cuDNN
/// (runtime/lib/cuda/Cudnn.cpp; `--profile` prints it), else "".
std::string cudnnInUse();

/// Loads cuDNN as the GPU convolutions would (no GPU needed): "cuDNN 9.19.0
/// (libcudnn.so.9)", or "unavailable: " and why, with the remedy (`info`
/// prints it for a program whose GPU convolutions call cuDNN).
std::string cudnnAvailability();

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

/// Where a Buffer's memory comes from: `allocate` returns \p bytes of it (or
/// an error), `release` gives back what `allocate` returned.
/// The device pool (cuMemAlloc behind a cache; initialises CUDA on first use).
struct DeviceMemory {
  static Expected<void *> allocate(uint64_t bytes);
  static void release(void *ptr);
};
/// Page-locked host memory (cuMemAllocHost), for asynchronous uploads.
struct PinnedMemory {
  static Expected<void *> allocate(uint64_t bytes);
  static void release(void *ptr);
};

/// An allocation of \p Memory, released on destruction; move-only.
template <typename Memory> class Buffer {
public:
  Buffer() = default;
  /// Allocates \p bytes.
  static Expected<Buffer> allocate(uint64_t bytes) {
    Expected<void *> ptr = Memory::allocate(bytes);
    if (!ptr)
      return ptr.status();
    Buffer buffer;
    buffer.ptr = *ptr;
    buffer.bytes = bytes;
    return buffer;
  }
  Buffer(Buffer &&other) noexcept
      : ptr(std::exchange(other.ptr, nullptr)),
        bytes(std::exchange(other.bytes, 0)) {}
  Buffer &operator=(Buffer &&other) noexcept {
    if (this != &other) {
      reset();
      std::swap(ptr, other.ptr);
      std::swap(bytes, other.bytes);
    }
    return *this;
  }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  ~Buffer() { reset(); }
  void *data() const { return ptr; }
  float *floats() const { return static_cast<float *>(ptr); }
  uint64_t size() const { return bytes; }

private:
  void reset() {
    if (ptr)
      Memory::release(ptr);
    ptr = nullptr;
    bytes = 0;
  }
  void *ptr = nullptr;
  uint64_t bytes = 0;
};

/// A device allocation from the pool, freed (back to the pool) on destruction.
using DeviceBuffer = Buffer<DeviceMemory>;
/// Page-locked host memory, freed on destruction.
using PinnedBuffer = Buffer<PinnedMemory>;

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
void *embeddedModule(const char *(*ptx)(size_t *size));

} // namespace cuda
} // namespace modelrt

#endif // MODELRT_CUDA_CUDA_H
