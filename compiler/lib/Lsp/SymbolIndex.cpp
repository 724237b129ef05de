//===- SymbolIndex.cpp - Names and value sites of a document --------------===//
//
// Walks the main file's AST (partial after syntax errors) once: every
// declaration, binding, parameter and input becomes a Definition; every
// name that refers to one (in scope order, so `h = f(h)` refers to the
// previous `h`) an Occurrence; `nn.linear` refers to the imported module's
// function. Pipeline stages, calls, operators and bindings become
// ValueSites, keyed by the location sema gives their values.
//
//===----------------------------------------------------------------------===//

#include "modelc/Lsp/Analysis.h"

using namespace modelc;
using namespace modelc::lsp;

namespace {
class Indexer {
public:
  explicit Indexer(Analysis &a) : a(a), idx(a.symbols) {}

  void run() {
    for (const std::unique_ptr<ImportedModule> &m : a.imports)
      globals[m->boundName] = addDef({DefKind::Import,
                                      m->boundName,
                                      findImportRange(*m),
                                      {},
                                      nullptr,
                                      m.get()});
    for (const DeclPtr &d : a.module->getDecls())
      if (!llvm::isa<TrainDecl>(d.get()))
        globals[d->getName().str()] =
            addDef({kindOf(*d), d->getName().str(), d->getNameRange(),
                    d->getRange(), d.get(), nullptr});
    for (const DeclPtr &d : a.module->getDecls())
      indexDecl(*d);
  }

private:
  static DefKind kindOf(const Decl &d) {
    switch (d.getKind()) {
    case Decl::Kind::Fn:
      return DefKind::Fn;
    case Decl::Kind::Model:
      return DefKind::Model;
    case Decl::Kind::Data:
      return DefKind::Data;
    case Decl::Kind::Train:
      return DefKind::Train;
    }
    return DefKind::Fn;
  }

  /// The range of the import that binds `m`'s name.
  llvm::SMRange findImportRange(const ImportedModule &m) const {
    for (const Import &imp : a.module->getImports())
      if (!imp.path.empty() && imp.getBoundName() == m.boundName)
        return imp.range;
    return {};
  }

  unsigned addDef(Definition d) {
    idx.defs.push_back(std::move(d));
    return idx.defs.size() - 1;
  }

  void refer(llvm::SMRange range, llvm::StringRef name) {
    for (auto scope = scopes.rbegin(); scope != scopes.rend(); ++scope) {
      auto it = scope->find(name.str());
      if (it != scope->end()) {
        idx.occurrences.push_back({range, it->second});
        return;
      }
    }
    auto it = globals.find(name.str());
    if (it != globals.end())
      idx.occurrences.push_back({range, it->second});
  }

  /// Binds `name` in the innermost scope.
  void define(DefKind kind, llvm::StringRef name, llvm::SMRange nameRange,
              llvm::SMRange full) {
    scopes.back()[name.str()] =
        addDef({kind, name.str(), nameRange, full, nullptr, nullptr});
  }

  void indexDecl(const Decl &d) {
    scopes.emplace_back();
    if (auto *fn = llvm::dyn_cast<FuncDecl>(&d))
      indexFunc(*fn);
    else if (auto *data = llvm::dyn_cast<DataDecl>(&d))
      indexFields(data->getFields());
    else if (auto *train = llvm::dyn_cast<TrainDecl>(&d)) {
      refer(train->getNameRange(), train->getModelName());
      refer(train->getDataRange(), train->getDataName());
      indexFields(train->getFields());
    }
    scopes.pop_back();
  }

  void indexFields(llvm::ArrayRef<Field> fields) {
    for (const Field &f : fields) {
      if (f.value)
        walk(*f.value);
      define(DefKind::Field, f.name, f.nameRange, f.range);
    }
  }

  void indexFunc(const FuncDecl &fn) {
    for (const Param &p : fn.getParams()) {
      if (p.defaultValue)
        walk(*p.defaultValue);
      define(DefKind::Input, p.name, p.nameRange, p.range);
    }
    for (const StmtPtr &s : fn.getBody()) {
      if (auto *let = llvm::dyn_cast<LetStmt>(s.get())) {
        walk(let->getValue(), /*bound=*/true);
        define(DefKind::Let, let->getName(), let->getNameRange(),
               let->getRange());
        idx.sites.push_back({SiteKind::Binding, let->getNameRange(),
                             let->getNameRange().Start, let->getNameRange().End,
                             let->getName().str()});
      } else if (auto *p = llvm::dyn_cast<ParamStmt>(s.get())) {
        walk(p->getInit());
        define(DefKind::Param, p->getName(), p->getNameRange(), p->getRange());
      } else if (auto *r = llvm::dyn_cast<ReturnStmt>(s.get())) {
        walk(r->getValue());
      }
    }
  }

