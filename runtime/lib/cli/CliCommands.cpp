//===- CliCommands.cpp - The train and eval subcommands -------------------===//
//
// Implements `train` and `eval` (docs/cli.md; under mpirun, data-parallel:
// docs/distributed.md) and what they share: the
// device, the data directory, the configuration flags, and the profile
// printed (and the roofline written, with --roofline) after a profiled run.
//
//===----------------------------------------------------------------------===//
#include "CliInternal.h"
#include "StopSignals.h"

#include "modelrt/core/Profile.h"
#include "modelrt/core/Roofline.h"
#include "modelrt/dist/Collective.h"
#include "modelrt/io/AtomicFile.h"
#include "modelrt/io/RooflinePlot.h"
#include "modelrt/train/Evaluate.h"
#include "modelrt/train/Trainer.h"

#include "modelsupport/CheckpointModel.h"

#include <atomic>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <unistd.h>

namespace modelrt {

namespace {
/// Whether this process prints notes: not the ranks after the first of a
/// data-parallel run, whose notes would repeat rank 0's.
bool gPrintNotes = true;
} // namespace

/// Prints "NAME: note: \p note" on stderr, unless this is a rank after the
/// first.
static void printNote(const CliArgs &a, const std::string &note) {
  if (gPrintNotes)
    std::fprintf(stderr, "%s: note: %s\n", a.self.c_str(), note.c_str());
}

Expected<Device> selectDevice(const ModelrtProgram &p, const CliArgs &a) {
  auto it = a.flags.find("--device");
  std::string note;
  auto device = chooseDevice(p, it == a.flags.end() ? "" : it->second, note);
  if (device && !note.empty())
    printNote(a, note);
  return device;
}

Expected<std::unique_ptr<StepRunner>> selectRunner(const ModelrtProgram &p, const CliArgs &a) {
  auto device = selectDevice(p, a);
  if (!device)
    return device.status();
  return StepRunner::create(p, *device);
}

Status applyDataDir(ModelrtDataConfig &data, const CliArgs &a, std::vector<std::string> &storage) {
  auto it = a.flags.find("--data-dir");
  if (it == a.flags.end())
    return Status::ok();
  storage.clear();
  storage.reserve(4); // the pointers below must stay valid
  std::vector<std::string> originals;
  for (const char **path :
       {&data.train_inputs, &data.train_labels, &data.test_inputs, &data.test_labels}) {
    if (!*path)
      continue;
    std::string file = *path;
    size_t slash = file.find_last_of('/');
    std::string moved =
        it->second + "/" + (slash == std::string::npos ? file : file.substr(slash + 1));
    for (size_t k = 0; k < storage.size(); ++k)
      if (storage[k] == moved && !sameFile(originals[k], file))
        return errorf("--data-dir %s: the data block's '%s' and '%s' would both be read from "
                      "%s; give them distinct file names",
                      it->second.c_str(), originals[k].c_str(), file.c_str(), moved.c_str());
    originals.push_back(file);
    storage.push_back(moved);
    *path = storage.back().c_str();
  }
  return Status::ok();
}

/// Replaces an option of the configuration by the value of `flag`, if given,
/// as the train block's `option` takes it.
static Status overrideFlag(const CliArgs &a, const char *flag, int64_t &field, const char *option) {
  double v = double(field);
  MODELRT_TRY(trainFlag(a, flag, option, v));
  field = int64_t(v);
  return Status::ok();
}
static Status overrideFlag(const CliArgs &a, const char *flag, double &field, const char *option) {
  return trainFlag(a, flag, option, field);
}
static Status overrideFlag(const CliArgs &a, const char *flag, uint64_t &field, const char *) {
  return unsignedFlag(a, flag, field); // the seed: any 64-bit value
}

Status applyConfigFlags(const CliArgs &a, ModelrtTrainConfig &cfg) {
#define MODELRT_CLI_OVERRIDE(FLAG, ABI, OPTION)                                                    \
  MODELRT_TRY(overrideFlag(a, FLAG, cfg.ABI, #OPTION));
#include "modelsupport/TrainConfig.def"
  return Status::ok();
}

Status runConfig(const ModelrtProgram &p, const CliArgs &a, ModelrtTrainConfig &cfg,
                 std::vector<std::string> &storage) {
  cfg = p.config;
  MODELRT_TRY(applyDataDir(cfg.data, a, storage));
  return applyConfigFlags(a, cfg);
}

/// Turns the profiler on for --profile or --roofline.
static void startProfile(const CliArgs &a) {
  setProfiling(a.flags.count("--profile") > 0 || a.flags.count("--roofline") > 0);
}

/// After a profiled run of \p what: the report, then, with --roofline, this
/// machine's roofs measured and the kernels' roofline written.
static Status finishProfile(const ModelrtProgram &p, const CliArgs &a, const char *what) {
  if (!profiling())
    return Status::ok();
  setProfiling(false);
  writeProfileReport(stdout);
  auto it = a.flags.find("--roofline");
  if (it == a.flags.end())
    return Status::ok();
  MachineRoof roof = measureMachineRoof();
  std::vector<KernelStats> kernels = kernelStats();
  std::vector<RooflinePoint> points = placeKernels(kernels, roof);
  std::string title = std::string(p.name ? p.name : "model") + ": roofline of " + what;
  MODELRT_TRY(writeRoofline(it->second, points, roof, title, kernels.size() - points.size()));
  std::printf("profile: roofline %s: FMA peak %.1f GFLOP/s (%s, %d threads), memory bandwidth "
              "%.1f GB/s, ridge %.2f FLOP/B; %zu of %zu kernels placed\n",
              it->second.c_str(), roof.peakGflops, roof.isa.c_str(), roof.threads,
              roof.bandwidthGBs, ridgeIntensity(roof), points.size(), kernels.size());
  return Status::ok();
}

/// The seconds a rank waits for the others (MODELC_DIST_TIMEOUT, default
/// 300).
static Expected<double> distTimeout() {
  const char *v = std::getenv("MODELC_DIST_TIMEOUT");
  if (!v || !*v)
    return 300.0;
  char *end = nullptr;
  double t = std::strtod(v, &end);
  if (*end || !(t > 0))
    return errorf("MODELC_DIST_TIMEOUT: '%s' is not a positive number of seconds", v);
  return t;
}

/// What the ranks of a run compare besides the model and the data: the
/// executable and the command line, but for the directories, which may
/// differ (the data are compared by content; only rank 0 writes).
static Expected<RunIdentity> cliIdentity(const CliArgs &a) {
  auto exe = hashFile("/proc/self/exe");
  if (!exe)
    return exe.status();
  std::string line = a.command;
  for (const auto &[k, v] : a.flags)
    if (k != "--data-dir" && k != "--checkpoint-dir" && k != "--log-dir")
      line += "\n" + k + "=" + v;
  return RunIdentity{{"executable", *exe}, {"command line", hashBytes(line.data(), line.size())}};
}

/// Joins a data-parallel run when the launcher says there is one: rank 0
/// keeps the console, the others print nothing but errors.
static Status joinRanks(const CliArgs &a, Collective &ranks, RunOptions &opts) {
  opts.collective = &ranks;
  if (ranks.size() <= 1)
    return Status::ok();
  auto id = cliIdentity(a);
  if (!id)
    return id.status();
  opts.identity = id.take();
  if (ranks.rank() != 0) {
    static FILE *null = std::fopen("/dev/null", "w");
    if (!null)
      return errorf("rank %d: cannot open /dev/null for its console", ranks.rank());
    opts.console = null;
  }
  return Status::ok();
}

/// Runs \p command in the world of the ranks the launcher started (one
/// process without one); a rank's error ends every rank at once, not at
/// their timeout.
static Status onRanks(const CliArgs &a, const std::function<Status(Collective &)> &command) {
  auto timeout = distTimeout();
  if (!timeout)
    return timeout.status();
  auto ranks = collectiveFromEnvironment(*timeout);
  if (!ranks)
    return ranks.status();
  Collective &world = **ranks;
  gPrintNotes = world.rank() == 0;
  Status st = command(world);
  if (!st.isOk() && world.size() > 1) {
    std::fprintf(stderr, "%s: error: rank %d of %d: %s\n", a.self.c_str(), world.rank(),
                 world.size(), st.message().c_str());
    std::fflush(stderr);
    world.abort(1);
  }
  return st;
}

static Status runTrainWith(const ModelrtProgram &p, const CliArgs &a, Collective &ranks);

namespace {
/// Set by the first SIGINT or SIGTERM of a training run (StopSignals.h).
std::atomic<bool> gStopRequested{false};
} // namespace

Status runTrain(const ModelrtProgram &p, const CliArgs &a) {
  return onRanks(a, [&](Collective &ranks) { return runTrainWith(p, a, ranks); });
}

/// `train` in the world of \p ranks.
static Status runTrainWith(const ModelrtProgram &p, const CliArgs &a, Collective &ranks) {
  ModelrtTrainConfig cfg;
  std::vector<std::string> dataPaths;
  MODELRT_TRY(runConfig(p, a, cfg, dataPaths));
  RunOptions opts;
  MODELRT_TRY(integerFlag(a, "--keep", opts.keep, false));
  MODELRT_TRY(integerFlag(a, "--log-every", opts.logEverySteps, false));
  MODELRT_TRY(applyThreads(p, a, opts.threads));
  if (a.flags.count("--checkpoint-dir"))
    opts.checkpointDir = a.flags.at("--checkpoint-dir");
  if (a.flags.count("--log-dir"))
    opts.logDir = a.flags.at("--log-dir");
  if (a.flags.count("--resume"))
    opts.resume = a.flags.at("--resume");
  if (a.flags.count("--dump-gradients"))
    opts.dumpGradientsDir = a.flags.at("--dump-gradients");
  opts.overwriteGradients = a.flags.count("--overwrite-gradients") > 0;
  opts.overwrite = a.flags.count("--overwrite") > 0;
  if (opts.overwrite && !opts.resume.empty())
    return errorf("--overwrite starts a new run and --resume continues one: give one of them");
  auto device = selectDevice(p, a);
  if (!device)
    return device.status();
  opts.device = *device;
  MODELRT_TRY(joinRanks(a, ranks, opts));
  opts.note = [&a](const std::string &note) { printNote(a, note); };
  startProfile(a);
  gStopRequested.store(false);
  opts.stop = &gStopRequested;
  StopOnSignals stopOnSignals(gStopRequested);
  auto r = trainProgram(p, cfg, opts);
  if (!r)
    return r.status();
  if (ranks.rank() != 0)
    return Status::ok();
  std::printf("trained %lld epochs (%lld steps); checkpoint %s/last.safetensors\n",
              (long long)r->epochs, (long long)r->steps, opts.checkpointDir.c_str());
  if (!r->deviceSummary.empty())
    printNote(a, r->deviceSummary);
  return finishProfile(p, a, "training");
}

Expected<ModelState> loadModel(const ModelrtProgram &p, const CliArgs &a, const std::string &path,
                               std::optional<uint64_t> *runSeed) {
  MODELRT_TRY(validateProgram(p));
  auto c = readCheckpoint(path);
  if (!c)
    return c.status();
  ModelState m = initModelState(p, 0);
  MODELRT_TRY(restoreModelState(m, *c, p, path));
  if (std::string note = modelsupport::otherModelNote(path, c->modelName, p.name ? p.name : "");
      !note.empty())
    printNote(a, note);
  if (runSeed)
    *runSeed = c->seed;
  return m;
}

static Status runEvalWith(const ModelrtProgram &p, const CliArgs &a, Collective &ranks);

Status runEval(const ModelrtProgram &p, const CliArgs &a) {
  return onRanks(a, [&](Collective &ranks) { return runEvalWith(p, a, ranks); });
}

/// `eval`; with several ranks, each evaluates its slice of every batch and
/// rank 0 prints the sums.
static Status runEvalWith(const ModelrtProgram &p, const CliArgs &a, Collective &ranks) {
  ModelrtTrainConfig cfg = p.config;
  std::vector<std::string> dataPaths;
  MODELRT_TRY(applyDataDir(cfg.data, a, dataPaths));
  int64_t threads;
  MODELRT_TRY(batchFlag(a, cfg.batch_size));
  MODELRT_TRY(applyThreads(p, a, threads));
  // The validation split is the one the checkpoint's run held out: its
  // seed chose the rows (a checkpoint without one: the compiled seed).
  std::optional<uint64_t> runSeed;
  auto m = loadModel(p, a, a.flags.at("--checkpoint"), &runSeed);
  if (!m)
    return m.status();
  cfg.seed = runSeed.value_or(cfg.seed);
  auto data = loadEvaluationData(p, cfg);
  if (!data)
    return data.status();
  const Dataset &set = *data;
  auto runner = selectRunner(p, a);
  if (!runner)
    return runner.status();
  startProfile(a);
  auto r = evaluateDataset(p, *m, set, cfg.batch_size, cfg.data.one_hot, runner->get(),
                           ranks.size() > 1 ? &ranks : nullptr);
  if (!r)
    return r.status();
  if (ranks.rank() != 0)
    return Status::ok();
  std::printf("eval on %s (%lld samples): loss %.6f", set.name.c_str(), (long long)r->samples,
              r->loss);
  for (int32_t i = 0; i < p.num_metrics; ++i)
    std::printf(" %s %.6f", p.metric_names[i], r->metrics[i]);
  std::printf("\n");
  return finishProfile(p, a, "evaluation");
}

} // namespace modelrt
