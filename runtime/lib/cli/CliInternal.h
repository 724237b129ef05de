//===- CliInternal.h - Parsed command lines and the subcommands -----------===//
//
// Declares what Cli.cpp (parsing, help, dispatch) shares with the files
// implementing the subcommands: CliCommands.cpp (train, eval),
// InfoCommand.cpp (info),
// Predict.cpp (predict), GenerateCommand.cpp (generate),
// GradCheckCommand.cpp (gradcheck), OutputPaths.cpp (outputs that would
// replace an input) and
// cuda/CheckDevice.cpp (check-device). Private to the runtime library.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_CLI_CLIINTERNAL_H
#define MODELRT_LIB_CLI_CLIINTERNAL_H

#include "modelrt/core/Device.h"
#include "modelrt/core/Model.h"
#include "modelrt/core/Program.h"
#include "modelrt/core/Status.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace modelrt {

/// One parsed command line.
struct CliArgs {
  std::string self;     ///< argv[0], for messages
  std::string command;
  std::map<std::string, std::string> flags;  ///< "--name" -> value ("" for switches)
  std::vector<std::string> positional;
};

/// Parses flag \p name as a number into \p out when present; \p positive
/// requires > 0 (else >= 0).
Status numberFlag(const CliArgs &args, const char *name, double &out, bool positive);
/// Parses \p name, when given, into \p out: decimal digits (a leading '+'
/// allowed) within int64_t, above 0 when \p positive.
Status integerFlag(const CliArgs &args, const char *name, int64_t &out, bool positive);
/// Parses \p flag, when given, into \p out as the train block parses its
/// option or setting \p option (modelsupport/TrainConfig.def): an integer
/// if it is one, in its range; the message names the values it takes.
Status trainFlag(const CliArgs &args, const char *flag, const char *option, double &out);
/// trainFlag for --batch: an integer in [1, 2^24].
Status batchFlag(const CliArgs &args, int64_t &out);
/// Reads option \p name, when given, as an unsigned 64-bit decimal (digits
/// only; a seed), exactly.
Status unsignedFlag(const CliArgs &args, const char *name, uint64_t &out);

/// Parses --memory SIZE (a positive number and B, KiB, MiB or GiB) into
/// \p bytes when present.
Status memoryFlag(const CliArgs &args, double &bytes);

/// Applies the configuration's flags (--epochs, --batch, --seed, --lr; those
/// the command takes) to \p config.
Status applyConfigFlags(const CliArgs &args, ModelrtTrainConfig &config);

/// Calls the program's set_threads hint when --threads was given.
Status applyThreads(const ModelrtProgram &program, const CliArgs &args, int64_t &threads);

/// Chooses the device from --device (chooseDevice) and prints its note
/// ("<self>: note: GPU: ..." or why the GPU is not used) on stderr.
Expected<Device> selectDevice(const ModelrtProgram &program, const CliArgs &args);

/// selectDevice, then the step runner for that device (eval, predict).
Expected<std::unique_ptr<StepRunner>> selectRunner(const ModelrtProgram &program,
                                                   const CliArgs &args);

/// Applies --data-dir DIR to \p data: every data file is looked for in DIR
/// under its own file name. \p storage owns the new paths. Fails when two
/// different files of the data block would become the same file in DIR.
Status applyDataDir(ModelrtDataConfig &data, const CliArgs &args,
                    std::vector<std::string> &storage);

/// Refuses an output file of \p args' command (predict --out, --roofline)
/// that is a file the command reads (an INPUT, --checkpoint, --resume, a
/// data file) or the executable: writing it would replace that file
/// (OutputPaths.cpp).
Status checkOutputsSpareInputs(const ModelrtProgram &program, const CliArgs &args);

/// The program's training configuration as a run sees it: --data-dir
/// applied (\p storage owns the new paths), then the configuration's flags.
Status runConfig(const ModelrtProgram &program, const CliArgs &args, ModelrtTrainConfig &config,
                 std::vector<std::string> &storage);

/// Validates the program and loads parameters and state from \p path (every
/// missing, unexpected or mis-shaped tensor is named; a checkpoint of a
/// model of another name whose tensors fit gets a note on stderr, after
/// \p args' program name: modelsupport/CheckpointModel.h); \p runSeed, when
/// given, receives the seed of the run that wrote it (empty if unrecorded).
Expected<ModelState> loadModel(const ModelrtProgram &program, const CliArgs &args,
                               const std::string &path, std::optional<uint64_t> *runSeed = nullptr);

Status runTrain(const ModelrtProgram &program, const CliArgs &args);
Status runEval(const ModelrtProgram &program, const CliArgs &args);
Status runInfo(const ModelrtProgram &program, const CliArgs &args);
Status runPredict(const ModelrtProgram &program, const CliArgs &args);
Status runCheckDevice(const ModelrtProgram &program, const CliArgs &args);
Status runGradCheck(const ModelrtProgram &program, const CliArgs &args);
/// `NAME plot` (PlotCommand.cpp).
Status runPlot(const ModelrtProgram &program, const CliArgs &args);
/// `NAME generate` (GenerateCommand.cpp).
Status runGenerate(const ModelrtProgram &program, const CliArgs &args);

} // namespace modelrt

#endif // MODELRT_LIB_CLI_CLIINTERNAL_H
