//===- Profile.cpp - Per-kernel and per-phase timing (`--profile`) --------===//
//
// Implements Profile.h: kernel totals in a map keyed by the name pointer
// (each kernel's name is one constant string in the executable), phase
// totals in an array, the product runs of the running kernel (a bit set the
// product functions add to, cleared when a kernel starts), and the report
// (which rates the product kernels against this machine's peaks, and ends
// with the peaks, the CPU and what runs the matrix products and, when any
// ran, the convolutions).
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Bf16.h"
#include "modelrt/core/Blas.h"
#include "modelrt/core/Conv.h"
#include "modelrt/core/CpuFeatures.h"
#include "modelrt/core/Profile.h"
#include "modelrt/core/Roofline.h"
#include "modelrt/cuda/Cuda.h"

#include <algorithm>
#include <map>
#include <atomic>
#include <cstring>
#include <string>
#include <unordered_map>

namespace modelrt {
namespace {

/// Everything collected.
struct Profiler {
  std::atomic<bool> on{false};
  std::unordered_map<const char *, KernelStats> kernels;
  double phases[int(Phase::Count)] = {};
  std::chrono::steady_clock::time_point kernelStart;
  unsigned kernelProductRuns = 0; ///< the running kernel's (noteProductRun)
};

Profiler &profiler() {
  static Profiler *p = new Profiler(); // outlives static destructors
  return *p;
}

/// True for a kernel the GPU layer timed (GpuProfile.cpp's names).
bool isGpuKernel(const char *name) {
  return std::strncmp(name, "gpu_", 4) == 0 || std::strncmp(name, "cuBLAS ", 7) == 0;
}

const char *phaseName(Phase p) {
  switch (p) {
  case Phase::Data:
    return "data (waiting for batches)";
  case Phase::Step:
    return "step (forward + backward)";
  case Phase::Update:
    return "update (optimizer)";
  case Phase::Eval:
    return "evaluation";
  case Phase::Count:
    break;
  }
  return "?";
}

} // namespace

void setProfiling(bool on) { profiler().on = on; }
bool profiling() { return profiler().on.load(std::memory_order_relaxed); }

void resetProfile() {
  Profiler &p = profiler();
  p.kernels.clear();
  std::fill(std::begin(p.phases), std::end(p.phases), 0.0);
}

unsigned productRunBit(bool bf16, Bf16Path path) {
  return bf16 ? 2u << unsigned(path) : 1u;
}

void noteProductRun(bool bf16, Bf16Path path) {
  Profiler &p = profiler();
  if (p.on.load(std::memory_order_relaxed))
    p.kernelProductRuns |= productRunBit(bf16, path);
}

void addPhaseTime(Phase phase, double seconds) {
  profiler().phases[int(phase)] += seconds;
}

void addKernelTime(const char *name, double seconds, double flops, double bytes) {
  KernelStats &k = profiler().kernels[name];
  k.name = name;
  k.calls++;
  k.seconds += seconds;
  k.flops += flops;
  k.bytes += bytes;
}

std::vector<KernelStats> kernelStats() {
  std::vector<KernelStats> v;
  for (const auto &entry : profiler().kernels)
    v.push_back(entry.second);
  std::sort(v.begin(), v.end(), [](const KernelStats &a, const KernelStats &b) {
    return a.seconds != b.seconds ? a.seconds > b.seconds
                                  : std::string(a.name) < std::string(b.name);
  });
  return v;
}

/// What kernel \p name computes: the text between its "kNN." and " @"
/// ("gelu_grad" in "train_step.k522.gelu_grad @ nn.model:113 (backward)"),
/// else the whole name.
static std::string kernelOp(const char *name) {
  std::string s = name;
  size_t at = s.find(" @");
  std::string head = s.substr(0, at);
  size_t k = head.find(".k");
  if (k == std::string::npos)
    return head;
  size_t dot = head.find('.', k + 2);
  return dot == std::string::npos ? head : head.substr(dot + 1);
}

/// The kernels' time summed per op (kernelOp), the \p max largest.
static void writeOpTotals(FILE *f, const std::vector<KernelStats> &ks,
                          double kernelTotal, size_t max) {
  std::map<std::string, KernelStats> ops;
  for (const KernelStats &k : ks) {
    KernelStats &o = ops[kernelOp(k.name)];
    o.calls += k.calls;
    o.seconds += k.seconds;
    o.flops += k.flops;
  }
  std::vector<std::pair<std::string, KernelStats>> v(ops.begin(), ops.end());
  std::sort(v.begin(), v.end(), [](const auto &a, const auto &b) {
    return a.second.seconds > b.second.seconds;
  });
  std::fprintf(f, "profile: by op (%zu ops; largest first)\n", v.size());
  for (size_t i = 0; i < v.size() && i < max; ++i) {
    const KernelStats &o = v[i].second;
    char rate[32] = "-";
    if (o.flops > 0 && o.seconds > 0)
      std::snprintf(rate, sizeof rate, "%.2f", o.flops / o.seconds * 1e-9);
    std::fprintf(f, "  %10.2f %5.1f%% %9llu %10s  %s\n", o.seconds * 1e3,
                 kernelTotal > 0 ? 100 * o.seconds / kernelTotal : 0.0,
                 (unsigned long long)o.calls, rate, v[i].first.c_str());
  }
}

/// One row of the kernel table; sets \p products for a product kernel
/// (whose rate is given as a fraction of its precision's peak).
static void writeKernelRow(FILE *f, const KernelStats &k, double kernelTotal, bool &products) {
  char rate[32] = "-", ofPeak[32] = "-";
  if (k.flops > 0 && k.seconds > 0)
    std::snprintf(rate, sizeof rate, "%.2f", k.flops / k.seconds * 1e-9);
  ProductRate r;
  if (k.productRuns) { // measures the peaks on the first product kernel
    r = productRate(k, hostPeaks());
    products = true;
  }
  if (r.fractionOfPeak > 0)
    std::snprintf(ofPeak, sizeof ofPeak, "%.1f%%", 100 * r.fractionOfPeak);
  std::fprintf(f, "  %10.2f %5.1f%% %9llu %10s %8s  %-16s  %s\n", k.seconds * 1e3,
               kernelTotal > 0 ? 100 * k.seconds / kernelTotal : 0.0,
               (unsigned long long)k.calls, rate, ofPeak,
               r.precision.empty() ? "-" : r.precision.c_str(), k.name);
}

/// The peaks the product kernels' rates are fractions of.
static void writePeaks(FILE *f) {
  const MachinePeaks &p = hostPeaks();
  std::fprintf(f, "profile: peaks: f32 %.1f GFLOP/s (FMA loop, %s, %d threads); ", p.f32Gflops,
               p.isa.c_str(), p.threads);
  if (p.bf16Path == Bf16Path::Emulated)
    std::fprintf(f, "bf16 emulated: the f32 peak\n");
  else
    std::fprintf(f, "bf16 %s %.1f GFLOP/s (%s loop)\n", bf16PathName(p.bf16Path), p.bf16Gflops,
                 p.bf16Path == Bf16Path::Amx ? "tdpbf16ps" : "vdpbf16ps");
}

void writeProfileReport(FILE *f, size_t maxKernels) {
  Profiler &p = profiler();
  double total = 0;
  for (double s : p.phases)
    total += s;
  std::vector<KernelStats> ks = kernelStats();
  // The training step's kernels, split by autodiff's "(backward)" label.
  // GPU kernels (device times, GpuProfile.cpp) carry no such label.
  double forward = 0, backward = 0, gpu = 0;
  for (const KernelStats &k : ks)
    if (std::strncmp(k.name, "train_step.", 11) == 0)
      (std::strstr(k.name, "(backward)") ? backward : forward) += k.seconds;
    else if (isGpuKernel(k.name))
      gpu += k.seconds;
  std::fprintf(f, "profile: phases\n");
  for (int i = 0; i < int(Phase::Count); ++i) {
    std::fprintf(f, "  %-28s %10.3f s  %5.1f%%\n", phaseName(Phase(i)), p.phases[i],
                 total > 0 ? 100 * p.phases[i] / total : 0.0);
    if (Phase(i) == Phase::Step && p.phases[i] > 0 && gpu == 0) {
      std::fprintf(f, "    %-26s %10.3f s\n", "forward kernels", forward);
      std::fprintf(f, "    %-26s %10.3f s\n", "backward kernels", backward);
    }
  }
  double kernelTotal = 0;
  for (const KernelStats &k : ks)
    kernelTotal += k.seconds;
  std::fprintf(f, "profile: kernels (%zu, %.1f ms in all; slowest first)\n", ks.size(),
               kernelTotal * 1e3);
  std::fprintf(f, "  %10s %6s %9s %10s %8s  %-16s  %s\n", "time (ms)", "share", "calls",
               "GFLOP/s", "of peak", "precision", "kernel");
  bool products = false;
  for (size_t i = 0; i < ks.size() && i < maxKernels; ++i)
    writeKernelRow(f, ks[i], kernelTotal, products);
  if (ks.size() > maxKernels)
    std::fprintf(f, "  ... %zu more kernels\n", ks.size() - maxKernels);
  if (ks.size() > maxKernels)
    writeOpTotals(f, ks, kernelTotal, maxKernels / 2);
  if (gpu > 0)
    std::fprintf(f, "profile: GPU kernels: %.3f s of device time (CUDA events around each launch "
                    "and sgemm; the GPU runs while the host goes on)\n", gpu);
  std::fprintf(f, "profile: CPU: %s\n", describeCpu(hostCpuFeatures(), hostKernels()).c_str());
  std::string kernels = blasKernels();
  if (!kernels.empty())
    std::fprintf(f, "profile: matrix products by %s\n", kernels.c_str());
  if (convolutionsRan())
    std::fprintf(f, "profile: convolutions by %s\n", convolutionKernels().c_str());
  std::string cudnn = cuda::cudnnInUse();
  if (!cudnn.empty())
    std::fprintf(f, "profile: GPU convolutions by %s\n", cudnn.c_str());
  std::string bf16 = bf16Kernels();
  if (!bf16.empty())
    std::fprintf(f, "profile: %s\n", bf16.c_str());
  if (products)
    writePeaks(f);
}

} // namespace modelrt

using namespace modelrt;

extern "C" void modelrt_kernel_enter(const char *name) {
  Profiler &p = profiler();
  if (!p.on.load(std::memory_order_relaxed))
    return;
  p.kernelProductRuns = 0;
  p.kernelStart = std::chrono::steady_clock::now();
}

extern "C" void modelrt_kernel_exit(const char *name, int64_t flops, int64_t bytes) {
  Profiler &p = profiler();
  if (!p.on.load(std::memory_order_relaxed))
    return;
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - p.kernelStart)
                 .count();
  KernelStats &k = p.kernels[name];
  k.name = name;
  k.calls += 1;
  k.seconds += s;
  k.flops += double(flops);
  k.bytes += double(bytes);
  k.productRuns |= p.kernelProductRuns;
}
