//===- Schedule.cpp - Learning-rate schedules and early stopping -----------===//
#include "modelrt/train/Schedule.h"

#include <algorithm>
#include <cmath>

namespace modelrt {

Status validateScheduleConfig(const ScheduleConfig &c) {
  switch (c.kind) {
  case ScheduleKind::Constant:
    return Status::ok();
  case ScheduleKind::Step:
    if (c.stepSize < 1)
      return errorf("schedule: step size must be >= 1, got %lld", (long long)c.stepSize);
    break;
  case ScheduleKind::MultiStep:
    if (!std::is_sorted(c.milestones.begin(), c.milestones.end()))
      return errorf("schedule: milestones must be increasing");
    break;
  case ScheduleKind::Exponential:
    break;
  case ScheduleKind::OneCycle:
    if (!(c.pctStart > 0 && c.pctStart < 1) || !(c.divFactor >= 1) ||
        !(c.finalDivFactor >= 1))
      return errorf("schedule: one_cycle needs 0 < pct_start < 1, div_factor >= 1 and "
                    "final_div_factor >= 1");
    return Status::ok();
  case ScheduleKind::Cosine:
  case ScheduleKind::Linear:
    if (c.warmupSteps < 0 || c.totalSteps < 0)
      return errorf("schedule: warmup and total steps must be >= 0");
    if (c.totalSteps > 0 && c.warmupSteps >= c.totalSteps)
      return errorf("schedule: the warmup of %lld optimizer steps must be shorter than the "
                    "schedule's %lld (its epochs times the optimizer steps of one epoch): "
                    "shorten the warmup, or give the schedule more epochs or more data",
                    (long long)c.warmupSteps, (long long)c.totalSteps);
    return Status::ok();
  case ScheduleKind::Plateau:
    if (!(c.factor > 0 && c.factor < 1) || c.patience < 0)
      return errorf("schedule: plateau factor must be in (0, 1) and patience >= 0");
    return Status::ok();
  default:
    return errorf("schedule: unknown kind %d", static_cast<int>(c.kind));
  }
  if (!(c.gamma > 0))
    return errorf("schedule: gamma must be > 0, got %g", c.gamma);
  return Status::ok();
}

Schedule::Schedule(ScheduleConfig config, double baseLr) : cfg(std::move(config)), base(baseLr) {
  st.plateauLr = baseLr;
}

/// PyTorch's _annealing_cos: from `start` (pct 0) to `end` (pct 1).
static double annealCos(double start, double end, double pct) {
  return end + (start - end) / 2.0 * (std::cos(M_PI * pct) + 1.0);
}

/// OneCycleLR's two phases: the first ends at step pctStart*T - 1, the
/// second at T - 1, and the second phase's fraction counts from the first's
/// (fractional) end, as PyTorch does.
static double oneCycleLr(const ScheduleConfig &c, double base, int64_t step) {
  double initial = base / c.divFactor, final = initial / c.finalDivFactor;
  double total = double(std::max<int64_t>(c.totalSteps, 1));
  double rise = c.pctStart * total - 1.0, s = double(step);
  if (s <= rise)
    return annealCos(initial, base, rise > 0 ? s / rise : 1.0);
  double span = std::max(total - 1.0 - rise, 1e-12);
  return annealCos(base, final, std::min(1.0, (s - rise) / span));
}

/// The Cosine and Linear schedules' warmup: base*(s+1)/warmup.
static double warmupLr(double base, int64_t step, int64_t warmup) {
  return base * double(step + 1) / double(warmup);
}

/// How far `step` is through the annealing after the warmup, in [0, 1].
static double annealProgress(const ScheduleConfig &c, int64_t step) {
  double span = double(std::max<int64_t>(c.totalSteps - c.warmupSteps, 1));
  return std::min(1.0, double(step - c.warmupSteps) / span);
}

double Schedule::lr() const {
  switch (cfg.kind) {
  case ScheduleKind::Constant:
    return base;
  case ScheduleKind::Step:
    return base * std::pow(cfg.gamma, double(st.epoch / cfg.stepSize));
  case ScheduleKind::MultiStep: {
    auto passed = std::upper_bound(cfg.milestones.begin(), cfg.milestones.end(), st.epoch) -
                  cfg.milestones.begin();
    return base * std::pow(cfg.gamma, double(passed));
  }
  case ScheduleKind::Exponential:
    return base * std::pow(cfg.gamma, double(st.epoch));
  case ScheduleKind::Cosine:
    if (st.step < cfg.warmupSteps)
      return warmupLr(base, st.step, cfg.warmupSteps);
    return annealCos(base, cfg.minLr, annealProgress(cfg, st.step));
  case ScheduleKind::Linear:
    if (st.step < cfg.warmupSteps)
      return warmupLr(base, st.step, cfg.warmupSteps);
    return base + (cfg.minLr - base) * annealProgress(cfg, st.step);
  case ScheduleKind::OneCycle:
    return oneCycleLr(cfg, base, st.step);
  case ScheduleKind::Plateau:
    return st.plateauLr;
  }
  return base;
}

void Schedule::onEpochEnd(double loss) {
  st.epoch += 1;
  if (cfg.kind != ScheduleKind::Plateau || std::isnan(loss))
    return;
  if (!st.hasBest || loss < st.best * (1.0 - cfg.threshold)) {
    st.best = loss;
    st.hasBest = true;
    st.badEpochs = 0;
    return;
  }
  if (++st.badEpochs > cfg.patience) {
    st.plateauLr = std::max(st.plateauLr * cfg.factor, cfg.minLr);
    st.badEpochs = 0;
  }
}

bool EarlyStopping::update(double loss) {
  if (patience <= 0 || std::isnan(loss))
    return false;
  if (!seen || loss < bestLoss - minDelta) {
    bestLoss = loss;
    seen = true;
    bad = 0;
    return false;
  }
  return ++bad >= patience;
}

} // namespace modelrt
