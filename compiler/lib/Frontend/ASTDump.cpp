//===- ASTDump.cpp - Readable dump of the AST and of tokens ---------------===//
//
// `modelc --emit=ast`: one node per line, indented two spaces per level, with
// `@line:col` of the node's first character. `modelc --emit=tokens`: one
// token per line. Both formats are user-facing and tested with FileCheck.
//
//===----------------------------------------------------------------------===//

#include "modelc/Frontend/ASTDump.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"

using namespace modelc;

namespace {

/// Walks the AST, printing one line per node.
class ASTDumper {
public:
  ASTDumper(const llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os)
      : sourceMgr(sourceMgr), os(os) {}

  void dumpModule(const Module &module);

private:
  /// Starts a line at the current indentation.
  llvm::raw_ostream &line() { return os.indent(2 * indent); }
  /// Ends a line with ` @line:col`.
  void at(llvm::SMLoc loc) {
    auto [l, c] = sourceMgr.getLineAndColumn(loc);
    os << " @" << l << ":" << c << "\n";
  }
  void dumpDecl(const Decl &decl);
  void dumpFunc(const FuncDecl &func);
  void dumpFields(llvm::ArrayRef<Field> fields);
  void dumpStmt(const Stmt &stmt);
  void dumpExpr(const Expr &expr);
  void dumpLeaf(const Expr &expr);
  void dumpCall(const CallExpr &call);
  void dumpIndex(const IndexExpr &index);
  void child(const Expr &expr) {
    ++indent;
    dumpExpr(expr);
    --indent;
  }

  const llvm::SourceMgr &sourceMgr;
  llvm::raw_ostream &os;
  unsigned indent = 0;
};

} // namespace

void ASTDumper::dumpModule(const Module &module) {
  os << "Module " << module.getFileName() << "\n";
  ++indent;
  for (const Import &import : module.getImports()) {
    line() << "Import " << import.getDottedPath();
    if (!import.alias.empty())
      os << " as " << import.alias;
    at(import.range.Start);
  }
  for (const DeclPtr &decl : module.getDecls())
    dumpDecl(*decl);
  --indent;
}

void ASTDumper::dumpDecl(const Decl &decl) {
  if (auto *func = llvm::dyn_cast<FuncDecl>(&decl))
    return dumpFunc(*func);
  if (auto *data = llvm::dyn_cast<DataDecl>(&decl)) {
    line() << "Data " << data->getName();
    at(data->getLoc());
    return dumpFields(data->getFields());
  }
  const auto &train = llvm::cast<TrainDecl>(decl);
  line() << "Train " << train.getModelName() << " on " << train.getDataName();
  at(train.getLoc());
  dumpFields(train.getFields());
}

void ASTDumper::dumpFunc(const FuncDecl &func) {
  line() << (func.isModel() ? "Model " : "Fn ") << func.getName();
  at(func.getLoc());
  ++indent;
  for (const Param &param : func.getParams()) {
    line() << "Param " << param.name << " : " << param.type.str();
    at(param.range.Start);
    if (param.defaultValue)
      child(*param.defaultValue);
  }
  if (const std::optional<TypeRef> &result = func.getResultType()) {
    line() << "Result " << result->str();
    at(result->range.Start);
  }
  for (const StmtPtr &stmt : func.getBody())
    dumpStmt(*stmt);
  --indent;
}

void ASTDumper::dumpFields(llvm::ArrayRef<Field> fields) {
  ++indent;
  for (const Field &field : fields) {
    line() << "Field " << field.name;
    at(field.range.Start);
    child(*field.value);
  }
  --indent;
}

void ASTDumper::dumpStmt(const Stmt &stmt) {
  if (auto *let = llvm::dyn_cast<LetStmt>(&stmt)) {
    line() << "Let " << let->getName();
    at(let->getLoc());
    return child(let->getValue());
  }
  if (auto *param = llvm::dyn_cast<ParamStmt>(&stmt)) {
    line() << "ParamStmt " << param->getName() << " : "
           << param->getType().str();
    at(param->getLoc());
    return child(param->getInit());
  }
  const auto &ret = llvm::cast<ReturnStmt>(stmt);
  line() << "Return";
  at(ret.getLoc());
  child(ret.getValue());
}

void ASTDumper::dumpCall(const CallExpr &call) {
  line() << "Call";
  at(call.getLoc());
  ++indent;
  dumpExpr(call.getCallee());
  for (const Arg &arg : call.getArgs()) {
    if (!arg.isKeyword()) {
      dumpExpr(*arg.value);
      continue;
    }
    line() << "Keyword " << arg.keyword;
    at(arg.keywordRange.Start);
    child(*arg.value);
  }
  --indent;
}

