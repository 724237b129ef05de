//===- DeviceMemory.cpp - Device buffers, pinned buffers and copies --------===//
//
// Implements the memory part of modelrt/cuda/Cuda.h: the process's
// DevicePool over cuMemAlloc, the memory behind DeviceBuffer (the pool) and
// PinnedBuffer (cuMemAllocHost), and synchronous-for-the-host
// upload/download.
//
//===----------------------------------------------------------------------===//
#include "CudaDriver.h"
#include "DevicePool.h"

namespace modelrt {
namespace cuda {
namespace {

/// cuMemAlloc / cuMemFree of the current context.
class CudaAllocator : public DeviceAllocator {
public:
  AllocResult allocate(uint64_t bytes, void **ptr,
                       std::string &error) override {
    CUdeviceptr dev = 0;
    CUresult r = driverApi()->cuMemAlloc(&dev, bytes);
    if (r == CUDA_ERROR_OUT_OF_MEMORY)
      return AllocResult::OutOfMemory;
    if (r != CUDA_SUCCESS) {
      error = "cuMemAlloc of " + std::to_string(bytes) + " bytes failed with " +
              resultName(r);
      return AllocResult::Failed;
    }
    *ptr = reinterpret_cast<void *>(dev);
    return AllocResult::Ok;
  }
  void release(void *ptr) override {
    checkCu(driverApi()->cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)),
            "cuMemFree");
  }
  uint64_t freeBytes() override {
    size_t freeMem = 0, total = 0;
    driverApi()->cuMemGetInfo(&freeMem, &total);
    return freeMem;
  }
  void waitIdle() override {
    if (CudaState *s = cudaState())
      checkCu(driverApi()->cuStreamSynchronize(s->compute),
              "cuStreamSynchronize (before releasing cached memory)");
  }
};

CUdeviceptr devPtr(const void *ptr) {
  return reinterpret_cast<CUdeviceptr>(ptr);
}

/// The compute stream after initCuda(), or an error.
Expected<CUstream> computeOrError() {
  MODELRT_TRY(initCuda());
  MODELRT_TRY(stickyStatus());
  return cudaState()->compute;
}

/// A CUresult as a Status that is also recorded as the sticky error.
Status cuStatus(CUresult r, const char *what) {
  return checkCu(r, what) ? Status::ok() : stickyStatus();
}

} // namespace

static DevicePool *&poolSlot() {
  static CudaAllocator *backend = new CudaAllocator(); // never destroyed
  static DevicePool *pool = new DevicePool(*backend);
  return pool;
}

DevicePool &devicePool() { return *poolSlot(); }

void resetPoolForTesting() {
  static CudaAllocator *backend = new CudaAllocator();
  poolSlot() = new DevicePool(*backend); // the old one leaks: tests only
}

DevicePoolStats devicePoolStats() { return devicePool().stats(); }

void devicePoolResetPeak() { devicePool().resetPeak(); }

void devicePoolTrim() {
  if (cudaState() && initCuda())
    devicePool().trim();
}

Expected<void *> DeviceMemory::allocate(uint64_t bytes) {
  MODELRT_TRY(initCuda());
  return devicePool().allocate(bytes);
}

void DeviceMemory::release(void *ptr) {
  devicePool().free(ptr); // it came from the pool: cannot fail
}

Expected<void *> PinnedMemory::allocate(uint64_t bytes) {
  MODELRT_TRY(initCuda());
  void *ptr = nullptr;
  CUresult r = driverApi()->cuMemAllocHost(&ptr, bytes ? bytes : 1);
  if (r != CUDA_SUCCESS)
    return Status::error("cuMemAllocHost of " + std::to_string(bytes) +
                         " bytes failed with " + resultName(r));
  return ptr;
}

void PinnedMemory::release(void *ptr) {
  if (initCuda())
    checkCu(driverApi()->cuMemFreeHost(ptr), "cuMemFreeHost");
}

Status upload(void *dev, const void *host, uint64_t bytes) {
  if (bytes == 0)
    return Status::ok();
  Expected<CUstream> stream = computeOrError();
  if (!stream)
    return stream.status();
  return cuStatus(
      driverApi()->cuMemcpyHtoDAsync(devPtr(dev), host, bytes, *stream),
      "cuMemcpyHtoDAsync (upload)");
}

Status download(void *host, const void *dev, uint64_t bytes) {
  if (bytes == 0)
    return Status::ok();
  Expected<CUstream> stream = computeOrError();
  if (!stream)
    return stream.status();
  MODELRT_TRY(cuStatus(
      driverApi()->cuMemcpyDtoHAsync(host, devPtr(dev), bytes, *stream),
      "cuMemcpyDtoHAsync (download)"));
  return cuStatus(driverApi()->cuStreamSynchronize(*stream),
                  "cuStreamSynchronize (download)");
}

uint64_t availableDeviceBytes() {
  if (!cudaState())
    return 0;
  size_t freeMem = 0, total = 0;
  if (driverApi()->cuMemGetInfo(&freeMem, &total) != CUDA_SUCCESS)
    return 0;
  return uint64_t(freeMem) + devicePoolStats().bytesCached;
}

} // namespace cuda
} // namespace modelrt
