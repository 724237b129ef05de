//===- CudaContext.cpp - The context, the streams and the scratch cells ----===//
//
// Implements initCuda(), synchronize(), computeStream() and the internal
// cudaState()/requireCuda() of CudaDriver.h: the primary context of the probed
// device, a non-blocking compute stream that orders all generated work, a
// copy stream for asynchronous uploads, and 64 zeroed 64-byte scratch cells.
// Every entry point binds the context to the calling thread on first use.
//
//===----------------------------------------------------------------------===//
#include "CudaDriver.h"

#include <mutex>

namespace modelrt {
namespace cuda {
namespace {

constexpr int kScratchCells = 64;
constexpr int kScratchCellBytes = 64;

struct StateSlot {
  std::mutex mutex;
  bool tried = false;
  bool ok = false;
  std::string why;
  CudaState state;
};

StateSlot &stateSlot() {
  static StateSlot *slot = new StateSlot(); // never destroyed
  return *slot;
}

thread_local CUcontext boundContext = nullptr;

/// Creates the context, streams and scratch cells; an error message or "".
std::string createState(const DriverApi &api, int ordinal, CudaState &s) {
  CUresult r = api.cuDeviceGet(&s.device, ordinal);
  const char *what = "cuDeviceGet";
  if (r == CUDA_SUCCESS && (what = "cuDevicePrimaryCtxRetain"))
    r = api.cuDevicePrimaryCtxRetain(&s.context, s.device);
  if (r == CUDA_SUCCESS && (what = "cuCtxSetCurrent"))
    r = api.cuCtxSetCurrent(s.context);
  if (r == CUDA_SUCCESS && (what = "cuStreamCreate"))
    r = api.cuStreamCreate(&s.compute, CU_STREAM_NON_BLOCKING);
  if (r == CUDA_SUCCESS)
    r = api.cuStreamCreate(&s.copy, CU_STREAM_NON_BLOCKING);
  if (r == CUDA_SUCCESS && (what = "cuMemAlloc (scratch cells)"))
    r = api.cuMemAlloc(&s.scratch, kScratchCells * kScratchCellBytes);
  if (r == CUDA_SUCCESS && (what = "cuMemAllocHost (scratch cells' mirror)"))
    r = api.cuMemAllocHost(&s.scratchHost, kScratchCells * kScratchCellBytes);
  if (r == CUDA_SUCCESS && (what = "cuMemsetD8Async (scratch cells)"))
    r = api.cuMemsetD8Async(s.scratch, 0, kScratchCells * kScratchCellBytes,
                            s.compute);
  if (r == CUDA_SUCCESS && (what = "cuStreamSynchronize"))
    r = api.cuStreamSynchronize(s.compute);
  if (r != CUDA_SUCCESS)
    return std::string("CUDA initialisation: ") + what + " failed with " +
           resultName(r);
  boundContext = s.context;
  return "";
}

} // namespace

Status initCuda() {
  StateSlot &slot = stateSlot();
  std::lock_guard<std::mutex> lock(slot.mutex);
  if (!slot.tried) {
    slot.tried = true;
    const Availability &a = probeCuda();
    if (!a.usable) {
      slot.why = "the GPU is not usable: " + a.reason;
    } else {
      slot.why = createState(*driverApi(), a.deviceIndex, slot.state);
      slot.ok = slot.why.empty();
    }
  }
  if (!slot.ok)
    return Status::error(slot.why);
  if (boundContext != slot.state.context) {
    CUresult r = driverApi()->cuCtxSetCurrent(slot.state.context);
    if (r != CUDA_SUCCESS)
      return Status::error("cuCtxSetCurrent failed with " + resultName(r));
    boundContext = slot.state.context;
  }
  return Status::ok();
}

CudaState *cudaState() {
  StateSlot &slot = stateSlot();
  std::lock_guard<std::mutex> lock(slot.mutex);
  return slot.ok ? &slot.state : nullptr;
}

CudaState *requireCuda(const char *caller) {
  Status s = initCuda();
  if (!s) {
    setStickyError(-1, std::string(caller) + ": " + s.message());
    return nullptr;
  }
  return cudaState();
}

Status warmUp() {
  MODELRT_TRY(initCuda());
  if (!loadRecordedModules() || !createBlasHandle())
    return stickyStatus();
  return Status::ok();
}

Status synchronize() {
  MODELRT_TRY(stickyStatus());
  CudaState *s = cudaState();
  if (!s)
    return Status::ok(); // nothing was ever enqueued
  MODELRT_TRY(initCuda()); // binds the context to this thread
  if (!checkCu(driverApi()->cuStreamSynchronize(s->compute),
               "cuStreamSynchronize (compute stream)"))
    return stickyStatus();
  return Status::ok();
}

const void *fetchedScratch() {
  CudaState *s = cudaState();
  return s ? s->scratchHost : nullptr;
}

void *computeStream() {
  CudaState *s = cudaState();
  return s ? s->compute : nullptr;
}

void resetStateForTesting() {
  StateSlot &slot = stateSlot();
  std::lock_guard<std::mutex> lock(slot.mutex);
  slot.tried = false;
  slot.ok = false;
  slot.why.clear();
  slot.state.device = 0;
  slot.state.context = nullptr;
  slot.state.compute = slot.state.copy = nullptr;
  slot.state.scratch = 0;
  slot.state.scratchHost = nullptr; // the fake's memory: freed with it
  slot.state.memcpyPending = false;
  boundContext = nullptr;
}

} // namespace cuda
} // namespace modelrt

