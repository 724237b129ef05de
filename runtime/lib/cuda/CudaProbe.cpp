//===- CudaProbe.cpp - Is there a usable GPU, and why not ------------------===//
//
// Implements probeCuda(), describe() and cudaUsable() of modelrt/cuda/Cuda.h.
// The probe walks the conditions in order and stops at the first that fails, so
// the user reads exactly one reason: MODELRT_DEVICE=cpu, no driver, cuInit,
// no device / bad MODELRT_CUDA_DEVICE, compute capability below 9.0, cuBLAS.
//
//===----------------------------------------------------------------------===//
#include "CudaDriver.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

namespace modelrt {
namespace cuda {
namespace {

struct ProbeSlot {
  std::mutex mutex;
  std::unique_ptr<Availability> result;
};

ProbeSlot &probeSlot() {
  static ProbeSlot *slot = new ProbeSlot(); // never destroyed
  return *slot;
}

/// Parses MODELRT_CUDA_DEVICE; false when it is set but not an index.
bool deviceIndexFromEnv(int &index) {
  const char *env = std::getenv("MODELRT_CUDA_DEVICE");
  index = 0;
  if (!env || !*env)
    return true;
  char *end = nullptr;
  long value = std::strtol(env, &end, 10);
  if (*end != '\0' || value < 0 || value > 1024)
    return false;
  index = static_cast<int>(value);
  return true;
}

/// Fills name, capability and memory of device \p ordinal; a reason on error.
std::string queryDevice(const DriverApi &api, int ordinal, Availability &a) {
  CUdevice dev = 0;
  CUresult r = api.cuDeviceGet(&dev, ordinal);
  char name[256] = {0};
  size_t total = 0;
  if (r == CUDA_SUCCESS)
    r = api.cuDeviceGetName(name, sizeof(name) - 1, dev);
  if (r == CUDA_SUCCESS)
    r = api.cuDeviceGetAttribute(
        &a.ccMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  if (r == CUDA_SUCCESS)
    r = api.cuDeviceGetAttribute(
        &a.ccMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
  if (r == CUDA_SUCCESS)
    r = api.cuDeviceTotalMem(&total, dev);
  if (r != CUDA_SUCCESS)
    return "querying CUDA device " + std::to_string(ordinal) + " failed with " +
           resultName(r);
  a.name = name;
  a.totalBytes = total;
  return "";
}

/// The free bytes, through the device's primary context (made current).
void queryFreeMemory(const DriverApi &api, int ordinal, Availability &a) {
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  size_t freeBytes = 0, totalBytes = 0;
  if (api.cuDeviceGet(&dev, ordinal) == CUDA_SUCCESS &&
      api.cuDevicePrimaryCtxRetain(&ctx, dev) == CUDA_SUCCESS &&
      api.cuCtxSetCurrent(ctx) == CUDA_SUCCESS &&
      api.cuMemGetInfo(&freeBytes, &totalBytes) == CUDA_SUCCESS)
    a.freeBytes = freeBytes;
}

/// The device checks after the driver loaded; a reason, or "" when usable.
std::string probeDevice(const DriverApi &api, Availability &a) {
  CUresult r = api.cuInit(0);
  if (r != CUDA_SUCCESS)
    return "cuInit failed with " + resultName(r);
  api.cuDriverGetVersion(&a.driverVersion);
  int count = 0;
  r = api.cuDeviceGetCount(&count);
  if (r != CUDA_SUCCESS)
    return "cuDeviceGetCount failed with " + resultName(r);
  if (count == 0)
    return "no CUDA device found";
  if (!deviceIndexFromEnv(a.deviceIndex))
    return std::string("MODELRT_CUDA_DEVICE='") +
           std::getenv("MODELRT_CUDA_DEVICE") + "' is not a device index";
  if (a.deviceIndex >= count)
    return "MODELRT_CUDA_DEVICE=" + std::to_string(a.deviceIndex) +
           " but there are only " + std::to_string(count) + " CUDA device(s)";
  std::string why = queryDevice(api, a.deviceIndex, a);
  if (!why.empty())
    return why;
  if (a.ccMajor < 9)
    return a.name + " has compute capability " + std::to_string(a.ccMajor) +
           "." + std::to_string(a.ccMinor) +
           ", below 9.0 (the embedded kernels are PTX for sm_90)";
  Expected<std::pair<int, int>> blas = cublasVersion();
  if (!blas)
    return blas.message();
  a.cublasMajor = blas->first;
  a.cublasMinor = blas->second;
  queryFreeMemory(api, a.deviceIndex, a);
  return "";
}

Availability runProbe() {
  Availability a;
  const char *device = std::getenv("MODELRT_DEVICE");
  if (device && std::strcmp(device, "cpu") == 0) {
    a.reason = "MODELRT_DEVICE=cpu";
    return a;
  }
  if (device && *device && std::strcmp(device, "cuda") != 0 &&
      std::strcmp(device, "gpu") != 0) {
    a.reason = std::string("MODELRT_DEVICE='") + device +
               "' is not one of cpu, cuda";
    return a;
  }
  std::string why;
  const DriverApi *api = driverApi(&why);
  if (api)
    why = probeDevice(*api, a);
  a.usable = why.empty();
  a.reason = why;
  return a;
}

} // namespace

const Availability &probeCuda() {
  ProbeSlot &slot = probeSlot();
  std::lock_guard<std::mutex> lock(slot.mutex);
  if (!slot.result)
    slot.result.reset(new Availability(runProbe()));
  return *slot.result;
}

void resetProbeForTesting() {
  ProbeSlot &slot = probeSlot();
  std::lock_guard<std::mutex> lock(slot.mutex);
  slot.result.release(); // callers may still hold the old reference
}

bool cudaUsable() { return probeCuda().usable; }

std::string describe() {
  const Availability &a = probeCuda();
  if (!a.usable)
    return "GPU not used: " + a.reason + "; running on the CPU";
  char line[512];
  std::snprintf(line, sizeof(line),
                "GPU: %s (sm_%d%d, %.1f GiB, driver %d.%d, cuBLAS %d.%d)",
                a.name.c_str(), a.ccMajor, a.ccMinor,
                a.totalBytes / (1024.0 * 1024.0 * 1024.0),
                a.driverVersion / 1000, a.driverVersion % 1000 / 10,
                a.cublasMajor, a.cublasMinor);
  return line;
}

} // namespace cuda
} // namespace modelrt
