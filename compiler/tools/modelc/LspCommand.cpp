//===- LspCommand.cpp - The `modelc lsp` subcommand -----------------------===//
//
// Parses the subcommand's options and runs the language server on standard
// input and output, or the keystroke benchmark (modelc/Lsp/Bench.h), whose
// times it prints in milliseconds: minimum, median, 90th percentile,
// maximum.
//
//===----------------------------------------------------------------------===//

#include "LspCommand.h"

#include "modelc/Frontend/SearchPath.h"
#include "modelc/Lsp/Server.h"

#include "modelc/Lsp/Bench.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/WithColor.h"

using namespace modelc;
namespace cl = llvm::cl;

namespace {
/// The options of `modelc lsp`.
struct LspCommandOptions {
  cl::OptionCategory category{"modelc lsp options"};
  cl::list<std::string> includeDirs{
      "I", cl::Prefix,
      cl::desc("Search <dir> for imported modules (before the stdlib)"),
      cl::value_desc("dir"), cl::cat(category)};
  cl::opt<bool> litTest{
      "lit-test",
      cl::desc("Read messages separated by `// -----` lines instead of "
               "Content-Length headers, print replies indented, and analyse "
               "changes at once (for tests)"),
      cl::cat(category)};
  cl::opt<unsigned> debounceMs{
      "debounce-ms", cl::init(150),
      cl::desc("Re-analyse a changed document after <ms> without further "
               "changes (default 150)"),
      cl::value_desc("ms"), cl::cat(category)};
  cl::opt<std::string> bench{
      "bench",
      cl::desc("Measure the re-analysis of <file> after a keystroke and "
               "exit"),
      cl::value_desc("file"), cl::cat(category)};
  cl::opt<unsigned> benchRuns{"bench-runs", cl::init(50),
                              cl::desc("Keystrokes the benchmark times"),
                              cl::cat(category)};
};
} // namespace

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "modelc") << message << "\n";
  return 1;
}

static int runBenchmark(const LspCommandOptions &opts,
                        const lsp::AnalysisOptions &analysis) {
  llvm::Expected<lsp::KeystrokeTimes> t =
      lsp::measureKeystrokes(opts.bench, opts.benchRuns, analysis);
  if (!t)
    return fail(llvm::toString(t.takeError()));
  llvm::outs() << llvm::formatv(
      "{0}: {1} keystrokes, re-analysis in ms: min {2:f1}, median {3:f1}, "
      "p90 {4:f1}, max {5:f1} ({6} diagnostics, {7} inlay hints)\n",
      opts.bench, t->milliseconds.size(), t->quantile(0), t->quantile(0.5),
      t->quantile(0.9), t->quantile(1), t->diagnostics, t->inlayHints);
  return 0;
}

int runLspCommand(int argc, char **argv) {
  LspCommandOptions opts;
  cl::HideUnrelatedOptions(opts.category);
  std::vector<const char *> args{"modelc lsp"};
  args.insert(args.end(), argv + 2, argv + argc);
  if (!cl::ParseCommandLineOptions(
          args.size(), args.data(),
          "modelc lsp: the language server (LSP over standard input and "
          "output)\n",
          &llvm::errs()))
    return 1;
  std::string exe = llvm::sys::fs::getMainExecutable(
      argv[0], reinterpret_cast<void *>(&runLspCommand));
  lsp::ServerOptions options;
  options.analysis.importPath = getImportSearchPath(opts.includeDirs, exe);
  options.analysis.numIncludeDirs = opts.includeDirs.size();
  options.litTest = opts.litTest;
  options.debounceMs = opts.debounceMs;
  if (!opts.bench.empty())
    return runBenchmark(opts, options.analysis);
  return lsp::runServer(options, stdin, llvm::outs());
}
