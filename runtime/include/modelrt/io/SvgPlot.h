//===- SvgPlot.h - Line charts as SVG files --------------------------------===//
//
// Declares the line charts behind `NAME plot` (docs/cli.md): one chart per
// quantity (loss, each metric, the learning rate) over the epochs, the
// training and validation curves in one frame, with axes, round ticks, a
// legend and a title. Plain SVG 1.1 text, no library; the same series
// always give the same bytes.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_IO_SVGPLOT_H
#define MODELRT_IO_SVGPLOT_H

#include <string>
#include <vector>

namespace modelrt {

/// One curve of a chart: its name (the legend) and its points, in order of
/// x. Points whose y is not finite are left out (a gap).
struct PlotSeries {
  std::string name;
  std::vector<double> x, y;
};

/// A chart: its title, axis labels and curves.
struct PlotSpec {
  std::string title, xLabel, yLabel;
  std::vector<PlotSeries> series;
};

/// \p s with &, <, > and " escaped for XML text and attributes.
std::string xmlEscape(const std::string &s);

/// About \p count round tick values covering [lo, hi] (steps of 1, 2 or 5
/// times a power of ten); lo and hi are widened to the outer ticks.
std::vector<double> niceTicks(double &lo, double &hi, int count);

/// The SVG text of \p spec (640 x 400), its y range from the finite
/// points (a flat curve gets a range around its value).
std::string renderLinePlot(const PlotSpec &spec);

} // namespace modelrt

#endif // MODELRT_IO_SVGPLOT_H
