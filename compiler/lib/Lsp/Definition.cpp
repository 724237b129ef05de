//===- Definition.cpp - Go to definition ----------------------------------===//
//
// The definition of the name under the cursor: a model, fn, data block or
// binding of this file, or a function of an imported module (in its file).
//
//===----------------------------------------------------------------------===//

#include "Features.h"

using namespace modelc;
using namespace modelc::lsp;

std::vector<proto::Location> lsp::definition(const Analysis &a,
                                             const proto::URIForFile &uri,
                                             const proto::Position &pos) {
  llvm::SMLoc loc = toLoc(a, pos);
  std::optional<unsigned> id =
      loc.isValid() ? a.definitionAt(loc) : std::nullopt;
  if (!id)
    return {};
  const Definition &d = a.symbols.defs[*id];
  if (d.kind == DefKind::ImportedFn || d.kind == DefKind::Import) {
    llvm::Expected<proto::URIForFile> file =
        proto::URIForFile::fromFile(d.module->path);
    if (!file) {
      llvm::consumeError(file.takeError());
      return {};
    }
    llvm::SMRange r = d.kind == DefKind::Import ? llvm::SMRange() : d.nameRange;
    return {proto::Location(*file, toRange(d.module->sourceMgr, r))};
  }
  return {proto::Location(uri, toRange(a.sourceMgr, d.nameRange))};
}
