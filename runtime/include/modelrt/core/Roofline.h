//===- Roofline.h - This machine's roofs and the kernels placed under them -===//
//
// Implements the numbers behind `--roofline FILE.svg` and the peaks of
// `--profile` (docs/cli.md): the f32 FMA peak of this CPU, measured with a
// short loop of independent vector FMAs at the runtime's instruction-set
// level (AVX-512, AVX2 + FMA, or SSE2 multiply + add) on the threads the
// kernels use; the bf16 peak of the path the bf16 products take (Bf16.h),
// measured the same way with the AMX tile product `tdpbf16ps` or the
// AVX512-BF16 `vdpbf16ps` (the emulation's peak is the f32 FMA peak); both
// measured once per process (hostPeaks()). Then the memory
// bandwidth, measured with a STREAM-like triad over arrays far larger than
// the caches; then each profiled kernel's arithmetic intensity (FLOPs per
// byte of the buffers it reads or writes, Profile.h) and measured rate, and
// the roof above it, min(peak, bandwidth x intensity). Both measurements
// take a fraction of a second. It does not model caches: a kernel whose
// buffers stay in cache can sit above the memory roof.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CORE_ROOFLINE_H
#define MODELRT_CORE_ROOFLINE_H

#include "modelrt/core/Bf16.h"
#include "modelrt/core/CpuFeatures.h"
#include "modelrt/core/Profile.h"

#include <string>
#include <vector>

namespace modelrt {

/// The compute peaks of this machine, GFLOP/s, on the threads the kernels
/// use.
struct MachinePeaks {
  double f32Gflops = 0;  ///< the FMA loop at the runtime's level
  double bf16Gflops = 0; ///< the loop of bf16Path's instruction (f32Gflops when emulated)
  Bf16Path bf16Path = Bf16Path::Emulated; ///< the host's bf16 path (hostBf16Choice())
  int threads = 1;
  std::string isa; ///< the FMA loop's level: "avx512", "avx2", "baseline"
};

/// This machine's peaks, measured on the first call (about 0.1 s per
/// loop), then the same for the rest of the process.
const MachinePeaks &hostPeaks();

/// The peak a product that ran on \p path (f32 when \p bf16 is false)
/// can reach on \p peaks' machine: the bf16 peak for the host's bf16 path,
/// the f32 FMA peak for f32 and the emulation; 0 for a bf16 path that is
/// not the host's (not measured).
double peakGflopsFor(const MachinePeaks &peaks, bool bf16, Bf16Path path);

/// The two roofs of a machine.
struct MachineRoof {
  double peakGflops = 0;   ///< f32 FMA peak, GFLOP/s, on `threads` threads
  double bf16PeakGflops = 0; ///< the bf16 products' peak (MachinePeaks::bf16Gflops)
  double bandwidthGBs = 0; ///< triad bandwidth, GB/s (10^9 bytes)
  int threads = 1;
  std::string isa;         ///< the loop's level: "avx512", "avx2", "baseline"
};

/// GFLOP/s of a loop of independent FMAs (2 FLOPs per lane; SSE2: a
/// multiply and an add) at \p level on \p threads (1 or 2) threads, the
/// best of three rounds of about \p seconds each.
double measureFmaPeak(CpuLevel level, int threads, double seconds);

/// GFLOP/s of a loop of independent bf16 products with f32 accumulation on
/// \p path's instruction (AMX: `tdpbf16ps` on four 16x16 accumulator tiles,
/// 16384 FLOPs each; AVX512-BF16: `vdpbf16ps`, 64 FLOPs each) on \p threads
/// (1 or 2) threads, the best of three rounds of about \p seconds each; the
/// f32 FMA peak at the runtime's level for the emulation. The caller makes
/// sure that the CPU has the instruction (and, for AMX, that the kernel
/// granted the tile state: hostBf16Choice()).
double measureBf16Peak(Bf16Path path, int threads, double seconds);

/// GB/s of the triad a[i] = b[i] + s * c[i] over three arrays of
/// \p elements floats on \p threads (1 or 2) threads, the best of
/// \p repeats passes, counting 12 bytes per element (two reads, one write).
double measureTriadBandwidth(int threads, int64_t elements, int repeats);

/// Both roofs of this machine at the runtime's level, on the threads the
/// kernels use: hostPeaks() and the triad (about 0.3 s and 192 MiB for its
/// arrays).
MachineRoof measureMachineRoof();

/// FLOPs per byte; 0 when \p bytes is not positive.
double arithmeticIntensity(double flops, double bytes);
/// The roof at \p intensity: min(peak, bandwidth x intensity), GFLOP/s;
/// the peak is the bf16 products' when \p bf16 (and measured).
double attainableGflops(const MachineRoof &roof, double intensity, bool bf16 = false);
/// The intensity where the roofs meet: peak / bandwidth, FLOPs per byte
/// (the bf16 peak's when \p bf16).
double ridgeIntensity(const MachineRoof &roof, bool bf16 = false);

/// A product kernel's precision and path ("f32", "bf16 amx", "bf16
/// avx512_bf16", "bf16 emulated"; several paths joined by '+'), the peak
/// it is rated against (GFLOP/s: peakGflopsFor the widest path that ran;
/// 0 when not measured) and its rate as a fraction of that peak (0 when it
/// has no rate).
struct ProductRate {
  std::string precision;
  double peakGflops = 0;
  double fractionOfPeak = 0;
};

/// \p k's ProductRate on \p peaks' machine; an empty precision for a
/// kernel that ran no product (KernelStats::productRuns 0). Bf16 runs take
/// precedence over the f32 products an emulation runs inside them.
ProductRate productRate(const KernelStats &k, const MachinePeaks &peaks);

/// One kernel on the chart.
struct RooflinePoint {
  std::string name;
  double intensity = 0; ///< FLOPs per byte
  double gflops = 0;    ///< measured: FLOPs / seconds
  double roofGflops = 0; ///< attainableGflops at its intensity
  bool bf16 = false;     ///< its products ran on bf16 instructions (AMX, AVX512-BF16)
  double share = 0;     ///< its part of the time of every kernel profiled
};

/// The kernels of \p kernels that did FLOPs on bytes (others cannot be
/// placed), in the order given (kernelStats(): slowest first).
std::vector<RooflinePoint> placeKernels(const std::vector<KernelStats> &kernels,
                                        const MachineRoof &roof);

} // namespace modelrt

#endif // MODELRT_CORE_ROOFLINE_H
