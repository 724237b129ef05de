//===- PrintExpr.cpp - The formatter's expressions and types --------------===//
//
// Expressions with canonical spacing (`a + b`, `f(x, k=1)`, `x[1:3]`, `-x`),
// the parentheses the author wrote (plus any the precedence needs), kept
// line breaks after ',' and open brackets and around operators, and
// pipelines broken where the author broke them, or before every `|>` when
// one written on a line does not fit in the width. Continuation lines inside brackets align with the
// column after the bracket; a broken pipeline's stages are indented two
// columns past its statement.
//
//===----------------------------------------------------------------------===//

#include "Printer.h"

#include "llvm/ADT/STLExtras.h"

using namespace modelc;
using namespace modelc::format;

llvm::SMLoc format::exprStart(const Expr &expr) {
  llvm::SMRange parens = expr.getParenRange();
  return parens.isValid() ? parens.Start : expr.getRange().Start;
}

llvm::SMLoc format::exprEnd(const Expr &expr) {
  llvm::SMRange parens = expr.getParenRange();
  return parens.isValid() ? parens.End : expr.getRange().End;
}

/// The location of the last character of `range` (a closing bracket).
static llvm::SMLoc lastChar(llvm::SMRange range) {
  return llvm::SMLoc::getFromPointer(range.End.getPointer() - 1);
}

/// Precedence levels, lowest first, as in ParseExpr.cpp.
enum Level : unsigned {
  kPipe,
  kCompare,
  kAdditive,
  kTerm,
  kUnary,
  kPower,
  kPostfix,
  kPrimary
};

static unsigned binaryLevel(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
  case BinaryOp::Sub:
    return kAdditive;
  case BinaryOp::Mul:
  case BinaryOp::Div:
  case BinaryOp::MatMul:
    return kTerm;
  case BinaryOp::Pow:
    return kPower;
  default:
    return kCompare;
  }
}

static unsigned levelOf(const Expr &expr) {
  switch (expr.getKind()) {
  case Expr::Kind::Pipe: return kPipe;
  case Expr::Kind::Binary:
    return binaryLevel(llvm::cast<BinaryExpr>(expr).getOp());
  case Expr::Kind::Unary: return kUnary;
  case Expr::Kind::Call:
  case Expr::Kind::Member:
  case Expr::Kind::Index:
    return kPostfix;
  default: return kPrimary;
  }
}

void Printer::openBracket(llvm::StringRef text, llvm::SMLoc loc,
                          llvm::SMLoc first) {
  w.token(text, loc);
  llvm::SMLoc after =
      loc.isValid() ? llvm::SMLoc::getFromPointer(loc.getPointer() + 1) : loc;
  bool breakAfter = !flat && loc.isValid() && w.sourceBreak(after, first);
  unsigned column = breakAfter ? w.lineIndent() + 4 : w.column();
  w.push({column, column});
  if (breakAfter)
    keepBreak(after, first);
}

void Printer::closeBracket(llvm::StringRef text, llvm::SMLoc loc) {
  w.token(text, loc);
  w.pop();
}

void Printer::keepBreak(llvm::SMLoc prevEnd, llvm::SMLoc next) {
  if (flat)
    return w.space();
  w.flush(next);
  if (w.sourceBreakSinceWritten(prevEnd, next))
    w.newline();
  else
    w.space();
}

void Printer::separate(llvm::SMLoc prevEnd, llvm::SMLoc nextStart) {
  w.flushBeforeSeparator(prevEnd, nextStart, ',');
  w.token(",");
  keepBreak(prevEnd, nextStart);
}

unsigned Printer::flatWidth(const Expr &expr, unsigned minLevel) {
  Writer scratch("", {});
  Printer printer(scratch, options, /*flat=*/true);
  printer.printExpr(expr, minLevel);
  return columnWidth(scratch.text());
}

void Printer::printType(const TypeRef &type) {
  w.token(type.name, type.nameRange.Start);
  if (!type.hasShape)
    return;
  w.token("[");
  for (size_t i = 0; i < type.dims.size(); ++i) {
    const Dim &dim = type.dims[i];
    if (i) {
      w.token(",");
      w.space();
    }
    std::string text = dim.kind == Dim::Kind::Ellipsis ? std::string("...")
                       : dim.kind == Dim::Kind::Symbol
                           ? dim.name
                           : std::to_string(dim.value);
    w.token(text, dim.range.Start);
  }
  w.token("]", lastChar(type.range));
}

void Printer::printLeaf(const Expr &expr) {
  llvm::SMRange range = expr.getRange();
  if (auto *name = llvm::dyn_cast<NameExpr>(&expr))
    return w.token(name->getName(), range.Start);
  if (auto *boolean = llvm::dyn_cast<BoolLitExpr>(&expr))
    return w.token(boolean->getValue() ? "true" : "false", range.Start);
  // Numbers and strings are written exactly as in the source.
  const char *start = range.Start.getPointer();
  w.token(llvm::StringRef(start, range.End.getPointer() - start),
          range.Start);
}

void Printer::printArg(const Arg &arg) {
  if (arg.isKeyword()) {
    w.token(arg.keyword, arg.keywordRange.Start);
    w.token("=");
  }
  printExpr(*arg.value);
}

/// Where an argument starts in the source (its keyword, if any).
static llvm::SMLoc argStart(const Arg &arg) {
  return arg.isKeyword() ? arg.keywordRange.Start : exprStart(*arg.value);
}

void Printer::printCall(const CallExpr &call) {
  printExpr(call.getCallee(), kPostfix);
  llvm::ArrayRef<Arg> args = call.getArgs();
  llvm::SMLoc close = lastChar(call.getRange());
  openBracket("(", call.getLParenLoc(),
              args.empty() ? close : argStart(args.front()));
  for (size_t i = 0; i < args.size(); ++i) {
    if (i)
      separate(exprEnd(*args[i - 1].value), argStart(args[i]));
    printArg(args[i]);
  }
  closeBracket(")", close);
}

