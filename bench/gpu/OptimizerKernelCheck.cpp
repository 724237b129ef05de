//===- OptimizerKernelCheck.cpp - The optimizer kernels on a real GPU ------===//
//
// `modelrt-optimizer-kernel-check`: loads the PTX embedded in libmodelrt
// (modelrt_optimizer_ptx) through the CUDA driver API (libcuda.so.1,
// dlopened: no CUDA library is linked) and checks every kernel that
// OptimizerKernels.h documents against the CPU runtime, from the same
// inputs: the six step variants over tensors of 1, 7, 65, 1000 and 235146
// elements (three steps each, one launch per step; one step with a capped
// grid), global-norm clipping (both sides of max_norm), and accumulation.
// Prints one line per check (max |difference|, bit-identical or not), the
// time of one Adam step over 235k parameters, and exits 1 if any check
// fails (or 1 with a clear message when there is no driver or GPU).
// Run by scripts/gpu-check.sh on the GPU machine.
//
//===----------------------------------------------------------------------===//
#include "modelrt/cuda/OptimizerKernels.h"
#include "modelrt/train/Optimizer.h"
#include "modelrt/train/OptimizerMath.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <memory>
#include <string>
#include <vector>

using namespace modelrt;

namespace {

using CUresult = int;
using CUdeviceptr = unsigned long long;
using Handle = void *;

/// The driver entry points the check uses, resolved with dlsym.
struct Driver {
  CUresult (*init)(unsigned);
  CUresult (*deviceGet)(int *, int);
  CUresult (*deviceGetName)(char *, int, int);
  CUresult (*primaryCtxRetain)(Handle *, int);
  CUresult (*ctxSetCurrent)(Handle);
  CUresult (*moduleLoadData)(Handle *, const void *);
  CUresult (*moduleGetFunction)(Handle *, Handle, const char *);
  CUresult (*memAlloc)(CUdeviceptr *, size_t);
  CUresult (*memFree)(CUdeviceptr);
  CUresult (*memcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*memcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*launchKernel)(Handle, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                           unsigned, Handle, void **, void **);
  CUresult (*ctxSynchronize)();
  CUresult (*getErrorString)(CUresult, const char **);
};

Driver drv;
Handle module;
int failures = 0;

/// Aborts the check with the driver's message when \p r is an error.
void check(CUresult r, const char *what) {
  if (r == 0)
    return;
  const char *msg = "unknown error";
  if (drv.getErrorString)
    drv.getErrorString(r, &msg);
  std::fprintf(stderr, "error: %s: CUDA error %d (%s)\n", what, r, msg);
  std::exit(1);
}

template <typename T> void bind(void *lib, T &fn, const char *name) {
  fn = reinterpret_cast<T>(dlsym(lib, name));
  if (!fn) {
    std::fprintf(stderr, "error: libcuda.so.1 has no %s\n", name);
    std::exit(1);
  }
}

/// Loads the driver, makes the primary context of device 0 current and
/// loads the embedded PTX.
void openDevice() {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr, "error: cannot load libcuda.so.1 (no NVIDIA driver): %s\n", dlerror());
    std::exit(1);
  }
  bind(lib, drv.init, "cuInit");
  bind(lib, drv.deviceGet, "cuDeviceGet");
  bind(lib, drv.deviceGetName, "cuDeviceGetName");
  bind(lib, drv.primaryCtxRetain, "cuDevicePrimaryCtxRetain");
  bind(lib, drv.ctxSetCurrent, "cuCtxSetCurrent");
  bind(lib, drv.moduleLoadData, "cuModuleLoadData");
  bind(lib, drv.moduleGetFunction, "cuModuleGetFunction");
  bind(lib, drv.memAlloc, "cuMemAlloc_v2");
  bind(lib, drv.memFree, "cuMemFree_v2");
  bind(lib, drv.memcpyHtoD, "cuMemcpyHtoD_v2");
  bind(lib, drv.memcpyDtoH, "cuMemcpyDtoH_v2");
  bind(lib, drv.launchKernel, "cuLaunchKernel");
  bind(lib, drv.ctxSynchronize, "cuCtxSynchronize");
  bind(lib, drv.getErrorString, "cuGetErrorString");
  check(drv.init(0), "cuInit");
  int dev = 0;
  check(drv.deviceGet(&dev, 0), "cuDeviceGet");
  char name[256] = {0};
  check(drv.deviceGetName(name, sizeof name, dev), "cuDeviceGetName");
  Handle ctx = nullptr;
  check(drv.primaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
  check(drv.ctxSetCurrent(ctx), "cuCtxSetCurrent");
  size_t size = 0;
  const char *ptx = modelrt_optimizer_ptx(&size);
  check(drv.moduleLoadData(&module, ptx), "cuModuleLoadData (the embedded optimizer PTX)");
  std::printf("device 0: %s; optimizer PTX: %zu bytes, loaded\n", name, size);
}

