//===- Cli.cpp - modelrt_main: the compiled executable's command line ------===//
//
// Parses `NAME COMMAND [options] [inputs]` (docs/cli.md), prints the help of
// each subcommand, resolves --device, and dispatches to the subcommands.
// Exit status: 0 success, 1 a runtime error (message on stderr), 2 bad usage.
//
//===----------------------------------------------------------------------===//
#include "CliInternal.h"
#include "StopSignals.h"
#include "modelrt/core/Blas.h"
#include "modelrt/core/Rng.h"
#include "modelsupport/TrainSchema.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>

namespace modelrt {
namespace {

/// One option of a subcommand.
struct OptionSpec {
  const char *name;
  const char *value;  ///< placeholder; null for a switch
  const char *help;
};

/// One subcommand: its synopsis and options.
struct CommandSpec {
  const char *name, *synopsis, *summary;
  std::vector<OptionSpec> options;
};

const OptionSpec kDevice = {"--device", "auto|cpu|cuda", "where to run (default auto)"};
const OptionSpec kThreads = {"--threads", "N", "data-loader/prefetch threads, passed to the "
                                               "program as a hint"};
const OptionSpec kDataDir = {"--data-dir", "DIR", "read the data files from DIR (each under its "
                                                  "own file name) instead of their compiled-in "
                                                  "paths"};
const OptionSpec kBatch = {"--batch", "N", "batch size (default: the model's)"};
const OptionSpec kHelp = {"--help", nullptr, "show this help"};
const OptionSpec kProfile = {"--profile", nullptr,
                             "print the time per phase and per kernel (with GFLOP/s) at the end"};
const OptionSpec kRoofline = {"--roofline", "FILE.svg",
                              "also measure this CPU's FMA peak and memory bandwidth and write "
                              "the kernels' roofline to FILE.svg (implies --profile)"};

const std::vector<CommandSpec> &commands() {
  static const std::vector<CommandSpec> specs = {
      {"train",
       "train [options]",
       "train the model, writing checkpoints and logs",
       {{"--epochs", "N", "epochs to train (default: the model's)"},
        kBatch,
        {"--lr", "X", "base learning rate"},
        {"--seed", "S", "random seed"},
        kThreads,
        kDevice,
        kDataDir,
        {"--checkpoint-dir", "DIR", "where checkpoints go (default .)"},
        {"--out", "DIR", "same as --checkpoint-dir"},
        {"--resume", "PATH", "continue from a checkpoint"},
        {"--overwrite", nullptr,
         "start a new run where an earlier run's checkpoints and "
         "metrics logs are, deleting them (without it, train refuses)"},
        {"--log-dir", "DIR",
         "metrics.csv/.jsonl and TensorBoard events (default: the "
         "checkpoint dir)"},
        {"--keep", "N", "epoch checkpoints kept, 0 = all (default 3)"},
        {"--log-every", "N", "TensorBoard step scalars every N steps, 0 = off (default 50)"},
        {"--dump-gradients", "DIR",
         "write the first step's gradients to "
         "DIR/gradients.safetensors before training"},
        {"--overwrite-gradients", nullptr, "replace an existing DIR/gradients.safetensors"},
        kProfile,
        kRoofline,
        kHelp}},
      {"eval",
       "eval --checkpoint PATH [options]",
       "evaluate a checkpoint on the test set",
       {{"--checkpoint", "PATH", "the checkpoint to load (required)"},
        kBatch,
        kThreads,
        kDevice,
        kDataDir,
        kProfile,
        kRoofline,
        kHelp}},
      {"predict",
       "predict --checkpoint PATH [options] INPUT...",
       "classify PNG, IDX, NPY or CSV inputs",
       {{"--checkpoint", "PATH", "the checkpoint to load (required)"},
        {"--json", nullptr, "one JSON object per sample"},
        {"--out", "FILE.npy", "also write the outputs (one INPUT only)"},
        {"--png", "DIR",
         "write outputs of the input image's size (an autoencoder's) as "
         "DIR/INPUT-N.png"},
        kBatch,
        kThreads,
        kDevice,
        kHelp}},
      {"generate",
       "generate --checkpoint PATH [options]",
       "stream text from a language model trained on a text() source",
       {{"--checkpoint", "PATH", "the checkpoint to load (required)"},
        {"--prompt", "TEXT", "the text to continue (default: start a new line)"},
        {"--tokens", "N", "tokens to generate (default 200)"},
        {"--temperature", "T",
         "divides the logits; 0 always takes the most likely token "
         "(default 1)"},
        {"--top-k", "K", "draw among the K most likely tokens only, 0 = all (default 0)"},
        {"--seed", "S",
         "random seed of the draws (default 0): the same seed gives the same "
         "text"},
        {"--full-window", nullptr,
         "run the whole window for every token, not the compiled "
         "decoding step with its key/value cache"},
        kThreads,
        kDevice,
        kHelp}},
      {"info",
       "info [options]",
       "parameters, layers, FLOPs and memory plans of the model",
       {kBatch,
        {"--memory", "SIZE",
         "print the largest batch whose training fits in SIZE (B, KiB, "
         "MiB or GiB, e.g. 8GiB; default: this machine's RAM)"},
        kHelp}},
      {"check-device",
       "check-device [options]",
       "run training steps on the CPU and the GPU and compare every result",
       {kBatch,
        {"--steps", "N", "optimizer steps compared at the end (default 20)"},
        {"--tolerance", "X",
         "largest difference, relative to each tensor's largest "
         "magnitude (default 1e-3)"},
        kDataDir,
        kHelp}},
      {"plot",
       "plot [options]",
       "draw the loss, metric and learning-rate curves of a run's metrics.csv as SVG files",
       {{"--log-dir", "DIR", "where the run's metrics.csv is (default: .)"},
        {"--out", "DIR", "where loss.svg, METRIC.svg and lr.svg go (default: the log dir)"},
        kHelp}},
      {"gradcheck",
       "gradcheck [options]",
       "compare every parameter's compiled gradient with f32 central finite differences of "
       "the loss on one batch (exit status 1 when one differs)",
       {{"--checkpoint", "PATH",
         "the parameters to check at (default: the initialisation "
         "with the seed)"},
        {"--batch", "N",
         "samples in the batch: the training set's first N (default: the "
         "model's batch size)"},
        {"--seed", "S", "random seed: initialisation and dropout (default: the model's)"},
        {"--samples", "K", "elements checked per parameter tensor at most (default 32)"},
        {"--tolerance", "X", "largest relative error that passes (default 1e-2)"},
        kDataDir,
        kHelp}}};
  return specs;
}

void printUsage(FILE *f, const char *self) {
  std::fprintf(f, "usage:\n");
  for (const CommandSpec &c : commands())
    std::fprintf(f, "  %s %s\n", self, c.synopsis);
  std::fprintf(f, "  %s COMMAND --help\n", self);
}

void printCommandHelp(const char *self, const CommandSpec &c) {
  std::printf("usage: %s %s\n\n%s.\n\noptions:\n", self, c.synopsis, c.summary);
  for (const OptionSpec &o : c.options) {
    std::string left = std::string(o.name) + (o.value ? std::string(" ") + o.value : "");
    std::printf("  %-28s %s\n", left.c_str(), o.help);
  }
}

const OptionSpec *findOption(const CommandSpec &c, const std::string &name) {
  for (const OptionSpec &o : c.options)
    if (name == o.name)
      return &o;
  return nullptr;
}

/// Whether an option's value \p metavar names a file or directory.
static bool namesFile(const char *metavar) {
  std::string v = metavar;
  return v.find("DIR") != std::string::npos || v.find("PATH") != std::string::npos ||
         v.find("FILE") != std::string::npos;
}

Expected<CliArgs> parseArgs(int argc, char **argv, const CommandSpec &spec) {
  CliArgs a;
  a.self = argc > 0 ? argv[0] : "model";
  a.command = spec.name;
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i], value;
    if (arg.rfind("--", 0) != 0 || arg == "--") {
      a.positional.push_back(arg);
      continue;
    }
    size_t eq = arg.find('=');
    bool inlineValue = eq != std::string::npos;
    if (inlineValue)
      value = arg.substr(eq + 1), arg = arg.substr(0, eq);
    const OptionSpec *o = findOption(spec, arg);
    if (!o)
      return errorf("unknown option '%s' for '%s' (see '%s %s --help')", arg.c_str(), spec.name,
                    argv[0], spec.name);
    if (o->value && !inlineValue) {
      if (i + 1 >= argc)
        return errorf("option '%s' needs a value (%s)", arg.c_str(), o->value);
      value = argv[++i];
    } else if (!o->value && inlineValue) {
      return errorf("option '%s' takes no value", arg.c_str());
    }
    if (o->value && value.empty() && namesFile(o->value))
      return errorf("option '%s' needs a value (%s), not an empty one", arg.c_str(), o->value);
    if (!a.flags.emplace(arg, value).second)
      return errorf("option '%s' is given twice", arg.c_str());
  }
  return a;
}

