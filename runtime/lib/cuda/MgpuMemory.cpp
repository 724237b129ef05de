//===- MgpuMemory.cpp - mgpu streams, events, memory and copies ------------===//
//
// Implements the rest of the `mgpu*` ABI of MLIR 22's gpu-to-llvm lowering:
//   void *mgpuStreamCreate(void)        -> the runtime's compute stream
//   void  mgpuStreamDestroy/Synchronize(void *stream)
//   void  mgpuStreamWaitEvent(void *stream, void *event)
//   void *mgpuEventCreate(void); void mgpuEventDestroy/Synchronize(void *)
//   void  mgpuEventRecord(void *event, void *stream)
//   void *mgpuMemAlloc(uint64_t bytes, void *stream, bool isHostShared)
//   void  mgpuMemFree(void *ptr, void *stream)
//   void  mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream)
//   void  mgpuMemset32(void *dst, unsigned value, size_t count, void *stream)
//   void  mgpuMemset16(void *dst, unsigned short value, size_t count, ...)
//   void  mgpuMemHostRegister(void *, uint64_t), mgpuMemHostUnregister(void *)
//   void  mgpuMemHostRegisterMemRef / UnregisterMemRef(int64_t rank,
//                              void *descriptor, int64_t elementSizeBytes)
//   void  mgpuSetDefaultDevice(int32_t device)
// Device memory comes from the caching DevicePool; host-shared memory from
// cuMemAllocManaged. A null stream means the compute stream.
//
//===----------------------------------------------------------------------===//
#include "CudaDriver.h"
#include "DevicePool.h"

#include <mutex>
#include <unordered_set>

using namespace modelrt;
using namespace modelrt::cuda;

namespace {

CUstream streamOf(void *stream, CudaState &s) {
  return stream ? static_cast<CUstream>(stream) : s.compute;
}

/// The managed (host-shared) blocks, freed with cuMemFree directly.
struct ManagedBlocks {
  std::mutex mutex;
  std::unordered_set<void *> blocks;
};

ManagedBlocks &managedBlocks() {
  static ManagedBlocks *blocks = new ManagedBlocks(); // never destroyed
  return *blocks;
}

void *allocManaged(uint64_t bytes) {
  CUdeviceptr ptr = 0;
  if (!checkCu(driverApi()->cuMemAllocManaged(&ptr, bytes ? bytes : 1,
                                              CU_MEM_ATTACH_GLOBAL),
               "cuMemAllocManaged (gpu.alloc host_shared)"))
    return nullptr;
  ManagedBlocks &m = managedBlocks();
  std::lock_guard<std::mutex> lock(m.mutex);
  m.blocks.insert(reinterpret_cast<void *>(ptr));
  return reinterpret_cast<void *>(ptr);
}

bool freeManaged(void *ptr) {
  ManagedBlocks &m = managedBlocks();
  {
    std::lock_guard<std::mutex> lock(m.mutex);
    if (!m.blocks.erase(ptr))
      return false;
  }
  checkCu(driverApi()->cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)),
          "cuMemFree (host-shared)");
  return true;
}

/// The memref descriptor of MLIR's C interface (rank-erased).
struct MemRefDescriptor {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[1]; ///< sizes[rank], then strides[rank]
};

/// The dense bytes a memref spans, from its sizes.
uint64_t memrefBytes(int64_t rank, const MemRefDescriptor *d,
                     int64_t elementBytes) {
  uint64_t count = 1;
  for (int64_t i = 0; i < rank; ++i)
    count *= static_cast<uint64_t>(d->sizesAndStrides[i]);
  return count * static_cast<uint64_t>(elementBytes);
}

} // namespace

extern "C" void *mgpuStreamCreate(void) {
  CudaState *s = requireCuda("mgpuStreamCreate");
  return s ? s->compute : nullptr;
}

extern "C" void mgpuStreamDestroy(void *stream) {
  CudaState *s = cudaState();
  if (!s || !stream || stream == s->compute || !initCuda())
    return;
  checkCu(driverApi()->cuStreamDestroy(static_cast<CUstream>(stream)),
          "cuStreamDestroy");
}

/// Waits for \p stream, except the compute stream when no gpu.memcpy is
/// queued on it: modelc's generated host code (gpu-async-region) waits at
/// the end of every entry function and before every sgemm call, but all it
/// enqueues, sgemm included, is ordered on that one stream and the host
/// reads device memory only through modelrt_cuda_download and
/// modelrt_cuda_fetch_scratch, which wait themselves (and report a failed
/// kernel). Skipping these waits keeps the GPU
/// fed instead of idle at each of them.
extern "C" void mgpuStreamSynchronize(void *stream) {
  CudaState *s = requireCuda("mgpuStreamSynchronize");
  if (!s)
    return;
  CUstream target = streamOf(stream, *s);
  if (target == s->compute && !s->memcpyPending.exchange(false))
    return;
  checkCu(driverApi()->cuStreamSynchronize(streamOf(stream, *s)),
          s->capturing ? "cuStreamSynchronize (the host code waits: a graph cannot hold that)"
                       : "cuStreamSynchronize (a kernel or copy before it failed)");
}

