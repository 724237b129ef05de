//===- Bench.h - The language server's keystroke benchmark ------*- C++ -*-===//
//
// measureKeystrokes() times what the server does after each change of a
// document: the analysis, its diagnostics and its inlay hints, with one
// character typed and then deleted in the file's first model.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_LSP_BENCH_H
#define MODELC_LSP_BENCH_H

#include "modelc/Lsp/Analysis.h"

#include "llvm/Support/Error.h"

#include <vector>

namespace modelc {
namespace lsp {

/// The times of the keystrokes, sorted, and what the last one produced.
struct KeystrokeTimes {
  std::vector<double> milliseconds;
  size_t diagnostics = 0, inlayHints = 0;

  /// The `p` quantile (0.5: the median) of the times.
  double quantile(double p) const;
};

/// Times `runs` keystrokes (after one to warm up) in the file at `path`.
llvm::Expected<KeystrokeTimes>
measureKeystrokes(llvm::StringRef path, unsigned runs,
                  const AnalysisOptions &options);

} // namespace lsp
} // namespace modelc

#endif // MODELC_LSP_BENCH_H
