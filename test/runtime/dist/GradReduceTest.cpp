//===- GradReduceTest.cpp - Bucketed gradient sums against a plain sum -----===//
#include "modelrt/dist/GradReduce.h"

#include "dist/ThreadCollective.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <thread>

using namespace modelrt;

/// Rank \p r's gradient element \p i of parameter \p p.
static float gradValue(int r, size_t p, size_t i) {
  return std::sin(float(r * 131 + p * 17 + i) * 0.37f) * float(1 + r);
}

TEST(GradReduce, BucketsSumLikeAPlainSum) {
  const std::vector<int64_t> sizes = {5, 0, 1000, 3, 37};
  for (int ranks : {1, 2, 3})
    for (size_t bucketBytes : {size_t(64), size_t(4000), size_t(1) << 20}) {
      ThreadGroup group(ranks);
      std::vector<std::vector<std::vector<float>>> results(static_cast<size_t>(ranks));
      group.run([&](Collective &c) {
        std::vector<std::vector<float>> g;
        std::vector<float *> ptrs;
        for (size_t p = 0; p < sizes.size(); ++p) {
          g.emplace_back(size_t(sizes[p]));
          for (size_t i = 0; i < g[p].size(); ++i)
            g[p][i] = gradValue(c.rank(), p, i);
        }
        for (auto &v : g)
          ptrs.push_back(v.data());
        GradReduce reduce(c, sizes, bucketBytes);
        EXPECT_EQ(reduce.bytesPerStep(), 1045u * 4);
        EXPECT_EQ(reduce.buckets(), (1045 * 4 + bucketBytes - 1) / bucketBytes);
        ASSERT_TRUE(reduce.reduce(ptrs.data(), 0.5f + float(c.rank())).isOk());
        results[size_t(c.rank())] = g;
      });
      for (size_t p = 0; p < sizes.size(); ++p)
        for (size_t i = 0; i < size_t(sizes[p]); ++i) {
          double want = 0;
          for (int r = 0; r < ranks; ++r)
            want += double(gradValue(r, p, i)) * (0.5 + r);
          for (int r = 0; r < ranks; ++r)
            ASSERT_NEAR(results[size_t(r)][p][i], want, 1e-5 * (1 + std::fabs(want)))
                << "rank " << r << " parameter " << p << " element " << i;
        }
    }
}

TEST(GradReduce, OneProcessScalesOnly) {
  auto one = singleProcess();
  std::vector<float> g = {1, -2, 3};
  float *ptr = g.data();
  GradReduce reduce(*one, {3}, 4);
  ASSERT_TRUE(reduce.reduce(&ptr, 0.25f).isOk());
  EXPECT_EQ(g, (std::vector<float>{0.25f, -0.5f, 0.75f}));
}

namespace {

/// One rank that records the sums started (offset from \p base, length)
/// and completes them at once.
class RecordingCollective final : public Collective {
public:
  explicit RecordingCollective(const float *base) : base(base) {}
  int rank() const override { return 0; }
  int size() const override { return 2; }
  Status startSum(float *buf, size_t n) override {
    started.emplace_back(size_t(buf - base), n);
    return Status::ok();
  }
  Status startSum(double *, size_t) override { return Status::ok(); }
  Status waitAll(const char *) override { return Status::ok(); }
  Status progress(bool &done) override {
    done = true;
    return Status::ok();
  }
  bool serializedThreads() const override { return true; }
  Status broadcast(void *, size_t, int) override { return Status::ok(); }
  void abort(int) override {}
  const float *base;
  std::vector<std::pair<size_t, size_t>> started;
};

/// The sums RecordingCollective saw, after announcing \p ready one by one:
/// the number started after each announcement.
std::vector<size_t> startsAfterEach(const std::vector<int64_t> &ready,
                                    std::vector<std::pair<size_t, size_t>> *sums = nullptr) {
  // Gradients of 3, 5 and 2 elements laid out as 2, 0, 1 (elements 0-1,
  // 2-4, 5-9) in buckets of 4 elements: [0,4) holds 2 and 0, [4,8) 0 and
  // 1, [8,10) 1.
  std::vector<float> g0(3, 1), g1(5, 2), g2(2, 3);
  float *ptrs[] = {g0.data(), g1.data(), g2.data()};
  RecordingCollective rec(nullptr);
  GradReduce reduce(rec, {3, 5, 2}, 4 * sizeof(float));
  reduce.setOrder({2, 0, 1});
  reduce.beginStep(ptrs, 1.0f);
  std::vector<size_t> counts;
  for (int64_t i : ready) {
    reduce.ready(i);
    counts.push_back(rec.started.size());
  }
  EXPECT_TRUE(reduce.finishStep().isOk());
  reduce.copyBack(1.0f);
  if (sums) // offsets from the first bucket's start
    for (auto [at, n] : rec.started)
      sums->emplace_back(at - rec.started[0].first, n);
  return counts;
}

} // namespace

