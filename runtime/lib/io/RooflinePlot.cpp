//===- RooflinePlot.cpp - The roofline chart of a profile as SVG -----------===//
//
// Implements RooflinePlot.h: a frame of 960 x 400 whose axes span whole
// decades (the points, the ridge / 8 and the ridge x 8 on x; the points,
// the peak and the memory roof's value at the left edge on y), grid lines
// and labels at each decade, the roofs (f32, and bf16 when a kernel used
// it), the points, and a numbered list
// of the slowest kernels below. Coordinates are written with one decimal.
//
//===----------------------------------------------------------------------===//
#include "modelrt/io/RooflinePlot.h"

#include "modelrt/io/Checkpoint.h"
#include "modelrt/io/SvgPlot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace modelrt {
namespace {

constexpr double kWidth = 960, kLeft = 80, kRight = 30, kTop = 40, kFrame = 400;
constexpr double kListLine = 16;

/// Maps intensities and rates to the frame, both axes log10.
struct LogFrame {
  int x0, x1, y0, y1; ///< decades
  double px(double x) const {
    return kLeft + (std::log10(x) - x0) / (x1 - x0) * (kWidth - kLeft - kRight);
  }
  double py(double y) const { return kTop + kFrame - (std::log10(y) - y0) / (y1 - y0) * kFrame; }
  double left() const { return std::pow(10.0, x0); }
  double right() const { return std::pow(10.0, x1); }
  double bottom() const { return std::pow(10.0, y0); }
};

/// True when some point ran bf16 products and the bf16 peak was measured:
/// the chart then draws the bf16 compute roof too.
bool hasBf16Roof(const std::vector<RooflinePoint> &points, const MachineRoof &roof) {
  return roof.bf16PeakGflops > 0 &&
         std::any_of(points.begin(), points.end(), [](const RooflinePoint &p) { return p.bf16; });
}

/// The frame for \p points under \p roof.
LogFrame frameFor(const std::vector<RooflinePoint> &points, const MachineRoof &roof) {
  bool bf16 = hasBf16Roof(points, roof);
  double ridge = ridgeIntensity(roof), top = ridgeIntensity(roof, bf16);
  std::vector<double> xs = {ridge / 8, top * 8}, ys = {roof.peakGflops};
  if (bf16)
    ys.push_back(roof.bf16PeakGflops);
  for (const RooflinePoint &p : points)
    xs.push_back(p.intensity), ys.push_back(p.gflops);
  LogFrame f{};
  logDecades(xs, f.x0, f.x1);
  ys.push_back(roof.bandwidthGBs * f.left());
  logDecades(ys, f.y0, f.y1);
  return f;
}

/// 10^k as a tick label.
std::string decadeLabel(int k) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", std::pow(10.0, k));
  return buf;
}

/// Appends the frame, the decade grid and the axis labels.
void drawAxes(std::string &svg, const LogFrame &f) {
  char buf[320];
  double bottom = kTop + kFrame;
  for (int k = f.x0; k <= f.x1; ++k) {
    double x = f.px(std::pow(10.0, k));
    std::snprintf(buf, sizeof buf,
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n"
                  "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                  x, kTop, x, bottom, x, bottom + 18, decadeLabel(k).c_str());
    svg += buf;
  }
  for (int k = f.y0; k <= f.y1; ++k) {
    double y = f.py(std::pow(10.0, k));
    std::snprintf(buf, sizeof buf,
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
                  "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                  kLeft, y, kWidth - kRight, y, kLeft - 6, y + 4, decadeLabel(k).c_str());
    svg += buf;
  }
  std::snprintf(buf, sizeof buf,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                "stroke=\"#444\"/>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
                "arithmetic intensity (FLOPs per byte of the buffers read or written)</text>\n"
                "<text x=\"18\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 18 "
                "%.1f)\">GFLOP/s</text>\n",
                kLeft, kTop, kWidth - kLeft - kRight, kFrame, (kLeft + kWidth - kRight) / 2,
                bottom + 38, kTop + kFrame / 2, kTop + kFrame / 2);
  svg += buf;
}

/// Appends the bf16 products' compute roof, from its ridge on, and the
/// memory roof's dashed continuation up to it from the f32 ridge.
void drawBf16Roof(std::string &svg, const LogFrame &f, const MachineRoof &roof) {
  double ridge = ridgeIntensity(roof), top = ridgeIntensity(roof, true);
  char buf[480];
  std::snprintf(buf, sizeof buf,
                "<line id=\"roof-memory-bf16\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                "stroke=\"#d62728\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>\n"
                "<line id=\"roof-compute-bf16\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                "stroke=\"#ff7f0e\" stroke-width=\"2\"/>\n"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#ff7f0e\">bf16 peak "
                "%.1f GFLOP/s (bf16 products)</text>\n",
                f.px(ridge), f.py(roof.peakGflops), f.px(top), f.py(roof.bf16PeakGflops),
                f.px(top), f.py(roof.bf16PeakGflops), f.px(f.right()), f.py(roof.bf16PeakGflops),
                kWidth - kRight - 6, f.py(roof.bf16PeakGflops) - 8, roof.bf16PeakGflops);
  svg += buf;
}

/// Appends the memory roof (from the frame's edge to the ridge) and the
/// compute roof (from the ridge on), each labelled.
void drawRoofs(std::string &svg, const LogFrame &f, const MachineRoof &roof) {
  if (!(roof.peakGflops > 0 && roof.bandwidthGBs > 0))
    return; // nothing measured
  double ridge = ridgeIntensity(roof);
  double start = std::max(f.left(), f.bottom() / roof.bandwidthGBs);
  char buf[400];
  std::snprintf(buf, sizeof buf,
                "<line id=\"roof-memory\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                "stroke=\"#d62728\" stroke-width=\"2\"/>\n"
                "<text x=\"%.1f\" y=\"%.1f\" fill=\"#d62728\">memory bandwidth %.1f GB/s "
                "(triad)</text>\n",
                f.px(start), f.py(roof.bandwidthGBs * start), f.px(ridge), f.py(roof.peakGflops),
                f.px(start) + 6, f.py(roof.bandwidthGBs * start) - 8, roof.bandwidthGBs);
  svg += buf;
  std::snprintf(buf, sizeof buf,
                "<line id=\"roof-compute\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                "stroke=\"#1f77b4\" stroke-width=\"2\"/>\n"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#1f77b4\">FMA peak %.1f "
                "GFLOP/s (%s, %d thread%s)</text>\n",
                f.px(ridge), f.py(roof.peakGflops), f.px(f.right()), f.py(roof.peakGflops),
                kWidth - kRight - 6, f.py(roof.peakGflops) + 16, roof.peakGflops, roof.isa.c_str(),
                roof.threads, roof.threads == 1 ? "" : "s");
  svg += buf;
}

/// Appends point \p p (number \p n when > 0): a circle of area following
/// its time share, with its name and numbers in a <title>.
void drawPoint(std::string &svg, const LogFrame &f, const RooflinePoint &p, size_t n) {
  double x = f.px(p.intensity), y = f.py(p.gflops), r = 3 + 15 * std::sqrt(p.share);
  const char *color = p.bf16 ? "#ff7f0e" : "#2ca02c"; // bf16 products: the bf16 roof's
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "<circle class=\"kernel\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" "
                "fill-opacity=\"0.45\" stroke=\"%s\"><title>",
                x, y, r, color, color);
  svg += buf;
  std::snprintf(buf, sizeof buf, ": %.3g FLOP/B, %.3g GFLOP/s (roof %.3g), %.1f%% of kernel time",
                p.intensity, p.gflops, p.roofGflops, 100 * p.share);
  svg += xmlEscape(p.name) + buf + "</title></circle>\n";
  if (n == 0)
    return;
  std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%zu</text>\n",
                x + r + 2, y + 4, n);
  svg += buf;
}

