//===- modelc.cpp - The modelc compiler driver ----------------------------===//
//
// `modelc FILE.model [-o OUT] [--emit=STAGE] [-I DIR]... [-O0..3]
// [--target-cpu=CPU] [--no-main] [--precision=f32|bf16|tf32]
// [--batch-norm=sync|local]`: reads the source, runs the pipeline
// stages (Stages.h) up to the requested one and prints its product; without
// --emit it links an executable (-o, default: the input's name without
// .model). `modelc fmt ...` formats files instead (FormatCommand.h), `modelc
// lsp` runs the language server (LspCommand.h). Exit
// codes: 0 success, 1 user error (bad source, missing file, bad option), 2
// internal error (fatal error or crash inside the compiler).
//
//===----------------------------------------------------------------------===//

#include "FormatCommand.h"
#include "LibraryStage.h"
#include "LspCommand.h"
#include "OutputFile.h"
#include "Stages.h"

#include "modelc/Frontend/Lexer.h"
#include "modelc/Frontend/SearchPath.h"
#include "modelc/Frontend/SourceFile.h"
#include "modelc/Target/Linker.h"
#include "modelsupport/Precision.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/WithColor.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <new>
#include <unistd.h>

using namespace modelc;
namespace cl = llvm::cl;

static constexpr const char *kVersion = MODELC_VERSION;
static constexpr const char *kBugMessage =
    "PLEASE report this bug to the modelc developers with the input file and "
    "the command line (modelc " MODELC_VERSION ").\n";

namespace {
/// The command-line options (constructed in main, after the help texts).
struct Options {
  cl::OptionCategory category{"modelc options"};
  cl::opt<std::string> input{cl::Positional, cl::desc("<input .model file>"),
                             cl::cat(category)};
  cl::opt<std::string> output{"o", cl::desc("Write the output to <file>"),
                              cl::value_desc("file"), cl::init("-"),
                              cl::cat(category)};
  /// Owns the --emit help text (cl::desc keeps only a reference).
  std::string emitHelp;
  cl::opt<std::string> emit;
  cl::list<std::string> includeDirs{
      "I", cl::Prefix,
      cl::desc("Search <dir> for imported modules (before the stdlib)"),
      cl::value_desc("dir"), cl::cat(category)};
  cl::opt<bool> printImportPath{
      "print-import-path",
      cl::desc("Print the import search path, one directory per line"),
      cl::cat(category)};
  cl::opt<unsigned> optLevel{
      "O", cl::Prefix, cl::init(3),
      cl::desc("Optimisation level of the generated code: -O0..-O3 "
               "(default -O3)"),
      cl::cat(category)};
  cl::opt<std::string> targetCpu{
      "target-cpu",
      cl::desc("Generate code for <cpu> (e.g. x86-64-v3, znver4; default: "
               "the host CPU)"),
      cl::value_desc("cpu"), cl::cat(category)};
  cl::opt<bool> noMain{
      "no-main",
      cl::desc("Do not define main: the object exports modelc_program "
               "for a host program"),
      cl::cat(category)};
  cl::opt<bool> noGpu{
      "no-gpu",
      cl::desc("Leave out the GPU (CUDA) code: the executable runs on the "
               "CPU only (smaller, faster to compile)"),
      cl::cat(category)};
  cl::opt<std::string> precision{
      "precision",
      cl::desc("Train at <precision>, overriding the train block's "
               "`precision`: f32, bf16 or tf32 (`--emit=sema` and the "
               "executable's `info` say what each computes in which type; "
               "docs/precision.md)"),
      cl::value_desc("precision"), cl::cat(category)};
  cl::opt<std::string> gpuConv{
      "gpu-conv", cl::init("cudnn"),
      cl::desc("How the GPU code convolves: cudnn (the runtime loads cuDNN "
               "9, default) or im2col (im2col + cuBLAS products, no cuDNN)"),
      cl::value_desc("mode"), cl::cat(category)};
  cl::opt<std::string> batchNorm{
      "batch-norm",
      cl::desc("Batch norm's training statistics under mpirun, overriding "
               "the train block's `batch_norm`: sync (over the global "
               "batch) or local (each rank's slice)"),
      cl::value_desc("mode"), cl::cat(category)};
  cl::opt<bool> debugGpuEmulation{
      "debug-gpu-emulation", cl::Hidden,
      cl::desc("Test hook: the CPU entry points run the GPU kernels' code "
               "emulated on the CPU (implies --no-gpu)"),
      cl::cat(category)};
  cl::opt<bool> debugGpuEmulationCudaProducts{
      "debug-gpu-emulation-cuda-products", cl::Hidden,
      cl::desc("Test hook: with --debug-gpu-emulation, the products call the "
               "GPU's cuBLAS entry points on host memory (run it on the fake "
               "CUDA driver)"),
      cl::cat(category)};
  cl::opt<unsigned> debugMaxBlockInstructions{
      "debug-max-block-instructions", cl::Hidden,
      cl::init(modelc::CodeSplitLimits().maxBlockInstructions),
      cl::desc("Test hook: the most instructions per basic block that "
               "instruction selection sees"),
      cl::cat(category)};
  cl::opt<unsigned> debugMaxFunctionInstructions{
      "debug-max-function-instructions", cl::Hidden,
      cl::init(modelc::CodeSplitLimits().maxFunctionInstructions),
      cl::desc("Test hook: the most instructions per function that register "
               "allocation sees"),
      cl::cat(category)};
  cl::opt<std::string> checkpoint{
      "checkpoint",
      cl::desc("--emit=onnx: the trained weights (a .safetensors "
               "checkpoint)"),
      cl::value_desc("file"), cl::cat(category)};
  cl::opt<bool> noInputTransform{
      "no-input-transform",
      cl::desc("--emit=onnx: leave the data block's input transform out of "
               "the graph (it then takes transformed samples)"),
      cl::cat(category)};
  cl::opt<std::string> debugInternalError{
      "debug-internal-error", cl::Hidden,
      cl::desc("Test hook: simulate an internal error (fatal|crash)"),
      cl::cat(category)};

