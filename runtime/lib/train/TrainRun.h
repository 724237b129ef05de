//===- TrainRun.h - The state of one training run (Trainer's own) ---------===//
//
// Implements what the training loop (Trainer.cpp) and its set-up
// (TrainSetup.cpp) share: the state of one run across its epochs, and the
// set-up that fills it (the data, model, runner, loader, optimizer,
// schedule, the ranks, a resumed checkpoint, the output directories and
// --dump-gradients).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_TRAIN_TRAINRUN_H
#define MODELRT_LIB_TRAIN_TRAINRUN_H

#include "modelrt/io/RunDirectory.h"
#include "modelrt/io/TensorBoard.h"
#include "modelrt/train/Trainer.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace modelrt::trainer {

/// Everything that lives across the epochs of one run.
struct Run {
  Run(const ModelrtProgram &p, const ModelrtTrainConfig &c, const RunOptions &o)
      : prog(p), cfg(c), opts(o) {}
  const ModelrtProgram &prog;
  const ModelrtTrainConfig &cfg;
  const RunOptions &opts;
  TrainingData data;
  ModelState model;
  std::unique_ptr<Optimizer> opt;
  std::unique_ptr<Schedule> sched;
  std::unique_ptr<EarlyStopping> early;
  std::unique_ptr<DataLoader> loader;
  std::unique_ptr<StepRunner> runner;
  /// Set when the run has several ranks (RunOptions::collective).
  std::unique_ptr<DataParallel> dp;
  /// True on the rank that writes checkpoints and logs (rank 0).
  bool writes() const { return !dp || dp->rank() == 0; }
  bool deviceUpdates = false;    ///< the runner adopted the optimizer (GPU)
  bool deviceSums = false;       ///< the runner sums the gradients over the ranks (NCCL)
  std::vector<float *> gradPtrs; ///< the runner's host gradient buffers
  int64_t step = 0;
  int64_t epoch = 0; ///< the epoch in progress, 0-based
  std::string logDir;
  /// The locks on the checkpoint and log directories (rank 0).
  std::vector<DirectoryLock> locks;
  std::unique_ptr<EventWriter> events;
  /// --dump-gradients: the dump's bytes, computed before the device adopts
  /// the model and written once every other setup step succeeded, and the
  /// line that announces it.
  std::string gradientDump, gradientDumpLine;
  /// The checkpoint this run can be resumed from: the last one it wrote, or
  /// the one it resumed from; empty before either (named when a run stops
  /// on a non-finite value).
  std::string lastCheckpoint;
  double bestLoss = 0; ///< best monitored loss (best.safetensors)
  bool hasBestLoss = false;
  /// The sums of the epoch in progress that a mid-epoch checkpoint carried
  /// (--resume); the first trained epoch starts from them.
  LossSums resumedSums;
  /// The last finished epoch's metrics (a mid-epoch checkpoint's `metrics`).
  std::vector<std::pair<std::string, double>> lastMetrics;
  /// A stop was requested in the epoch's last step group: the run stops
  /// once that epoch's checkpoint is written.
  bool stopAfterEpoch = false;
  double windowLoss = 0; ///< per-N-step TensorBoard window
  int64_t windowBatches = 0, windowSamples = 0;
  std::chrono::steady_clock::time_point windowStart = std::chrono::steady_clock::now();
  bool stepsTimed = false; ///< windowStart was set when the first epoch's steps began
};

/// Sets up run \p r (RunOptions::resume included: everything is checked
/// before anything is written) and sets \p startEpoch to the first epoch
/// to train; the output directories are claimed last.
Status setup(Run &r, int64_t &startEpoch);

} // namespace modelrt::trainer

#endif // MODELRT_LIB_TRAIN_TRAINRUN_H