/// Appends the numbered list of the first \p labelled points and the count
/// of kernels that could not be placed, from \p top down.
void drawList(std::string &svg, const std::vector<RooflinePoint> &points, size_t labelled,
              size_t unplaced, double top) {
  char buf[256];
  for (size_t i = 0; i < points.size() && i < labelled; ++i) {
    const RooflinePoint &p = points[i];
    std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%zu. ", kLeft,
                  top + kListLine * double(i), i + 1);
    svg += buf + xmlEscape(p.name);
    std::snprintf(buf, sizeof buf,
                  ": %.3g GFLOP/s at %.3g FLOP/B, roof %.3g GFLOP/s, %.1f%% of kernel time"
                  "</text>\n",
                  p.gflops, p.intensity, p.roofGflops, 100 * p.share);
    svg += buf;
  }
  std::snprintf(buf, sizeof buf,
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%zu kernels placed; %zu without "
                "FLOPs or bytes (data movement, GPU kernels) not shown</text>\n",
                kLeft, top + kListLine * double(std::min(labelled, points.size())),
                points.size(), unplaced);
  svg += buf;
}

} // namespace

void logDecades(const std::vector<double> &values, int &lo, int &hi) {
  double mn = HUGE_VAL, mx = -HUGE_VAL;
  for (double v : values)
    if (std::isfinite(v) && v > 0)
      mn = std::min(mn, v), mx = std::max(mx, v);
  if (!(mn <= mx))
    mn = mx = 1;
  lo = int(std::floor(std::log10(mn) + 1e-9));
  hi = int(std::ceil(std::log10(mx) - 1e-9));
  if (hi <= lo)
    hi = lo + 1;
}

std::string renderRoofline(const std::vector<RooflinePoint> &points, const MachineRoof &roof,
                           const std::string &title, size_t unplaced, size_t labelled) {
  LogFrame f = frameFor(points, roof);
  double listTop = kTop + kFrame + 66;
  double height = listTop + kListLine * double(std::min(labelled, points.size()) + 1) + 10;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
                kWidth, height, kWidth, height);
  std::string svg = buf;
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"24\" text-anchor=\"middle\" "
                                 "font-size=\"15\">", kWidth / 2);
  svg += buf + xmlEscape(title) + "</text>\n";
  drawAxes(svg, f);
  drawRoofs(svg, f, roof);
  if (hasBf16Roof(points, roof) && roof.bandwidthGBs > 0)
    drawBf16Roof(svg, f, roof);
  for (size_t i = points.size(); i-- > 0;) // the slowest drawn last, on top
    drawPoint(svg, f, points[i], i < labelled ? i + 1 : 0);
  drawList(svg, points, labelled, unplaced, listTop);
  return svg + "</svg>\n";
}

Status writeRoofline(const std::string &path, const std::vector<RooflinePoint> &points,
                     const MachineRoof &roof, const std::string &title, size_t unplaced) {
  return writeFileAtomically(path, renderRoofline(points, roof, title, unplaced));
}

} // namespace modelrt
