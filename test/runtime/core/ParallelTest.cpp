//===- ParallelTest.cpp - runInTwoParts and modelrt_parallel_for -----------===//
//
// The runtime's loop splitting (runtime/lib/core/Parallel.cpp): both parts of
// runInTwoParts run, on two threads when there are two; modelrt_parallel_for
// covers every index of its range exactly once, in one call below the work
// threshold (or for a range of one) and in two halves above it.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Parallel.h"

#include <gtest/gtest.h>

#include <mutex>
#include <thread>
#include <utility>
#include <vector>

using namespace modelrt;

namespace {

/// What modelrt_parallel_for's callbacks saw.
struct Calls {
  std::mutex mutex;
  std::vector<std::pair<int64_t, int64_t>> ranges;
  std::vector<std::thread::id> threads;
  std::vector<int> hits;
};

void record(void *ctx, int64_t begin, int64_t end) {
  auto *c = static_cast<Calls *>(ctx);
  std::lock_guard<std::mutex> lock(c->mutex);
  c->ranges.push_back({begin, end});
  c->threads.push_back(std::this_thread::get_id());
  for (int64_t i = begin; i < end; ++i)
    c->hits[size_t(i)] += 1;
}

/// Runs modelrt_parallel_for over [begin, end) with \p work into \p c.
void run(Calls &c, int64_t begin, int64_t end, int64_t work) {
  c.hits.assign(size_t(end) + 1, 0);
  modelrt_parallel_for(record, &c, begin, end, work);
}

} // namespace

TEST(Parallel, BothPartsRun) {
  std::vector<int> done(2, 0);
  std::vector<std::thread::id> ids(2);
  runInTwoParts([&](int part) {
    done[size_t(part)] += 1;
    ids[size_t(part)] = std::this_thread::get_id();
  });
  EXPECT_EQ(done, (std::vector<int>{1, 1}));
  if (twoPartsInParallel())
    EXPECT_NE(ids[0], ids[1]);
}

TEST(Parallel, SmallLoopsRunInOneCall) {
  Calls c;
  run(c, 3, 1000, kParallelLoopWork - 1);
  ASSERT_EQ(c.ranges.size(), 1u);
  EXPECT_EQ(c.ranges[0], std::make_pair(int64_t(3), int64_t(1000)));
  EXPECT_EQ(c.threads[0], std::this_thread::get_id());
}

TEST(Parallel, ARangeOfOneRunsInOneCall) {
  Calls c;
  run(c, 4, 5, kParallelLoopWork * 100);
  ASSERT_EQ(c.ranges.size(), 1u);
  EXPECT_EQ(c.ranges[0], std::make_pair(int64_t(4), int64_t(5)));
}

TEST(Parallel, LargeLoopsRunInTwoHalves) {
  Calls c;
  run(c, 1, 64, kParallelLoopWork);
  for (int64_t i = 0; i < 64; ++i)
    EXPECT_EQ(c.hits[size_t(i)], i >= 1 ? 1 : 0) << "index " << i;
  if (!twoPartsInParallel()) {
    EXPECT_EQ(c.ranges.size(), 1u);
    return;
  }
  ASSERT_EQ(c.ranges.size(), 2u);
  auto lo = std::min(c.ranges[0], c.ranges[1]), hi = std::max(c.ranges[0], c.ranges[1]);
  EXPECT_EQ(lo, std::make_pair(int64_t(1), int64_t(32)));
  EXPECT_EQ(hi, std::make_pair(int64_t(32), int64_t(64)));
  EXPECT_NE(c.threads[0], c.threads[1]);
}