/// A device copy of a host vector, freed on destruction.
struct DeviceBuffer {
  CUdeviceptr ptr = 0;
  size_t bytes = 0;
  template <typename T> explicit DeviceBuffer(const std::vector<T> &host) {
    bytes = host.size() * sizeof(T);
    check(drv.memAlloc(&ptr, bytes ? bytes : 1), "cuMemAlloc");
    if (bytes)
      check(drv.memcpyHtoD(ptr, host.data(), bytes), "cuMemcpyHtoD");
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  ~DeviceBuffer() { drv.memFree(ptr); }
  template <typename T> std::vector<T> read() const {
    std::vector<T> out(bytes / sizeof(T));
    check(drv.memcpyDtoH(out.data(), ptr, bytes), "cuMemcpyDtoH");
    return out;
  }
  template <typename T> T *as() const { return reinterpret_cast<T *>(ptr); }
};

/// Launches kernel \p name with \p grid blocks of kOptimizerBlockSize.
void launch(const char *name, unsigned grid, std::vector<void *> args) {
  Handle fn = nullptr;
  check(drv.moduleGetFunction(&fn, module, name), name);
  check(drv.launchKernel(fn, grid, 1, 1, kOptimizerBlockSize, 1, 1, 0, nullptr, args.data(),
                         nullptr),
        name);
  check(drv.ctxSynchronize(), name);
}

/// Deterministic pseudo-random values in [-scale, scale).
std::vector<float> values(int64_t n, uint32_t seed, float scale = 1.0f) {
  std::vector<float> out(n);
  for (float &x : out) {
    seed = seed * 1664525u + 1013904223u;
    x = scale * (float(seed >> 8) / float(1u << 23) - 1.0f);
  }
  return out;
}

/// Compares \p got with \p want; prints and counts the result.
void report(const std::string &what, const std::vector<float> &want,
            const std::vector<float> &got, double relTol) {
  double maxDiff = 0;
  int64_t differ = 0, bad = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    double d = std::fabs(double(want[i]) - double(got[i]));
    differ += want[i] != got[i];
    bad += !(d <= relTol * (1 + std::fabs(double(want[i]))));
    maxDiff = d > maxDiff ? d : maxDiff;
  }
  bool ok = bad == 0 && want.size() == got.size();
  failures += !ok;
  std::printf("%-4s %-44s max|diff| %.3g, %s\n", ok ? "ok" : "FAIL", what.c_str(), maxDiff,
              differ ? (std::to_string(differ) + " element(s) differ in the last bit(s)").c_str()
                     : "bit-identical");
}

const std::vector<int64_t> kSizes = {1, 7, 65, 1000, 235146};

