//===- Trainer.cpp - The training loop -------------------------------------===//
#include "modelrt/train/Trainer.h"
#include "TrainRun.h"

#include "modelrt/cli/Progress.h"
#include "modelrt/core/Profile.h"
#include "modelrt/io/CheckpointStore.h"
#include "modelrt/io/MetricsLog.h"
#include "modelrt/train/Evaluate.h"

#include <chrono>
#include <cmath>
#include <cstring>

namespace modelrt {

uint64_t stepSeed(uint64_t seed, int64_t step, int64_t micro) {
  return mixSeed(seed, 0x57e9, uint64_t(step * 1024 + micro));
}

namespace trainer {
namespace {

double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

/// True when no value of \p x[0..n) is NaN or infinite: an OR over the
/// exponent bits, which the compiler vectorises (a branch per element costs
/// as much as a small step).
bool allFinite(const float *x, size_t n) {
  uint32_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    uint32_t bits;
    std::memcpy(&bits, x + i, sizeof bits);
    bad |= uint32_t((bits & 0x7f800000u) == 0x7f800000u);
  }
  return bad == 0;
}

/// What a run that stops now leaves to resume from.
std::string keptCheckpoint(const Run &r) {
  return r.lastCheckpoint.empty()
             ? "no checkpoint was written yet (the run stopped in its first epoch)"
             : "the last good checkpoint, " + r.lastCheckpoint + ", is kept";
}

/// Whether RunOptions::stop is set (SIGINT/SIGTERM).
bool stopRequested(const Run &r) { return r.opts.stop && r.opts.stop->load(); }

/// Names the first non-finite value among the loss and gradients, if any.
Status checkFinite(Run &r, float loss, int64_t epoch, int64_t batch) {
  bool gradsChecked = r.runner->gradientsCheckedFinite(); // on the device
  std::string kept = keptCheckpoint(r);
  const char *where = "step %lld (epoch %lld, batch %lld): %s; stopping, %s";
  std::string what;
  if (!std::isfinite(loss))
    what = std::string("loss is ") + (std::isnan(loss) ? "NaN" : "infinite");
  for (int32_t i = 0; i < r.prog.num_params && what.empty() && !gradsChecked; ++i) {
    const float *g = r.gradPtrs[i];
    size_t n = r.model.params[i].size();
    if (allFinite(g, n))
      continue;
    for (size_t j = 0; j < n; ++j)
      if (!std::isfinite(g[j])) {
        what = "gradient of parameter '" + std::string(r.prog.params[i].name) + "' (element " +
               std::to_string(j) + ") is " + (std::isnan(g[j]) ? "NaN" : "infinite");
        break;
      }
  }
  if (what.empty())
    return Status::ok();
  return errorf(where, (long long)r.step + 1, (long long)epoch + 1, (long long)batch + 1,
                what.c_str(), kept.c_str());
}

/// The checkpoint of run \p r after \p epoch epochs, the loader at \p at
/// with the epoch in progress's \p sums (at an epoch's start: none).
CheckpointData snapshot(Run &r, int64_t epoch, const std::vector<std::pair<std::string, double>> &m,
                        const LoaderPosition &at, LossSums sums = {}) {
  CheckpointData c;
  c.modelName = r.prog.name;
  c.fingerprint = programFingerprint(r.prog);
  c.abiVersion = r.prog.abi_version;
  c.epoch = epoch, c.step = r.step;
  c.seed = r.cfg.seed;
  c.bestLoss = r.bestLoss, c.hasBestLoss = r.hasBestLoss;
  saveModelState(r.model, r.prog, c);
  c.optimizerKind = static_cast<int32_t>(r.opt->config().kind);
  c.optimizerSteps = r.opt->stepCount();
  c.firstMoments = r.opt->firstMoments();
  c.secondMoments = r.opt->secondMoments();
  c.schedule = r.sched->state();
  c.earlyBest = r.early->best(), c.earlyBad = r.early->badEpochs();
  c.earlyHasBest = r.early->hasBest();
  c.loader = at;
  c.epochSums = std::move(sums);
  c.stepWindow = {r.windowLoss, r.windowBatches};
  c.metrics = m;
  return c;
}

/// Writes the step/* TensorBoard scalars and a steps.csv row every
/// logEverySteps steps.
Status logSteps(Run &r, double lr) {
  int64_t every = r.opts.logEverySteps;
  if (!r.events || every <= 0 || r.step % every != 0 || r.windowBatches == 0)
    return Status::ok();
  double secs = std::max(secondsSince(r.windowStart), 1e-9);
  double loss = r.windowLoss / r.windowBatches, rate = r.windowSamples / secs;
  MODELRT_TRY(r.events->addScalar("step/loss", float(loss), r.step));
  MODELRT_TRY(r.events->addScalar("step/lr", float(lr), r.step));
  MODELRT_TRY(r.events->addScalar("step/throughput", float(rate), r.step));
  MODELRT_TRY(appendStepLog(r.logDir, r.epoch + 1, r.step, lr, loss, rate));
  r.windowLoss = 0, r.windowBatches = 0, r.windowSamples = 0;
  r.windowStart = std::chrono::steady_clock::now();
  return Status::ok();
}

/// Applies one optimizer step with the (accumulated) gradients.
Status applyStep(Run &r, GradAccumulator &acc) {
  double lr = r.sched->lr();
  if (r.deviceUpdates) {
    MODELRT_TRY(r.runner->update(*r.opt, lr));
  } else {
    float *const *g = acc.mean();
    if (r.cfg.optimizer.clip_norm > 0)
      clipGradNorm(g, r.model.paramSizes(), r.cfg.optimizer.clip_norm);
    r.opt->step(r.model.paramPtrs.data(), g, lr);
  }
  r.sched->onStep();
  acc.reset();
  ++r.step;
  return logSteps(r, lr);
}

/// The loader's next batch, timed as the data phase.
bool nextBatch(DataLoader &loader, Batch &b) {
  PhaseTimer timer(Phase::Data);
  return loader.next(b);
}

/// The epoch's batches in order. On the GPU the next batch is fetched and
/// staged while the current step runs (the runner's while-running hook);
/// not under --profile, whose data and step phases must not overlap.
class BatchCursor {
public:
  BatchCursor(DataLoader &loader, StepRunner &runner) : loader(loader), runner(runner) {
    more = nextBatch(loader, current);
    if (runner.device() == Device::Cuda && !profiling())
      runner.setWhileRunning([this] { fetchNext(true); });
  }
  ~BatchCursor() { runner.setWhileRunning(nullptr); }
  BatchCursor(const BatchCursor &) = delete;
  BatchCursor &operator=(const BatchCursor &) = delete;
  /// False after the epoch's last batch.
  bool valid() const { return more; }
  const Batch &batch() const { return current; }
  /// How staging the next batch went (during the last step).
  const Status &staged() const { return stageStatus; }
  /// Moves to the next batch.
  void advance() {
    if (!fetched)
      fetchNext(false);
    fetched = false;
    std::swap(current, next);
    more = nextMore;
  }

private:
  void fetchNext(bool stage) {
    fetched = true;
    nextMore = nextBatch(loader, next);
    if (nextMore && stage && next.size > 0)
      stageStatus = runner.stage(next);
  }
  DataLoader &loader;
  StepRunner &runner;
  Batch current, next;
  bool more = false, fetched = false, nextMore = false;
  Status stageStatus;
};

/// One step's loss, gradients (r.gradPtrs) and metrics on \p b: this rank's,
/// then, with several ranks, the global batch's (zero for an empty slice).
/// An empty slice still runs the step when the step sums batch norm's
/// statistics over the ranks, so that it joins those sums.
Status trainOnBatch(Run &r, const Batch &b, uint64_t seed, StepFigures &f) {
  f.samples = b.size, f.counted = b.size > 0 ? countedLabels(r.prog, b) : 0;
  if (r.dp && !r.deviceSums) // the sums start as the step announces each gradient
    r.dp->beginStep(r.gradPtrs.data(), f.counted);
  if (b.size > 0 || (r.dp && r.cfg.batch_norm_sync)) {
    PhaseTimer timer(Phase::Step);
    MODELRT_TRY(r.runner->train(r.model, b, seed, r.step, &f.loss, r.gradPtrs.data(),
                                f.metrics.data()));
  }
  if (b.size == 0) {
    f.loss = 0;
    std::fill(f.metrics.begin(), f.metrics.end(), 0.0);
    for (size_t i = 0; i < r.gradPtrs.size(); ++i)
      std::fill_n(r.gradPtrs[i], r.model.params[i].size(), 0.0f);
  }
  if (!r.dp)
    return Status::ok();
  PhaseTimer timer(Phase::Update);
  if (!r.deviceSums)
    return r.dp->reduceStep(f, r.gradPtrs.data());
  auto weight = r.dp->reduceFigures(f);
  return weight ? r.runner->sumGradients(*weight) : weight.status();
}

/// The error of a stopped run whose state rank 0 saved as last.safetensors:
/// "WHERE: saved PATH; continue with --resume PATH".
Status savedStop(const Run &r, const std::string &where) {
  std::string path = r.opts.checkpointDir + "/last.safetensors";
  return errorf("%s: saved %s; continue with --resume %s", where.c_str(), path.c_str(),
                path.c_str());
}

/// Sums \p value over the run's ranks (nothing to do on one rank).
Status sumOverRanks(const Run &r, double &value, const char *what) {
  if (!r.opts.collective || r.opts.collective->size() <= 1)
    return Status::ok();
  return r.opts.collective->sum(&value, 1, what);
}

/// Rank 0's save of run \p r stopped within \p epoch: everything, the
/// epoch's \p sums and the loader at \p at included, as last.safetensors.
Status saveWithinEpoch(Run &r, int64_t epoch, const LoaderPosition &at, const LossSums &sums) {
  MODELRT_TRY(r.runner->syncToHost(r.model, *r.opt));
  if (r.events)
    MODELRT_TRY(r.events->flush());
  return saveMidEpochCheckpoint({r.opts.checkpointDir, r.opts.keep},
                                snapshot(r, epoch, r.lastMetrics, at, sums));
}

/// Stops run \p r within \p epoch, after the step that left the loader
/// at \p at: rank 0 saves it (saveWithinEpoch), which --resume continues
/// exactly, and every rank waits for that save before it returns the
/// error that stops the run (a rank's error ends all ranks).
Status stopWithinEpoch(Run &r, int64_t epoch, const LoaderPosition &at, const LossSums &sums) {
  char where[160];
  std::snprintf(where, sizeof where, "interrupted after step %lld (epoch %lld, batch %lld of %lld)",
                (long long)r.step, (long long)epoch + 1, (long long)at.batchIndex,
                (long long)r.loader->batchesPerEpoch());
  Status st = r.writes() ? saveWithinEpoch(r, epoch, at, sums) : Status::ok();
  double failed = st.isOk() ? 0 : 1;
  MODELRT_TRY(sumOverRanks(r, failed, "the interrupted run's save"));
  if (failed > 0)
    return errorf("%s; saving it failed: %s; stopping, %s", where,
                  st.isOk() ? "on rank 0" : st.message().c_str(), keptCheckpoint(r).c_str());
  return savedStop(r, where);
}

/// One batch's step of run \p r (the cursor's batch, \p index of \p epoch):
/// its figures in \p f, checked finite, and the optimizer step when the
/// batch ends its group.
Status trainStep(Run &r, GradAccumulator &acc, BatchCursor &cursor, int64_t epoch, int64_t index,
                 StepFigures &f) {
  f.metrics.assign(size_t(r.prog.num_metrics), 0.0);
  f.stops = stopRequested(r);
  uint64_t seed = stepSeed(r.cfg.seed, r.step, acc.pending());
  Status st = trainOnBatch(r, cursor.batch(), seed, f);
  if (st.isOk())
    st = cursor.staged();
  if (!st.isOk())
    return errorf("step %lld (epoch %lld): %s", (long long)r.step + 1, (long long)epoch + 1,
                  st.message().c_str());
  MODELRT_TRY(checkFinite(r, f.loss, epoch, index));
  r.windowLoss += f.loss, r.windowBatches += 1, r.windowSamples += f.samples;
  if (!acc.add(r.gradPtrs.data()))
    return Status::ok();
  PhaseTimer timer(Phase::Update);
  return applyStep(r, acc);
}

/// "loss 0.1234": the mean loss of \p sums (a running sum, or the mean).
std::string lossSuffix(double loss) {
  char suffix[64];
  std::snprintf(suffix, sizeof suffix, "loss %.4f", loss);
  return suffix;
}

/// One epoch of training; returns the mean loss and metrics. A stop
/// request (SIGINT/SIGTERM, summed over the ranks with each step's figures)
/// ends the epoch after the step group in progress (stopWithinEpoch), or,
/// in its last group, once the epoch is done (Run::stopAfterEpoch). An
/// epoch resumed mid-way starts from the checkpoint's sums.
Expected<EvalResult> trainEpoch(Run &r, int64_t epoch) {
  r.epoch = epoch;
  GradAccumulator acc(r.model.paramSizes(), r.cfg.optimizer.accumulate);
  LossSums sums = std::move(r.resumedSums);
  sums.metrics.resize(size_t(r.prog.num_metrics), 0.0);
  r.resumedSums = {};
  Progress bar = Progress::forStream(r.opts.console, "epoch " + std::to_string(epoch + 1),
                                     r.loader->batchesPerEpoch(), "batches");
  LoaderPosition at = r.loader->position(); // the epoch's RNG state; the cursor moves on
  bool stopping = false;
  if (!r.stepsTimed) { // the first window times steps, not the set-up before them
    r.windowStart = std::chrono::steady_clock::now();
    r.stepsTimed = true;
  }
  for (BatchCursor cursor(*r.loader, *r.runner); cursor.valid(); cursor.advance()) {
    StepFigures f;
    MODELRT_TRY(trainStep(r, acc, cursor, epoch, at.batchIndex, f));
    sums.add(double(f.loss) * f.counted, f.samples, f.counted, f.metrics); // loss: their mean
    ++at.batchIndex;
    bar.update(at.batchIndex, lossSuffix(sums.meanLoss()));
    // With several ranks only the summed request counts: every rank stops
    // at the same step.
    stopping = stopping || f.stops > 0 || (!r.dp && stopRequested(r));
    if (stopping && acc.pending() == 0 && at.batchIndex < r.loader->batchesPerEpoch())
      return stopWithinEpoch(r, epoch, at, sums);
  }
  r.stopAfterEpoch = stopping;
  if (acc.pending() > 0)
    MODELRT_TRY(applyStep(r, acc));
  EvalResult means = sums.means();
  bar.finish(lossSuffix(means.loss));
  return means;
}

/// Writes the epoch/* TensorBoard scalars.
Status logEpochEvents(Run &r, const std::vector<std::pair<std::string, double>> &metrics,
                      double lr, double throughput) {
  for (const auto &[k, v] : metrics)
    MODELRT_TRY(r.events->addScalar("epoch/" + k, float(v), r.step));
  MODELRT_TRY(r.events->addScalar("epoch/lr", float(lr), r.step));
  MODELRT_TRY(r.events->addScalar("epoch/throughput", float(throughput), r.step));
  return r.events->flush();
}

/// Prints "epoch E/N name value..." for \p epoch's \p metrics.
void printEpochLine(const Run &r, int64_t epoch,
                    const std::vector<std::pair<std::string, double>> &metrics) {
  std::string line = "epoch " + std::to_string(epoch + 1) + "/" + std::to_string(r.cfg.epochs);
  for (const auto &[k, v] : metrics) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " %s %.4f", k.c_str(), v);
    line += buf;
  }
  std::fprintf(r.opts.console, "%s\n", line.c_str());
}

