//===- Symbols.cpp - Document symbols and references ----------------------===//
//
// The outline (models, fns, data and train blocks, with their bindings and
// parameters as children) and the references to a name within the file.
//
//===----------------------------------------------------------------------===//

#include "Features.h"

using namespace modelc;
using namespace modelc::lsp;

std::vector<proto::Location> lsp::references(const Analysis &a,
                                             const proto::URIForFile &uri,
                                             const proto::Position &pos,
                                             bool withDeclaration) {
  llvm::SMLoc loc = toLoc(a, pos);
  std::optional<unsigned> id =
      loc.isValid() ? a.definitionAt(loc) : std::nullopt;
  std::vector<proto::Location> out;
  if (!id)
    return out;
  const Definition &d = a.symbols.defs[*id];
  bool local = d.kind != DefKind::ImportedFn && d.kind != DefKind::Import;
  if (withDeclaration && local)
    out.emplace_back(uri, toRange(a.sourceMgr, d.nameRange));
  for (const Occurrence &o : a.symbols.occurrences)
    if (o.def == *id)
      out.emplace_back(uri, toRange(a.sourceMgr, o.range));
  return out;
}

static proto::SymbolKind symbolKind(DefKind kind) {
  switch (kind) {
  case DefKind::Model:
    return proto::SymbolKind::Class;
  case DefKind::Fn:
    return proto::SymbolKind::Function;
  case DefKind::Data:
    return proto::SymbolKind::Struct;
  case DefKind::Train:
    return proto::SymbolKind::Event;
  case DefKind::Param:
  case DefKind::Field:
    return proto::SymbolKind::Field;
  default:
    return proto::SymbolKind::Variable;
  }
}

/// True when `inner` lies within `outer`.
static bool within(llvm::SMRange inner, llvm::SMRange outer) {
  return outer.Start.getPointer() <= inner.Start.getPointer() &&
         inner.End.getPointer() <= outer.End.getPointer();
}

std::vector<proto::DocumentSymbol> lsp::documentSymbols(const Analysis &a) {
  std::vector<proto::DocumentSymbol> out;
  for (const DeclPtr &decl : a.module->getDecls()) {
    const Decl &d = *decl;
    DefKind kind = llvm::isa<TrainDecl>(d)             ? DefKind::Train
                   : llvm::isa<DataDecl>(d)            ? DefKind::Data
                   : llvm::cast<FuncDecl>(d).isModel() ? DefKind::Model
                                                       : DefKind::Fn;
    std::string name = d.getName().str();
    if (auto *t = llvm::dyn_cast<TrainDecl>(&d))
      name = "train " + name + " on " + t->getDataName().str();
    proto::DocumentSymbol sym(name, symbolKind(kind),
                              toRange(a.sourceMgr, d.getRange()),
                              toRange(a.sourceMgr, d.getNameRange()));
    for (const Definition &def : a.symbols.defs) {
      bool child = def.kind == DefKind::Let || def.kind == DefKind::Param ||
                   def.kind == DefKind::Field || def.kind == DefKind::Input;
      if (!child || !within(def.nameRange, d.getRange()))
        continue;
      llvm::SMRange full =
          within(def.nameRange, def.fullRange) ? def.fullRange : def.nameRange;
      sym.children.emplace_back(def.name, symbolKind(def.kind),
                                toRange(a.sourceMgr, full),
                                toRange(a.sourceMgr, def.nameRange));
      llvm::ArrayRef<TypeAt> types = a.types.lookup(def.nameRange.Start);
      if (!types.empty())
        sym.children.back().detail = types.front().type;
    }
    out.push_back(std::move(sym));
  }
  return out;
}