/// Host state and its device copies for one multi-tensor launch.
struct Params {
  std::vector<std::vector<float>> p, g, m, v;
  std::vector<std::unique_ptr<DeviceBuffer>> dev; // p, g, m, v per tensor
  std::vector<OptTensor> table;
  std::vector<OptChunk> chunks;
  explicit Params(uint32_t seed) {
    for (size_t t = 0; t < kSizes.size(); ++t) {
      p.push_back(values(kSizes[t], seed + t));
      g.push_back(values(kSizes[t], seed + 100 + t, 0.5f));
      m.emplace_back(kSizes[t], 0.0f);
      v.emplace_back(kSizes[t], 0.0f);
      for (auto *h : {&p[t], &g[t], &m[t], &v[t]})
        dev.push_back(std::make_unique<DeviceBuffer>(*h));
      table.push_back({dev[4 * t]->as<float>(), dev[4 * t + 1]->as<float>(),
                       dev[4 * t + 2]->as<float>(), dev[4 * t + 3]->as<float>(), kSizes[t]});
    }
    chunks.resize(buildChunkTable(kSizes.data(), int32_t(kSizes.size()), kOptimizerChunkSize,
                                  nullptr));
    buildChunkTable(kSizes.data(), int32_t(kSizes.size()), kOptimizerChunkSize, chunks.data());
  }
  /// Field \p k (0 p, 1 g, 2 m, 3 v) of every tensor, read back, flattened.
  std::vector<float> deviceField(int k) const {
    std::vector<float> out;
    for (size_t t = 0; t < kSizes.size(); ++t) {
      std::vector<float> x = dev[4 * t + k]->read<float>();
      out.insert(out.end(), x.begin(), x.end());
    }
    return out;
  }
  static std::vector<float> flat(const std::vector<std::vector<float>> &x) {
    std::vector<float> out;
    for (const auto &t : x)
      out.insert(out.end(), t.begin(), t.end());
    return out;
  }
};

/// Three steps of \p cfg on the CPU and with the variant's kernel.
void checkStep(const std::string &label, const OptimizerConfig &cfg) {
  Params s(7);
  DeviceBuffer table(s.table), chunks(s.chunks);
  Optimizer cpu(cfg, kSizes);
  std::vector<float *> ps;
  std::vector<const float *> gs;
  for (size_t t = 0; t < kSizes.size(); ++t)
    ps.push_back(s.p[t].data()), gs.push_back(s.g[t].data());
  const char *kernel = stepKernelName(stepVariantFor(cfg));
  int32_t numChunks = int32_t(s.chunks.size());
  int64_t chunkSize = kOptimizerChunkSize;
  for (int64_t step = 1; step <= 3; ++step) {
    double lr = cfg.lr / double(step);
    cpu.step(ps.data(), gs.data(), lr);
    StepCoeffs c = stepCoeffsFor(cfg, step, lr);
    CUdeviceptr tp = table.ptr, cp = chunks.ptr;
    unsigned grid = step == 2 ? 7u : unsigned(numChunks); // step 2: a capped grid
    launch(kernel, grid, {&tp, &cp, &numChunks, &chunkSize, &c});
  }
  report(label + " (" + kernel + ")", Params::flat(s.p), s.deviceField(0), 1e-6);
}

void checkSteps() {
  OptimizerConfig c;
  c.lr = 0.1;
  checkStep("sgd", c);
  c.momentum = 0.9, c.dampening = 0.1, c.weightDecay = 0.01;
  checkStep("sgd momentum dampening wd", c);
  c.dampening = 0, c.nesterov = true;
  checkStep("sgd nesterov", c);
  for (OptimizerKind k : {OptimizerKind::RMSprop, OptimizerKind::Adam, OptimizerKind::AdamW}) {
    OptimizerConfig a;
    a.kind = k, a.lr = 1e-2, a.weightDecay = 0.05;
    const char *name = k == OptimizerKind::RMSprop ? "rmsprop wd"
                       : k == OptimizerKind::Adam  ? "adam wd"
                                                   : "adamw";
    checkStep(name, a);
    if (k == OptimizerKind::RMSprop) {
      a.momentum = 0.5;
      checkStep("rmsprop momentum wd", a);
    }
  }
}