/// Whether \p epoch's \p monitored loss is the best so far (recorded as
/// such). A NaN loss is never the best (a warning says so); a NaN best (a
/// checkpoint written before this rule) gives way to any loss.
bool recordBest(Run &r, int64_t epoch, double monitored) {
  bool isBest = !std::isnan(monitored) &&
                (!r.hasBestLoss || std::isnan(r.bestLoss) || monitored < r.bestLoss);
  if (isBest)
    r.bestLoss = monitored, r.hasBestLoss = true;
  else if (std::isnan(monitored))
    std::fprintf(r.opts.console, "warning: epoch %lld's %s loss is NaN: it is not the best epoch\n",
                 (long long)epoch + 1, r.data.validation ? "validation" : "training");
  return isBest;
}

/// Validation, schedule, logs and checkpoint after one epoch (trained at
/// \p throughput samples/s); true to stop.
Expected<bool> finishEpoch(Run &r, int64_t epoch, const EvalResult &train, double lr,
                           double throughput, TrainResult &result) {
  const ModelrtProgram &prog = r.prog;
  std::vector<std::pair<std::string, double>> metrics = {{"train_loss", train.loss}};
  for (int32_t i = 0; i < prog.num_metrics; ++i)
    metrics.emplace_back(std::string("train_") + prog.metric_names[i], train.metrics[i]);
  double monitored = train.loss;
  if (r.deviceSums) // running statistics: the ranks' mean
    MODELRT_TRY(r.runner->averageState());
  else if (r.dp)
    MODELRT_TRY(r.dp->averageState(r.model));
  if (r.data.validation) {
    auto val = evaluateDataset(prog, r.model, *r.data.validation, r.cfg.batch_size,
                               r.cfg.data.one_hot, r.runner.get(), r.opts.collective);
    if (!val)
      return val.status();
    result.lastValidation = *val;
    monitored = val->loss;
    metrics.emplace_back("val_loss", val->loss);
    for (int32_t i = 0; i < prog.num_metrics; ++i)
      metrics.emplace_back(std::string("val_") + prog.metric_names[i], val->metrics[i]);
  }
  r.sched->onEpochEnd(monitored);
  bool stop = r.early->update(monitored);
  printEpochLine(r, epoch, metrics);
  bool isBest = recordBest(r, epoch, monitored);
  MODELRT_TRY(r.runner->syncToHost(r.model, *r.opt));
  r.lastCheckpoint = r.opts.checkpointDir + "/last.safetensors";
  r.lastMetrics = metrics;
  if (!r.writes())
    return stop;
  MODELRT_TRY(appendMetricsLog(r.logDir, prog, epoch + 1, r.step, lr, train,
                               result.lastValidation));
  MODELRT_TRY(logEpochEvents(r, metrics, lr, throughput));
  CheckpointPolicy policy{r.opts.checkpointDir, r.opts.keep};
  MODELRT_TRY(
      saveEpochCheckpoint(policy, snapshot(r, epoch + 1, metrics, r.loader->position()), isBest));
  return stop;
}

