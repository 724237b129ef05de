//===- Server.h - The modelc language server --------------------*- C++ -*-===//
//
// runServer() speaks the Language Server Protocol (JSON-RPC with
// Content-Length framing, or `// -----` separated messages for lit tests)
// over a pair of streams until the client's `exit`: diagnostics on open
// and (debounced) on change, hover, inlay hints, definition, references,
// completion, document symbols and formatting.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_LSP_SERVER_H
#define MODELC_LSP_SERVER_H

#include "modelc/Lsp/Analysis.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>

namespace modelc {
namespace lsp {

/// Settings of the server.
struct ServerOptions {
  AnalysisOptions analysis;
  /// Messages separated by `// -----` lines (lit tests) instead of
  /// Content-Length headers; replies pretty-printed.
  bool litTest = false;
  /// How long after a change the document is re-analysed and its
  /// diagnostics published; 0: at once, before the next message is read.
  unsigned debounceMs = 150;
};

/// Serves one client reading `in` and writing `out`. Returns the process's
/// exit code: 0 after `shutdown` then `exit`, 1 when the input ends or
/// `exit` comes without `shutdown`.
int runServer(const ServerOptions &options, std::FILE *in,
              llvm::raw_ostream &out);

} // namespace lsp
} // namespace modelc

#endif // MODELC_LSP_SERVER_H