  /// The range of a callee's name (the member's name for `nn.linear`).
  static llvm::SMRange calleeNameRange(const Expr &callee) {
    if (auto *m = llvm::dyn_cast<MemberExpr>(&callee))
      return m->getNameRange();
    return callee.getRange();
  }

  static std::string text(llvm::SMRange r) { return textOf(r).str(); }

  void walkMember(const MemberExpr &m) {
    auto *base = llvm::dyn_cast<NameExpr>(&m.getBase());
    const ImportedModule *module = nullptr;
    if (base)
      for (const std::unique_ptr<ImportedModule> &im : a.imports)
        if (im->boundName == base->getName())
          module = im.get();
    if (!module) {
      walk(m.getBase());
      return;
    }
    refer(base->getRange(), base->getName());
    for (const DeclPtr &d : module->ast->getDecls()) {
      if (d->getName() != m.getName() || !llvm::isa<FuncDecl>(d.get()))
        continue;
      auto key = std::make_pair(module, m.getName().str());
      auto it = importedFns.find(key);
      if (it == importedFns.end())
        it = importedFns
                 .insert({key, addDef({DefKind::ImportedFn, m.getName().str(),
                                       d->getNameRange(), d->getRange(),
                                       d.get(), module})})
                 .first;
      idx.occurrences.push_back({m.getNameRange(), it->second});
      return;
    }
  }

  void walkCall(const CallExpr &c) {
    walk(c.getCallee());
    for (const Arg &arg : c.getArgs())
      if (arg.value)
        walk(*arg.value);
  }

  void walkPipe(const PipeExpr &p, bool bound) {
    walk(p.getLHS());
    const Expr &rhs = p.getRHS();
    const Expr *callee = &rhs;
    if (auto *c = llvm::dyn_cast<CallExpr>(&rhs)) {
      walkCall(*c);
      callee = &c->getCallee();
    } else {
      walk(rhs);
    }
    llvm::SMRange name = calleeNameRange(*callee);
    idx.sites.push_back({SiteKind::Stage,
                         {p.getOpLoc(), name.End},
                         p.getOpLoc(),
                         bound ? llvm::SMLoc() : rhs.getRange().End,
                         text(callee->getRange())});
  }

  void walk(const Expr &e, bool bound = false) {
    switch (e.getKind()) {
    case Expr::Kind::Name:
      refer(e.getRange(), llvm::cast<NameExpr>(e).getName());
      return;
    case Expr::Kind::Member:
      return walkMember(llvm::cast<MemberExpr>(e));
    case Expr::Kind::Call: {
      auto &c = llvm::cast<CallExpr>(e);
      walkCall(c);
      idx.sites.push_back({SiteKind::Call, calleeNameRange(c.getCallee()),
                           c.getLoc(), llvm::SMLoc(),
                           text(c.getCallee().getRange())});
      return;
    }
    case Expr::Kind::Pipe:
      return walkPipe(llvm::cast<PipeExpr>(e), bound);
    case Expr::Kind::Binary:
      return walkBinary(llvm::cast<BinaryExpr>(e));
    case Expr::Kind::Unary:
      return walk(llvm::cast<UnaryExpr>(e).getOperand());
    case Expr::Kind::List:
      for (const ExprPtr &el : llvm::cast<ListExpr>(e).getElements())
        if (el)
          walk(*el);
      return;
    case Expr::Kind::Index:
      return walkIndex(llvm::cast<IndexExpr>(e));
    default:
      return;
    }
  }

  void walkBinary(const BinaryExpr &b) {
    walk(b.getLHS());
    walk(b.getRHS());
    llvm::StringRef op = getBinaryOpSpelling(b.getOp());
    llvm::SMLoc end =
        llvm::SMLoc::getFromPointer(b.getOpLoc().getPointer() + op.size());
    idx.sites.push_back({SiteKind::Operator,
                         {b.getOpLoc(), end},
                         b.getOpLoc(),
                         llvm::SMLoc(),
                         op.str()});
  }

  void walkIndex(const IndexExpr &e) {
    walk(e.getBase());
    for (const IndexItem &item : e.getItems())
      for (const ExprPtr *p :
           {&item.index, &item.start, &item.stop, &item.step})
        if (*p)
          walk(**p);
  }

  Analysis &a;
  SymbolIndex &idx;
  std::map<std::string, unsigned> globals;
  std::vector<std::map<std::string, unsigned>> scopes;
  std::map<std::pair<const ImportedModule *, std::string>, unsigned>
      importedFns;
};
} // namespace

void lsp::buildSymbolIndex(Analysis &analysis) {
  if (analysis.module)
    Indexer(analysis).run();
}
