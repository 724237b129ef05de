//===- Schedule.h - Learning-rate schedules and early stopping -------------===//
//
// Implements `Schedule` and `EarlyStopping`. The unit each schedule counts in
// is fixed by its kind (by construction, not by the caller):
//  * Step, MultiStep, Exponential: per epoch (PyTorch's StepLR, MultiStepLR,
//    ExponentialLR stepped once per epoch);
//  * Cosine: per optimizer step, with a linear warmup over warmupSteps
//    (lr = base*(s+1)/warmup), then cosine from base to minLr at totalSteps;
//  * OneCycle: per optimizer step, PyTorch's OneCycleLR (cosine annealing,
//    two phases, cycle_momentum=False): from base/divFactor up to base over
//    the first pctStart of totalSteps, then down to
//    base/(divFactor*finalDivFactor); held there after totalSteps;
//  * Linear: per optimizer step, the Cosine warmup, then a straight line from
//    base to minLr at totalSteps (held there after);
//  * Plateau: per epoch on the validation loss (PyTorch's ReduceLROnPlateau,
//    mode min, relative threshold, no cooldown).
// The trainer calls onStep() after every optimizer step and onEpochEnd() after
// every epoch's evaluation; lr() is the rate for the next step.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_TRAIN_SCHEDULE_H
#define MODELRT_TRAIN_SCHEDULE_H

#include "modelrt/core/Status.h"

#include <cstdint>
#include <vector>

namespace modelrt {

/// Schedule kinds; values are those of the C ABI (Program.h).
enum class ScheduleKind : int32_t {
  Constant = 0, Step = 1, MultiStep = 2, Exponential = 3, Cosine = 4, Plateau = 5,
  OneCycle = 6, Linear = 7
};

/// Schedule hyperparameters; unused fields are ignored by a kind.
struct ScheduleConfig {
  ScheduleKind kind = ScheduleKind::Constant;
  int64_t stepSize = 1;              ///< Step: epochs between decays
  double gamma = 0.1;                ///< Step, MultiStep, Exponential
  std::vector<int64_t> milestones;   ///< MultiStep: epochs where lr *= gamma
  int64_t warmupSteps = 0;           ///< Cosine, Linear
  int64_t totalSteps = 0;            ///< Cosine, OneCycle, Linear
  double minLr = 0;                  ///< Cosine, Linear, Plateau floor
  double pctStart = 0.3;             ///< OneCycle: the rising fraction
  double divFactor = 25;             ///< OneCycle: start = base / divFactor
  double finalDivFactor = 1e4;       ///< OneCycle: end = start / this
  double factor = 0.1;               ///< Plateau: lr *= factor
  int64_t patience = 10;             ///< Plateau: epochs without improvement
  double threshold = 1e-4;           ///< Plateau: relative improvement
};

/// Checks the configuration.
Status validateScheduleConfig(const ScheduleConfig &config);

/// The mutable state of a schedule (saved in checkpoints).
struct ScheduleState {
  int64_t epoch = 0;       ///< epochs finished
  int64_t step = 0;        ///< optimizer steps done
  double plateauLr = 0;    ///< Plateau: current rate
  double best = 0;         ///< Plateau: best validation loss so far
  int64_t badEpochs = 0;   ///< Plateau: epochs without improvement
  bool hasBest = false;
};

/// A learning-rate schedule.
class Schedule {
public:
  Schedule(ScheduleConfig config, double baseLr);
  /// The learning rate for the next optimizer step.
  double lr() const;
  /// Call after every optimizer step.
  void onStep() { st.step += 1; }
  /// Call after every epoch with its validation loss (NaN when none).
  void onEpochEnd(double validationLoss);

  const ScheduleState &state() const { return st; }
  void setState(const ScheduleState &state) { st = state; }
  const ScheduleConfig &config() const { return cfg; }

private:
  ScheduleConfig cfg;
  double base;
  ScheduleState st;
};

/// Stops training after `patience` epochs without the validation loss
/// improving by more than minDelta.
class EarlyStopping {
public:
  /// patience <= 0 disables early stopping.
  EarlyStopping(int64_t patience, double minDelta) : patience(patience), minDelta(minDelta) {}
  /// Records an epoch's validation loss; true when training should stop.
  bool update(double validationLoss);
  double best() const { return bestLoss; }
  int64_t badEpochs() const { return bad; }
  bool hasBest() const { return seen; }
  /// Whether the epochs recorded so far already stopped training.
  bool stopped() const { return patience > 0 && bad >= patience; }
  /// Restores the state from a checkpoint.
  void setState(double best, int64_t badEpochs, bool hasBest) {
    bestLoss = best, bad = badEpochs, seen = hasBest;
  }

private:
  int64_t patience;
  double minDelta;
  double bestLoss = 0;
  int64_t bad = 0;
  bool seen = false;
};

} // namespace modelrt

#endif // MODELRT_TRAIN_SCHEDULE_H
