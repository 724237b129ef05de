//===- FlopsTest.cpp - Tests of modelsupport/Flops.h ----------------------===//
//
// Hand-worked FLOP counts of the shared formulas: a matrix product (a
// multiply-add is 2), a convolution (its window over the group's input
// channels), a pooling window, elementwise ops and reductions.
//
//===----------------------------------------------------------------------===//

#include "modelsupport/Flops.h"

#include <gtest/gtest.h>

using namespace modelsupport;

namespace {

TEST(Flops, ProductIsTwoPerMultiplyAdd) {
  // [1, 64] x [64, 10]: 10 results of 64 multiply-adds = 2*64*10.
  EXPECT_EQ(productFlops(10, 64), 1280);
}

TEST(Flops, ConvolutionCountsTheGroupWindow) {
  // Cout 4, 8x8 output, Cin 1, 3x3: 2*4*8*8*(1*3*3) = 4608.
  EXPECT_EQ(convolutionFlops(4 * 8 * 8, 1 * 3 * 3), 4608);
  // Cin 32 in 2 groups: 16*3*3 = 144 per output element.
  EXPECT_EQ(convolutionFlops(64 * 14 * 14, 16 * 3 * 3), 2.0 * 64 * 14 * 14 * 144);
}

TEST(Flops, PoolingElementwiseAndReductions) {
  // 2x2 max pooling to [4, 4, 4]: 64 outputs x 4 taps.
  EXPECT_EQ(poolingFlops(64, 4), 256);
  EXPECT_EQ(elementwiseFlops(256), 256);
  // A reduction counts its input: [10] -> scalar is 10.
  EXPECT_EQ(reductionFlops(10), 10);
}

} // namespace