/// Whether a stop was asked for after the epoch's last step (during its
/// validation or checkpoint), on any rank: the ranks sum their requests.
Expected<bool> stopAskedAfterTheSteps(const Run &r) {
  double asked = stopRequested(r) ? 1 : 0;
  MODELRT_TRY(sumOverRanks(r, asked, "the stop request"));
  return asked > 0;
}

/// The error that stops run \p r, interrupted in \p epoch's last step
/// group or after it, once that epoch's checkpoint is written.
Status stopAfterEpoch(const Run &r, int64_t epoch) {
  std::string where = "interrupted after step " + std::to_string(r.step) + " (the end of epoch " +
                      std::to_string(epoch + 1) + ")";
  if (!r.writes())
    return errorf("%s; stopping", where.c_str());
  return savedStop(r, where);
}

/// The learning rate an epoch logs, its first step's: the schedule's next
/// rate, or in an epoch resumed mid-way, the rate it had when the epoch
/// began (before the steps of the batches already trained; a run stops
/// only at a step's end).
double epochStartLr(const Run &r) {
  int64_t done = r.loader->position().batchIndex / std::max<int64_t>(r.cfg.optimizer.accumulate, 1);
  Schedule start = *r.sched;
  ScheduleState st = start.state();
  st.step -= done;
  start.setState(st);
  return start.lr();
}

} // namespace
} // namespace trainer

