//===- Trainer.h - The training loop ---------------------------------------===//
//
// Implements the loop the runtime owns: parameters initialised from the
// program's initialisers, epochs of shuffled batches through train_step with
// gradient accumulation, clipping, the optimizer and the schedule, NaN/Inf
// checks on loss and gradients (stopping with the step, epoch and first
// non-finite parameter, the last good checkpoint kept), evaluation on the
// validation/test set after each epoch (Evaluate.h), a checkpoint per epoch
// (CheckpointStore: epoch files, last and best), metrics logs (LOG/metrics.csv,
// LOG/metrics.jsonl and a TensorBoard event file with per-epoch and per-N-step
// scalars), a stop on request (SIGINT/SIGTERM) saved mid-epoch, resuming
// bit-identically from any of these checkpoints, and on request the
// first step's gradients written to a file before training starts. With
// several ranks (RunOptions::collective, under mpirun) the loop is
// data-parallel: each rank trains on its slice of every batch, the step's
// figures and gradients are summed (train/DataParallel.h), rank 0 writes.
// The loop is Trainer.cpp; its set-up, resuming included, TrainSetup.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_TRAIN_TRAINER_H
#define MODELRT_TRAIN_TRAINER_H

#include "modelrt/core/Device.h"
#include "modelrt/core/Model.h"
#include "modelrt/train/DataParallel.h"
#include "modelrt/train/LossSums.h"

#include <atomic>
#include <cstdio>
#include <functional>
#include <string>

namespace modelrt {

/// Options of one run (from the command line).
struct RunOptions {
  std::string checkpointDir = ".";  ///< epoch-N, last and best checkpoints
  std::string logDir;               ///< metrics logs and events ("" = checkpointDir)
  int64_t keep = 3;                 ///< epoch checkpoints kept (0 = all)
  std::string resume;               ///< checkpoint to resume from ("" = fresh)
  /// A fresh run deletes an earlier run's checkpoints and metrics logs in
  /// its directories instead of refusing them (RunDirectory.h).
  bool overwrite = false;
  /// Set (by the CLI's signal thread, on SIGINT or SIGTERM: StopSignals.h)
  /// to stop the run after the step in progress
  /// (with accumulation, its batch group), which is saved as
  /// last.safetensors, mid-epoch position and sums included; null: never.
  const std::atomic<bool> *stop = nullptr;
  int64_t logEverySteps = 50;       ///< TensorBoard step/* scalars every N steps (0 = off)
  int64_t threads = 0;              ///< 1: no prefetch thread; N > 1: queue depth N; 0: 2
  FILE *console = stdout;           ///< progress and per-epoch lines
  Device device = Device::Cpu;      ///< where the steps run (chooseDevice)
  /// When set, the gradients of the run's first step are written to
  /// DIR/gradients.safetensors before training (io/GradientDump.h).
  std::string dumpGradientsDir;
  bool overwriteGradients = false;  ///< replace an existing gradient dump
  /// The ranks of a data-parallel run (null or one rank: this process
  /// alone); rank 0 writes the checkpoints and logs.
  Collective *collective = nullptr;
  /// What the ranks compare before the first step besides the model and
  /// data (the executable, the command line).
  RunIdentity identity;
  /// Prints a note for the user (rank 0's choices at start-up, such as how
  /// the gradients are summed on GPUs); null: none is printed.
  std::function<void(const std::string &)> note;
};

/// What a finished run reports.
struct TrainResult {
  int64_t epochs = 0;           ///< epochs completed in total
  int64_t steps = 0;            ///< optimizer steps in total
  EvalResult lastTrain;
  std::optional<EvalResult> lastValidation;
  bool stoppedEarly = false;
  ModelState model;
  /// How the device ran the steps, when there is something to say (the GPU's
  /// CUDA graphs: StepRunner::summary()); "" otherwise.
  std::string deviceSummary;
};

/// Trains \p program with \p config.
Expected<TrainResult> trainProgram(const ModelrtProgram &program, const ModelrtTrainConfig &config,
                                   const RunOptions &options);
/// train_step's seed for micro-batch \p micro of optimizer step \p step of
/// a run seeded with \p seed (dropout masks; docs/runtime.md,
/// "Determinism"); gradcheck uses the first step's.
uint64_t stepSeed(uint64_t seed, int64_t step, int64_t micro);

} // namespace modelrt

#endif // MODELRT_TRAIN_TRAINER_H
