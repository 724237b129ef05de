//===- ParseExpr.cpp - Expression parsing ---------------------------------===//
//
// The expression grammar, lowest precedence first:
//   pipe `|>`, comparison, `+ -`, `* / @`, unary `-`, `**` (right-assoc),
//   postfix calls, subscripts `x[i, a:b:c, ...]` and member access,
//   primaries.
// Nesting is bounded (kMaxNesting) so hostile input cannot overflow the
// stack while parsing, dumping, elaborating or destroying the tree. Each
// parenthesis, call, subscript, member access, list, operator of a chain,
// unary minus and `|>` stage is one level of what it contains.
//
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"

#include "llvm/ADT/STLExtras.h"

#include <utility>

using namespace modelc;
using namespace modelc::detail;

bool ParserImpl::enterNesting() {
  if (++nesting <= kMaxNesting)
    return true;
  diags.error(tok.range, "expression is nested too deeply (the limit is " +
                             llvm::Twine(kMaxNesting) + " levels)");
  return false;
}

ExprPtr ParserImpl::parseExpr() {
  NestingScope scope(nesting);
  // A call's argument or a subscript's entry: its call or subscript counted
  // the level already.
  bool counted = std::exchange(levelCounted, false);
  if (!counted && !enterNesting())
    return nullptr;
  llvm::SMLoc start = tok.getLoc();
  ExprPtr lhs = parseCompare();
  while (lhs && tok.is(TokenKind::PipeOp)) {
    if (!enterNesting())
      return nullptr;
    llvm::SMLoc opLoc = tok.getLoc();
    consume();
    ExprPtr rhs = parsePipeTarget();
    if (!rhs)
      return nullptr;
    lhs = std::make_unique<PipeExpr>(rangeFrom(start), std::move(lhs),
                                     std::move(rhs), opLoc);
  }
  return lhs;
}

ExprPtr ParserImpl::parsePipeTarget() {
  if (!tok.is(TokenKind::Identifier)) {
    errorExpected("a function name or call after '|>'");
    return nullptr;
  }
  return parsePostfix();
}

static std::optional<BinaryOp> getCompareOp(TokenKind kind) {
  switch (kind) {
  case TokenKind::EqEq: return BinaryOp::Eq;
  case TokenKind::NotEq: return BinaryOp::Ne;
  case TokenKind::Less: return BinaryOp::Lt;
  case TokenKind::LessEq: return BinaryOp::Le;
  case TokenKind::Greater: return BinaryOp::Gt;
  case TokenKind::GreaterEq: return BinaryOp::Ge;
  default: return std::nullopt;
  }
}

ExprPtr ParserImpl::parseCompare() {
  llvm::SMLoc start = tok.getLoc();
  ExprPtr lhs = parseAdditive();
  std::optional<BinaryOp> op = getCompareOp(tok.kind);
  if (!lhs || !op)
    return lhs;
  llvm::SMLoc opLoc = tok.getLoc();
  consume();
  ExprPtr rhs = parseAdditive();
  if (!rhs)
    return nullptr;
  if (getCompareOp(tok.kind)) {
    diags.error(tok.range, "comparison operators cannot be chained; add "
                           "parentheses");
    return nullptr;
  }
  return std::make_unique<BinaryExpr>(rangeFrom(start), *op, std::move(lhs),
                                      std::move(rhs), opLoc);
}

ExprPtr ParserImpl::parseAdditive() {
  NestingScope scope(nesting);
  llvm::SMLoc start = tok.getLoc();
  ExprPtr lhs = parseTerm();
  while (lhs && (tok.is(TokenKind::Plus) || tok.is(TokenKind::Minus))) {
    if (!enterNesting())
      return nullptr;
    BinaryOp op = tok.is(TokenKind::Plus) ? BinaryOp::Add : BinaryOp::Sub;
    llvm::SMLoc opLoc = tok.getLoc();
    consume();
    ExprPtr rhs = parseTerm();
    if (!rhs)
      return nullptr;
    lhs = std::make_unique<BinaryExpr>(rangeFrom(start), op, std::move(lhs),
                                       std::move(rhs), opLoc);
  }
  return lhs;
}

ExprPtr ParserImpl::parseTerm() {
  NestingScope scope(nesting);
  llvm::SMLoc start = tok.getLoc();
  ExprPtr lhs = parseUnary();
  while (lhs && (tok.is(TokenKind::Star) || tok.is(TokenKind::Slash) ||
                 tok.is(TokenKind::At))) {
    if (!enterNesting())
      return nullptr;
    BinaryOp op = tok.is(TokenKind::Star)    ? BinaryOp::Mul
                  : tok.is(TokenKind::Slash) ? BinaryOp::Div
                                             : BinaryOp::MatMul;
    llvm::SMLoc opLoc = tok.getLoc();
    consume();
    ExprPtr rhs = parseUnary();
    if (!rhs)
      return nullptr;
    lhs = std::make_unique<BinaryExpr>(rangeFrom(start), op, std::move(lhs),
                                       std::move(rhs), opLoc);
  }
  return lhs;
}