/// Global-norm clipping with \p maxNorm against clipGradNorm.
void checkClip(double maxNorm) {
  Params s(11);
  DeviceBuffer table(s.table), chunks(s.chunks);
  std::vector<float *> gs;
  for (auto &g : s.g)
    gs.push_back(g.data());
  double norm = clipGradNorm(gs.data(), kSizes, maxNorm);
  int32_t numChunks = int32_t(s.chunks.size());
  int64_t chunkSize = kOptimizerChunkSize;
  DeviceBuffer partials(std::vector<double>(numChunks, -1.0)), out(std::vector<float>(2, 0));
  CUdeviceptr tp = table.ptr, cp = chunks.ptr, pp = partials.ptr, op = out.ptr;
  CUdeviceptr scalePtr = out.ptr + sizeof(float);
  float maxF = float(maxNorm);
  launch(kGradSumsqKernel, unsigned(numChunks), {&tp, &cp, &numChunks, &chunkSize, &pp});
  launch(kGradNormFinalizeKernel, 1, {&pp, &numChunks, &maxF, &op});
  launch(kGradScaleKernel, 5, {&tp, &cp, &numChunks, &chunkSize, &scalePtr});
  std::vector<float> o = out.read<float>();
  char label[96];
  std::snprintf(label, sizeof label, "clip max_norm %g: norm %.6g vs %.6g", maxNorm, o[0], norm);
  report(label, {float(norm)}, {o[0]}, 1e-6);
  report(std::string("clip max_norm ") + std::to_string(maxNorm) + ": gradients",
         Params::flat(s.g), s.deviceField(1), 1e-6);
}

/// dst += src * scale against the same arithmetic on the CPU.
void checkAccumulate() {
  Params s(23);
  std::vector<AccumTensor> pairs;
  for (size_t t = 0; t < kSizes.size(); ++t)
    pairs.push_back({s.table[t].param, s.table[t].grad, kSizes[t]});
  DeviceBuffer table(pairs), chunks(s.chunks);
  float scale = 0.25f;
  for (size_t t = 0; t < kSizes.size(); ++t)
    for (int64_t i = 0; i < kSizes[t]; ++i)
      s.p[t][i] += s.g[t][i] * scale;
  int32_t numChunks = int32_t(s.chunks.size());
  int64_t chunkSize = kOptimizerChunkSize;
  CUdeviceptr tp = table.ptr, cp = chunks.ptr;
  launch(kAccumulateKernel, unsigned(numChunks), {&tp, &cp, &numChunks, &chunkSize, &scale});
  report("accumulate (dst += src * 0.25)", Params::flat(s.p), s.deviceField(0), 0);
}

/// The time of one Adam step over all tensors (235k parameters).
void timeAdam() {
  Params s(31);
  DeviceBuffer table(s.table), chunks(s.chunks);
  OptimizerConfig cfg;
  cfg.kind = OptimizerKind::Adam, cfg.lr = 1e-3;
  StepCoeffs c = stepCoeffsFor(cfg, 1, 1e-3);
  int32_t numChunks = int32_t(s.chunks.size());
  int64_t chunkSize = kOptimizerChunkSize;
  CUdeviceptr tp = table.ptr, cp = chunks.ptr;
  Handle fn = nullptr;
  check(drv.moduleGetFunction(&fn, module, stepKernelName(StepVariant::Adam)), "adam");
  void *args[] = {&tp, &cp, &numChunks, &chunkSize, &c};
  auto once = [&] {
    check(drv.launchKernel(fn, unsigned(numChunks), 1, 1, kOptimizerBlockSize, 1, 1, 0,
                           nullptr, args, nullptr),
          "adam");
  };
  for (int i = 0; i < 20; ++i) // warm-up
    once();
  check(drv.ctxSynchronize(), "adam warm-up");
  const int n = 200;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i)
    once();
  check(drv.ctxSynchronize(), "adam");
  std::chrono::duration<double, std::micro> us = std::chrono::steady_clock::now() - t0;
  int64_t total = 0;
  for (int64_t x : kSizes)
    total += x;
  std::printf("time: adam step over %lld parameters in %d chunks: %.1f us per launch\n",
              static_cast<long long>(total), numChunks, us.count() / n);
}

} // namespace

int main() {
  openDevice();
  checkSteps();
  checkClip(1.0);   // clips: the norm of ~236k values in [-0.5, 0.5) is ~140
  checkClip(1e6);   // does not clip: the gradients stay as they are
  checkAccumulate();
  timeAdam();
  std::printf("%s\n", failures ? "optimizer kernels: FAILED" : "optimizer kernels: all ok");
  return failures ? 1 : 0;
}
