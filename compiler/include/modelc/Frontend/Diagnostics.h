//===- Diagnostics.h - Error reporting over llvm::SourceMgr -----*- C++ -*-===//
//
// DiagnosticEngine: the one place where the front end (and later semantic
// analysis) reports errors, warnings and notes. Messages are printed by
// llvm::SourceMgr as `file:line:col: error: message`, followed by the source
// line and a caret / underline. The engine counts errors and stops printing
// after a cap (20 by default), saying "too many errors" once.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_FRONTEND_DIAGNOSTICS_H
#define MODELC_FRONTEND_DIAGNOSTICS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace modelc {

/// Reports diagnostics at source locations of an llvm::SourceMgr (which may
/// hold several buffers, e.g. the main file and imported files).
class DiagnosticEngine {
public:
  /// Diagnostics go to `os` (stderr by default).
  explicit DiagnosticEngine(llvm::SourceMgr &sourceMgr,
                            llvm::raw_ostream &os = llvm::errs(),
                            unsigned errorLimit = 20)
      : sourceMgr(sourceMgr), os(os), errorLimit(errorLimit) {}

  /// Reports an error at `loc`, underlining `ranges`.
  void error(llvm::SMLoc loc, const llvm::Twine &message,
             llvm::ArrayRef<llvm::SMRange> ranges = {});
  /// Reports an error over a whole range (caret at its start).
  void error(llvm::SMRange range, const llvm::Twine &message);
  /// Reports a warning at `loc`.
  void warning(llvm::SMLoc loc, const llvm::Twine &message,
               llvm::ArrayRef<llvm::SMRange> ranges = {});
  /// Reports a note, attached to the previous error or warning (dropped when
  /// that diagnostic was suppressed by the error limit).
  void note(llvm::SMLoc loc, const llvm::Twine &message,
            llvm::ArrayRef<llvm::SMRange> ranges = {});
  /// Reports a note of its own, attached to no error or warning (notes may
  /// follow it); dropped past the error limit.
  void standaloneNote(llvm::SMLoc loc, const llvm::Twine &message,
                      llvm::ArrayRef<llvm::SMRange> ranges = {});

  /// Number of errors reported so far (including suppressed ones).
  unsigned getNumErrors() const { return numErrors; }
  /// True once any error was reported.
  bool hasErrors() const { return numErrors != 0; }
  /// True once more errors than the limit were reported (the rest are not
  /// printed); callers should stop early.
  bool hasTooManyErrors() const { return numErrors > errorLimit; }
  /// The source manager diagnostics refer to.
  llvm::SourceMgr &getSourceMgr() const { return sourceMgr; }
  /// The 1-based (line, column) of `loc`.
  std::pair<unsigned, unsigned> getLineAndColumn(llvm::SMLoc loc) const;

private:
  void emit(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
            const llvm::Twine &message, llvm::ArrayRef<llvm::SMRange> ranges);
  /// Prints one diagnostic with its include stack, source line and caret.
  void print(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
             const llvm::Twine &message, llvm::ArrayRef<llvm::SMRange> ranges);

  llvm::SourceMgr &sourceMgr;
  llvm::raw_ostream &os;
  unsigned errorLimit;
  unsigned numErrors = 0;
  /// Whether the last error/warning was printed (notes follow it).
  bool lastPrinted = true;
};

} // namespace modelc

#endif // MODELC_FRONTEND_DIAGNOSTICS_H
