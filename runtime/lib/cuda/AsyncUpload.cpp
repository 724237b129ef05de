//===- AsyncUpload.cpp - Uploads on the copy stream, and the C copy helpers ===//
//
// Implements UploadFence and uploadAsync() of modelrt/cuda/Cuda.h (the copy
// stream waits for the compute stream's earlier work, the compute stream's
// later work waits for the copy) and the C helpers
// modelrt_cuda_upload/download/copy that the compiled entry adapters call;
// their errors are sticky.
//
//===----------------------------------------------------------------------===//
#include "CudaDriver.h"

namespace modelrt {
namespace cuda {

static CUevent asEvent(void *event) { return static_cast<CUevent>(event); }

Expected<UploadFence> UploadFence::create() {
  MODELRT_TRY(initCuda());
  UploadFence fence;
  CUevent a = nullptr, b = nullptr;
  CUresult r = driverApi()->cuEventCreate(&a, CU_EVENT_DISABLE_TIMING);
  if (r == CUDA_SUCCESS)
    r = driverApi()->cuEventCreate(&b, CU_EVENT_DISABLE_TIMING);
  fence.computeDone = a;
  fence.copyDone = b;
  if (r != CUDA_SUCCESS)
    return Status::error("cuEventCreate failed with " + resultName(r));
  return fence;
}

UploadFence::UploadFence(UploadFence &&other) noexcept
    : computeDone(other.computeDone), copyDone(other.copyDone) {
  other.computeDone = other.copyDone = nullptr;
}

UploadFence &UploadFence::operator=(UploadFence &&other) noexcept {
  if (this != &other) {
    reset();
    std::swap(computeDone, other.computeDone);
    std::swap(copyDone, other.copyDone);
  }
  return *this;
}

UploadFence::~UploadFence() { reset(); }

void UploadFence::reset() {
  if ((computeDone || copyDone) && initCuda()) {
    if (computeDone)
      driverApi()->cuEventDestroy(asEvent(computeDone));
    if (copyDone)
      driverApi()->cuEventDestroy(asEvent(copyDone));
  }
  computeDone = copyDone = nullptr;
}

Status UploadFence::wait() {
  if (!copyDone)
    return Status::error("waiting on an UploadFence that was never created");
  MODELRT_TRY(initCuda());
  if (!checkCu(driverApi()->cuEventSynchronize(asEvent(copyDone)),
               "cuEventSynchronize (upload fence)"))
    return stickyStatus();
  return Status::ok();
}

Status uploadAsync(void *dev, const PinnedBuffer &host, uint64_t bytes,
                   UploadFence &fence) {
  if (bytes > host.size())
    return Status::error("uploadAsync of " + std::to_string(bytes) +
                         " bytes from a pinned buffer of " +
                         std::to_string(host.size()));
  if (!fence.copyDone)
    return Status::error("uploadAsync with an UploadFence never created");
  MODELRT_TRY(initCuda());
  MODELRT_TRY(stickyStatus());
  const DriverApi &api = *driverApi();
  CudaState &s = *cudaState();
  bool ok = checkCu(api.cuEventRecord(asEvent(fence.computeDone), s.compute),
                    "cuEventRecord (compute stream)") &&
            checkCu(api.cuStreamWaitEvent(s.copy, asEvent(fence.computeDone), 0),
                    "cuStreamWaitEvent (copy stream)") &&
            checkCu(api.cuMemcpyHtoDAsync(reinterpret_cast<CUdeviceptr>(dev),
                                          host.data(), bytes, s.copy),
                    "cuMemcpyHtoDAsync (copy stream)") &&
            checkCu(api.cuEventRecord(asEvent(fence.copyDone), s.copy),
                    "cuEventRecord (copy stream)") &&
            checkCu(api.cuStreamWaitEvent(s.compute, asEvent(fence.copyDone), 0),
                    "cuStreamWaitEvent (compute stream)");
  return ok ? Status::ok() : stickyStatus();
}

Status uploadPinned(void *dev, const void *host, uint64_t bytes, UploadFence &fence) {
  if (!fence.copyDone)
    return Status::error("uploadPinned with an UploadFence never created");
  MODELRT_TRY(initCuda());
  MODELRT_TRY(stickyStatus());
  const DriverApi &api = *driverApi();
  CudaState &s = *cudaState();
  bool ok = checkCu(api.cuMemcpyHtoDAsync(reinterpret_cast<CUdeviceptr>(dev), host, bytes,
                                          s.compute),
                    "cuMemcpyHtoDAsync (pinned batch)") &&
            checkCu(api.cuEventRecord(asEvent(fence.copyDone), s.compute),
                    "cuEventRecord (pinned batch)");
  return ok ? Status::ok() : stickyStatus();
}

} // namespace cuda
} // namespace modelrt

using namespace modelrt;
using namespace modelrt::cuda;

/// Rejects a negative size for \p caller with a sticky error.
static bool validSize(int64_t bytes, const char *caller) {
  if (bytes >= 0)
    return true;
  setStickyError(-1, std::string(caller) + ": negative size " +
                         std::to_string(bytes));
  return false;
}

extern "C" void modelrt_cuda_upload(void *dev, const void *host,
                                    int64_t bytes) {
  if (!validSize(bytes, "modelrt_cuda_upload") || hasStickyError())
    return;
  Status s = upload(dev, host, static_cast<uint64_t>(bytes));
  if (!s)
    setStickyError(-1, "modelrt_cuda_upload: " + s.message());
}

extern "C" void modelrt_cuda_download(void *host, const void *dev,
                                      int64_t bytes) {
  if (!validSize(bytes, "modelrt_cuda_download") || hasStickyError())
    return;
  Status s = download(host, dev, static_cast<uint64_t>(bytes));
  if (!s)
    setStickyError(-1, "modelrt_cuda_download: " + s.message());
}

extern "C" void modelrt_cuda_copy(void *dst, const void *src, int64_t bytes) {
  if (!validSize(bytes, "modelrt_cuda_copy") || hasStickyError() || !bytes)
    return;
  CudaState *s = requireCuda("modelrt_cuda_copy");
  if (!s)
    return;
  checkCu(driverApi()->cuMemcpyDtoDAsync(reinterpret_cast<CUdeviceptr>(dst),
                                         reinterpret_cast<CUdeviceptr>(src),
                                         bytes, s->compute),
          "cuMemcpyDtoDAsync (modelrt_cuda_copy)");
}
