//===- TrainSetup.cpp - Setting up a training run --------------------------===//
//
// Implements setup (TrainRun.h): the data, model, step runner, loader,
// optimizer, schedule and early stopping of a run, the ranks' check that
// they run the same program and data, a checkpoint to resume from (every
// field checked against the run), --dump-gradients' first step, and the
// checkpoint and log directories, claimed once everything else succeeded.
//
//===----------------------------------------------------------------------===//
#include "TrainRun.h"

#include "modelrt/core/Profile.h"
#include "modelrt/io/CheckpointMetadata.h"
#include "modelrt/io/GradientDump.h"
#include "modelrt/io/MetricsLog.h"
#include "modelrt/train/Evaluate.h"

#include "modelsupport/CheckpointModel.h"

namespace modelrt::trainer {

namespace {

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
                      "optimizer needs %zu",
                      path.c_str(), r.prog.params[i].name, src->size(), dst->size());
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
  std::string other =
      modelsupport::otherModelNote(path, c->modelName, r.prog.name ? r.prog.name : "");
  if (!other.empty() && r.writes() && r.opts.note)
    r.opts.note(other);
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
  if (Status st =
          r.runner->train(model, b, info.seed, r.step, &info.loss, gradPtrs.data(), metrics.data());
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
ChannelTransform channelTransform(const ModelrtDataConfig &d) {
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
  lc.prefetch = r.opts.threads == 1  ? 0
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
      std::fprintf(r.opts.console,
                   "resuming after epoch %lld: removed %d metrics row(s) of "
                   "later epochs, left by an interrupted run\n",
                   (long long)startEpoch, *rows);
  }
  auto events = EventWriter::create(r.logDir, r.step + 1);
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
                  "done)",
                  (long long)startEpoch, (long long)r.cfg.epochs);
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
    r.opts.note(r.deviceSums
                    ? "gradients: summed on the GPUs by " + how
                    : "gradients: pinned host staging through MPI (NCCL not used: " + how + ")");
  return Status::ok();
}

/// With several ranks (RunOptions::collective): the gradient sums, after
/// checking that every rank runs the same executable, model and data.
Status startDataParallel(Run &r) {
  Collective *c = r.opts.collective;
  if (!c || c->size() <= 1)
    return Status::ok();
  if (!r.opts.dumpGradientsDir.empty())
    return errorf("--dump-gradients runs in one process, not under mpirun (%d ranks)", c->size());
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

/// The run's data, model, step runner, ranks, loader (configured as \p lc),
/// optimizer, schedule, early stopping and gradient buffers.
Status createRunParts(Run &r, LoaderConfig &lc) {
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
  lc = trainLoaderConfig(r);
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
  return chooseGradientSums(r);
}

/// With --resume: the run restored from its checkpoint (resume), which must
/// leave an epoch to train; \p startEpoch is the first one (0 without).
Status resumeIfAsked(Run &r, int64_t &startEpoch) {
  startEpoch = 0;
  if (r.opts.resume.empty())
    return Status::ok();
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
  return Status::ok();
}

} // namespace

Status setup(Run &r, int64_t &startEpoch) {
  MODELRT_TRY(validateProgram(r.prog));
  if (r.cfg.batch_size <= 0 || r.cfg.epochs < 0)
    return errorf("config: batch size must be > 0 and epochs >= 0");
  LoaderConfig lc;
  MODELRT_TRY(createRunParts(r, lc));
  MODELRT_TRY(resumeIfAsked(r, startEpoch));
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

} // namespace modelrt::trainer
