//===- Format.h - The canonical layout of .model files ----------*- C++ -*-===//
//
// `modelc fmt`'s library: formats one source buffer into the canonical
// layout (docs/cli.md describes it) and verifies the result before handing
// it out: the formatted text must parse to the same AST (locations aside)
// and keep every comment, in order. A caller such as the driver or a
// language server writes nothing when the verification fails.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_FORMAT_FORMAT_H
#define MODELC_FORMAT_FORMAT_H

#include "modelc/Frontend/AST.h"
#include "modelc/Frontend/Diagnostics.h"
#include "modelc/Frontend/Token.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace modelc {

/// Settings of the formatter.
struct FormatOptions {
  /// The line width beyond which a pipeline written on one line is broken
  /// before every `|>`.
  unsigned width = 80;
  /// Test hook: damages the formatted text before it is verified, so tests
  /// can show that a faulty result is refused ("" = off, "ast": changes
  /// the program, "comment": drops the first comment).
  std::string debugCorrupt;
};

/// Prints `module` (parsed from `source` with its `comments`) in the
/// canonical layout, without verification.
std::string printModule(const Module &module, llvm::StringRef source,
                        llvm::ArrayRef<Comment> comments,
                        const FormatOptions &options = {});

/// Formats buffer `bufferId` of `diags.getSourceMgr()`. A syntax error is
/// reported through `diags` (as the compiler reports it), and the result is
/// then an error too; check diags.hasErrors() to tell the two apart. A
/// formatted text that fails verification is an error naming what differs.
llvm::Expected<std::string> formatBuffer(DiagnosticEngine &diags,
                                         unsigned bufferId,
                                         const FormatOptions &options = {});

/// Checks that `formatted` means what buffer `bufferId` means: it parses
/// without errors, its AST dump equals the original's with locations
/// removed, and it has the same comments in the same order.
llvm::Error verifyFormatted(DiagnosticEngine &diags, unsigned bufferId,
                            llvm::StringRef formatted);

/// The AST dump of `module` without its `@line:col` locations.
std::string dumpWithoutLocations(const Module &module,
                                 const llvm::SourceMgr &sourceMgr);

} // namespace modelc

#endif // MODELC_FORMAT_FORMAT_H