TEST(GradReduce, ABucketStartsOnceItsGradientsAreReadyInBucketOrder) {
  std::vector<std::pair<size_t, size_t>> sums;
  EXPECT_EQ(startsAfterEach({2, 0, 1}, &sums), (std::vector<size_t>{0, 1, 3}));
  EXPECT_EQ(sums, (std::vector<std::pair<size_t, size_t>>{{0, 4}, {4, 4}, {8, 2}}));
  // Bucket [4,8) and [8,10) are complete before [0,4), but start after it.
  EXPECT_EQ(startsAfterEach({1, 0, 2}), (std::vector<size_t>{0, 0, 3}));
  EXPECT_EQ(startsAfterEach({0, 2, 1}), (std::vector<size_t>{0, 1, 3}));
  // A repeated announcement changes nothing.
  EXPECT_EQ(startsAfterEach({2, 2, 0, 0, 1}), (std::vector<size_t>{0, 0, 1, 1, 3}));
}

TEST(GradReduce, ReadyOrderSumsEachGradientOnce) {
  // Uneven sizes, an empty gradient and one larger than a bucket (300
  // elements in buckets of 64 floats), in every layout and readiness order
  // drawn below, on 3 ranks: each element is the plain sum over the ranks
  // of weight * gradient, computed here in double as the test collective
  // does, so equal to the bit.
  const std::vector<int64_t> sizes = {7, 300, 0, 64, 1, 65};
  const int ranks = 3;
  std::srand(7);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<int32_t> layout = {0, 1, 2, 3, 4, 5};
    std::vector<int64_t> readiness = {0, 1, 2, 3, 4, 5};
    for (size_t i = layout.size() - 1; i > 0; --i) {
      std::swap(layout[i], layout[size_t(std::rand()) % (i + 1)]);
      std::swap(readiness[i], readiness[size_t(std::rand()) % (i + 1)]);
    }
    size_t announced = size_t(trial % 7); // the others by finishStep
    ThreadGroup group(ranks);
    std::vector<std::vector<std::vector<float>>> results(static_cast<size_t>(ranks));
    group.run([&](Collective &c) {
      std::vector<std::vector<float>> g;
      std::vector<float *> ptrs;
      for (size_t p = 0; p < sizes.size(); ++p) {
        g.emplace_back(size_t(sizes[p]));
        for (size_t i = 0; i < g[p].size(); ++i)
          g[p][i] = gradValue(c.rank(), p, i);
      }
      for (auto &v : g)
        ptrs.push_back(v.data());
      GradReduce reduce(c, sizes, 64 * sizeof(float));
      reduce.setOrder(layout);
      reduce.beginStep(ptrs.data(), 0.5f + float(c.rank()));
      for (size_t k = 0; k < std::min(announced, readiness.size()); ++k)
        modelrt_grad_ready(readiness[k]);
      ASSERT_TRUE(reduce.finishStep().isOk());
      reduce.copyBack(0.25f);
      results[size_t(c.rank())] = g;
    });
    for (size_t p = 0; p < sizes.size(); ++p)
      for (size_t i = 0; i < size_t(sizes[p]); ++i) {
        double sum = 0;
        for (int r = 0; r < ranks; ++r)
          sum += double(gradValue(r, p, i) * (0.5f + float(r)));
        float want = float(sum) * 0.25f;
        for (int r = 0; r < ranks; ++r)
          ASSERT_EQ(results[size_t(r)][p][i], want)
              << "trial " << trial << " rank " << r << " parameter " << p << " element " << i;
      }
  }
}

TEST(GradReduce, AnnouncementsReachOnlyTheStepOfTheirThread) {
  auto one = singleProcess();
  std::vector<float> g = {1, 2};
  float *ptr = g.data();
  GradReduce reduce(*one, {2});
  modelrt_grad_ready(0); // no step under way: nothing happens
  reduce.beginStep(&ptr, 3.0f);
  std::thread other([] { modelrt_grad_ready(0); }); // another thread's step: none
  other.join();
  g = {5, 7}; // the step writes its gradient, then announces it
  modelrt_grad_ready(0);
  g = {100, 100}; // too late: the announced value is summed
  ASSERT_TRUE(reduce.finishStep().isOk());
  reduce.copyBack(0.5f);
  EXPECT_EQ(g, (std::vector<float>{7.5f, 10.5f}));
  modelrt_grad_ready(0); // after the step: ignored
  EXPECT_EQ(g, (std::vector<float>{7.5f, 10.5f}));
}

TEST(GradReduce, TheStepsCollectiveIsFoundDuringTheStepOnly) {
  auto one = singleProcess();
  std::vector<float> g = {1};
  float *ptr = g.data();
  GradReduce reduce(*one, {1});
  EXPECT_EQ(currentStepCollective(), nullptr);
  reduce.beginStep(&ptr, 1.0f);
  EXPECT_EQ(currentStepCollective(), one.get());
  std::thread([] { EXPECT_EQ(currentStepCollective(), nullptr); }).join();
  ASSERT_TRUE(reduce.finishStep().isOk());
  EXPECT_EQ(currentStepCollective(), nullptr);
  reduce.copyBack(1.0f);
}