  explicit Options(std::string help)
      : emitHelp(std::move(help)),
        emit("emit", cl::desc(emitHelp), cl::value_desc("stage"),
             cl::cat(category)) {}
};
} // namespace

static void printVersion(llvm::raw_ostream &os) {
  os << "modelc " << kVersion << "\n"
     << "  LLVM version " << LLVM_VERSION_STRING << "\n";
}

static std::string buildEmitHelp() {
  std::string help = "Stop after a stage and print its output:";
  for (const Stage &stage : getStages())
    help += std::string("\n    ") + stage.name + ": " + stage.description;
  return help;
}

/// Prints "modelc: error: <message>" and returns the user-error exit code.
static int userError(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "modelc") << message << "\n";
  return 1;
}

/// The input file's name for the out-of-memory handlers ("" before it is
/// known).
static std::string gInputName;

/// Reports an exhausted memory as a user error about the input (a shape or
/// program too large for this machine) and exits with 1; it allocates nothing.
[[noreturn]] static void reportOutOfMemory(const char *reason) {
  static const char head[] = "modelc: error: ";
  static const char tail[] = ": out of memory while compiling (the program's "
                             "shapes or size exceed this machine's memory)";
  (void)!::write(2, head, sizeof(head) - 1);
  const char *name = gInputName.empty() ? "<input>" : gInputName.c_str();
  (void)!::write(2, name, std::strlen(name));
  (void)!::write(2, tail, sizeof(tail) - 1);
  if (reason && *reason) {
    (void)!::write(2, ": ", 2);
    (void)!::write(2, reason, std::strlen(reason));
  }
  (void)!::write(2, "\n", 1);
  std::_Exit(1);
}

