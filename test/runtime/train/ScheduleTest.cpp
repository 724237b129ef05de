//===- ScheduleTest.cpp - LR schedules and early stopping ------------------===//
//
// MultiStep, Exponential and Plateau values come from PyTorch 1.13
// (ref/schedule_ref.py); Step and Cosine values are worked out by hand.
//
//===----------------------------------------------------------------------===//
#include "modelrt/train/Schedule.h"

#include <gtest/gtest.h>

#include <cmath>

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
  c = ScheduleConfig{};
  c.kind = ScheduleKind::MultiStep, c.milestones = {5, 2};
  EXPECT_FALSE(validateScheduleConfig(c).isOk());
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