Status checkArgs(CliArgs &a) {
  if (a.flags.count("--out") && a.command == "train" &&
      !a.flags.emplace("--checkpoint-dir", a.flags["--out"]).second)
    return errorf("'--out' is another name for '--checkpoint-dir': give one of them");
  if ((a.command == "eval" || a.command == "predict" || a.command == "generate") &&
      !a.flags.count("--checkpoint"))
    return errorf("'%s' needs --checkpoint PATH", a.command.c_str());
  if (a.command == "predict" && a.positional.empty())
    return errorf("'predict' needs at least one INPUT file");
  if (a.command != "predict" && !a.positional.empty())
    return errorf("unexpected argument '%s'", a.positional[0].c_str());
  if (a.flags.count("--overwrite-gradients") && !a.flags.count("--dump-gradients"))
    return errorf("option '--overwrite-gradients' needs --dump-gradients DIR");
  return Status::ok();
}

/// Checks the spelling of --device (the choice itself is made later, by
/// chooseDevice, once the command is known to need a device).
Status checkDeviceFlag(const CliArgs &a) {
  auto it = a.flags.find("--device");
  if (it == a.flags.end() || it->second == "auto" || it->second == "cpu" ||
      it->second == "cuda")
    return Status::ok();
  return errorf("--device '%s': expected auto, cpu or cuda", it->second.c_str());
}

} // namespace

