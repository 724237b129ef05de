//===- Sema.h - Semantic analysis entry point -------------------*- C++ -*-===//
//
// analyzeProgram() checks a parsed main file and everything it imports:
// name resolution across modules, instantiation of shape-generic functions
// at each call site, shape and dtype inference, the parameter table, the
// data block (IDX headers are read at compile time) and the train block.
// Errors and warnings go to the DiagnosticEngine; the library never exits.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_SEMA_SEMA_H
#define MODELC_SEMA_SEMA_H

#include "modelc/Frontend/AST.h"
#include "modelc/Frontend/Diagnostics.h"
#include "modelc/Sema/DataCache.h"
#include "modelc/Sema/Program.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace modelc {

/// Where `import` looks for modules.
struct SemaOptions {
  /// The user's -I directories, searched first, in order.
  std::vector<std::string> includeDirs;
  /// The standard library directory, searched last (after the importing
  /// file's own directory). May be empty.
  std::string stdlibDir;
  /// When set, a program with errors is still returned: it holds the models
  /// and the parts of models that were checked before the errors (for the
  /// language server's hovers). Such a program must not reach later stages.
  bool keepPartial = false;
  /// Data blocks checked by earlier analyses, reused when unchanged (and
  /// filled); null: every data block is checked.
  sema::DataCache *dataCache = nullptr;
  /// The text to check for the imported module at a (real) path instead of
  /// the file's, when it gives one: the language server's unsaved
  /// documents. Unset: every module is read from its file.
  std::function<std::optional<std::string>(llvm::StringRef path)> moduleText;
};

/// Checks `mainModule` (already parsed from a buffer of
/// diags.getSourceMgr()) and the modules it imports, which are loaded into
/// the same SourceMgr. Returns the checked program, or nullptr when an error
/// was reported (unless options.keepPartial is set; then nullptr only when
/// the imports could not be loaded).
std::unique_ptr<sema::Program> analyzeProgram(DiagnosticEngine &diags,
                                              const Module &mainModule,
                                              const SemaOptions &options);

} // namespace modelc

#endif // MODELC_SEMA_SEMA_H
