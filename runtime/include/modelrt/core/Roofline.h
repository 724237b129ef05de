//===- Roofline.h - This machine's roofs and the kernels placed under them -===//
//
// Implements the numbers behind `--roofline FILE.svg` (docs/cli.md): the
// f32 FMA peak of this CPU, measured with a short loop of independent
// vector FMAs at the runtime's instruction-set level (AVX-512, AVX2 + FMA,
// or SSE2 multiply + add) on the threads the kernels use, and the memory
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

#include "modelrt/core/CpuFeatures.h"
#include "modelrt/core/Profile.h"

#include <string>
#include <vector>

namespace modelrt {

/// The two roofs of a machine.
struct MachineRoof {
  double peakGflops = 0;   ///< f32 FMA peak, GFLOP/s, on `threads` threads
  double bandwidthGBs = 0; ///< triad bandwidth, GB/s (10^9 bytes)
  int threads = 1;
  std::string isa;         ///< the loop's level: "avx512", "avx2", "baseline"
};

/// GFLOP/s of a loop of independent FMAs (2 FLOPs per lane; SSE2: a
/// multiply and an add) at \p level on \p threads (1 or 2) threads, the
/// best of three rounds of about \p seconds each.
double measureFmaPeak(CpuLevel level, int threads, double seconds);

/// GB/s of the triad a[i] = b[i] + s * c[i] over three arrays of
/// \p elements floats on \p threads (1 or 2) threads, the best of
/// \p repeats passes, counting 12 bytes per element (two reads, one write).
double measureTriadBandwidth(int threads, int64_t elements, int repeats);

/// Both roofs of this machine at the runtime's level, on the threads the
/// kernels use (about 0.3 s and 192 MiB for the triad's arrays).
MachineRoof measureMachineRoof();

/// FLOPs per byte; 0 when \p bytes is not positive.
double arithmeticIntensity(double flops, double bytes);
/// The roof at \p intensity: min(peak, bandwidth x intensity), GFLOP/s.
double attainableGflops(const MachineRoof &roof, double intensity);
/// The intensity where the roofs meet: peak / bandwidth, FLOPs per byte.
double ridgeIntensity(const MachineRoof &roof);

/// One kernel on the chart.
struct RooflinePoint {
  std::string name;
  double intensity = 0; ///< FLOPs per byte
  double gflops = 0;    ///< measured: FLOPs / seconds
  double roofGflops = 0; ///< attainableGflops at its intensity
  double share = 0;     ///< its part of the time of every kernel profiled
};

/// The kernels of \p kernels that did FLOPs on bytes (others cannot be
/// placed), in the order given (kernelStats(): slowest first).
std::vector<RooflinePoint> placeKernels(const std::vector<KernelStats> &kernels,
                                        const MachineRoof &roof);

} // namespace modelrt

#endif // MODELRT_CORE_ROOFLINE_H
