//===- MgpuModule.cpp - mgpu module loading and kernel launches ------------===//
//
// Implements the module and launch part of the `mgpu*` ABI that MLIR 22's
// gpu-to-llvm host code and gpu.binary translation call (signatures checked
// against the IR that mlir-translate 22 emits; see docs/gpu.md):
//   void *mgpuModuleLoad(void *data, size_t size)       (cubin / fatbin)
//   void *mgpuModuleLoadJIT(void *data, int optLevel)    (PTX, NUL-terminated)
//   void  mgpuModuleUnload(void *module)
//   void *mgpuModuleGetFunction(void *module, const char *name)
//   void  mgpuLaunchKernel(fn, gx, gy, gz, bx, by, bz, int32 smem, stream,
//                          void **params, void **extra, size_t paramsCount)
//   void  mgpuLaunchClusterKernel(fn, cx, cy, cz, gx, ..., paramsCount)
// The loads run in global constructors of every executable, also without a
// GPU, so they only record the image; the module is loaded on the first
// mgpuModuleGetFunction, or by loadRecordedModules() (cuda::warmUp()). After
// a sticky error, launches are skipped. Also cuda::embeddedModule (Cuda.h),
// which records a PTX text embedded in the runtime the same way.
//
//===----------------------------------------------------------------------===//
#include "CudaDriver.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <vector>

using namespace modelrt;
using namespace modelrt::cuda;

namespace {

/// A recorded image, loaded on first use.
struct LazyModule {
  std::mutex mutex;
  const void *data = nullptr;
  size_t size = 0;
  int jitOptLevel = -1; ///< -1: a cubin/fatbin; else PTX (JIT at level 4)
  CUmodule module = nullptr;
  bool failed = false;
  std::map<const char *, CUfunction> functions; ///< by name pointer
};

/// cuModuleLoadDataEx of PTX, with the JIT's error log in the message.
bool loadJit(const DriverApi &api, LazyModule &m) {
  char log[4096] = {0};
  CUjit_option options[] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  // The driver's own default and highest level (ptxas -O3). MLIR passes its
  // LLVM optimisation level (2 by default; LazyModule::jitOptLevel), which is
  // not a choice about the PTX assembler.
  int level = 4;
  void *values[] = {reinterpret_cast<void *>(static_cast<uintptr_t>(level)),
                    log, reinterpret_cast<void *>(sizeof(log) - 1)};
  CUresult r = api.cuModuleLoadDataEx(&m.module, m.data, 3, options, values);
  if (r == CUDA_SUCCESS)
    return true;
  std::string message = "CUDA error: cuModuleLoadDataEx (JIT of the embedded "
                        "PTX) failed with " + resultName(r);
  if (log[0])
    message += ": " + std::string(log);
  setStickyError(static_cast<int32_t>(r), message);
  return false;
}

/// Loads \p m once; false (error recorded) on failure.
bool ensureLoaded(LazyModule &m) {
  if (m.module)
    return true;
  if (m.failed)
    return false;
  const DriverApi &api = *driverApi();
  m.failed = !(m.jitOptLevel >= 0
                   ? loadJit(api, m)
                   : checkCu(api.cuModuleLoadData(&m.module, m.data),
                             "cuModuleLoadData (embedded GPU kernels)"));
  return !m.failed;
}

CUstream orCompute(CUstream stream, CudaState &s) {
  return stream ? stream : s.compute;
}

/// Allows dynamic shared memory above the 48 KiB default.
bool allowSharedMemory(const DriverApi &api, CUfunction fn, int32_t smem) {
  if (smem <= 48 * 1024)
    return true;
  return checkCu(api.cuFuncSetAttribute(
                     fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem),
                 "cuFuncSetAttribute (dynamic shared memory)");
}

/// The state for a launch, or null when it must be skipped.
CudaState *launchState(CUfunction fn, const char *caller) {
  if (hasStickyError())
    return nullptr;
  CudaState *s = requireCuda(caller);
  if (s && !fn) {
    setStickyError(-1, std::string(caller) + ": null kernel function");
    return nullptr;
  }
  return s;
}

/// The modules recorded and not unloaded, for loadRecordedModules().
struct ModuleRegistry {
  std::mutex mutex;
  std::vector<LazyModule *> modules;
};
ModuleRegistry &registry() {
  static ModuleRegistry *r = new ModuleRegistry(); // never destroyed
  return *r;
}

LazyModule *record(LazyModule *m) {
  ModuleRegistry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.modules.push_back(m);
  return m;
}

} // namespace

bool modelrt::cuda::loadRecordedModules() {
  ModuleRegistry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (LazyModule *m : r.modules) {
    std::lock_guard<std::mutex> moduleLock(m->mutex);
    if (!ensureLoaded(*m))
      return false;
  }
  return true;
}