static void installCrashHandlers() {
  llvm::setBugReportMsg(kBugMessage);
  llvm::install_fatal_error_handler(
      [](void *, const char *reason, bool) {
        if (llvm::StringRef(reason).contains("out of memory"))
          reportOutOfMemory(reason);
        llvm::errs() << "modelc: internal error: " << reason << "\n"
                     << kBugMessage;
        llvm::errs().flush();
        std::_Exit(2);
      },
      nullptr);
  llvm::install_bad_alloc_error_handler(
      [](void *, const char *reason, bool) { reportOutOfMemory(reason); },
      nullptr);
  std::set_new_handler([] { reportOutOfMemory("operator new failed"); });
  // Runs after LLVM's stack-trace printer; turns a crash into exit code 2.
  llvm::sys::AddSignalHandler(
      [](void *) {
        static const char msg[] = "modelc: internal error: the compiler "
                                  "crashed\n";
        // LLVM's handler has already printed kBugMessage and a stack dump.
        (void)!::write(2, msg, sizeof(msg) - 1);
        std::_Exit(2);
      },
      nullptr);
}

static void triggerInternalError(llvm::StringRef kind) {
  if (kind == "fatal")
    llvm::report_fatal_error("simulated internal error "
                             "(--debug-internal-error=fatal)");
  if (kind == "crash")
    std::raise(SIGSEGV);
}

/// What \p output is among the files the compilation read (the source, a
/// module it imports, a data file, the checkpoint of --emit=onnx), or ""
/// when it is none of them: writing it would replace that file.
static std::string inputNamedBy(const Compilation &c, llvm::StringRef output) {
  auto same = [&](llvm::StringRef path) {
    bool result = false;
    return !path.empty() && !llvm::sys::fs::equivalent(output, path, result) &&
           result;
  };
  for (unsigned id = 1; id <= c.sourceMgr.getNumBuffers(); ++id)
    if (same(c.sourceMgr.getMemoryBuffer(id)->getBufferIdentifier()))
      return id == c.mainBuffer ? "the source file" : "a module it imports";
  if (c.program && c.program->data)
    for (const auto *split : {&c.program->data->train, &c.program->data->test})
      for (const std::string &path :
           *split ? (*split)->paths : std::vector<std::string>())
        if (same(path))
          return "a data file of the model";
  if (same(c.exportSettings.checkpoint))
    return "the checkpoint it reads (--checkpoint)";
  return "";
}

/// Refuses an output path naming an input (inputNamedBy); \p named: it is
/// -o's, else the default executable name.
static bool outputSparesInputs(const Compilation &c, llvm::StringRef output,
                               bool named) {
  std::string input = inputNamedBy(c, output);
  if (input.empty())
    return true;
  if (named)
    userError("-o " + output + " is " + input +
              ": write the output to another file");
  else
    userError("the default output '" + output + "' is " + input +
              ": name another with -o");
  return false;
}

/// Runs the stages up to `target` (all of them when null) and writes
/// `outputPath` (-o's when `named`, else the default executable name).
static int runPipeline(Compilation &c, const Stage *target,
                       llvm::StringRef outputPath, bool named) {
  for (const Stage &stage : getStages()) {
    bool isTarget = target == &stage;
    if (stage.run && (!stage.branch || isTarget) && !stage.run(c))
      return 1;
    if (!isTarget)
      continue;
    if (!outputSparesInputs(c, outputPath, named))
      return 1;
    if (stage.write)
      return stage.write(c, outputPath) ? 0 : 1;
    return writeOutput(
        outputPath, [&](llvm::raw_ostream &os) { return stage.emit(c, os); },
        userError);
  }
  if (!outputSparesInputs(c, outputPath, named))
    return 1;
  return linkProgramExecutable(c, outputPath) ? 0 : 1;
}