ExprPtr ParserImpl::parseUnary() {
  NestingScope scope(nesting);
  if (!tok.is(TokenKind::Minus))
    return parsePower();
  if (!enterNesting())
    return nullptr;
  llvm::SMLoc start = tok.getLoc();
  consume();
  ExprPtr operand = parseUnary();
  if (!operand)
    return nullptr;
  return std::make_unique<UnaryExpr>(rangeFrom(start), std::move(operand));
}

ExprPtr ParserImpl::parsePower() {
  llvm::SMLoc start = tok.getLoc();
  ExprPtr base = parsePostfix();
  if (!base || !tok.is(TokenKind::StarStar))
    return base;
  llvm::SMLoc opLoc = tok.getLoc();
  consume();
  NestingScope scope(nesting);
  if (!enterNesting())
    return nullptr;
  ExprPtr exponent = parseUnary();
  if (!exponent)
    return nullptr;
  return std::make_unique<BinaryExpr>(rangeFrom(start), BinaryOp::Pow,
                                      std::move(base), std::move(exponent),
                                      opLoc);
}

ExprPtr ParserImpl::parsePostfix() {
  NestingScope scope(nesting);
  llvm::SMLoc start = tok.getLoc();
  ExprPtr e = parsePrimary();
  while (e) {
    // A '(' or '[' that starts a new line does not continue a call or a
    // subscript.
    bool isCall = tok.is(TokenKind::LParen) && !tok.atLineStart;
    bool isIndex = tok.is(TokenKind::LBracket) && !tok.atLineStart;
    if (!isCall && !isIndex && !tok.is(TokenKind::Dot))
      break;
    if (!enterNesting())
      return nullptr;
    if (isCall) {
      e = parseCall(std::move(e));
      continue;
    }
    if (isIndex) {
      e = parseSubscript(std::move(e));
      continue;
    }
    consume(); // '.'
    if (!tok.is(TokenKind::Identifier)) {
      errorExpected("a member name after '.'");
      return nullptr;
    }
    std::string name = tok.spelling.str();
    llvm::SMRange nameRange = tok.range;
    consume();
    e = std::make_unique<MemberExpr>(rangeFrom(start), std::move(e),
                                     std::move(name), nameRange);
  }
  return e;
}

/// "call to 'nn.linear'" (or just "call" for an unusual callee).
static std::string describeCall(const Expr &callee) {
  if (auto *name = llvm::dyn_cast<NameExpr>(&callee))
    return "call to '" + name->getName().str() + "'";
  if (auto *member = llvm::dyn_cast<MemberExpr>(&callee))
    if (std::optional<std::string> path = member->getDottedPath())
      return "call to '" + *path + "'";
  return "call";
}

ExprPtr ParserImpl::parseCall(ExprPtr callee) {
  llvm::SMLoc lParen = tok.getLoc();
  consume();
  std::vector<Arg> args;
  while (!tok.is(TokenKind::RParen)) {
    if (!parseArg(args))
      return nullptr;
    if (consumeIf(TokenKind::Comma))
      continue;
    if (!tok.is(TokenKind::RParen)) {
      errorUnclosed(TokenKind::RParen, describeCall(*callee), lParen);
      return nullptr;
    }
  }
  consume(); // ')'
  llvm::SMRange range(callee->getLoc(), prevEnd);
  return std::make_unique<CallExpr>(range, std::move(callee), std::move(args),
                                    lParen);
}

/// True when the current token ends one part of a slice entry.
static bool endsSlicePart(TokenKind kind) {
  return kind == TokenKind::Colon || kind == TokenKind::Comma ||
         kind == TokenKind::RBracket;
}

bool ParserImpl::parseIndexItem(std::vector<IndexItem> &items) {
  IndexItem item;
  llvm::SMLoc start = tok.getLoc();
  if (tok.is(TokenKind::Comma) || tok.is(TokenKind::RBracket)) {
    errorExpected("an index, a slice or '...' in the subscript");
    return false;
  }
  if (consumeIf(TokenKind::Ellipsis)) {
    item.kind = IndexItem::Kind::Ellipsis;
    item.range = rangeFrom(start);
    items.push_back(std::move(item));
    return true;
  }
  // Up to three parts separated by ':' (start, stop, step), each optional.
  ExprPtr parts[3];
  unsigned colons = 0;
  for (unsigned i = 0; i < 3; ++i) {
    if (!endsSlicePart(tok.kind)) {
      levelCounted = true; // the subscript's level
      if (!(parts[i] = parseExpr()))
        return false;
    }
    if (i == 2 || !consumeIf(TokenKind::Colon))
      break;
    ++colons;
  }
  if (tok.is(TokenKind::Colon)) {
    diags.error(tok.range, "a slice has at most three parts (start:stop:step)");
    return false;
  }
  item.range = rangeFrom(start);
  if (colons == 0) {
    item.index = std::move(parts[0]);
  } else {
    item.kind = IndexItem::Kind::Slice;
    item.start = std::move(parts[0]);
    item.stop = std::move(parts[1]);
    item.step = std::move(parts[2]);
  }
  items.push_back(std::move(item));
  return true;
}

