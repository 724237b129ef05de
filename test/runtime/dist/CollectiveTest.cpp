//===- CollectiveTest.cpp - The generated step's sum over the ranks --------===//
//
// modelrt_dist_sum_f64 (Collective.h): a copy in one process and whatever
// the named collective sums over several ranks; DataParallel names its
// collective for the step's sums while it lives and no longer afterwards.
//
//===----------------------------------------------------------------------===//
#include "modelrt/dist/Collective.h"
#include "modelrt/train/DataParallel.h"

#include <gtest/gtest.h>

#include <vector>

using namespace modelrt;

namespace {
/// Two ranks whose other rank always holds the same buffer as this one:
/// each sum doubles it.
class TwinRanks final : public Collective {
public:
  int rank() const override { return 0; }
  int size() const override { return 2; }
  Status startSum(float *buf, size_t n) override {
    for (size_t i = 0; i < n; ++i)
      buf[i] *= 2;
    return Status::ok();
  }
  Status startSum(double *buf, size_t n) override {
    for (size_t i = 0; i < n; ++i)
      buf[i] *= 2;
    ++sums;
    return Status::ok();
  }
  Status waitAll(const char *) override { return Status::ok(); }
  Status progress(bool &done) override {
    done = true;
    return Status::ok();
  }
  bool serializedThreads() const override { return false; }
  Status broadcast(void *, size_t, int) override { return Status::ok(); }
  void abort(int) override {}
  int sums = 0;
};
} // namespace

TEST(StepSum, OneProcessCopies) {
  std::vector<double> in = {1.5, -2, 0.25}, out(3, 7.0);
  modelrt_dist_sum_f64(in.data(), out.data(), 3);
  EXPECT_EQ(out, in);
  modelrt_dist_sum_f64(out.data(), out.data(), 3); // in place
  EXPECT_EQ(out, in);
}

TEST(StepSum, SumsOverTheNamedRanks) {
  TwinRanks ranks;
  setStepCollective(&ranks);
  std::vector<double> in = {1.5, -2, 0.25}, out(3);
  modelrt_dist_sum_f64(in.data(), out.data(), 3);
  setStepCollective(nullptr);
  EXPECT_EQ(out, (std::vector<double>{3, -4, 0.5}));
  EXPECT_EQ(in, (std::vector<double>{1.5, -2, 0.25})); // the input stays
  EXPECT_EQ(ranks.sums, 1);
}

TEST(StepSum, DataParallelNamesItsRanksWhileItLives) {
  TwinRanks ranks;
  std::vector<double> v = {1};
  {
    DataParallel dp(ranks, {4});
    modelrt_dist_sum_f64(v.data(), v.data(), 1);
    EXPECT_EQ(v[0], 2);
  }
  modelrt_dist_sum_f64(v.data(), v.data(), 1);
  EXPECT_EQ(v[0], 2);
  EXPECT_EQ(ranks.sums, 1);
}
