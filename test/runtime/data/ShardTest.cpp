//===- ShardTest.cpp - Each rank's slice of the global batches -------------===//
#include "modelrt/data/DataLoader.h"
#include "modelrt/data/Shard.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

using namespace modelrt;

TEST(Shard, FirstRanksTakeTheRemainder) {
  // 10 over 3: 4, 3, 3; 2 over 3: 1, 1, 0.
  EXPECT_EQ(shardSlice(10, 0, 3).offset, 0);
  EXPECT_EQ(shardSlice(10, 0, 3).count, 4);
  EXPECT_EQ(shardSlice(10, 1, 3).offset, 4);
  EXPECT_EQ(shardSlice(10, 1, 3).count, 3);
  EXPECT_EQ(shardSlice(10, 2, 3).offset, 7);
  EXPECT_EQ(shardSlice(10, 2, 3).count, 3);
  EXPECT_EQ(shardSlice(2, 1, 3).offset, 1);
  EXPECT_EQ(shardSlice(2, 1, 3).count, 1);
  EXPECT_EQ(shardSlice(2, 2, 3).count, 0);
  for (int64_t b = 0; b < 40; ++b)
    for (int64_t n = 1; n < 9; ++n) { // contiguous, in rank order, covering the batch
      int64_t next = 0;
      for (int64_t r = 0; r < n; ++r) {
        ShardSlice s = shardSlice(b, r, n);
        EXPECT_EQ(s.offset, next);
        EXPECT_GE(s.count, b / n);
        EXPECT_LE(s.count, b / n + 1);
        next += s.count;
      }
      EXPECT_EQ(next, b);
    }
}

/// \p n samples of shape [2]; sample i holds i and -i.
static Dataset numbered(int64_t n) {
  Tensor x(DType::F32, {n, 2});
  Tensor y(DType::I64, {n});
  for (int64_t i = 0; i < n; ++i)
    x.as<float>()[2 * i] = float(i), x.as<float>()[2 * i + 1] = float(-i),
    y.as<int64_t>()[i] = i % 3;
  return *makeDataset("numbered", x, y);
}

/// The sample ids of every batch of one epoch of rank \p rank of \p ranks.
static std::vector<std::vector<int64_t>> epochOf(const Dataset &d, int64_t batch, int64_t rank,
                                                 int64_t ranks, int64_t epoch, bool dropLast) {
  LoaderConfig lc;
  lc.batchSize = batch, lc.seed = 7, lc.prefetch = rank % 2 ? 2 : 0, lc.dropLast = dropLast;
  lc.shardRank = rank, lc.shardCount = ranks;
  DataLoader loader(d, lc);
  std::vector<std::vector<int64_t>> out;
  Batch b;
  for (int64_t e = 0; e <= epoch; ++e) {
    out.clear();
    while (loader.next(b)) {
      std::vector<int64_t> ids;
      for (int64_t k = 0; k < b.size; ++k) {
        ids.push_back(int64_t(b.inputs.as<float>()[2 * k]));
        EXPECT_EQ(b.labels.as<int64_t>()[k], ids.back() % 3);
      }
      EXPECT_EQ(b.size, shardSlice(b.globalSize, rank, ranks).count);
      out.push_back(ids);
    }
  }
  return out;
}

TEST(Shard, EverySampleOncePerEpochAcrossRanks) {
  Dataset d = numbered(23); // batches of 5: 4 full and one of 3
  for (bool dropLast : {false, true})
    for (int64_t epoch : {0, 1})
      for (int64_t ranks = 1; ranks <= 4; ++ranks) {
        auto single = epochOf(d, 5, 0, 1, epoch, dropLast);
        std::vector<std::vector<std::vector<int64_t>>> per;
        for (int64_t r = 0; r < ranks; ++r)
          per.push_back(epochOf(d, 5, r, ranks, epoch, dropLast));
        std::map<int64_t, int> seen;
        for (size_t b = 0; b < single.size(); ++b) {
          std::vector<int64_t> joined; // the ranks' slices in rank order
          for (int64_t r = 0; r < ranks; ++r) {
            ASSERT_EQ(per[size_t(r)].size(), single.size());
            joined.insert(joined.end(), per[size_t(r)][b].begin(), per[size_t(r)][b].end());
          }
          EXPECT_EQ(joined, single[b]) << "batch " << b << " on " << ranks << " ranks";
          for (int64_t id : joined)
            ++seen[id];
        }
        EXPECT_EQ(seen.size(), dropLast ? 20u : 23u);
        for (auto [id, times] : seen)
          EXPECT_EQ(times, 1) << "sample " << id;
      }
}

TEST(Shard, SmallLastBatchLeavesSomeRanksEmpty) {
  Dataset d = numbered(11); // batches of 5: 5, 5, 1
  auto last = [&](int64_t rank) { return epochOf(d, 5, rank, 3, 0, false).back(); };
  EXPECT_EQ(last(0).size(), 1u);
  EXPECT_TRUE(last(1).empty());
  EXPECT_TRUE(last(2).empty());
}
