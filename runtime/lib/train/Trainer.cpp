//===- Trainer.cpp - The training loop, evaluation and prediction ----------===//
#include "modelrt/train/Trainer.h"
#include "modelrt/core/FrozenParameters.h"
#include "modelrt/core/Profile.h"

#include "modelrt/cli/Progress.h"
#include "modelrt/io/CheckpointMetadata.h"
#include "modelrt/io/CheckpointStore.h"
#include "modelrt/io/GradientDump.h"
#include "modelrt/io/MetricsLog.h"
#include "modelrt/io/RunDirectory.h"
#include "modelrt/io/TensorBoard.h"
#include "modelrt/train/DataParallel.h"

#include <chrono>
#include <cmath>
#include <cstring>

namespace modelrt {

uint64_t stepSeed(uint64_t seed, int64_t step, int64_t micro) {
  return mixSeed(seed, 0x57e9, uint64_t(step * 1024 + micro));
}

bool countsEachLabel(const ModelrtProgram &p, DType labels) {
  return labels == DType::I64 && (p.label_rank > 0 || p.has_ignore_index);
}

int64_t countedLabels(const ModelrtProgram &p, const Batch &b) {
  if (!countsEachLabel(p, b.labels.dtype()))
    return b.size;
  const int64_t *l = b.labels.as<int64_t>();
  int64_t n = b.labels.numElements(), ignored = 0;
  for (int64_t i = 0; p.has_ignore_index && i < n; ++i)
    ignored += l[i] == p.ignore_index;
  return n - ignored;
}

namespace {

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
  bool deviceUpdates = false; ///< the runner adopted the optimizer (GPU)
  bool deviceSums = false;    ///< the runner sums the gradients over the ranks (NCCL)
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
  double bestLoss = 0;      ///< best monitored loss (best.safetensors)
  bool hasBestLoss = false;
  /// The sums of the epoch in progress that a mid-epoch checkpoint carried
  /// (--resume); the first trained epoch starts from them.
  EpochSums resumedSums;
  /// The last finished epoch's metrics (a mid-epoch checkpoint's `metrics`).
  std::vector<std::pair<std::string, double>> lastMetrics;
  /// A stop was requested in the epoch's last step group: the run stops
  /// once that epoch's checkpoint is written.
  bool stopAfterEpoch = false;
  double windowLoss = 0;    ///< per-N-step TensorBoard window
  int64_t windowBatches = 0, windowSamples = 0;
  std::chrono::steady_clock::time_point windowStart = std::chrono::steady_clock::now();
  bool stepsTimed = false; ///< windowStart was set when the first epoch's steps began
};

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
                        const LoaderPosition &at, EpochSums sums = {}) {
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

/// What a checkpoint must agree with to continue run \p r.
ResumeTarget resumeTarget(const Run &r) {
  ResumeTarget t;
  t.fingerprint = programFingerprint(r.prog);
  t.abiVersion = r.prog.abi_version;
  t.optimizerKind = static_cast<int32_t>(r.opt->config().kind);
  t.epochs = r.cfg.epochs;
  t.batchesPerEpoch = r.loader->batchesPerEpoch();
  t.seed = r.cfg.seed;
  t.numMetrics = r.prog.num_metrics;
  t.batchSize = r.cfg.batch_size;
  t.accumulate = std::max<int64_t>(r.cfg.optimizer.accumulate, 1);
  // As countedLabels counts a batch's (the loader makes one-hot labels f32).
  bool perLabel =
      countsEachLabel(r.prog, r.cfg.data.one_hot ? DType::F32 : r.data.train.labelType());
  t.labelsPerSample = perLabel ? r.data.train.labelElements() : 1;
  t.labelsMayBeIgnored = perLabel && r.prog.has_ignore_index;
  return t;
}

/// Copies the checkpoint's optimizer moments (by parameter name).
Status restoreMoments(Run &r, CheckpointData &c, const std::string &path) {
  for (int32_t i = 0; i < r.prog.num_params; ++i) {
    size_t j = 0; // the parameter's index in the checkpoint (checked to exist)
    while (c.params[j].first != r.prog.params[i].name)
      ++j;
    for (auto [src, dst] : {std::make_pair(&c.firstMoments[j], &r.opt->firstMoments()[i]),
                            std::make_pair(&c.secondMoments[j], &r.opt->secondMoments()[i])}) {
      if (src->size() != dst->size())
        return errorf("%s: optimizer state of parameter '%s' has %zu values, the configured "
                      "optimizer needs %zu", path.c_str(), r.prog.params[i].name, src->size(),
                      dst->size());
      *dst = *src;
    }
  }
  return Status::ok();
}

/// Restores the run from checkpoint opts.resume, every field checked first.
Status resume(Run &r, int64_t &startEpoch) {
  const std::string &path = r.opts.resume;
  auto c = readCheckpoint(path);
  if (!c)
    return c.status();
  MODELRT_TRY(checkCheckpointFits(*c, paramTable(r.prog), stateTable(r.prog),
                                  r.prog.name ? r.prog.name : "", path));
  MODELRT_TRY(checkResumeTarget(*c, resumeTarget(r), path));
  MODELRT_TRY(restoreMoments(r, *c, path));
  if (Status st = r.loader->restore(c->loader); !st.isOk())
    return errorf("%s: %s", path.c_str(), st.message().c_str());
  MODELRT_TRY(restoreModelState(r.model, *c, r.prog, path));
  r.opt->setStepCount(c->optimizerSteps);
  r.sched->setState(c->schedule);
  r.early->setState(c->earlyBest, c->earlyBad, c->earlyHasBest);
  r.step = c->step;
  r.bestLoss = c->bestLoss, r.hasBestLoss = c->hasBestLoss;
  r.resumedSums = c->epochSums, r.lastMetrics = c->metrics;
  r.windowLoss = c->stepWindow.loss, r.windowBatches = c->stepWindow.batches;
  startEpoch = c->epoch;
  if (c->loader.batchIndex > 0 && r.writes())
    std::fprintf(r.opts.console, "resuming epoch %lld at batch %lld of %lld (after step %lld)\n",
                 (long long)startEpoch + 1, (long long)c->loader.batchIndex + 1,
                 (long long)r.loader->batchesPerEpoch(), (long long)r.step);
  return Status::ok();
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

/// The trainer's sums of an epoch in progress as a checkpoint keeps them.
EpochSums epochSums(const EvalResult &sums) {
  return {sums.loss, sums.samples, sums.counted, sums.metrics};
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
Status saveWithinEpoch(Run &r, int64_t epoch, const LoaderPosition &at, const EvalResult &sums) {
  MODELRT_TRY(r.runner->syncToHost(r.model, *r.opt));
  if (r.events)
    MODELRT_TRY(r.events->flush());
  return saveMidEpochCheckpoint({r.opts.checkpointDir, r.opts.keep},
                                snapshot(r, epoch, r.lastMetrics, at, epochSums(sums)));
}

/// Stops run \p r within \p epoch, after the step that left the loader
/// at \p at: rank 0 saves it (saveWithinEpoch), which --resume continues
/// exactly, and every rank waits for that save before it returns the
/// error that stops the run (a rank's error ends all ranks).
Status stopWithinEpoch(Run &r, int64_t epoch, const LoaderPosition &at, const EvalResult &sums) {
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

/// Adds one step's figures \p f to an epoch's \p sums.
void addFigures(EvalResult &sums, const StepFigures &f) {
  sums.loss += double(f.loss) * f.counted; // the step's loss is their mean
  for (size_t i = 0; i < f.metrics.size(); ++i)
    sums.metrics[i] += f.metrics[i];
  sums.samples += f.samples;
  sums.counted += f.counted;
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
  EvalResult sums{r.resumedSums.loss, r.resumedSums.metrics, r.resumedSums.samples,
                  r.resumedSums.counted};
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
    addFigures(sums, f);
    ++at.batchIndex;
    bar.update(at.batchIndex, lossSuffix(sums.loss / double(std::max<int64_t>(sums.counted, 1))));
    // With several ranks only the summed request counts: every rank stops
    // at the same step.
    stopping = stopping || f.stops > 0 || (!r.dp && stopRequested(r));
    if (stopping && acc.pending() == 0 && at.batchIndex < r.loader->batchesPerEpoch())
      return stopWithinEpoch(r, epoch, at, sums);
  }
  r.stopAfterEpoch = stopping;
  if (acc.pending() > 0)
    MODELRT_TRY(applyStep(r, acc));
  sums.loss /= double(std::max<int64_t>(sums.counted, 1));
  for (double &m : sums.metrics)
    m /= double(std::max<int64_t>(sums.counted, 1));
  bar.finish(lossSuffix(sums.loss));
  return sums;
}

/// Writes the gradients of the run's first step (opts.dumpGradientsDir)
/// before training: the same parameters, batch (a second loader at the run
/// loader's position), seed and step as that step, on the run's device;
/// the model and the run's loader are left as they were.
Status dumpFirstStep(Run &r, LoaderConfig lc) {
  ProfilingPaused paused; // not a timed step
  lc.prefetch = 0;
  DataLoader loader(r.data.train, lc);
  MODELRT_TRY(loader.restore(r.loader->position()));
  GradientDumpInfo info;
  info.epoch = loader.position().epoch, info.batchIndex = loader.position().batchIndex;
  Batch b;
  if (!loader.next(b))
    return errorf("--dump-gradients: the training set has no batch");
  auto first = loader.order().begin() + info.batchIndex * lc.batchSize;
  info.sampleIndices.assign(first, first + b.size);
  info.step = r.step, info.seed = stepSeed(r.cfg.seed, r.step, 0);
  info.accumulate = std::max<int64_t>(r.cfg.optimizer.accumulate, 1);
  info.clipNorm = r.cfg.optimizer.clip_norm > 0 ? r.cfg.optimizer.clip_norm : 0;
  ModelState model = r.model;
  model.bind();
  std::vector<std::vector<float>> grads;
  std::vector<float *> gradPtrs;
  for (int64_t n : model.paramSizes())
    grads.emplace_back(size_t(n), 0.0f);
  for (std::vector<float> &g : grads)
    gradPtrs.push_back(g.data());
  std::vector<double> metrics(size_t(r.prog.num_metrics) + 1);
  if (Status st = r.runner->train(model, b, info.seed, r.step, &info.loss, gradPtrs.data(),
                                  metrics.data());
      !st.isOk())
    return errorf("--dump-gradients: step %lld: %s", (long long)r.step + 1, st.message().c_str());
  r.gradientDump = encodeGradientDump(r.prog, r.model, grads, b, info);
  char line[160];
  std::snprintf(line, sizeof line, "gradients of step %lld (loss %.6f, batch of %lld) written to ",
                (long long)r.step + 1, double(info.loss), (long long)b.size);
  r.gradientDumpLine = line + gradientDumpPath(r.opts.dumpGradientsDir);
  return Status::ok();
}

/// The input transform of the data's samples per channel (ModelData.cpp's
/// normalisation: (x * scale - mean[c]) / std[c]).
static ChannelTransform channelTransform(const ModelrtDataConfig &d) {
  double scale = d.scale != 0 ? d.scale : 1.0;
  ChannelTransform t{{scale}, {0.0}};
  if (d.num_norm > 0 && d.mean && d.std) {
    t.scale.assign(size_t(d.num_norm), 0), t.shift.assign(size_t(d.num_norm), 0);
    for (int32_t c = 0; c < d.num_norm; ++c)
      t.scale[c] = scale / d.std[c], t.shift[c] = -d.mean[c] / d.std[c];
  }
  return t;
}

/// The training loader's configuration: the batch, shuffling seed and
/// augmentation of the run, and its prefetch depth (RunOptions::threads).
LoaderConfig trainLoaderConfig(const Run &r) {
  LoaderConfig lc;
  lc.batchSize = r.cfg.batch_size, lc.seed = r.cfg.seed, lc.dropLast = r.cfg.data.drop_last;
  if (r.cfg.data.num_augment > 0 && r.cfg.data.augment)
    lc.augment.assign(r.cfg.data.augment, r.cfg.data.augment + r.cfg.data.num_augment);
  lc.workers = std::max<int64_t>(r.opts.threads - 1, 1);
  lc.transform = channelTransform(r.cfg.data);
  lc.oneHotClasses = r.cfg.data.one_hot ? r.prog.num_classes : 0;
  int64_t batchBytes =
      r.cfg.batch_size * (r.data.train.sampleElements() * int64_t(dtypeSize(inputType(r.prog))) +
                          r.data.train.labelElements() * 8);
  lc.prefetch = r.opts.threads == 1   ? 0
                : r.opts.threads > 1 ? r.opts.threads
                                     : prefetchDepthFor(batchBytes);
  return lc;
}

/// Claims the checkpoint and log directories (claimRunDirectories: locks,
/// temporaries, an earlier run's outputs) and creates the event file; with
/// --resume from epoch \p startEpoch, removes the metrics rows of later
/// epochs an interrupted run left, saying so.
Status openOutputs(Run &r, int64_t startEpoch) {
  r.logDir = r.opts.logDir.empty() ? r.opts.checkpointDir : r.opts.logDir;
  auto locks = claimRunDirectories(
      {r.opts.checkpointDir, r.logDir, r.opts.resume.empty(), r.opts.overwrite}, r.opts.console);
  if (!locks)
    return locks.status();
  r.locks = locks.take();
  if (!r.opts.resume.empty()) {
    auto rows = trimMetricsLog(r.logDir, startEpoch, r.step);
    if (!rows)
      return rows.status();
    if (*rows > 0)
      std::fprintf(r.opts.console, "resuming after epoch %lld: removed %d metrics row(s) of "
                   "later epochs, left by an interrupted run\n", (long long)startEpoch, *rows);
  }
  auto events = EventWriter::create(r.logDir);
  if (!events)
    return events.status();
  r.events = events.take();
  return Status::ok();
}

/// --dump-gradients' checks before anything is written: the run takes a
/// step, and the dump's file may be written (checkGradientDumpPath).
Status checkGradientDump(Run &r, int64_t startEpoch) {
  if (startEpoch >= r.cfg.epochs)
    return errorf("--dump-gradients: this run takes no training step (%lld of %lld epochs "
                  "done)", (long long)startEpoch, (long long)r.cfg.epochs);
  return checkGradientDumpPath(r.opts.dumpGradientsDir, r.opts.overwriteGradients);
}

/// Why the optimizer must step on the host (gradient accumulation or
/// clipping), or null when the device may step.
const char *hostUpdatesOnly(const ModelrtTrainConfig &cfg) {
  if (cfg.optimizer.accumulate > 1)
    return "gradient accumulation runs on the host";
  return cfg.optimizer.clip_norm > 0 ? "clipping runs on the host" : nullptr;
}

/// With several ranks on GPUs: the gradients summed on the devices (NCCL)
/// or staged through pinned host memory and summed through MPI; rank 0's
/// note says which, and why.
Status chooseGradientSums(Run &r) {
  if (!r.dp || r.opts.device != Device::Cuda)
    return Status::ok();
  std::string how;
  if (const char *host = hostUpdatesOnly(r.cfg)) {
    how = host;
  } else {
    auto onDevice = r.runner->sumOnDevice(r.dp->collective(), how);
    if (!onDevice)
      return onDevice.status();
    r.deviceSums = *onDevice;
  }
  if (r.writes() && r.opts.note)
    r.opts.note(r.deviceSums ? "gradients: summed on the GPUs by " + how
                             : "gradients: pinned host staging through MPI (NCCL not used: " +
                                   how + ")");
  return Status::ok();
}

/// With several ranks (RunOptions::collective): the gradient sums, after
/// checking that every rank runs the same executable, model and data.
Status startDataParallel(Run &r) {
  Collective *c = r.opts.collective;
  if (!c || c->size() <= 1)
    return Status::ok();
  if (!r.opts.dumpGradientsDir.empty())
    return errorf("--dump-gradients runs in one process, not under mpirun (%d ranks)",
                  c->size());
  RunIdentity id = r.opts.identity;
  id.emplace_back("model", programFingerprint(r.prog));
  for (const Dataset *d : {&r.data.train, r.data.validation ? &*r.data.validation : nullptr}) {
    if (!d)
      continue;
    auto h = hashDataset(*d);
    if (!h)
      return h.status();
    id.emplace_back(d == &r.data.train ? "training data" : "validation data", *h);
  }
  MODELRT_TRY(checkSameRun(*c, id));
  if (r.cfg.batch_norm_sync && r.runner->device() == Device::Cuda)
    return errorf("--device cuda under mpirun (%d ranks) cannot synchronise batch norm: the "
                  "GPU step does not sum its statistics over the ranks; compile with "
                  "--batch-norm=local (or batch_norm = local in the train block) for "
                  "per-rank statistics, or train on the CPU",
                  c->size());
  r.dp = std::make_unique<DataParallel>(*c, r.model.paramSizes());
  return Status::ok();
}

Status setup(Run &r, int64_t &startEpoch) {
  MODELRT_TRY(validateProgram(r.prog));
  if (r.cfg.batch_size <= 0 || r.cfg.epochs < 0)
    return errorf("config: batch size must be > 0 and epochs >= 0");
  auto data = loadTrainingData(r.prog, r.cfg);
  if (!data)
    return data.status();
  r.data = data.take();
  r.model = initModelState(r.prog, r.cfg.seed);
  auto runner = StepRunner::create(r.prog, r.opts.device);
  if (!runner)
    return runner.status();
  r.runner = runner.take();
  MODELRT_TRY(startDataParallel(r));
  LoaderConfig lc = trainLoaderConfig(r);
  if (r.dp)
    lc.shardRank = r.dp->rank(), lc.shardCount = r.dp->size();
  r.loader = std::make_unique<DataLoader>(r.data.train, lc);
  MODELRT_TRY(r.loader->validate());
  OptimizerConfig oc = toOptimizerConfig(r.cfg.optimizer);
  MODELRT_TRY(validateOptimizerConfig(oc));
  r.opt = std::make_unique<Optimizer>(oc, r.model.paramSizes());
  int64_t accumulate = std::max<int32_t>(r.cfg.optimizer.accumulate, 1);
  int64_t stepsPerEpoch = (r.loader->batchesPerEpoch() + accumulate - 1) / accumulate;
  ScheduleConfig sc = toScheduleConfig(r.cfg.schedule, r.cfg.epochs, stepsPerEpoch);
  MODELRT_TRY(validateScheduleConfig(sc));
  r.sched = std::make_unique<Schedule>(sc, oc.lr);
  r.early = std::make_unique<EarlyStopping>(r.cfg.early_stop_patience, r.cfg.early_stop_min_delta);
  auto grads = r.runner->gradientBuffers(r.model.paramSizes());
  if (!grads)
    return grads.status();
  r.gradPtrs = grads.take();
  MODELRT_TRY(chooseGradientSums(r));
  startEpoch = 0;
  if (!r.opts.resume.empty()) {
    MODELRT_TRY(resume(r, startEpoch));
    r.lastCheckpoint = r.opts.resume;
    if (startEpoch >= r.cfg.epochs) // refused before anything is written
      return errorf("%s: the checkpoint has finished %lld epoch%s and this run is %lld in "
                    "all: nothing to train; resume with --epochs N, the new total, N > %lld",
                    r.opts.resume.c_str(), (long long)startEpoch, startEpoch == 1 ? "" : "s",
                    (long long)r.cfg.epochs, (long long)startEpoch);
    if (r.early->stopped())
      return errorf("%s: the run stopped early after epoch %lld (no improvement for %lld "
                    "epochs): nothing to train; start a new run with --overwrite, or raise "
                    "early_stopping's patience",
                    r.opts.resume.c_str(), (long long)startEpoch, (long long)r.early->badEpochs());
  }
  if (!r.opts.dumpGradientsDir.empty()) // refused before anything is written
    MODELRT_TRY(checkGradientDump(r, startEpoch));
  if (!r.opts.dumpGradientsDir.empty()) // with the host's model, before the device adopts it
    MODELRT_TRY(dumpFirstStep(r, lc));
  // The GPU runner keeps the model on the device and updates it there,
  // except with gradient accumulation or clipping (host updates) and with
  // gradients summed over the ranks on the host.
  if (hostUpdatesOnly(r.cfg) == nullptr && (!r.dp || r.deviceSums)) {
    auto adopted = r.runner->adoptOptimizer(r.model, *r.opt);
    if (!adopted)
      return adopted.status();
    r.deviceUpdates = *adopted;
  }
  MODELRT_TRY(r.runner->planMemory(r.model, r.cfg.batch_size));
  if (r.writes())
    MODELRT_TRY(openOutputs(r, startEpoch));
  if (r.gradientDump.empty())
    return Status::ok();
  MODELRT_TRY(writeGradientDump(r.opts.dumpGradientsDir, r.gradientDump));
  std::fprintf(r.opts.console, "%s\n", r.gradientDumpLine.c_str());
  return Status::ok();
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
  std::string line = "epoch " + std::to_string(epoch + 1) + "/" + std::to_string(r.cfg.epochs);
  for (auto &[k, v] : metrics) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " %s %.4f", k.c_str(), v);
    line += buf;
  }
  std::fprintf(r.opts.console, "%s\n", line.c_str());
  // A NaN loss is never the best; a NaN best (a checkpoint written before
  // this rule) gives way to any loss.
  bool isBest = !std::isnan(monitored) &&
                (!r.hasBestLoss || std::isnan(r.bestLoss) || monitored < r.bestLoss);
  if (isBest)
    r.bestLoss = monitored, r.hasBestLoss = true;
  else if (std::isnan(monitored))
    std::fprintf(r.opts.console,
                 "warning: epoch %lld's %s loss is NaN: it is not the best "
                 "epoch\n",
                 (long long)epoch + 1, r.data.validation ? "validation" : "training");
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

/// \p runner, or a new CPU runner kept in \p owned.
static Expected<StepRunner *> runnerOrCpu(const ModelrtProgram &prog, StepRunner *runner,
                                          std::unique_ptr<StepRunner> &owned) {
  if (runner)
    return runner;
  auto cpu = StepRunner::create(prog, Device::Cpu);
  if (!cpu)
    return cpu.status();
  owned = cpu.take();
  return owned.get();
}

/// Sums the evaluation sums of every rank.
static Status sumEvaluation(Collective &ranks, EvalResult &sums) {
  std::vector<double> v = {sums.loss, double(sums.samples), double(sums.counted)};
  v.insert(v.end(), sums.metrics.begin(), sums.metrics.end());
  MODELRT_TRY(ranks.sum(v.data(), v.size(), "the sum of the evaluation"));
  sums.loss = v[0], sums.samples = int64_t(v[1]), sums.counted = int64_t(v[2]);
  std::copy(v.begin() + 3, v.end(), sums.metrics.begin());
  return Status::ok();
}

Expected<EvalResult> evaluateDataset(const ModelrtProgram &prog, ModelState &model,
                                     const Dataset &data, int64_t batchSize, bool oneHot,
                                     StepRunner *runner, Collective *ranks) {
  std::unique_ptr<StepRunner> owned;
  auto steps = runnerOrCpu(prog, runner, owned);
  if (!steps)
    return steps.status();
  LoaderConfig lc;
  lc.batchSize = batchSize, lc.shuffle = false, lc.prefetch = 0;
  lc.oneHotClasses = oneHot ? prog.num_classes : 0;
  if (ranks)
    lc.shardRank = ranks->rank(), lc.shardCount = ranks->size();
  DataLoader loader(data, lc);
  MODELRT_TRY(loader.validate());
  FrozenParameters frozen(model.params); // bf16 products round the weights once
  if (Status st = (*steps)->warmUp(model, StepRunner::StepKind::Eval,
                                   std::min<int64_t>(batchSize, data.size()));
      !st.isOk())
    return errorf("%s: %s", data.name.c_str(), st.message().c_str());
  EvalResult sums;
  sums.metrics.assign(prog.num_metrics, 0.0);
  std::vector<double> ms(prog.num_metrics);
  Batch b;
  while (loader.next(b)) {
    if (b.size == 0) // this rank's slice of a small last batch
      continue;
    float loss = 0;
    std::fill(ms.begin(), ms.end(), 0.0);
    PhaseTimer timer(Phase::Eval);
    if (Status st = (*steps)->eval(model, b, &loss, ms.data()); !st.isOk())
      return errorf("%s: %s", data.name.c_str(), st.message().c_str());
    sums.loss += double(loss) * b.size; // eval's loss is the sum per sample
    for (size_t i = 0; i < ms.size(); ++i)
      sums.metrics[i] += ms[i];
    sums.samples += b.size;
    sums.counted += countedLabels(prog, b);
  }
  if (ranks)
    MODELRT_TRY(sumEvaluation(*ranks, sums));
  sums.loss /= double(std::max<int64_t>(sums.counted, 1));
  for (double &m : sums.metrics)
    m /= double(std::max<int64_t>(sums.counted, 1));
  return sums;
}

Expected<Tensor> predictTensor(const ModelrtProgram &prog, ModelState &model, const Tensor &x,
                               int64_t batchSize, StepRunner *runner) {
  std::unique_ptr<StepRunner> owned;
  auto steps = runnerOrCpu(prog, runner, owned);
  if (!steps)
    return steps.status();
  int64_t n = x.dim(0), per = x.numElements() / std::max<int64_t>(n, 1);
  int64_t outPer = shapeNumElements(std::vector<int64_t>(prog.output_shape,
                                                         prog.output_shape + prog.output_rank));
  std::vector<int64_t> shape = {n};
  shape.insert(shape.end(), prog.output_shape, prog.output_shape + prog.output_rank);
  Tensor out(DType::F32, shape);
  FrozenParameters frozen(model.params); // bf16 products round the weights once
  MODELRT_TRY((*steps)->warmUp(model, StepRunner::StepKind::Predict, std::min(batchSize, n)));
  for (int64_t s = 0; s < n; s += batchSize) {
    int64_t b = std::min(batchSize, n - s);
    const char *in = static_cast<const char *>(x.data()) + size_t(s * per) * dtypeSize(x.dtype());
    if (Status st = (*steps)->predict(model, in, b, out.as<float>() + s * outPer);
        !st.isOk())
      return errorf("%s on samples %lld..%lld", st.message().c_str(), (long long)s,
                    (long long)(s + b - 1));
  }
  return out;
}

} // namespace modelrt
