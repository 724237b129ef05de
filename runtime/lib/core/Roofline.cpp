//===- Roofline.cpp - This machine's roofs and the kernels placed under them ===//
//
// Implements Roofline.h. The FMA loop keeps 12 accumulators in registers
// (enough to cover the FMA latency of current x86 cores with two FMA
// units), each a = a * b + c, one function per level compiled for it with
// a target attribute (bench/compare/fma_peak.c is the same loop as a
// stand-alone program). The triad's arrays are touched before the timed
// passes. Both run on two threads through runInTwoParts when the kernels
// do (Parallel.h).
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Roofline.h"

#include "modelrt/core/Parallel.h"

#include <algorithm>
#include <chrono>
#include <memory>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace modelrt {
namespace {

volatile float sink; ///< keeps the loops' results alive

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The body of every FMA loop: 12 chains of a = fma(a, b, c) on vectors
/// of type V, written out so that they stay in registers.
#define MODELRT_FMA_CHAINS(V, SET1, FMA, ADD, STORE, LANES)                                   \
  V b = SET1(0.999999f), c = SET1(1e-7f);                                                   \
  V a0 = SET1(0), a1 = SET1(1), a2 = SET1(2), a3 = SET1(3), a4 = SET1(4), a5 = SET1(5);     \
  V a6 = SET1(6), a7 = SET1(7), a8 = SET1(8), a9 = SET1(9), a10 = SET1(10), a11 = SET1(11); \
  for (int64_t it = 0; it < iterations; ++it) {                                             \
    a0 = FMA(a0, b, c), a1 = FMA(a1, b, c), a2 = FMA(a2, b, c), a3 = FMA(a3, b, c);         \
    a4 = FMA(a4, b, c), a5 = FMA(a5, b, c), a6 = FMA(a6, b, c), a7 = FMA(a7, b, c);         \
    a8 = FMA(a8, b, c), a9 = FMA(a9, b, c), a10 = FMA(a10, b, c), a11 = FMA(a11, b, c);     \
  }                                                                                         \
  V s = ADD(ADD(ADD(a0, a1), ADD(a2, a3)), ADD(ADD(a4, a5), ADD(a6, a7)));                  \
  s = ADD(s, ADD(ADD(a8, a9), ADD(a10, a11)));                                              \
  float out[LANES];                                                                         \
  STORE(out, s);                                                                            \
  sink = out[0];                                                                            \
  return 24.0 * LANES * double(iterations);

#if defined(__x86_64__)
#define MODELRT_SSE_FMA(a, b, c) _mm_add_ps(_mm_mul_ps(a, b), c)

__attribute__((target("avx512f"))) double fmaAvx512(int64_t iterations) {
  MODELRT_FMA_CHAINS(__m512, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_add_ps, _mm512_storeu_ps,
                     16)
}

__attribute__((target("avx2,fma"))) double fmaAvx2(int64_t iterations) {
  MODELRT_FMA_CHAINS(__m256, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_add_ps, _mm256_storeu_ps,
                     8)
}

double fmaBaseline(int64_t iterations) {
  MODELRT_FMA_CHAINS(__m128, _mm_set1_ps, MODELRT_SSE_FMA, _mm_add_ps, _mm_storeu_ps, 4)
}
#else
float scalarFma(float a, float b, float c) { return a * b + c; }
float scalarSet(float v) { return v; }
float scalarAdd(float a, float b) { return a + b; }
void scalarStore(float *out, float v) { *out = v; }

double fmaBaseline(int64_t iterations) {
  MODELRT_FMA_CHAINS(float, scalarSet, scalarFma, scalarAdd, scalarStore, 1)
}
#endif

/// The FMA loop of \p level for \p iterations rounds; its FLOPs.
double fmaLoop(CpuLevel level, int64_t iterations) {
#if defined(__x86_64__)
  if (level == CpuLevel::Avx512)
    return fmaAvx512(iterations);
  if (level == CpuLevel::Avx2)
    return fmaAvx2(iterations);
#endif
  (void)level;
  return fmaBaseline(iterations);
}

/// Runs \p work(part) on \p threads threads (1 or 2); the seconds it took.
template <typename Work> double timed(int threads, Work work) {
  double start = now();
  if (threads >= 2)
    runInTwoParts([&](int part) { work(part); });
  else
    work(0);
  return now() - start;
}

} // namespace

