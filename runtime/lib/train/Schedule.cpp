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
  case ScheduleKind::Cosine:
    if (c.warmupSteps < 0 || c.totalSteps < 0)
      return errorf("schedule: warmup and total steps must be >= 0");
    if (c.totalSteps > 0 && c.warmupSteps >= c.totalSteps)
      return errorf("schedule: warmup (%lld steps) must be shorter than the total (%lld)",
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
  case ScheduleKind::Cosine: {
    if (st.step < cfg.warmupSteps)
      return base * double(st.step + 1) / double(cfg.warmupSteps);
    double span = double(std::max<int64_t>(cfg.totalSteps - cfg.warmupSteps, 1));
    double progress = std::min(1.0, double(st.step - cfg.warmupSteps) / span);
    return cfg.minLr + 0.5 * (base - cfg.minLr) * (1.0 + std::cos(M_PI * progress));
  }
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
