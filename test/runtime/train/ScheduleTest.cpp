//===- ScheduleTest.cpp - LR schedules and early stopping ------------------===//
//
// MultiStep, Exponential and Plateau values come from PyTorch 1.13
// (ref/schedule_ref.py); Step, Cosine, OneCycle and Linear values are
// worked out by hand (test/e2e/schedules.test checks the last two against
// PyTorch at every step).
//
//===----------------------------------------------------------------------===//
#include "modelrt/train/Schedule.h"
#include "modelrt/core/Model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace modelrt;

/// The rate used in each of \p n epochs (one step per epoch).
static std::vector<double> perEpoch(Schedule s, int n, std::vector<double> losses = {}) {
  std::vector<double> out;
  for (int i = 0; i < n; ++i) {
    out.push_back(s.lr());
    s.onStep();
    s.onEpochEnd(losses.empty() ? NAN : losses[i]);
  }
  return out;
}

static void expectNear(const std::vector<double> &got, const std::vector<double> &want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], 1e-12) << "epoch " << i;
}

TEST(Schedule, StepMultiStepExponential) {
  ScheduleConfig c;
  c.kind = ScheduleKind::Step, c.stepSize = 2, c.gamma = 0.5;
  expectNear(perEpoch(Schedule(c, 1.0), 6), {1, 1, 0.5, 0.5, 0.25, 0.25});
  c = ScheduleConfig{};
  c.kind = ScheduleKind::MultiStep, c.milestones = {2, 5}, c.gamma = 0.1;
  expectNear(perEpoch(Schedule(c, 1.0), 7), {1, 1, 0.1, 0.1, 0.1, 0.01, 0.01});
  c = ScheduleConfig{};
  c.kind = ScheduleKind::Exponential, c.gamma = 0.9;
  expectNear(perEpoch(Schedule(c, 1.0), 4), {1, 0.9, 0.81, 0.729});
}

TEST(Schedule, CosineWithWarmupIsPerStep) {
  ScheduleConfig c;
  c.kind = ScheduleKind::Cosine, c.warmupSteps = 2, c.totalSteps = 6, c.minLr = 0.1;
  ASSERT_TRUE(validateScheduleConfig(c).isOk());
  Schedule s(c, 1.0);
  std::vector<double> got;
  for (int i = 0; i < 8; ++i) {
    got.push_back(s.lr());
    s.onStep();
    if (i == 3)
      s.onEpochEnd(0.5); // epochs do not move a per-step schedule
  }
  // warmup 0.5, 1; then 0.1 + 0.45*(1 + cos(pi*k/4)), k = 0..4, then the floor.
  double r = std::sqrt(0.5);
  expectNear(got, {0.5, 1.0, 1.0, 0.1 + 0.45 * (1 + r), 0.55, 0.1 + 0.45 * (1 - r), 0.1, 0.1});
}

// OneCycle over T = 10 steps, pct_start 0.3: the rise ends at step
// 0.3 * 10 - 1 = 2 (lr 1 there), from 1/25 at step 0 through the cosine's
// midpoint (1/25 + 1) / 2 at step 1; the fall spans steps 2..9 to
// 1/25/1e4 = 4e-6, through its midpoint at step 5.5; held after step 9.
TEST(Schedule, OneCycleIsPerStep) {
  ScheduleConfig c;
  c.kind = ScheduleKind::OneCycle, c.totalSteps = 10;
  std::vector<double> got = perEpoch(Schedule(c, 1.0), 11);
  EXPECT_NEAR(got[0], 0.04, 1e-12);
  EXPECT_NEAR(got[1], 0.52, 1e-12);
  EXPECT_NEAR(got[2], 1.0, 1e-12);
  EXPECT_NEAR(got[9], 4e-6, 1e-15);
  EXPECT_NEAR(got[10], 4e-6, 1e-15);
  EXPECT_NEAR((got[5] + got[6]) / 2, (1.0 + 4e-6) / 2, 1e-12);
  for (int i = 2; i < 9; ++i)
    EXPECT_GT(got[i], got[i + 1]) << "step " << i;
}

// A schedule longer than int64 steps (one_cycle(epochs=3074457345618258603)
// at 6 steps an epoch: the product wraps to 2) lasts as long as a run can:
// the first steps are the start of the rise (1/25 of the rate), not the
// end of the fall, which the wrapped length of 2 steps gave.
TEST(Schedule, ALengthPastInt64IsSaturatedNotWrapped) {
  ModelrtScheduleConfig abi{};
  abi.kind = MODELRT_SCHED_ONE_CYCLE, abi.total_epochs = 3074457345618258603;
  abi.pct_start = 0.3, abi.div_factor = 25, abi.final_div_factor = 1e4;
  ScheduleConfig c = toScheduleConfig(abi, 3, 6);
  EXPECT_EQ(c.totalSteps, std::numeric_limits<int64_t>::max());
  std::vector<double> got = perEpoch(Schedule(c, 1.0), 3);
  for (double lr : got)
    EXPECT_NEAR(lr, 0.04, 1e-12);
}

