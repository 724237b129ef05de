//===- Roofline.cpp - This machine's roofs and the kernels placed under them ===//
//
// Implements Roofline.h. The FMA loop keeps 12 accumulators in registers
// (enough to cover the FMA latency of current x86 cores with two FMA
// units), each a = a * b + c, one function per level compiled for it with
// a target attribute (bench/compare/fma_peak.c is the same loop as a
// stand-alone program). The AVX512-BF16 loop is the same 12 chains of
// a = vdpbf16ps(a, b, c); the AMX loop keeps four accumulator tiles and
// four operand tiles in the eight tile registers (a 2x2 block, as GEMM
// kernels do), each tdpbf16ps a 16x16x32 product. The triad's arrays are touched before the timed
// passes. Both run on two threads through runInTwoParts when the kernels
// do (Parallel.h).
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Roofline.h"

#include "modelrt/core/Parallel.h"

#include <algorithm>
#include <chrono>
#include <string>
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
/// of type V, written out so that they stay in registers. LANES is the
/// multiply-adds of one FMA (the vector's lanes; twice its f32 lanes for
/// vdpbf16ps, which adds two products per lane).
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

/// a + b c summed over pairs of bf16 lanes, with b and c f32 vectors rounded
/// to bf16 (loop-invariant: the compiler converts them once).
#define MODELRT_DPBF16(a, b, c)                                                            \
  _mm512_dpbf16_ps(a, _mm512_cvtne2ps_pbh(b, b), _mm512_cvtne2ps_pbh(c, c))

__attribute__((target("avx512f,avx512bf16"))) double dpbf16Avx512(int64_t iterations) {
  MODELRT_FMA_CHAINS(__m512, _mm512_set1_ps, MODELRT_DPBF16, _mm512_add_ps, _mm512_storeu_ps,
                     32)
}

/// The tile configuration `ldtilecfg` reads (palette 1): eight tiles of 16
/// rows of 64 bytes (16 f32 or 32 bf16 values).
struct alignas(64) TileConfig {
  uint8_t palette = 1, startRow = 0;
  uint8_t reserved[14] = {};
  uint16_t bytesPerRow[16] = {64, 64, 64, 64, 64, 64, 64, 64};
  uint8_t rows[16] = {16, 16, 16, 16, 16, 16, 16, 16};
};

/// Four accumulators C0..C3 (tmm0-3) += A0, A1 (tmm4, 5) x B0, B1 (tmm6,
/// 7): four independent tdpbf16ps of 2 x 16 x 16 x 32 FLOPs per iteration.
__attribute__((target("amx-tile,amx-bf16"))) double dpbf16Amx(int64_t iterations) {
  TileConfig config;
  alignas(64) uint16_t operand[16 * 32];
  alignas(64) float result[16 * 16];
  std::fill(std::begin(operand), std::end(operand), uint16_t(0x3a83)); // about 1e-3
  _tile_loadconfig(&config);
  _tile_loadd(4, operand, 64);
  _tile_loadd(5, operand, 64);
  _tile_loadd(6, operand, 64);
  _tile_loadd(7, operand, 64);
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  for (int64_t it = 0; it < iterations; ++it) {
    _tile_dpbf16ps(0, 4, 6);
    _tile_dpbf16ps(1, 4, 7);
    _tile_dpbf16ps(2, 5, 6);
    _tile_dpbf16ps(3, 5, 7);
  }
  _tile_stored(0, result, 64);
  _tile_release();
  sink = result[0];
  return 4 * 2.0 * 16 * 16 * 32 * double(iterations);
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

/// GFLOP/s of \p loop (iterations -> FLOPs) on \p threads threads: calibrated
/// on one thread to about \p seconds, then the best of three timed rounds.
template <typename Loop> double measureLoopPeak(int threads, double seconds, Loop loop) {
  int64_t probe = 1 << 16;
  double t = timed(1, [&](int) { loop(probe); });
  double scale = seconds / std::max(t, 1e-6);
  int64_t iterations = std::max<int64_t>(probe, int64_t(double(probe) * scale));
  double best = 0;
  for (int round = 0; round < 3; ++round) {
    double flops[2] = {0, 0};
    double s = timed(threads, [&](int part) { flops[part] = loop(iterations); });
    best = std::max(best, (flops[0] + flops[1]) / s * 1e-9);
  }
  return best;
}

} // namespace