Status numberFlag(const CliArgs &a, const char *name, double &out, bool positive) {
  auto it = a.flags.find(name);
  if (it == a.flags.end())
    return Status::ok();
  char *end = nullptr;
  double v = std::strtod(it->second.c_str(), &end);
  if (it->second.empty() || *end || !std::isfinite(v) || (positive ? !(v > 0) : !(v >= 0)))
    return errorf("option %s: invalid value '%s' (expected a %s number)", name,
                  it->second.c_str(), positive ? "positive" : "non-negative");
  out = v;
  return Status::ok();
}

Status integerFlag(const CliArgs &a, const char *name, int64_t &out, bool positive) {
  auto it = a.flags.find(name);
  if (it == a.flags.end())
    return Status::ok();
  // Decimal digits, a '+' allowed: no space, no exponent, no hexadecimal.
  const std::string &text = it->second;
  const char *first = text.c_str() + (!text.empty() && text[0] == '+');
  const char *last = text.c_str() + text.size();
  int64_t v = 0;
  auto [end, ec] = std::from_chars(first, last, v);
  if (text.empty() || *first == '-' || *first == '+' || ec != std::errc() || end != last ||
      (positive && v == 0))
    return errorf("option %s: invalid value '%s' (expected a %s integer)", name, text.c_str(),
                  positive ? "positive" : "non-negative");
  out = v;
  return Status::ok();
}

/// The train block's option or setting \p name: whether it is an integer,
/// and its valid values (every optimizer's `lr` has the same).
static std::pair<bool, const modelsupport::Range *> trainValues(const char *name) {
  using modelsupport::SettingType;
  for (const modelsupport::OptionInfo &o : modelsupport::kOptions)
    if (std::strcmp(o.name, name) == 0)
      return {o.type == SettingType::Integer, &o.range};
  for (const modelsupport::SettingInfo &s : modelsupport::kSettings)
    if (std::strcmp(s.name, name) == 0)
      return {s.type == SettingType::Integer, &s.range};
  std::fprintf(stderr, "modelrt: no train option or setting '%s'\n", name);
  std::abort(); // a flag table naming an option that does not exist
}

Status trainFlag(const CliArgs &a, const char *flag, const char *option, double &out) {
  auto it = a.flags.find(flag);
  if (it == a.flags.end())
    return Status::ok();
  auto [integer, range] = trainValues(option);
  const std::string &text = it->second;
  // The train block's literals: an integer is digits (a sign allowed); a
  // number is decimal, not hexadecimal, with no space around it.
  bool wellFormed = !text.empty() && !std::isspace(static_cast<unsigned char>(text[0])) &&
                    text.find_first_of("xX") == std::string::npos &&
                    (!integer || text.find_first_not_of("0123456789", text[0] == '+' ||
                                                                          text[0] == '-')
                                     == std::string::npos);
  char *end = nullptr;
  double v = wellFormed ? std::strtod(text.c_str(), &end) : 0;
  if (!wellFormed || *end || !std::isfinite(v) || !range->contains(v) ||
      (integer && std::fabs(v) > 9.0e15))
    return errorf("option %s: invalid value '%s' (expected %s)", flag, it->second.c_str(),
                  range->text);
  out = v;
  return Status::ok();
}

