//===- GpuProfile.cpp - Device time of GPU kernels under --profile ---------===//
//
// Implements the GPU half of `--profile` (CudaDriver.h; collectProfile() in
// modelrt/cuda/Cuda.h). While profiling, each kernel launch and each product
// of the generated code is bracketed by two CUDA events on its stream;
// collectProfile() waits for the last event and adds every bracket's device
// time to the profile's kernel table (modelrt/core/Profile.h) under the
// kernel's name (`gpu_train_step_kernel_7`) or `cuBLAS sgemm MxNxK` (`gemm
// bf16`, `gemm tf32` for the other precisions) with its FLOPs. Off, a launch costs one flag test more. The events are reused.
//
//===----------------------------------------------------------------------===//
#include "CudaDriver.h"

#include "modelrt/core/Profile.h"

#include <mutex>
#include <set>
#include <unordered_map>
#include <vector>

namespace modelrt {
namespace cuda {
namespace {

/// One timed launch, its events recorded, not yet read.
struct Bracket {
  const char *name;
  double flops;
  CUevent start, end;
};

struct GpuProfiler {
  std::mutex mutex;
  std::unordered_map<CUfunction, const char *> names;
  std::set<std::string> labels; ///< interned product labels
  std::vector<CUevent> spare;
  std::vector<Bracket> pending;
  CUevent open = nullptr; ///< the start event of the launch in progress
};

GpuProfiler &gpuProfiler() {
  static GpuProfiler *p = new GpuProfiler(); // never destroyed
  return *p;
}

/// A timing event, reused or created; null (error recorded) on failure.
CUevent takeEvent(GpuProfiler &p) {
  if (!p.spare.empty()) {
    CUevent e = p.spare.back();
    p.spare.pop_back();
    return e;
  }
  CUevent e = nullptr;
  if (!checkCu(driverApi()->cuEventCreate(&e, CU_EVENT_DEFAULT), "cuEventCreate (profile)"))
    return nullptr;
  return e;
}

/// Reads every pending bracket into the profile (lock held).
bool drain(GpuProfiler &p) {
  if (p.pending.empty())
    return true;
  const DriverApi &api = *driverApi();
  if (!checkCu(api.cuEventSynchronize(p.pending.back().end), "cuEventSynchronize (profile)"))
    return false;
  bool ok = true;
  for (const Bracket &b : p.pending) {
    float ms = 0;
    ok = ok && checkCu(api.cuEventElapsedTime(&ms, b.start, b.end), "cuEventElapsedTime");
    if (ok)
      addKernelTime(b.name, ms * 1e-3, b.flops);
    p.spare.push_back(b.start);
    p.spare.push_back(b.end);
  }
  p.pending.clear();
  return ok;
}

/// Brackets waiting before they are read without a collectProfile().
constexpr size_t kMaxPending = 4096;

} // namespace

void nameKernel(CUfunction fn, const char *name) {
  GpuProfiler &p = gpuProfiler();
  std::lock_guard<std::mutex> lock(p.mutex);
  p.names[fn] = name;
}

const char *kernelName(CUfunction fn) {
  GpuProfiler &p = gpuProfiler();
  std::lock_guard<std::mutex> lock(p.mutex);
  auto it = p.names.find(fn);
  return it == p.names.end() ? "unnamed GPU kernel" : it->second;
}

const char *profileLabel(const std::string &label) {
  GpuProfiler &p = gpuProfiler();
  std::lock_guard<std::mutex> lock(p.mutex);
  return p.labels.insert(label).first->c_str();
}

const char *gemmLabel(const char *kind, int64_t m, int64_t n, int64_t k) {
  return profileLabel("cuBLAS " + std::string(kind) + " " + std::to_string(m) + "x" +
                      std::to_string(n) + "x" + std::to_string(k));
}

bool profileStart(CUstream stream) {
  if (!profiling())
    return false;
  GpuProfiler &p = gpuProfiler();
  std::lock_guard<std::mutex> lock(p.mutex);
  CUevent e = takeEvent(p);
  if (!e || !checkCu(driverApi()->cuEventRecord(e, stream), "cuEventRecord (profile)"))
    return false;
  p.open = e;
  return true;
}

void profileEnd(CUstream stream, const char *name, double flops) {
  GpuProfiler &p = gpuProfiler();
  std::lock_guard<std::mutex> lock(p.mutex);
  CUevent start = p.open, end = takeEvent(p);
  p.open = nullptr;
  if (!start || !end || !checkCu(driverApi()->cuEventRecord(end, stream), "cuEventRecord (profile)"))
    return;
  p.pending.push_back({name, flops, start, end});
  if (p.pending.size() >= kMaxPending)
    drain(p);
}

Status collectProfile() {
  GpuProfiler &p = gpuProfiler();
  std::lock_guard<std::mutex> lock(p.mutex);
  if (p.pending.empty())
    return Status::ok();
  if (!drain(p))
    return stickyStatus();
  return Status::ok();
}

} // namespace cuda
} // namespace modelrt
