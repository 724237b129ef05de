//===- EmbeddingTest.cpp - The embedding gradient's scatter-add ------------===//
//
// modelrt_embedding_backward_i64 / _i32 (core/Embedding.h) against sums
// worked out by hand: repeated indices add up, rows no index names are
// zero (whatever the buffer held before), no positions give a zero table,
// and an index outside the table stops the process, naming it.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Embedding.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

// Table of 4 rows of 2; positions 0..3 name rows 2, 0, 2, 2. Row 0 =
// grad[1] = (3, 4); row 2 = grad[0] + grad[2] + grad[3] = (1+5+7, 2+6+8) =
// (13, 16); rows 1 and 3 are zero.
const std::vector<float> kGrad = {1, 2, 3, 4, 5, 6, 7, 8};
const std::vector<float> kWant = {3, 4, 0, 0, 13, 16, 0, 0};

TEST(Embedding, ScatterAddsRepeatedIndicesI64) {
  std::vector<int64_t> idx = {2, 0, 2, 2};
  std::vector<float> table(8, -1.0f); // overwritten, never read
  modelrt_embedding_backward_i64(idx.data(), kGrad.data(), table.data(), 4, 2, 4);
  EXPECT_EQ(table, kWant);
}

TEST(Embedding, ScatterAddsRepeatedIndicesI32) {
  std::vector<int32_t> idx = {2, 0, 2, 2};
  std::vector<float> table(8, 42.0f);
  modelrt_embedding_backward_i32(idx.data(), kGrad.data(), table.data(), 4, 2, 4);
  EXPECT_EQ(table, kWant);
}

TEST(EmbeddingDeathTest, IndexOutsideTheTableStops) {
  std::vector<int64_t> idx = {1, 4};
  std::vector<float> table(8);
  EXPECT_DEATH(modelrt_embedding_backward_i64(idx.data(), kGrad.data(), table.data(), 2, 2, 4),
               "embedding index 4 at position 1 is outside the table's rows \\[0, 4\\)");
  std::vector<int32_t> neg = {-1};
  EXPECT_DEATH(modelrt_embedding_backward_i32(neg.data(), kGrad.data(), table.data(), 1, 2, 4),
               "embedding index -1 at position 0");
}

TEST(Embedding, NoPositionsGiveZeros) {
  std::vector<float> table(6, 5.0f);
  modelrt_embedding_backward_i64(nullptr, nullptr, table.data(), 0, 3, 2);
  EXPECT_EQ(table, std::vector<float>(6, 0.0f));
}

} // namespace
