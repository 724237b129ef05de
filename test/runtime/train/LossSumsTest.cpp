//===- LossSumsTest.cpp - Loss and metric sums over labelled samples ------===//
//
// Checks LossSums against sums and means worked out by hand: batches of
// different sizes weigh by their counted labels, and nothing counted gives
// zero means.
//
//===----------------------------------------------------------------------===//
#include "modelrt/train/LossSums.h"

#include <gtest/gtest.h>

using namespace modelrt;

TEST(LossSums, MeansWeighEachBatchByItsCountedLabels) {
  LossSums s;
  s.metrics.assign(2, 0.0);
  s.add(0.5 * 4, 4, 4, {3, 1});   // mean loss 0.5 over 4 labels
  s.add(2.0 * 1, 1, 1, {0, 1});   // mean loss 2.0 over 1 label
  s.add(1.0 * 10, 2, 10, {6, 2}); // 2 samples of 5 labels each
  EXPECT_EQ(s.samples, 7);
  EXPECT_EQ(s.counted, 15);
  EXPECT_DOUBLE_EQ(s.meanLoss(), (2.0 + 2.0 + 10.0) / 15);
  EvalResult m = s.means();
  EXPECT_DOUBLE_EQ(m.loss, 14.0 / 15);
  EXPECT_EQ(m.samples, 7);
  EXPECT_EQ(m.metrics, (std::vector<double>{9.0 / 15, 4.0 / 15}));
}

TEST(LossSums, NothingCountedGivesZeroMeans) {
  LossSums s;
  s.metrics.assign(1, 0.0);
  EXPECT_EQ(s.meanLoss(), 0.0);
  s.add(0, 3, 0, {0}); // three samples whose labels are all ignored
  EvalResult m = s.means();
  EXPECT_EQ(m.loss, 0.0);
  EXPECT_EQ(m.metrics, std::vector<double>{0.0});
  EXPECT_EQ(m.samples, 3);
}