double measureFmaPeak(CpuLevel level, int threads, double seconds) {
  // Calibrate on one thread, then three timed rounds.
  int64_t probe = 1 << 16;
  double t = timed(1, [&](int) { fmaLoop(level, probe); });
  double scale = seconds / std::max(t, 1e-6);
  int64_t iterations = std::max<int64_t>(probe, int64_t(double(probe) * scale));
  double best = 0;
  for (int round = 0; round < 3; ++round) {
    double flops[2] = {0, 0};
    double s = timed(threads, [&](int part) { flops[part] = fmaLoop(level, iterations); });
    best = std::max(best, (flops[0] + flops[1]) / s * 1e-9);
  }
  return best;
}

double measureTriadBandwidth(int threads, int64_t elements, int repeats) {
  std::unique_ptr<float[]> a(new float[size_t(elements)]), b(new float[size_t(elements)]),
      c(new float[size_t(elements)]);
  int parts = threads >= 2 ? 2 : 1;
  auto span = [&](int part, int64_t &lo, int64_t &hi) {
    lo = elements * part / parts, hi = elements * (part + 1) / parts;
  };
  timed(threads, [&](int part) { // first touch, by the thread that uses each half
    int64_t lo, hi;
    span(part, lo, hi);
    std::fill(a.get() + lo, a.get() + hi, 0.0f);
    std::fill(b.get() + lo, b.get() + hi, 1.0f);
    std::fill(c.get() + lo, c.get() + hi, 2.0f);
  });
  double best = 0;
  for (int r = 0; r < repeats; ++r) {
    float s = 0.5f + float(r);
    double secs = timed(threads, [&](int part) {
      int64_t lo, hi;
      span(part, lo, hi);
      float *pa = a.get(), *pb = b.get(), *pc = c.get();
      for (int64_t i = lo; i < hi; ++i)
        pa[i] = pb[i] + s * pc[i];
    });
    best = std::max(best, 12.0 * double(elements) / secs * 1e-9);
  }
  sink = a[size_t(elements / 2)];
  return best;
}

MachineRoof measureMachineRoof() {
  MachineRoof roof;
  CpuLevel level = hostKernels().level;
  roof.threads = twoPartsInParallel() ? 2 : 1;
  roof.isa = cpuLevelName(level);
  roof.peakGflops = measureFmaPeak(level, roof.threads, 0.03);
  roof.bandwidthGBs = measureTriadBandwidth(roof.threads, int64_t(1) << 24, 4);
  return roof;
}

double arithmeticIntensity(double flops, double bytes) {
  return bytes > 0 ? flops / bytes : 0;
}

double attainableGflops(const MachineRoof &roof, double intensity) {
  return std::min(roof.peakGflops, roof.bandwidthGBs * intensity);
}

double ridgeIntensity(const MachineRoof &roof) {
  return roof.bandwidthGBs > 0 ? roof.peakGflops / roof.bandwidthGBs : 0;
}

std::vector<RooflinePoint> placeKernels(const std::vector<KernelStats> &kernels,
                                        const MachineRoof &roof) {
  double total = 0;
  for (const KernelStats &k : kernels)
    total += k.seconds;
  std::vector<RooflinePoint> points;
  for (const KernelStats &k : kernels) {
    if (!(k.flops > 0 && k.bytes > 0 && k.seconds > 0))
      continue;
    RooflinePoint p;
    p.name = k.name;
    p.intensity = arithmeticIntensity(k.flops, k.bytes);
    p.gflops = k.flops / k.seconds * 1e-9;
    p.roofGflops = attainableGflops(roof, p.intensity);
    p.share = total > 0 ? k.seconds / total : 0;
    points.push_back(p);
  }
  return points;
}

} // namespace modelrt
