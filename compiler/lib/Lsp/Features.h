//===- Features.h - The language server's features --------------*- C++ -*-===//
//
// One function per LSP feature, each over one Analysis of a document (its
// own file in this folder), and the conversions between LSP positions and
// source locations they share.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_LIB_LSP_FEATURES_H
#define MODELC_LIB_LSP_FEATURES_H

#include "modelc/Lsp/Analysis.h"

#include "llvm/Support/LSP/Protocol.h"

#include <optional>
#include <vector>

namespace modelc {
namespace lsp {

namespace proto = llvm::lsp;

/// The LSP position of `loc` in `sourceMgr`.
proto::Position toPosition(const llvm::SourceMgr &sourceMgr, llvm::SMLoc loc);
/// The LSP range of `range` in `sourceMgr`.
proto::Range toRange(const llvm::SourceMgr &sourceMgr, llvm::SMRange range);
/// The location of `pos` in the main file of `a` (invalid outside it).
llvm::SMLoc toLoc(const Analysis &a, const proto::Position &pos);

/// The compiler's diagnostics as LSP diagnostics: each error and warning
/// with its range, its notes as related information (Diagnostics.cpp).
std::vector<proto::Diagnostic> toDiagnostics(const Analysis &a,
                                             const proto::URIForFile &uri);

/// The hover at `pos`: the inferred type of the value or name there, and for
/// a layer call its parameters (Hover.cpp).
std::optional<proto::Hover> hover(const Analysis &a,
                                  const proto::Position &pos);

/// A declaration's header: its text up to the body's `{`, whitespace runs
/// folded; a function of an imported module with the module's name
/// (`fn nn.linear(...)`) (Hover.cpp).
std::string signatureOf(const Decl &decl,
                        const ImportedModule *module = nullptr);

/// The inlay hints in `range`: the type after each pipeline stage and each
/// binding (InlayHints.cpp).
std::vector<proto::InlayHint> inlayHints(const Analysis &a,
                                         const proto::Range &range);

/// Where the name at `pos` is defined (Definition.cpp).
std::vector<proto::Location> definition(const Analysis &a,
                                        const proto::URIForFile &uri,
                                        const proto::Position &pos);

/// Every occurrence of the name at `pos` in the document, its definition
/// included when `withDeclaration` (Symbols.cpp).
std::vector<proto::Location> references(const Analysis &a,
                                        const proto::URIForFile &uri,
                                        const proto::Position &pos,
                                        bool withDeclaration);

/// The declarations of the document and the bindings inside them
/// (Symbols.cpp).
std::vector<proto::DocumentSymbol> documentSymbols(const Analysis &a);

/// The documentation of the train block's option `name`: what it is, its
/// valid values and default (empty for the other fields) (Completion.cpp).
std::string trainOptionDoc(llvm::StringRef name);

/// The completions at `pos` (Completion.cpp).
proto::CompletionList complete(const Analysis &a, const proto::Position &pos);

/// The edits that format the document `text` of `path` in the canonical
/// layout (none when it is formatted); an error when it has syntax errors
/// (Formatting.cpp).
llvm::Expected<std::vector<proto::TextEdit>>
formatDocument(llvm::StringRef path, llvm::StringRef text);

} // namespace lsp
} // namespace modelc

#endif // MODELC_LIB_LSP_FEATURES_H