void ASTDumper::dumpIndex(const IndexExpr &index) {
  line() << "Index";
  at(index.getLoc());
  ++indent;
  dumpExpr(index.getBase());
  for (const IndexItem &item : index.getItems()) {
    switch (item.kind) {
    case IndexItem::Kind::Index:
      dumpExpr(*item.index);
      continue;
    case IndexItem::Kind::Ellipsis:
      line() << "Ellipsis";
      at(item.range.Start);
      continue;
    case IndexItem::Kind::Slice:
      line() << "Slice";
      at(item.range.Start);
      ++indent;
      const std::pair<const char *, const ExprPtr *> parts[] = {
          {"Start", &item.start}, {"Stop", &item.stop}, {"Step", &item.step}};
      for (const auto &[name, part] : parts)
        if (*part) {
          line() << name;
          at((*part)->getLoc());
          child(**part);
        }
      --indent;
      continue;
    }
  }
  --indent;
}

void ASTDumper::dumpLeaf(const Expr &expr) {
  switch (expr.getKind()) {
  case Expr::Kind::IntLit:
    line() << "Int " << llvm::cast<IntLitExpr>(expr).getValue();
    return at(expr.getLoc());
  case Expr::Kind::FloatLit:
    line() << "Float " << llvm::cast<FloatLitExpr>(expr).getSpelling();
    return at(expr.getLoc());
  case Expr::Kind::StringLit:
    line() << "String \"";
    os.write_escaped(llvm::cast<StringLitExpr>(expr).getValue()) << "\"";
    return at(expr.getLoc());
  case Expr::Kind::BoolLit:
    line() << "Bool "
           << (llvm::cast<BoolLitExpr>(expr).getValue() ? "true" : "false");
    return at(expr.getLoc());
  case Expr::Kind::Name:
    line() << "Name " << llvm::cast<NameExpr>(expr).getName();
    return at(expr.getLoc());
  default:
    llvm_unreachable("not a leaf expression");
  }
}

void ASTDumper::dumpExpr(const Expr &expr) {
  switch (expr.getKind()) {
  case Expr::Kind::IntLit:
  case Expr::Kind::FloatLit:
  case Expr::Kind::StringLit:
  case Expr::Kind::BoolLit:
  case Expr::Kind::Name:
    return dumpLeaf(expr);
  case Expr::Kind::Member: {
    const auto &member = llvm::cast<MemberExpr>(expr);
    if (std::optional<std::string> path = member.getDottedPath()) {
      line() << "Member " << *path;
      return at(expr.getLoc());
    }
    line() << "Member ." << member.getName();
    at(expr.getLoc());
    return child(member.getBase());
  }
  case Expr::Kind::Call:
    return dumpCall(llvm::cast<CallExpr>(expr));
  case Expr::Kind::Pipe: {
    const auto &pipe = llvm::cast<PipeExpr>(expr);
    line() << "Pipe";
    at(expr.getLoc());
    child(pipe.getLHS());
    return child(pipe.getRHS());
  }
  case Expr::Kind::Binary: {
    const auto &binary = llvm::cast<BinaryExpr>(expr);
    line() << "Binary " << getBinaryOpSpelling(binary.getOp());
    at(expr.getLoc());
    child(binary.getLHS());
    return child(binary.getRHS());
  }
  case Expr::Kind::Unary:
    line() << "Neg";
    at(expr.getLoc());
    return child(llvm::cast<UnaryExpr>(expr).getOperand());
  case Expr::Kind::List:
    line() << "List";
    at(expr.getLoc());
    for (const ExprPtr &element : llvm::cast<ListExpr>(expr).getElements())
      child(*element);
    return;
  case Expr::Kind::Index:
    return dumpIndex(llvm::cast<IndexExpr>(expr));
  }
}

void modelc::dumpAST(const Module &module, const llvm::SourceMgr &sourceMgr,
                     llvm::raw_ostream &os) {
  ASTDumper(sourceMgr, os).dumpModule(module);
}

void modelc::dumpTokens(llvm::ArrayRef<Token> tokens,
                        const llvm::SourceMgr &sourceMgr,
                        llvm::raw_ostream &os) {
  for (const Token &tok : tokens) {
    auto [l, c] = sourceMgr.getLineAndColumn(tok.getLoc());
    os << getTokenKindName(tok.kind) << " '";
    if (tok.is(TokenKind::Error))
      os.write_escaped(tok.spelling); // May hold a non-printable byte.
    else
      os << tok.spelling;
    os << "' @" << l << ":" << c;
    if (tok.atLineStart)
      os << " bol";
    os << "\n";
  }
}