// Linear: warmup 1/4, 2/4, 3/4, 4/4, then a line from 1 to 0.2 over the
// remaining 8 - 4 = 4 steps: 1, 0.8, 0.6, 0.4, then 0.2 held.
TEST(Schedule, LinearWarmupAndDecay) {
  ScheduleConfig c;
  c.kind = ScheduleKind::Linear, c.warmupSteps = 4, c.totalSteps = 8, c.minLr = 0.2;
  expectNear(perEpoch(Schedule(c, 1.0), 10),
             {0.25, 0.5, 0.75, 1.0, 1.0, 0.8, 0.6, 0.4, 0.2, 0.2});
}

TEST(Schedule, ReduceOnPlateauMatchesPyTorch) {
  ScheduleConfig c;
  c.kind = ScheduleKind::Plateau, c.factor = 0.5, c.patience = 1, c.minLr = 0.2;
  std::vector<double> losses = {1.0, 0.9, 0.95, 0.91, 0.92, 0.5, 0.6, 0.7, 0.8, 0.9};
  std::vector<double> got = perEpoch(Schedule(c, 1.0), 10, losses);
  expectNear(got, {1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.5, 0.25, 0.25});
  Schedule s(c, 1.0);
  for (double l : losses)
    s.onEpochEnd(l);
  EXPECT_DOUBLE_EQ(s.lr(), 0.2); // floor min_lr
}

TEST(Schedule, StateRoundTrip) {
  ScheduleConfig c;
  c.kind = ScheduleKind::Plateau, c.factor = 0.5, c.patience = 0;
  Schedule a(c, 1.0);
  a.onEpochEnd(1.0);
  a.onEpochEnd(2.0);
  Schedule b(c, 1.0);
  b.setState(a.state());
  EXPECT_DOUBLE_EQ(b.lr(), 0.5);
  b.onEpochEnd(3.0);
  EXPECT_DOUBLE_EQ(b.lr(), 0.25);
}

TEST(Schedule, ValidationErrors) {
  ScheduleConfig c;
  c.kind = ScheduleKind::Step, c.stepSize = 0;
  EXPECT_FALSE(validateScheduleConfig(c).isOk());
  c = ScheduleConfig{};
  c.kind = ScheduleKind::Cosine, c.warmupSteps = 5, c.totalSteps = 5;
  EXPECT_NE(validateScheduleConfig(c).message().find("warmup"), std::string::npos);
  c.warmupSteps = 469, c.totalSteps = 79;
  EXPECT_EQ(validateScheduleConfig(c).message(),
            "schedule: the warmup of 469 optimizer steps must be shorter than the schedule's 79 "
            "(its epochs times the optimizer steps of one epoch): shorten the warmup, or give "
            "the schedule more epochs or more data");
  c = ScheduleConfig{};
  c.kind = ScheduleKind::MultiStep, c.milestones = {5, 2};
  EXPECT_FALSE(validateScheduleConfig(c).isOk());
  c = ScheduleConfig{};
  c.kind = ScheduleKind::OneCycle, c.pctStart = 1.0;
  EXPECT_NE(validateScheduleConfig(c).message().find("pct_start"), std::string::npos);
  c = ScheduleConfig{};
  c.kind = ScheduleKind::Linear, c.warmupSteps = 5, c.totalSteps = 5;
  EXPECT_NE(validateScheduleConfig(c).message().find("warmup"), std::string::npos);
}

TEST(EarlyStopping, PatienceAndMinDelta) {
  EarlyStopping e(2, 0.01);
  EXPECT_FALSE(e.update(1.0));
  EXPECT_FALSE(e.update(0.995)); // not better by more than 0.01
  EXPECT_TRUE(e.update(0.992));  // 0.992 is not < 1.0 - 0.01 either: second bad epoch
  EarlyStopping f(2, 0.0);
  EXPECT_FALSE(f.update(1.0));
  EXPECT_FALSE(f.update(1.1));
  EXPECT_FALSE(f.update(0.9)); // improvement resets the count
  EXPECT_FALSE(f.update(0.95));
  EXPECT_TRUE(f.update(0.96));
  EarlyStopping off(0, 0);
  for (int i = 0; i < 5; ++i)
    EXPECT_FALSE(off.update(1.0));
}