/// The executable's default name: the input's file name without `.model`
/// (`a.out` for standard input), in the current directory.
static std::string defaultExecutableName(llvm::StringRef input) {
  if (input == "-")
    return "a.out";
  std::string stem = llvm::sys::path::stem(input).str();
  return stem.empty() ? "a.out" : stem;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  installCrashHandlers();
  // Past a file-size limit a write fails with EFBIG, reported as the
  // user's error, instead of the signal killing the compiler.
  std::signal(SIGXFSZ, SIG_IGN);
  if (argc >= 2 && llvm::StringRef(argv[1]) == "fmt")
    return runFormatCommand(argc, argv);
  if (argc >= 2 && llvm::StringRef(argv[1]) == "lsp")
    return runLspCommand(argc, argv);
  Options opts(buildEmitHelp());
  cl::HideUnrelatedOptions(opts.category);
  cl::SetVersionPrinter(printVersion);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "modelc: compiles a .model file (network, "
                                   "data, training) into an executable\n"
                                   "(`modelc fmt --help`: the formatter; `modelc lsp --help`: the "
                                   "language server)\n",
                                   &llvm::errs()))
    return 1;
  triggerInternalError(opts.debugInternalError);
  if (opts.optLevel > 3)
    return userError("-O" + llvm::Twine(opts.optLevel) +
                     ": the optimisation level must be 0, 1, 2 or 3");

  Compilation c;
  std::string exe = llvm::sys::fs::getMainExecutable(
      argv[0], reinterpret_cast<void *>(&printVersion));
  c.importPath = getImportSearchPath(opts.includeDirs, exe);
  c.numIncludeDirs = opts.includeDirs.size();
  c.codegenSettings.optLevel = opts.optLevel;
  c.codegenSettings.targetCpu = opts.targetCpu;
  c.codegenSettings.emitMain = !opts.noMain;
  c.codegenSettings.gpu = !opts.noGpu && !opts.debugGpuEmulation;
  c.codegenSettings.emulateGpu = opts.debugGpuEmulation;
  c.codegenSettings.emulateCudaProducts = opts.debugGpuEmulationCudaProducts;
  c.codegenSettings.split = {opts.debugMaxBlockInstructions,
                             opts.debugMaxFunctionInstructions};
  c.codegenSettings.runtimeLibDir = getRuntimeLibDir(exe);
  c.exportSettings.checkpoint = opts.checkpoint;
  c.exportSettings.includeTransform = !opts.noInputTransform;
  c.exportSettings.version = kVersion;
  if (opts.printImportPath) {
    for (const std::string &dir : c.importPath)
      llvm::outs() << dir << "\n";
    return 0;
  }

  if (opts.precision.getNumOccurrences()) {
    if (!modelsupport::isTrainingPrecision(opts.precision.getValue()))
      return userError(
          "unknown --precision value '" + opts.precision + "': " +
          modelsupport::whyNotTrainingPrecision(opts.precision.getValue()));
    c.precisionOverride = opts.precision;
  }
  if (opts.gpuConv != "cudnn" && opts.gpuConv != "im2col")
    return userError("unknown --gpu-conv value '" + opts.gpuConv +
                     "' (valid values: cudnn, im2col)");
  c.codegenSettings.cudnnConvolutions = opts.gpuConv == "cudnn";
  if (opts.batchNorm.getNumOccurrences()) {
    if (opts.batchNorm != "sync" && opts.batchNorm != "local")
      return userError("unknown --batch-norm value '" + opts.batchNorm +
                       "' (valid values: sync, local)");
    c.batchNormOverride = opts.batchNorm;
  }
  const Stage *target = nullptr;
  if (opts.emit.getNumOccurrences() &&
      !(target = findStage(opts.emit)))
    return userError("unknown --emit value '" + opts.emit +
                     "' (valid values: " + listStageNames() + ")");
  if (opts.input.empty())
    return userError("no input file (usage: modelc FILE.model [options]; "
                     "see --help)");

  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      readSourceFile(opts.input);
  if (!buffer)
    return userError("cannot read '" + opts.input +
                     "': " + llvm::toString(buffer.takeError()));
  c.inputName = opts.input;
  gInputName = opts.input == "-" ? std::string("<stdin>") : opts.input;
  c.mainBuffer = c.sourceMgr.AddNewSourceBuffer(
      withoutByteOrderMark(std::move(*buffer)), llvm::SMLoc());
  if (target && llvm::StringRef(target->name) == "lib") {
    // A library: no main, the NAME_* API, CPU code only.
    if (opts.output == "-")
      return userError("--emit=lib writes a file: -o libNAME.a or "
                       "-o libNAME.so");
    c.codegenSettings.emitMain = false;
    c.codegenSettings.gpu = false;
    c.codegenSettings.libraryPrefix = libraryPrefix(opts.output);
  }
  std::string output = opts.output;
  bool named = output != "-";
  if (!target && !named)
    output = defaultExecutableName(opts.input);
  return runPipeline(c, target, output, named || target);
}
