//===- Stages.h - The modelc driver's pipeline of stages --------*- C++ -*-===//
//
// The driver runs a fixed list of stages in order (tokens, ast; later sema,
// mlir, grad, fused, llvm, obj, exe). Each stage may advance the Compilation
// (run) and may print its product for `--emit=<stage>` (emit). A new stage
// plugs in by adding one entry to the table in Stages.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_TOOLS_MODELC_STAGES_H
#define MODELC_TOOLS_MODELC_STAGES_H

#include "CodegenStages.h"
#include "ExportStages.h"

#include "modelc/Frontend/AST.h"
#include "modelc/Frontend/Diagnostics.h"
#include "modelc/Sema/Program.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace modelc {

/// State of the stages after `mlir` (defined in CodegenStages.cpp).
struct CodegenState;

/// Everything one compilation has produced so far.
struct Compilation;

/// Starts a driver error about the input: prints "modelc: error: <file>: "
/// and returns the stream for the message (which ends with a newline).
llvm::raw_ostream &inputError(const Compilation &c);

struct Compilation {
  llvm::SourceMgr sourceMgr;
  DiagnosticEngine diags{sourceMgr};
  /// Buffer id of the main input file.
  unsigned mainBuffer = 0;
  /// The input file's name as given on the command line ("-": stdin).
  std::string inputName;
  /// Directories searched by `import` (-I dirs, then the stdlib).
  std::vector<std::string> importPath;
  /// How many leading entries of importPath are -I directories (the rest is
  /// the stdlib directory); semantic analysis searches the importing file's
  /// directory between the two.
  size_t numIncludeDirs = 0;
  /// `--precision`: replaces the train block's precision after semantic
  /// analysis (empty: the block's own).
  std::string precisionOverride;
  /// `--batch-norm`: replaces the train block's batch_norm likewise.
  std::string batchNormOverride;
  /// The parsed main module (after the `ast` stage).
  std::unique_ptr<Module> module;
  /// The checked program (after the `sema` stage).
  std::unique_ptr<sema::Program> program;
  /// The MLIR context and the generated mdl module (after `mlir`).
  std::unique_ptr<mlir::MLIRContext> mlirContext;
  mlir::OwningOpRef<mlir::ModuleOp> mlirModule;
  /// Code generation settings from the command line (-O, --target-cpu...).
  CodegenSettings codegenSettings;
  /// The stages after `mlir`: the training compiler and the LLVM module.
  std::shared_ptr<CodegenState> codegen;
  /// Settings of the export stages (--checkpoint...) and their product.
  ExportSettings exportSettings;
  std::string exported;
};

/// One step of the pipeline.
struct Stage {
  /// The `--emit=` name.
  const char *name;
  /// One line for `--help`.
  const char *description;
  /// What the pipeline has done once this stage ran ("parsing").
  const char *doneWhat;
  /// Advances the compilation; false after reporting errors. May be null for
  /// stages that only observe (e.g. `tokens`).
  bool (*run)(Compilation &);
  /// Prints the stage's product; false after reporting errors.
  bool (*emit)(Compilation &, llvm::raw_ostream &);
  /// Writes the stage's product to the -o path itself (a library and its
  /// header) instead of printing it; false after reporting errors.
  bool (*write)(Compilation &, llvm::StringRef outputPath) = nullptr;
  /// A branch off the pipeline (an export): its run happens only when it is
  /// the requested stage, and later stages do not depend on it.
  bool branch = false;
};

/// The stages in pipeline order.
llvm::ArrayRef<Stage> getStages();

/// The stage called `name`, or nullptr.
const Stage *findStage(llvm::StringRef name);

/// "tokens, ast" — the valid `--emit=` values, for messages.
std::string listStageNames();

} // namespace modelc

#endif // MODELC_TOOLS_MODELC_STAGES_H
