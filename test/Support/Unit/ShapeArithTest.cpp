//===- ShapeArithTest.cpp - Tests of modelsupport/ShapeArith.h ------------===//
//
// Hand-worked numbers for the shape arithmetic Sema and the mdl dialect
// share: window output sizes of convolution and pooling (stride, padding,
// dilation, windows that do not fit, dynamic inputs), axis normalisation
// (negative and out-of-range axes) and numpy broadcasting (with the failing
// position). The pooling ops have no ceil mode: sizes round down.
//
//===----------------------------------------------------------------------===//

#include "modelsupport/ShapeArith.h"

#include <gtest/gtest.h>

#include <string>

using namespace modelsupport;

namespace {

TEST(ShapeArith, WindowSpanCountsDilation) {
  EXPECT_EQ(windowSpan(3, 1), 3);
  EXPECT_EQ(windowSpan(3, 2), 5); // taps at 0, 2, 4
  EXPECT_EQ(windowSpan(1, 7), 1);
}

TEST(ShapeArith, ConvolutionOutputSizes) {
  // 28 - 5 + 1 = 24 (LeNet's first layer).
  EXPECT_EQ(windowOutputSize(28, 5, 1, 0), 24);
  // "same" padding: 28 + 2 - 3 + 1 = 28.
  EXPECT_EQ(windowOutputSize(28, 3, 1, 1), 28);
  // Stride 2: (30 - 3) / 2 + 1 = 14.
  EXPECT_EQ(windowOutputSize(28, 3, 2, 1), 14);
  // Dilation 2 spans 5: (10 - 5) / 1 + 1 = 6.
  EXPECT_EQ(windowOutputSize(10, 3, 1, 0, 2), 6);
  // Stride and dilation: (7 - 5) / 2 + 1 = 2.
  EXPECT_EQ(windowOutputSize(7, 3, 2, 0, 2), 2);
}

TEST(ShapeArith, PoolingOutputSizesRoundDown) {
  EXPECT_EQ(windowOutputSize(28, 2, 2, 0), 14);
  // (7 - 2) / 2 + 1 = 3: the last column is dropped, no ceil mode.
  EXPECT_EQ(windowOutputSize(7, 2, 2, 0), 3);
  // Padded: (5 + 2 - 3) / 2 + 1 = 3.
  EXPECT_EQ(windowOutputSize(5, 3, 2, 1), 3);
}

TEST(ShapeArith, WindowThatDoesNotFit) {
  EXPECT_EQ(windowOutputSize(2, 3, 1, 0), std::nullopt);
  // Dilation 2 spans 5 > 4.
  EXPECT_EQ(windowOutputSize(4, 3, 1, 0, 2), std::nullopt);
  // Exactly fits once padded: 1 + 2 = 3.
  EXPECT_EQ(windowOutputSize(1, 3, 1, 1), 1);
}

TEST(ShapeArith, DynamicInputGivesDynamicOutput) {
  EXPECT_EQ(windowOutputSize(kDynamic, 3, 2, 1), kDynamic);
  EXPECT_TRUE(isDynamic(kDynamic));
  EXPECT_FALSE(isDynamic(0));
}

TEST(ShapeArith, NormalizeAxis) {
  EXPECT_EQ(normalizeAxis(2, 4), 2);
  EXPECT_EQ(normalizeAxis(-1, 4), 3);
  EXPECT_EQ(normalizeAxis(-4, 4), 0);
  EXPECT_EQ(normalizeAxis(-5, 4), std::nullopt);
  EXPECT_EQ(normalizeAxis(4, 4), std::nullopt);
  EXPECT_EQ(normalizeAxis(0, 0), std::nullopt);
  EXPECT_EQ(normalizeAxis(std::numeric_limits<int64_t>::min(), 3),
            std::nullopt);
}

TEST(ShapeArith, BroadcastDim) {
  EXPECT_EQ(broadcastDim(1, 5), 5);
  EXPECT_EQ(broadcastDim(5, 1), 5);
  EXPECT_EQ(broadcastDim(5, 5), 5);
  EXPECT_EQ(broadcastDim(3, 4), std::nullopt);
  // A dynamic size against n > 1 must be n at run time.
  EXPECT_EQ(broadcastDim(kDynamic, 5), 5);
  EXPECT_EQ(broadcastDim(5, kDynamic), 5);
  EXPECT_EQ(broadcastDim(kDynamic, 1), kDynamic);
  EXPECT_EQ(broadcastDim(1, kDynamic), kDynamic);
  EXPECT_EQ(broadcastDim(kDynamic, kDynamic), kDynamic);
}

TEST(ShapeArith, BroadcastShapes) {
  using Shape = std::vector<int64_t>;
  // numpy's example: 8x1x6x1 with 7x1x5 gives 8x7x6x5.
  EXPECT_EQ(broadcastShapes(Shape{8, 1, 6, 1}, Shape{7, 1, 5}),
            (Shape{8, 7, 6, 5}));
  EXPECT_EQ(broadcastShapes(Shape{2, 3}, Shape{3}), (Shape{2, 3}));
  EXPECT_EQ(broadcastShapes(Shape{}, Shape{4}), (Shape{4}));
  EXPECT_EQ(broadcastShapes(Shape{kDynamic, 10}, Shape{1, 10}),
            (Shape{kDynamic, 10}));
}

TEST(ShapeArith, BroadcastFailureNamesTheDimensionFromTheRight) {
  using Shape = std::vector<int64_t>;
  unsigned bad = 99;
  EXPECT_EQ(broadcastShapes(Shape{2, 3}, Shape{4, 3}, &bad), std::nullopt);
  EXPECT_EQ(bad, 1u);
  EXPECT_EQ(broadcastShapes(Shape{5, 4}, Shape{3}, &bad), std::nullopt);
  EXPECT_EQ(bad, 0u);
}

TEST(ShapeArith, BroadcastWithAnotherDimensionRule) {
  // Symbolic dimensions by name, joining only themselves or "1" (Sema's
  // rule for the batch dimension).
  using Shape = std::vector<std::string>;
  auto join = [](const std::string &a,
                 const std::string &b) -> std::optional<std::string> {
    if (a == b || b == "1")
      return a;
    if (a == "1")
      return b;
    return std::nullopt;
  };
  EXPECT_EQ(broadcastShapesWith(Shape{"B", "3"}, Shape{"3"},
                                std::string("1"), join),
            (Shape{"B", "3"}));
  unsigned bad = 99;
  EXPECT_EQ(broadcastShapesWith(Shape{"B"}, Shape{"4"}, std::string("1"),
                                join, &bad),
            std::nullopt);
  EXPECT_EQ(bad, 0u);
}

TEST(ShapeArith, IsBroadcastableTo) {
  using Shape = std::vector<int64_t>;
  EXPECT_TRUE(isBroadcastableTo(Shape{3}, Shape{2, 3}));
  EXPECT_TRUE(isBroadcastableTo(Shape{1, 3}, Shape{2, 3}));
  EXPECT_TRUE(isBroadcastableTo(Shape{}, Shape{2, 3}));
  EXPECT_FALSE(isBroadcastableTo(Shape{2, 3}, Shape{3}));
  EXPECT_FALSE(isBroadcastableTo(Shape{4}, Shape{2, 3}));
  EXPECT_TRUE(isBroadcastableTo(Shape{kDynamic}, Shape{5}));
  EXPECT_TRUE(isBroadcastableTo(Shape{5}, Shape{kDynamic}));
}

} // namespace