extern "C" void *mgpuModuleLoad(void *data, size_t size) {
  LazyModule *m = new LazyModule();
  m->data = data;
  m->size = size;
  return record(m);
}

extern "C" void *mgpuModuleLoadJIT(void *data, int optLevel) {
  LazyModule *m = new LazyModule();
  m->data = data;
  m->jitOptLevel = optLevel < 0 ? 0 : optLevel;
  return record(m);
}

extern "C" void mgpuModuleUnload(void *module) {
  LazyModule *m = static_cast<LazyModule *>(module);
  if (!m)
    return;
  {
    ModuleRegistry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.modules.erase(std::remove(r.modules.begin(), r.modules.end(), m), r.modules.end());
  }
  if (m->module && cudaState() && initCuda())
    driverApi()->cuModuleUnload(m->module); // at exit: errors do not matter
  delete m;
}

extern "C" void *mgpuModuleGetFunction(void *module, const char *name) {
  LazyModule *m = static_cast<LazyModule *>(module);
  if (!m || !name) {
    setStickyError(-1, "mgpuModuleGetFunction: null module or name");
    return nullptr;
  }
  {
    // The hot path (every launch of generated code): a known kernel.
    std::lock_guard<std::mutex> lock(m->mutex);
    auto it = m->functions.find(name);
    if (it != m->functions.end())
      return it->second;
  }
  std::string caller = std::string("mgpuModuleGetFunction(") + name + ")";
  if (!requireCuda(caller.c_str()))
    return nullptr;
  std::lock_guard<std::mutex> lock(m->mutex);
  if (auto it = m->functions.find(name); it != m->functions.end())
    return it->second;
  if (!ensureLoaded(*m))
    return nullptr;
  CUfunction fn = nullptr;
  std::string what = std::string("cuModuleGetFunction(") + name + ")";
  if (!checkCu(driverApi()->cuModuleGetFunction(&fn, m->module, name),
               what.c_str()))
    return nullptr;
  m->functions[name] = fn;
  nameKernel(fn, name);
  return fn;
}

extern "C" void mgpuLaunchKernel(void *function, intptr_t gridX,
                                 intptr_t gridY, intptr_t gridZ,
                                 intptr_t blockX, intptr_t blockY,
                                 intptr_t blockZ, int32_t smem, void *stream,
                                 void **params, void **extra,
                                 size_t /*paramsCount*/) {
  CUfunction fn = static_cast<CUfunction>(function);
  CudaState *s = launchState(fn, "mgpuLaunchKernel");
  if (!s)
    return;
  const DriverApi &api = *driverApi();
  if (!allowSharedMemory(api, fn, smem))
    return;
  CUstream on = orCompute(static_cast<CUstream>(stream), *s);
  bool timed = profileStart(on);
  checkCu(api.cuLaunchKernel(fn, gridX, gridY, gridZ, blockX, blockY, blockZ,
                             smem, on, params, extra),
          "cuLaunchKernel");
  if (timed)
    profileEnd(on, kernelName(fn), 0);
}

extern "C" void mgpuLaunchClusterKernel(
    void *function, intptr_t clusterX, intptr_t clusterY, intptr_t clusterZ,
    intptr_t gridX, intptr_t gridY, intptr_t gridZ, intptr_t blockX,
    intptr_t blockY, intptr_t blockZ, int32_t smem, void *stream,
    void **params, void **extra, size_t /*paramsCount*/) {
  CUfunction fn = static_cast<CUfunction>(function);
  CudaState *s = launchState(fn, "mgpuLaunchClusterKernel");
  if (!s)
    return;
  const DriverApi &api = *driverApi();
  if (!allowSharedMemory(api, fn, smem))
    return;
  CUlaunchAttribute attr = {};
  attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attr.value.clusterDim.x = static_cast<unsigned>(clusterX);
  attr.value.clusterDim.y = static_cast<unsigned>(clusterY);
  attr.value.clusterDim.z = static_cast<unsigned>(clusterZ);
  CUlaunchConfig config = {};
  config.gridDimX = gridX;
  config.gridDimY = gridY;
  config.gridDimZ = gridZ;
  config.blockDimX = blockX;
  config.blockDimY = blockY;
  config.blockDimZ = blockZ;
  config.sharedMemBytes = smem;
  config.hStream = orCompute(static_cast<CUstream>(stream), *s);
  config.attrs = &attr;
  config.numAttrs = 1;
  bool timed = profileStart(config.hStream);
  checkCu(api.cuLaunchKernelEx(&config, fn, params, extra), "cuLaunchKernelEx");
  if (timed)
    profileEnd(config.hStream, kernelName(fn), 0);
}

void *modelrt::cuda::embeddedModule(const char *(*ptx)(size_t *size)) {
  size_t size = 0;
  return mgpuModuleLoadJIT(const_cast<char *>(ptx(&size)), 2);
}
