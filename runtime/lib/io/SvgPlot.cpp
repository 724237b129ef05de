//===- SvgPlot.cpp - Line charts as SVG files ------------------------------===//
//
// Implements SvgPlot.h: a frame of 640 x 400 with margins for the tick
// labels, x and y from niceTicks, grid lines at the ticks, one polyline per
// run of finite points in each series (a point marker where a series has a
// single point), the legend at the top right. Text is escaped for XML.
//
//===----------------------------------------------------------------------===//
#include "modelrt/io/SvgPlot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace modelrt {
namespace {

constexpr double kWidth = 640, kHeight = 400;
constexpr double kLeft = 70, kRight = 20, kTop = 40, kBottom = 50;
const char *const kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"};

/// A number as a tick label: %g with 4 significant digits.
std::string tickLabel(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", std::fabs(v) < 1e-12 ? 0.0 : v);
  return buf;
}

/// The finite range of \p values over every series (x or y), or false.
bool range(const PlotSpec &spec, bool wantX, double &lo, double &hi) {
  lo = HUGE_VAL, hi = -HUGE_VAL;
  for (const PlotSeries &s : spec.series)
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
      if (std::isfinite(s.x[i]) && std::isfinite(s.y[i])) {
        double v = wantX ? s.x[i] : s.y[i];
        lo = std::min(lo, v), hi = std::max(hi, v);
      }
  return lo <= hi;
}

/// Maps data coordinates into the frame.
struct Frame {
  double x0, x1, y0, y1;
  double px(double x) const { return kLeft + (x - x0) / (x1 - x0) * (kWidth - kLeft - kRight); }
  double py(double y) const {
    return kHeight - kBottom - (y - y0) / (y1 - y0) * (kHeight - kTop - kBottom);
  }
};

/// Appends the axes, grid, tick labels and axis labels.
void drawAxes(std::string &svg, const PlotSpec &spec, const Frame &f,
              const std::vector<double> &xt, const std::vector<double> &yt) {
  char buf[256];
  for (double y : yt) {
    std::snprintf(buf, sizeof buf,
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
                  "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                  kLeft, f.py(y), kWidth - kRight, f.py(y), kLeft - 6, f.py(y) + 4,
                  tickLabel(y).c_str());
    svg += buf;
  }
  for (double x : xt) {
    std::snprintf(buf, sizeof buf,
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n"
                  "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                  f.px(x), kTop, f.px(x), kHeight - kBottom, f.px(x), kHeight - kBottom + 18,
                  tickLabel(x).c_str());
    svg += buf;
  }
  std::snprintf(buf, sizeof buf,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                "stroke=\"#444\"/>\n",
                kLeft, kTop, kWidth - kLeft - kRight, kHeight - kTop - kBottom);
  svg += buf;
  std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
                (kLeft + kWidth - kRight) / 2, kHeight - 12);
  svg += buf + xmlEscape(spec.xLabel) + "</text>\n";
  std::snprintf(buf, sizeof buf,
                "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 16 "
                "%.1f)\">",
                (kTop + kHeight - kBottom) / 2, (kTop + kHeight - kBottom) / 2);
  svg += buf + xmlEscape(spec.yLabel) + "</text>\n";
}

/// Appends one run of points in \p color: a polyline, or a dot for one.
void drawRun(std::string &svg, const std::vector<std::pair<double, double>> &run,
             const char *color) {
  char buf[96];
  if (run.size() == 1) {
    std::snprintf(buf, sizeof buf, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
                  run[0].first, run[0].second, color);
    svg += buf;
    return;
  }
  svg += std::string("<polyline fill=\"none\" stroke=\"") + color +
         "\" stroke-width=\"2\" points=\"";
  for (size_t i = 0; i < run.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s%.1f,%.1f", i ? " " : "", run[i].first, run[i].second);
    svg += buf;
  }
  svg += "\"/>\n";
}

/// Appends series \p k: its runs of finite points, and its legend entry.
void drawSeries(std::string &svg, const PlotSeries &s, size_t k, const Frame &f) {
  const char *color = kColors[k % (sizeof kColors / sizeof *kColors)];
  std::vector<std::pair<double, double>> run;
  for (size_t i = 0; i <= s.x.size() && i <= s.y.size(); ++i) {
    bool end = i == s.x.size() || i == s.y.size();
    if (!end && std::isfinite(s.x[i]) && std::isfinite(s.y[i])) {
      run.emplace_back(f.px(s.x[i]), f.py(s.y[i]));
      continue;
    }
    if (!run.empty())
      drawRun(svg, run, color);
    run.clear();
    if (end)
      break;
  }
  char buf[200];
  double ly = kTop + 16 + 18 * double(k);
  std::snprintf(buf, sizeof buf,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                "stroke-width=\"2\"/>\n<text x=\"%.1f\" y=\"%.1f\">",
                kWidth - kRight - 130, ly, kWidth - kRight - 106, ly, color, kWidth - kRight - 100,
                ly + 4);
  svg += buf + xmlEscape(s.name) + "</text>\n";
}

} // namespace

std::string xmlEscape(const std::string &s) {
  std::string out;
  for (char c : s)
    out += c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '"' ? "&quot;"
                                                                         : std::string(1, c);
  return out;
}

std::vector<double> niceTicks(double &lo, double &hi, int count) {
  // A range within a few ulps of its values (1 and 1.0000000000000002) is
  // drawn as a flat one: a step below an ulp would never advance a tick.
  double scale = std::max(std::fabs(lo), std::fabs(hi));
  if (!(hi - lo > scale * 1e-9)) {
    double mid = lo / 2 + hi / 2, pad = std::max(std::fabs(mid) * 0.1, 1e-3);
    lo = mid - pad, hi = mid + pad;
  }
  double raw = (hi - lo) / std::max(count, 1), mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = raw / mag <= 1 ? mag : raw / mag <= 2 ? 2 * mag : raw / mag <= 5 ? 5 * mag
                                                                                 : 10 * mag;
  lo = std::floor(lo / step) * step, hi = std::ceil(hi / step) * step;
  std::vector<double> ticks;
  for (int i = 0; i <= 4 * std::max(count, 1) + 2; ++i) { // a few more than count
    double t = lo + i * step;
    if (t > hi + step / 2)
      break;
    ticks.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);
  }
  return ticks;
}

std::string renderLinePlot(const PlotSpec &spec) {
  Frame f{0, 1, 0, 1};
  if (!range(spec, true, f.x0, f.x1))
    f.x0 = 0, f.x1 = 1;
  if (!range(spec, false, f.y0, f.y1))
    f.y0 = 0, f.y1 = 1;
  std::vector<double> xt = niceTicks(f.x0, f.x1, 8), yt = niceTicks(f.y0, f.y1, 6);
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
                kWidth, kHeight, kWidth, kHeight);
  std::string svg = buf;
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"24\" text-anchor=\"middle\" "
                                 "font-size=\"15\">",
                kWidth / 2);
  svg += buf + xmlEscape(spec.title) + "</text>\n";
  drawAxes(svg, spec, f, xt, yt);
  for (size_t k = 0; k < spec.series.size(); ++k)
    drawSeries(svg, spec.series[k], k, f);
  return svg + "</svg>\n";
}

} // namespace modelrt