Status batchFlag(const CliArgs &a, int64_t &out) {
  double v = double(out);
  MODELRT_TRY(trainFlag(a, "--batch", "batch", v));
  out = int64_t(v);
  return Status::ok();
}

Status unsignedFlag(const CliArgs &a, const char *name, uint64_t &out) {
  auto it = a.flags.find(name);
  if (it != a.flags.end() && !parseSeed(it->second, out))
    return errorf("option %s: invalid value '%s' (expected an integer in [0, %llu])", name,
                  it->second.c_str(), (unsigned long long)UINT64_MAX);
  return Status::ok();
}

Status applyThreads(const ModelrtProgram &p, const CliArgs &a, int64_t &threads) {
  threads = 0;
  if (!a.flags.count("--threads"))
    return Status::ok();
  MODELRT_TRY(integerFlag(a, "--threads", threads, true));
  if (threads > 1024)
    return errorf("option --threads: %lld is more than 1024", (long long)threads);
  if (p.set_threads)
    p.set_threads(p.context, int32_t(threads));
  return Status::ok();
}

} // namespace modelrt

namespace {
/// modelrt_main without its exception guard.
int runMain(int argc, char **argv, const ModelrtProgram *program, const char *self) {
  using namespace modelrt;
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "help")) {
    printUsage(argc < 2 ? stderr : stdout, self);
    if (argc < 2)
      std::fprintf(stderr, "%s: error: missing command\n", self);
    return argc < 2 ? 2 : 0;
  }
  auto spec = std::find_if(commands().begin(), commands().end(),
                           [&](const CommandSpec &c) { return !std::strcmp(c.name, argv[1]); });
  if (spec == commands().end()) {
    std::fprintf(stderr, "%s: error: unknown command '%s'\n", self, argv[1]);
    printUsage(stderr, self);
    return 2;
  }
  auto args = parseArgs(argc, argv, *spec);
  if (args && args->flags.count("--help")) {
    printCommandHelp(self, *spec);
    return 0;
  }
  Status usage = args ? checkArgs(*args) : args.status();
  if (usage.isOk())
    usage = checkDeviceFlag(*args);
  if (!usage.isOk()) {
    std::fprintf(stderr, "%s: error: %s\n", self, usage.message().c_str());
    std::fprintf(stderr, "see '%s %s --help'\n", self, spec->name);
    return 2;
  }
  if (!program) {
    std::fprintf(stderr, "%s: error: no program\n", self);
    return 1;
  }
  const std::string &c = args->command;
  // A file-size limit makes a write fail with EFBIG, which the writers
  // report (keeping the previous file), instead of killing the process.
  std::signal(SIGXFSZ, SIG_IGN);
  // Training stops on SIGINT and SIGTERM after its step in progress: they
  // are taken by a thread of their own, blocked in every other thread from
  // here on, before any starts (StopSignals.h).
  if (c == "train")
    takeStopSignals();
  // OpenBLAS, with the CPU's own kernels and one thread (Blas.h), before
  // any computing thread starts: loading it edits the environment for a
  // moment (the signal thread of `train` reads none of it).
  Status s = checkOutputsSpareInputs(*program, *args);
  if (s.isOk() && c != "info" && c != "check-device")
    s = loadBlas();
  if (s.isOk())
    s = c == "train"  ? runTrain(*program, *args)
             : c == "eval" ? runEval(*program, *args)
             : c == "info" ? runInfo(*program, *args)
             : c == "check-device" ? runCheckDevice(*program, *args)
             : c == "gradcheck" ? runGradCheck(*program, *args)
             : c == "plot" ? runPlot(*program, *args)
             : c == "generate" ? runGenerate(*program, *args)
                           : runPredict(*program, *args);
  if (s.isOk() && (std::fflush(stdout) != 0 || std::ferror(stdout)))
    s = errorf("cannot write the results to standard output: %s",
               std::strerror(errno ? errno : EIO));
  if (!s.isOk()) {
    std::fprintf(stderr, "%s: error: %s\n", self, s.message().c_str());
    return 1;
  }
  return 0;
}
} // namespace

/// Runs a command; an exception that escapes it (out of memory, or any
/// std::exception) is reported as an error with exit status 1, not an abort.
extern "C" int modelrt_main(int argc, char **argv, const ModelrtProgram *program) {
  const char *self = argc > 0 ? argv[0] : "model";
  try {
    return runMain(argc, argv, program, self);
  } catch (const std::bad_alloc &) {
    std::fprintf(stderr, "%s: error: out of memory\n", self);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "%s: error: internal error: %s\n", self, e.what());
  } catch (...) {
    std::fprintf(stderr, "%s: error: internal error: unknown exception\n", self);
  }
  return 1;
}
