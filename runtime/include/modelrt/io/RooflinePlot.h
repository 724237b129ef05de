//===- RooflinePlot.h - The roofline chart of a profile as SVG -------------===//
//
// Declares the chart `--roofline FILE.svg` writes (docs/cli.md): log-log,
// x the arithmetic intensity (FLOPs per byte), y GFLOP/s; the memory roof
// (bandwidth x intensity) up to the ridge and the compute roof (the FMA
// peak) after it, and, when some kernel ran bf16 products on AMX or
// AVX512-BF16, the bf16 peak's roof (its points in that roof's colour);
// each placed kernel a circle whose area follows its share
// of the kernel time, its name in the circle's <title>; the kernels with
// the largest shares numbered and listed under the chart with their rate,
// intensity and roof. Plain SVG 1.1 text (SvgPlot.h's conventions).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_IO_ROOFLINEPLOT_H
#define MODELRT_IO_ROOFLINEPLOT_H

#include "modelrt/core/Roofline.h"
#include "modelrt/core/Status.h"

#include <string>
#include <vector>

namespace modelrt {

/// The decades [10^lo, 10^hi] a log axis spans to show \p values (finite,
/// positive ones): lo = floor(log10 min), hi = ceil(log10 max), hi > lo.
void logDecades(const std::vector<double> &values, int &lo, int &hi);

/// The SVG text of the roofline of \p points under \p roof, titled
/// \p title; the first \p labelled points (the slowest) are numbered and
/// listed; \p unplaced kernels (no FLOPs or no bytes) are counted.
std::string renderRoofline(const std::vector<RooflinePoint> &points, const MachineRoof &roof,
                           const std::string &title, size_t unplaced, size_t labelled = 10);

/// Writes renderRoofline to \p path.
Status writeRoofline(const std::string &path, const std::vector<RooflinePoint> &points,
                     const MachineRoof &roof, const std::string &title, size_t unplaced);

} // namespace modelrt

#endif // MODELRT_IO_ROOFLINEPLOT_H
