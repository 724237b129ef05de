//===- CudaDriver.cpp - Loading the CUDA driver, the sticky error ----------===//
//
// Implements the driver table of CudaDriver.h: dlopen of libcuda.so.1 (or
// MODELRT_CUDA_DRIVER) once per process, dlsym of every entry point, and the
// process's sticky CUDA error that the `void` C entry points report through.
//
//===----------------------------------------------------------------------===//
#include "CudaDriver.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <mutex>

namespace modelrt {
namespace cuda {
namespace {

#define MODELRT_STR2(x) #x
#define MODELRT_STR(x) MODELRT_STR2(x)

struct DriverSlot {
  std::mutex mutex;
  bool tried = false;
  bool ok = false;
  DriverApi api;
  std::string why;
};

DriverSlot &driverSlot() {
  static DriverSlot *slot = new DriverSlot(); // never destroyed
  return *slot;
}

struct StickyError {
  std::mutex mutex;
  std::atomic<bool> set{false};
  int32_t code = 0;
  std::string message;
  /// A graph capture's scope (beginCaptureErrors): its first error.
  std::atomic<bool> capturing{false}, captureSet{false};
  int32_t captureCode = 0;
  std::string captureMessage;
};

StickyError &sticky() {
  static StickyError *error = new StickyError(); // never destroyed
  return *error;
}

std::string openFailure(const char *path, bool fromEnv) {
  if (!fromEnv)
    return "no NVIDIA driver: libcuda.so.1 not found";
  const char *detail = dlerror();
  return std::string("no NVIDIA driver: MODELRT_CUDA_DRIVER=") + path +
         " cannot be loaded" + (detail ? std::string(" (") + detail + ")" : "");
}

} // namespace

bool loadDriverApi(const char *path, bool fromEnv, DriverApi &api,
                   std::string &why) {
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    why = openFailure(path, fromEnv);
    return false;
  }
  const char *missing = nullptr;
#define MODELRT_CUDA_LOAD(name)                                                \
  api.name = reinterpret_cast<decltype(api.name)>(                             \
      dlsym(lib, MODELRT_STR(name)));                                          \
  if (!api.name && !missing)                                                   \
    missing = MODELRT_STR(name);
  MODELRT_CUDA_DRIVER_FUNCTIONS(MODELRT_CUDA_LOAD)
#undef MODELRT_CUDA_LOAD
  if (missing) {
    why = std::string("the NVIDIA driver is too old: ") + path + " lacks " +
          missing + " (a driver supporting CUDA 13 is needed)";
    return false;
  }
  return true; // the library stays open for the life of the process
}

const DriverApi *driverApi(std::string *why) {
  DriverSlot &slot = driverSlot();
  std::lock_guard<std::mutex> lock(slot.mutex);
  if (!slot.tried) {
    slot.tried = true;
    const char *env = std::getenv("MODELRT_CUDA_DRIVER");
    bool fromEnv = env && *env;
    slot.ok = loadDriverApi(fromEnv ? env : "libcuda.so.1", fromEnv, slot.api,
                            slot.why);
  }
  if (!slot.ok && why)
    *why = slot.why;
  return slot.ok ? &slot.api : nullptr;
}

std::string resultName(CUresult result) {
  const DriverApi *api = driverApi();
  const char *name = nullptr;
  if (api && api->cuGetErrorName(result, &name) == CUDA_SUCCESS && name)
    return name;
  return "CUresult " + std::to_string(static_cast<int>(result));
}

Status setStickyError(int32_t code, const std::string &message) {
  StickyError &error = sticky();
  std::lock_guard<std::mutex> lock(error.mutex);
  if (error.capturing.load()) {
    if (!error.captureSet.load()) {
      error.captureCode = code;
      error.captureMessage = message;
      error.captureSet.store(true);
    }
  } else if (!error.set.load()) {
    error.code = code;
    error.message = message;
    error.set.store(true);
  }
  return Status::error(message);
}

bool checkCu(CUresult result, const char *what) {
  if (result == CUDA_SUCCESS)
    return true;
  setStickyError(static_cast<int32_t>(result),
                 std::string("CUDA error: ") + what + " failed with " +
                     resultName(result));
  return false;
}

bool hasStickyError() {
  StickyError &error = sticky();
  return error.set.load() || (error.capturing.load() && error.captureSet.load());
}

void beginCaptureErrors() {
  StickyError &error = sticky();
  std::lock_guard<std::mutex> lock(error.mutex);
  error.captureSet.store(false);
  error.captureCode = 0;
  error.captureMessage.clear();
  error.capturing.store(true);
}

Status endCaptureErrors() {
  StickyError &error = sticky();
  std::lock_guard<std::mutex> lock(error.mutex);
  error.capturing.store(false);
  if (!error.captureSet.exchange(false))
    return Status::ok();
  return Status::error(error.captureMessage);
}

Status stickyStatus() {
  StickyError &error = sticky();
  if (!error.set.load())
    return Status::ok();
  std::lock_guard<std::mutex> lock(error.mutex);
  return Status::error(error.message);
}

void resetForTesting() {
  {
    StickyError &error = sticky();
    std::lock_guard<std::mutex> lock(error.mutex);
    error.set.store(false);
    error.code = 0;
    error.message.clear();
    error.capturing.store(false);
    error.captureSet.store(false);
  }
  {
    DriverSlot &slot = driverSlot();
    std::lock_guard<std::mutex> lock(slot.mutex);
    slot.tried = false;
    slot.ok = false;
    slot.api = DriverApi();
    slot.why.clear();
  }
  resetProbeForTesting();
  resetStateForTesting();
  resetBlasForTesting();
  resetCudnnForTesting();
  resetPoolForTesting();
}

} // namespace cuda
} // namespace modelrt

using namespace modelrt::cuda;

extern "C" int32_t modelrt_cuda_status(void) {
  StickyError &error = sticky();
  if (!hasStickyError())
    return 0;
  std::lock_guard<std::mutex> lock(error.mutex);
  if (error.set.load())
    return error.code;
  return error.captureCode ? error.captureCode : -1;
}

extern "C" const char *modelrt_cuda_error_message(void) {
  StickyError &error = sticky();
  if (!error.set.load())
    return "";
  std::lock_guard<std::mutex> lock(error.mutex);
  return error.message.c_str(); // written once until resetForTesting
}
