//===- CommThreadTest.cpp - Collective operations on a thread of their own -===//
//
// Checks that a CommThread does its inner collective's operations in call
// order with the same results as the inner collective called directly
// (ranks as threads, dist/ThreadCollective.h), and hands back the errors of
// the sums it started at the next waitAll.
//
//===----------------------------------------------------------------------===//
#include "modelrt/dist/CommThread.h"

#include "dist/ThreadCollective.h"

#include <gtest/gtest.h>

using namespace modelrt;

TEST(CommThread, SumsAndBroadcastsInCallOrder) {
  const int ranks = 3;
  ThreadGroup group(ranks);
  std::vector<std::vector<double>> out(ranks);
  group.run([&](Collective &c) {
    CommThread t(c);
    EXPECT_EQ(t.rank(), c.rank());
    EXPECT_EQ(t.size(), ranks);
    std::vector<float> a = {float(c.rank()), 1.0f};
    std::vector<double> b = {10.0 * c.rank()};
    ASSERT_TRUE(t.startSum(a.data(), a.size()).isOk());
    ASSERT_TRUE(t.startSum(b.data(), b.size()).isOk());
    ASSERT_TRUE(t.waitAll("the test's sums").isOk());
    bool done = false;
    ASSERT_TRUE(t.progress(done).isOk());
    EXPECT_TRUE(done);
    double root = c.rank() == 1 ? 42.0 : -1.0;
    ASSERT_TRUE(t.broadcast(&root, sizeof root, 1).isOk());
    out[size_t(c.rank())] = {a[0], a[1], b[0], root};
  });
  for (int r = 0; r < ranks; ++r) // 0+1+2, three ones, 0+10+20, rank 1's
    EXPECT_EQ(out[size_t(r)], (std::vector<double>{3, 3, 30, 42})) << "rank " << r;
}

namespace {
/// A world of two ranks whose sums fail to start.
class FailingCollective final : public Collective {
public:
  int rank() const override { return 0; }
  int size() const override { return 2; }
  Status startSum(float *, size_t) override { return errorf("MPI_Iallreduce failed"); }
  Status startSum(double *, size_t) override { return Status::ok(); }
  Status waitAll(const char *) override { return Status::ok(); }
  Status progress(bool &done) override {
    done = true;
    return Status::ok();
  }
  bool serializedThreads() const override { return true; }
  Status broadcast(void *, size_t, int) override { return Status::ok(); }
  void abort(int) override {}
};
} // namespace

TEST(CommThread, AFailedStartIsReportedByTheNextWait) {
  FailingCollective inner;
  CommThread t(inner);
  float x = 1;
  EXPECT_TRUE(t.startSum(&x, 1).isOk()); // queued: the failure comes later
  EXPECT_EQ(t.waitAll("the sum").message(), "MPI_Iallreduce failed");
  EXPECT_TRUE(t.waitAll("the sum").isOk()); // reported once
}