using namespace trainer;

Expected<TrainResult> trainProgram(const ModelrtProgram &prog, const ModelrtTrainConfig &cfg,
                                   const RunOptions &opts) {
  Run r(prog, cfg, opts);
  int64_t startEpoch;
  MODELRT_TRY(setup(r, startEpoch));
  TrainResult result;
  for (int64_t epoch = startEpoch; epoch < cfg.epochs; ++epoch) {
    double lr = epochStartLr(r);
    int64_t resumedSamples = r.resumedSums.samples; // trained before this process
    auto started = std::chrono::steady_clock::now();
    auto train = trainEpoch(r, epoch);
    if (!train)
      return train.status();
    result.lastTrain = *train;
    double rate = double(train->samples - resumedSamples) / std::max(secondsSince(started), 1e-9);
    auto stop = finishEpoch(r, epoch, *train, lr, rate, result);
    if (!stop)
      return stop.status();
    result.epochs = epoch + 1;
    if (!*stop && epoch + 1 < cfg.epochs) {
      auto asked = stopAskedAfterTheSteps(r);
      if (!asked)
        return asked.status();
      if (r.stopAfterEpoch || *asked)
        return stopAfterEpoch(r, epoch);
    }
    if (*stop) {
      std::fprintf(opts.console, "early stopping: no improvement for %lld epochs\n",
                   (long long)cfg.early_stop_patience);
      result.stoppedEarly = true;
      break;
    }
  }
  result.steps = r.step;
  result.deviceSummary = r.runner->summary();
  MODELRT_TRY(r.runner->syncToHost(r.model, *r.opt));
  result.model = std::move(r.model);
  result.model.bind();
  return result;
}

} // namespace modelrt