double measureFmaPeak(CpuLevel level, int threads, double seconds) {
  return measureLoopPeak(threads, seconds,
                         [&](int64_t iterations) { return fmaLoop(level, iterations); });
}

double measureBf16Peak(Bf16Path path, int threads, double seconds) {
#if defined(__x86_64__)
  if (path == Bf16Path::Amx)
    return measureLoopPeak(threads, seconds, dpbf16Amx);
  if (path == Bf16Path::Avx512Bf16)
    return measureLoopPeak(threads, seconds, dpbf16Avx512);
#endif
  (void)path;
  return measureFmaPeak(hostKernels().level, threads, seconds);
}

const MachinePeaks &hostPeaks() {
  static const MachinePeaks peaks = [] {
    MachinePeaks p;
    CpuLevel level = hostKernels().level;
    p.threads = twoPartsInParallel() ? 2 : 1;
    p.isa = cpuLevelName(level);
    p.f32Gflops = measureFmaPeak(level, p.threads, 0.03);
    p.bf16Path = hostBf16Choice().path;
    p.bf16Gflops = p.bf16Path == Bf16Path::Emulated
                       ? p.f32Gflops
                       : measureBf16Peak(p.bf16Path, p.threads, 0.03);
    return p;
  }();
  return peaks;
}

double peakGflopsFor(const MachinePeaks &peaks, bool bf16, Bf16Path path) {
  if (!bf16 || path == Bf16Path::Emulated)
    return peaks.f32Gflops;
  return path == peaks.bf16Path ? peaks.bf16Gflops : 0;
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
  const MachinePeaks &peaks = hostPeaks();
  roof.threads = peaks.threads;
  roof.isa = peaks.isa;
  roof.peakGflops = peaks.f32Gflops;
  roof.bf16PeakGflops = peaks.bf16Gflops;
  roof.bandwidthGBs = measureTriadBandwidth(roof.threads, int64_t(1) << 24, 4);
  return roof;
}

ProductRate productRate(const KernelStats &k, const MachinePeaks &peaks) {
  ProductRate r;
  if (k.productRuns == 0)
    return r;
  for (Bf16Path path : {Bf16Path::Amx, Bf16Path::Avx512Bf16, Bf16Path::Emulated}) {
    if (!(k.productRuns & productRunBit(true, path)))
      continue;
    if (r.precision.empty())
      r.peakGflops = peakGflopsFor(peaks, true, path); // the widest path's
    r.precision += std::string(r.precision.empty() ? "bf16 " : "+") + bf16PathName(path);
  }
  if (r.precision.empty()) {
    r.precision = "f32";
    r.peakGflops = peakGflopsFor(peaks, false, Bf16Path::Emulated);
  }
  if (r.peakGflops > 0 && k.flops > 0 && k.seconds > 0)
    r.fractionOfPeak = k.flops / k.seconds * 1e-9 / r.peakGflops;
  return r;
}

double arithmeticIntensity(double flops, double bytes) {
  return bytes > 0 ? flops / bytes : 0;
}

/// The compute roof: the bf16 peak for \p bf16 kernels when it was measured.
static double computePeak(const MachineRoof &roof, bool bf16) {
  return bf16 && roof.bf16PeakGflops > 0 ? roof.bf16PeakGflops : roof.peakGflops;
}

double attainableGflops(const MachineRoof &roof, double intensity, bool bf16) {
  return std::min(computePeak(roof, bf16), roof.bandwidthGBs * intensity);
}

double ridgeIntensity(const MachineRoof &roof, bool bf16) {
  return roof.bandwidthGBs > 0 ? computePeak(roof, bf16) / roof.bandwidthGBs : 0;
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
    p.bf16 = (k.productRuns & (productRunBit(true, Bf16Path::Amx) |
                               productRunBit(true, Bf16Path::Avx512Bf16))) != 0;
    p.roofGflops = attainableGflops(roof, p.intensity, p.bf16);
    p.share = total > 0 ? k.seconds / total : 0;
    points.push_back(p);
  }
  return points;
}

} // namespace modelrt