ExprPtr ParserImpl::parseSubscript(ExprPtr base) {
  llvm::SMLoc lBracket = tok.getLoc();
  consume(); // '['
  std::vector<IndexItem> items;
  if (tok.is(TokenKind::RBracket)) {
    errorExpected("an index, a slice or '...' in the subscript");
    return nullptr;
  }
  while (!tok.is(TokenKind::RBracket)) {
    if (!parseIndexItem(items))
      return nullptr;
    if (consumeIf(TokenKind::Comma))
      continue;
    if (!tok.is(TokenKind::RBracket)) {
      errorUnclosed(TokenKind::RBracket, "subscript", lBracket);
      return nullptr;
    }
  }
  consume(); // ']'
  llvm::SMRange range(base->getLoc(), prevEnd);
  return std::make_unique<IndexExpr>(range, std::move(base), std::move(items),
                                     lBracket);
}

bool ParserImpl::parseArg(std::vector<Arg> &args) {
  Arg arg;
  if (tok.is(TokenKind::Identifier) && peek().is(TokenKind::Equal)) {
    arg.keyword = tok.spelling.str();
    arg.keywordRange = tok.range;
    consume();
    consume(); // '='
  }
  levelCounted = true; // the call's level
  arg.value = parseExpr();
  if (!arg.value)
    return false;
  auto firstKeyword = llvm::find_if(args, [](const Arg &a) {
    return a.isKeyword();
  });
  if (!arg.isKeyword()) {
    if (firstKeyword != args.end()) {
      diags.error(arg.value->getRange(),
                  "positional argument after keyword argument");
      diags.note(firstKeyword->keywordRange.Start,
                 "keyword argument '" + firstKeyword->keyword + "' is here",
                 {firstKeyword->keywordRange});
      return true; // Reported; the argument is dropped.
    }
    args.push_back(std::move(arg));
    return true;
  }
  auto previous = llvm::find_if(
      args, [&](const Arg &a) { return a.keyword == arg.keyword; });
  if (previous != args.end()) {
    diags.error(arg.keywordRange,
                "duplicate keyword argument '" + arg.keyword + "'");
    diags.note(previous->keywordRange.Start,
               "'" + arg.keyword + "' was first given here",
               {previous->keywordRange});
    return true;
  }
  args.push_back(std::move(arg));
  return true;
}

ExprPtr ParserImpl::parseParenOrList() {
  llvm::SMLoc open = tok.getLoc();
  if (consumeIf(TokenKind::LParen)) {
    ExprPtr inner = parseExpr();
    if (!inner)
      return nullptr;
    if (!consumeIf(TokenKind::RParen)) {
      errorUnclosed(TokenKind::RParen, "parenthesized expression", open);
      return nullptr;
    }
    inner->setParenRange(rangeFrom(open));
    return inner;
  }
  consume(); // '['
  std::vector<ExprPtr> elements;
  while (!tok.is(TokenKind::RBracket)) {
    ExprPtr e = parseExpr();
    if (!e)
      return nullptr;
    elements.push_back(std::move(e));
    if (consumeIf(TokenKind::Comma))
      continue;
    if (!tok.is(TokenKind::RBracket)) {
      errorUnclosed(TokenKind::RBracket, "list", open);
      return nullptr;
    }
  }
  consume(); // ']'
  return std::make_unique<ListExpr>(rangeFrom(open), std::move(elements));
}

ExprPtr ParserImpl::parsePrimary() {
  ExprPtr e;
  switch (tok.kind) {
  case TokenKind::IntLit:
    e = std::make_unique<IntLitExpr>(tok.range, tok.intValue);
    break;
  case TokenKind::FloatLit:
    e = std::make_unique<FloatLitExpr>(tok.range, tok.floatValue,
                                       tok.spelling.str());
    break;
  case TokenKind::StringLit:
    e = std::make_unique<StringLitExpr>(tok.range, tok.stringValue);
    break;
  case TokenKind::KwTrue:
  case TokenKind::KwFalse:
    e = std::make_unique<BoolLitExpr>(tok.range, tok.is(TokenKind::KwTrue));
    break;
  case TokenKind::Identifier:
    e = std::make_unique<NameExpr>(tok.range, tok.spelling.str());
    break;
  case TokenKind::LParen:
  case TokenKind::LBracket:
    return parseParenOrList();
  default:
    errorExpected("an expression");
    return nullptr;
  }
  consume();
  return e;
}