extern "C" void mgpuStreamWaitEvent(void *stream, void *event) {
  if (CudaState *s = requireCuda("mgpuStreamWaitEvent"))
    checkCu(driverApi()->cuStreamWaitEvent(streamOf(stream, *s),
                                           static_cast<CUevent>(event), 0),
            "cuStreamWaitEvent");
}

extern "C" void *mgpuEventCreate(void) {
  if (!requireCuda("mgpuEventCreate"))
    return nullptr;
  CUevent event = nullptr;
  checkCu(driverApi()->cuEventCreate(&event, CU_EVENT_DISABLE_TIMING),
          "cuEventCreate");
  return event;
}

extern "C" void mgpuEventDestroy(void *event) {
  if (event && cudaState() && initCuda())
    checkCu(driverApi()->cuEventDestroy(static_cast<CUevent>(event)),
            "cuEventDestroy");
}

extern "C" void mgpuEventSynchronize(void *event) {
  if (requireCuda("mgpuEventSynchronize"))
    checkCu(driverApi()->cuEventSynchronize(static_cast<CUevent>(event)),
            "cuEventSynchronize");
}

extern "C" void mgpuEventRecord(void *event, void *stream) {
  if (CudaState *s = requireCuda("mgpuEventRecord"))
    checkCu(driverApi()->cuEventRecord(static_cast<CUevent>(event),
                                       streamOf(stream, *s)),
            "cuEventRecord");
}

extern "C" void *mgpuMemAlloc(uint64_t bytes, void * /*stream*/,
                              bool isHostShared) {
  if (!requireCuda("mgpuMemAlloc"))
    return nullptr;
  if (isHostShared)
    return allocManaged(bytes);
  Expected<void *> ptr = devicePool().allocate(bytes);
  if (!ptr) {
    setStickyError(static_cast<int32_t>(CUDA_ERROR_OUT_OF_MEMORY),
                   "mgpuMemAlloc: " + ptr.message());
    return nullptr;
  }
  return *ptr;
}

extern "C" void mgpuMemFree(void *ptr, void * /*stream*/) {
  if (!ptr || !cudaState() || !initCuda() || freeManaged(ptr))
    return;
  Status s = devicePool().free(ptr);
  if (!s)
    setStickyError(-1, "mgpuMemFree: " + s.message());
}

extern "C" void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream) {
  if (hasStickyError() || bytes == 0)
    return;
  if (CudaState *s = requireCuda("mgpuMemcpy")) {
    if (streamOf(stream, *s) == s->compute)
      s->memcpyPending = true;
    checkCu(driverApi()->cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                                       reinterpret_cast<CUdeviceptr>(src),
                                       bytes, streamOf(stream, *s)),
            "cuMemcpyAsync (gpu.memcpy)");
  }
}

extern "C" void mgpuMemset32(void *dst, unsigned int value, size_t count,
                             void *stream) {
  if (hasStickyError() || count == 0)
    return;
  if (CudaState *s = requireCuda("mgpuMemset32"))
    checkCu(driverApi()->cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst),
                                          value, count, streamOf(stream, *s)),
            "cuMemsetD32Async (gpu.memset)");
}

extern "C" void mgpuMemset16(void *dst, unsigned short value, size_t count,
                             void *stream) {
  if (hasStickyError() || count == 0)
    return;
  if (CudaState *s = requireCuda("mgpuMemset16"))
    checkCu(driverApi()->cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst),
                                          value, count, streamOf(stream, *s)),
            "cuMemsetD16Async (gpu.memset)");
}

extern "C" void mgpuMemHostRegister(void *ptr, uint64_t bytes) {
  if (requireCuda("mgpuMemHostRegister"))
    checkCu(driverApi()->cuMemHostRegister(ptr, bytes, 0), "cuMemHostRegister");
}

extern "C" void mgpuMemHostUnregister(void *ptr) {
  if (requireCuda("mgpuMemHostUnregister"))
    checkCu(driverApi()->cuMemHostUnregister(ptr), "cuMemHostUnregister");
}

extern "C" void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                          int64_t elementSizeBytes) {
  auto *d = static_cast<MemRefDescriptor *>(descriptor);
  mgpuMemHostRegister(d->aligned + d->offset * elementSizeBytes,
                      memrefBytes(rank, d, elementSizeBytes));
}

extern "C" void mgpuMemHostUnregisterMemRef(int64_t /*rank*/, void *descriptor,
                                            int64_t elementSizeBytes) {
  auto *d = static_cast<MemRefDescriptor *>(descriptor);
  mgpuMemHostUnregister(d->aligned + d->offset * elementSizeBytes);
}

extern "C" void mgpuSetDefaultDevice(int32_t device) {
  const Availability &a = probeCuda();
  if (a.usable && device != a.deviceIndex)
    setStickyError(-1, "mgpuSetDefaultDevice(" + std::to_string(device) +
                           "): modelrt uses CUDA device " +
                           std::to_string(a.deviceIndex) +
                           " (choose it with MODELRT_CUDA_DEVICE)");
}
