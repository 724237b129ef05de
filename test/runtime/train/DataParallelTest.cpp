//===- DataParallelTest.cpp - Step sums and the ranks' comparison ----------===//
#include "modelrt/train/DataParallel.h"

#include "dist/ThreadCollective.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace modelrt;

/// Runs one step of the four ranks below; with \p announce, the step is
/// begun first and announces gradient 1 before reduceStep.
static void checkGlobalBatchMean(bool announce) {
  // 64 samples split 22/21/21, and a fourth rank with an empty slice.
  const int64_t counted[] = {22, 21, 21, 0};
  const float loss[] = {1.5f, 2.0f, 0.5f, 0.0f};
  ThreadGroup group(4);
  std::vector<StepFigures> out(4);
  std::vector<std::vector<float>> grads(4);
  group.run([&](Collective &c) {
    int r = c.rank();
    DataParallel dp(c, {2, 1});
    std::vector<float> g0 = {float(r + 1), -float(r)}, g1 = {counted[r] ? 10.0f * r : 0.0f};
    float *ptrs[] = {g0.data(), g1.data()};
    StepFigures f;
    f.loss = loss[r], f.counted = counted[r], f.samples = counted[r];
    f.metrics = {double(r), 1.0};
    f.stops = r == 2; // a stop asked of one rank stops every rank
    if (announce) {
      dp.beginStep(ptrs, f.counted);
      modelrt_grad_ready(1);
    }
    ASSERT_TRUE(dp.reduceStep(f, ptrs).isOk());
    EXPECT_EQ(dp.gradientBytes(), 12u);
    out[size_t(r)] = f;
    grads[size_t(r)] = {g0[0], g0[1], g1[0]};
  });
  // Worked by hand: the mean over 64 samples of what each rank's mean
  // stands for.
  float wantLoss = (22 * 1.5f + 21 * 2.0f + 21 * 0.5f) / 64;
  std::vector<float> want = {(22 * 1.0f + 21 * 2 + 21 * 3) / 64, (21 * -1.0f + 21 * -2) / 64,
                             (21 * 10.0f + 21 * 20) / 64};
  for (int r = 0; r < 4; ++r) {
    EXPECT_FLOAT_EQ(out[size_t(r)].loss, wantLoss);
    EXPECT_EQ(out[size_t(r)].counted, 64);
    EXPECT_EQ(out[size_t(r)].samples, 64);
    EXPECT_EQ(out[size_t(r)].metrics, (std::vector<double>{6.0, 4.0}));
    EXPECT_EQ(out[size_t(r)].stops, 1);
    for (size_t i = 0; i < 3; ++i)
      EXPECT_NEAR(grads[size_t(r)][i], want[i], 1e-6) << "rank " << r << " element " << i;
  }
}

TEST(DataParallel, StepIsTheGlobalBatchMean) { checkGlobalBatchMean(false); }

TEST(DataParallel, AnnouncedGradientsGiveTheSameStep) { checkGlobalBatchMean(true); }

TEST(DataParallel, RanksThatDifferAreRefusedEverywhere) {
  ThreadGroup group(3);
  std::vector<std::string> errors(3);
  group.run([&](Collective &c) {
    RunIdentity id = {{"executable", 1}, {"training data", c.rank() == 2 ? 5u : 4u}};
    errors[size_t(c.rank())] = checkSameRun(c, id).message();
  });
  for (const std::string &e : errors)
    EXPECT_EQ(e, "rank 2 of 3 runs with another training data than rank 0 (compared by hash "
                 "before the first step); every rank must run the same executable, model, "
                 "command line and data");
  group.run([&](Collective &c) {
    EXPECT_TRUE(checkSameRun(c, {{"executable", 1}, {"model", 9}}).isOk());
  });
}

TEST(DataParallel, Hashes) {
  std::vector<unsigned char> a(1000, 7), b = a;
  EXPECT_EQ(hashBytes(a.data(), a.size()), hashBytes(b.data(), b.size()));
  for (size_t at : {size_t(0), size_t(31), size_t(500), size_t(999)}) {
    b = a;
    b[at] ^= 1;
    EXPECT_NE(hashBytes(a.data(), a.size()), hashBytes(b.data(), b.size())) << at;
  }
  EXPECT_NE(hashBytes(a.data(), 999), hashBytes(a.data(), 1000));
  auto missing = hashFile("/nonexistent/x");
  ASSERT_FALSE(missing.isOk());
  EXPECT_EQ(missing.message(), "/nonexistent/x: cannot read it to compare it between the ranks");
}

TEST(DataParallel, LauncherWithoutMpiIsAnError) {
  unsetenv("OMPI_COMM_WORLD_SIZE");
  auto one = collectiveFromEnvironment(1);
  ASSERT_TRUE(one.isOk());
  EXPECT_EQ((*one)->size(), 1);
  setenv("OMPI_COMM_WORLD_SIZE", "3", 1);
  setenv("MODELC_LIBMPI", "/nonexistent/libmpi.so", 1);
  auto many = collectiveFromEnvironment(1);
  unsetenv("OMPI_COMM_WORLD_SIZE");
  unsetenv("MODELC_LIBMPI");
  ASSERT_FALSE(many.isOk());
  EXPECT_EQ(many.message().rfind("this process is one of several (OMPI_COMM_WORLD_SIZE=3) but "
                                 "MPI cannot be used: cannot load /nonexistent/libmpi.so (", 0),
            0u)
      << many.message();
}

TEST(DataParallel, StateIsTheRanksMean) {
  ThreadGroup group(3);
  std::vector<std::vector<float>> out(3);
  group.run([&](Collective &c) {
    ModelState m;
    m.state = {{float(c.rank()), 3.0f * float(c.rank() + 1)}, {}};
    DataParallel dp(c, {});
    ASSERT_TRUE(dp.averageState(m).isOk());
    out[size_t(c.rank())] = m.state[0];
  });
  for (const auto &s : out)
    EXPECT_EQ(s, (std::vector<float>{1.0f, 6.0f})); // (0+1+2)/3, (3+6+9)/3
}