void Printer::printPipe(const PipeExpr &pipe) {
  // The chain `head |> s1 |> s2 ...` (left-nested in the tree), stages last
  // to first; a parenthesised inner pipe is a head of its own.
  llvm::SmallVector<const PipeExpr *> chain{&pipe};
  const Expr *head = &pipe.getLHS();
  while (auto *inner = llvm::dyn_cast<PipeExpr>(head)) {
    if (inner->getParenRange().isValid())
      break;
    chain.push_back(inner);
    head = &inner->getLHS();
  }
  std::reverse(chain.begin(), chain.end());
  // Where the author broke the chain, it stays broken; a chain written on
  // one line that does not fit is broken before every `|>`.
  std::vector<bool> breaks;
  llvm::SMLoc prevEnd = exprEnd(*head);
  for (const PipeExpr *stage : chain) {
    breaks.push_back(!flat &&
                     w.sourceBreak(prevEnd, exprStart(stage->getRHS())));
    prevEnd = exprEnd(stage->getRHS());
  }
  if (!flat && !llvm::is_contained(breaks, true) &&
      w.column() + flatWidth(pipe, kPipe) > options.width)
    breaks.assign(chain.size(), true);
  printExpr(*head, kCompare);
  w.push({w.top().base, w.top().base + 2});
  for (size_t i = 0; i < chain.size(); ++i) {
    if (breaks[i])
      w.breakBefore(chain[i]->getOpLoc());
    else
      w.space();
    w.token("|>", chain[i]->getOpLoc());
    w.space();
    printExpr(chain[i]->getRHS(), kPostfix);
  }
  w.pop();
}

void Printer::printBinary(const BinaryExpr &binary) {
  BinaryOp op = binary.getOp();
  unsigned level = binaryLevel(op);
  // `**` is right-associative, the others left-associative; comparisons do
  // not chain.
  unsigned lhsMin = op == BinaryOp::Pow ? kPostfix
                    : level == kCompare ? kAdditive
                                        : level;
  unsigned rhsMin = op == BinaryOp::Pow ? kUnary : level + 1;
  printExpr(binary.getLHS(), lhsMin);
  llvm::StringRef spelling = getBinaryOpSpelling(op);
  llvm::SMLoc opLoc = binary.getOpLoc();
  keepBreak(exprEnd(binary.getLHS()), opLoc);
  w.token(spelling, opLoc);
  keepBreak(llvm::SMLoc::getFromPointer(opLoc.getPointer() + spelling.size()),
            exprStart(binary.getRHS()));
  printExpr(binary.getRHS(), rhsMin);
}

void Printer::printList(const ListExpr &list) {
  llvm::ArrayRef<ExprPtr> elements = list.getElements();
  llvm::SMLoc close = lastChar(list.getRange());
  openBracket("[", list.getRange().Start,
              elements.empty() ? close : exprStart(*elements.front()));
  for (size_t i = 0; i < elements.size(); ++i) {
    if (i)
      separate(exprEnd(*elements[i - 1]), exprStart(*elements[i]));
    printExpr(*elements[i]);
  }
  closeBracket("]", close);
}

void Printer::printIndexItem(const IndexItem &item) {
  switch (item.kind) {
  case IndexItem::Kind::Index:
    return printExpr(*item.index);
  case IndexItem::Kind::Ellipsis:
    return w.token("...", item.range.Start);
  case IndexItem::Kind::Slice:
    if (item.start)
      printExpr(*item.start);
    w.token(":");
    if (item.stop)
      printExpr(*item.stop);
    if (item.step) {
      w.token(":");
      printExpr(*item.step);
    }
    return;
  }
}

void Printer::printIndex(const IndexExpr &index) {
  printExpr(index.getBase(), kPostfix);
  llvm::ArrayRef<IndexItem> items = index.getItems();
  openBracket("[", index.getLBracketLoc(), items.front().range.Start);
  for (size_t i = 0; i < items.size(); ++i) {
    if (i)
      separate(items[i - 1].range.End, items[i].range.Start);
    printIndexItem(items[i]);
  }
  closeBracket("]", lastChar(index.getRange()));
}

void Printer::printExpr(const Expr &expr, unsigned minLevel) {
  llvm::SMRange parens = expr.getParenRange();
  bool parenthesized = parens.isValid() || levelOf(expr) < minLevel;
  if (parenthesized)
    openBracket("(", parens.Start, expr.getRange().Start);
  switch (expr.getKind()) {
  case Expr::Kind::Member: {
    const auto &member = llvm::cast<MemberExpr>(expr);
    printExpr(member.getBase(), kPostfix);
    w.token(".");
    w.token(member.getName(), member.getNameRange().Start);
    break;
  }
  case Expr::Kind::Call: printCall(llvm::cast<CallExpr>(expr)); break;
  case Expr::Kind::Pipe: printPipe(llvm::cast<PipeExpr>(expr)); break;
  case Expr::Kind::Binary: printBinary(llvm::cast<BinaryExpr>(expr)); break;
  case Expr::Kind::Unary:
    w.token("-", expr.getRange().Start);
    printExpr(llvm::cast<UnaryExpr>(expr).getOperand(), kUnary);
    break;
  case Expr::Kind::List: printList(llvm::cast<ListExpr>(expr)); break;
  case Expr::Kind::Index: printIndex(llvm::cast<IndexExpr>(expr)); break;
  default: printLeaf(expr); break;
  }
  if (parenthesized)
    closeBracket(")", parens.isValid() ? lastChar(parens) : llvm::SMLoc());
}