using namespace modelrt::cuda;

extern "C" void *modelrt_cuda_seed_cell(uint64_t seed) {
  void *cell = modelrt_cuda_scratch(kScratchCells - 1);
  CudaState *s = cell ? cudaState() : nullptr;
  if (!s || s->capturing) // a graph must not bake the seed in
    return cell;
  // Two 32-bit memsets on the compute stream: no host memory to keep alive,
  // ordered before the kernels that read the seed.
  CUdeviceptr p = reinterpret_cast<CUdeviceptr>(cell);
  const DriverApi &api = *driverApi();
  if (!checkCu(api.cuMemsetD32Async(p, uint32_t(seed), 1, s->compute),
               "cuMemsetD32Async (seed)") ||
      !checkCu(api.cuMemsetD32Async(p + 4, uint32_t(seed >> 32), 1, s->compute),
               "cuMemsetD32Async (seed)"))
    return nullptr;
  return cell;
}

extern "C" const void *modelrt_cuda_fetch_scratch(int32_t cells) {
  // Zeros to read when anything fails (the caller reports the sticky error).
  static const char zeros[kScratchCells * kScratchCellBytes] = {};
  if (cells <= 0 || cells > kScratchCells) {
    setStickyError(-1, "modelrt_cuda_fetch_scratch: " + std::to_string(cells) +
                           " cells is outside 1..64");
    return zeros;
  }
  CudaState *s = requireCuda("modelrt_cuda_fetch_scratch");
  if (!s || hasStickyError())
    return zeros;
  const DriverApi &api = *driverApi();
  if (!checkCu(api.cuMemcpyDtoHAsync(s->scratchHost, s->scratch,
                                     size_t(kScratchCells) * kScratchCellBytes, s->compute),
               "cuMemcpyDtoHAsync (scratch cells)") ||
      !checkCu(api.cuStreamSynchronize(s->compute), "cuStreamSynchronize (scratch cells)"))
    return zeros;
  s->memcpyPending = false;
  return s->scratchHost;
}

extern "C" void *modelrt_cuda_scratch(int32_t slot) {
  if (slot < 0 || slot >= kScratchCells) {
    setStickyError(-1, "modelrt_cuda_scratch: slot " + std::to_string(slot) +
                           " is outside 0..63");
    return nullptr;
  }
  CudaState *s = requireCuda("modelrt_cuda_scratch");
  if (!s)
    return nullptr;
  return reinterpret_cast<void *>(s->scratch + slot * kScratchCellBytes);
}
