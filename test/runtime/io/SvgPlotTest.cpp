//===- SvgPlotTest.cpp - Line charts as SVG --------------------------------===//
//
// niceTicks gives round steps that cover the range; renderLinePlot draws one
// polyline per run of finite points (a dot for a lone point), maps larger
// values higher, escapes text, and gives the same bytes for the same input.
//
//===----------------------------------------------------------------------===//
#include "modelrt/io/SvgPlot.h"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>

using namespace modelrt;

TEST(SvgPlot, NiceTicksAreRoundAndCoverTheRange) {
  double lo = 0.13, hi = 0.87;
  std::vector<double> t = niceTicks(lo, hi, 6);
  EXPECT_DOUBLE_EQ(lo, 0.0);
  EXPECT_DOUBLE_EQ(hi, 1.0);
  ASSERT_EQ(t.size(), 6u);
  EXPECT_NEAR(t[1], 0.2, 1e-12);
  lo = 1, hi = 10;
  t = niceTicks(lo, hi, 8); // raw step 1.125 -> 2
  EXPECT_DOUBLE_EQ(lo, 0.0);
  EXPECT_DOUBLE_EQ(hi, 10.0);
  EXPECT_EQ(t.size(), 6u);
  lo = hi = 0.5; // a flat range is widened around its value
  t = niceTicks(lo, hi, 6);
  EXPECT_LT(lo, 0.5);
  EXPECT_GT(hi, 0.5);
}

TEST(SvgPlot, ARangeWithinAnUlpIsDrawnFlatAndEnds) {
  // 1 and the next double: a step below an ulp of 1 never advanced the
  // tick loop (plot hung, its memory growing).
  for (double big : {1.0, 1e15, -3e300}) {
    double lo = big, hi = std::nextafter(big, HUGE_VAL);
    std::vector<double> t = niceTicks(lo, hi, 6);
    EXPECT_LT(lo, big) << big;
    EXPECT_GT(hi, big) << big;
    EXPECT_GE(t.size(), 2u) << big;
    EXPECT_LE(t.size(), 26u) << big;
    EXPECT_TRUE(std::is_sorted(t.begin(), t.end())) << big;
  }
}

TEST(SvgPlot, RunsOfFinitePointsLegendAndEscaping) {
  PlotSpec spec{"loss <per> epoch", "epoch", "loss", {}};
  spec.series.push_back({"training & more", {1, 2, 3, 4}, {1.0, NAN, 3.0, 4.0}});
  spec.series.push_back({"validation", {1, 2, 3, 4}, {2.0, 2.5, 2.0, 1.5}});
  std::string svg = renderLinePlot(spec);
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(svg.find(">loss &lt;per&gt; epoch</text>"), std::string::npos) << svg;
  EXPECT_NE(svg.find(">training &amp; more</text>"), std::string::npos);
  // Series 1: a dot (epoch 1) and a polyline (epochs 3-4); series 2: one
  // polyline of four points.
  std::regex poly("<polyline[^>]*points=\"([^\"]*)\"");
  std::vector<std::string> lists;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), poly); it != std::sregex_iterator();
       ++it)
    lists.push_back((*it)[1]);
  ASSERT_EQ(lists.size(), 2u) << svg;
  EXPECT_EQ(std::count(lists[0].begin(), lists[0].end(), ','), 2); // epochs 3 and 4
  EXPECT_EQ(std::count(lists[1].begin(), lists[1].end(), ','), 4);
  EXPECT_NE(svg.find("<circle cx="), std::string::npos);
  // Larger values are higher on the page (smaller y): validation 2.5 at
  // epoch 2 above 1.5 at epoch 4.
  double x2, y2, x4, y4;
  std::string v = lists[1];
  ASSERT_EQ(std::sscanf(v.c_str(), "%*f,%*f %lf,%lf %*f,%*f %lf,%lf", &x2, &y2, &x4, &y4), 4);
  EXPECT_LT(x2, x4);
  EXPECT_LT(y2, y4);
  EXPECT_EQ(renderLinePlot(spec), svg); // the same bytes every time
}
