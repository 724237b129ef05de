//===- ParseStmt.cpp - Blocks, statements and error recovery --------------===//
//
// The bodies of fn/model (statements) and data/train (fields), and the
// recovery routines: after an error the parser skips to the next token that
// starts a statement on a new line, a ';', or the '}' closing the block, so
// that one run reports several independent errors.
//
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"

using namespace modelc;
using namespace modelc::detail;

static bool isDeclKeyword(TokenKind kind) {
  return kind == TokenKind::KwFn || kind == TokenKind::KwModel ||
         kind == TokenKind::KwData || kind == TokenKind::KwTrain ||
         kind == TokenKind::KwImport;
}

static bool isOpening(TokenKind kind) {
  return kind == TokenKind::LParen || kind == TokenKind::LBracket ||
         kind == TokenKind::LBrace;
}

static bool isClosing(TokenKind kind) {
  return kind == TokenKind::RParen || kind == TokenKind::RBracket ||
         kind == TokenKind::RBrace;
}

bool ParserImpl::parseBlock(BlockKind kind, llvm::StringRef owner,
                            std::vector<StmtPtr> *stmts,
                            std::vector<Field> *fields) {
  llvm::SMLoc open = tok.getLoc();
  consume(); // '{'
  while (!tok.is(TokenKind::RBrace) && !tok.is(TokenKind::Eof)) {
    if (diags.hasTooManyErrors())
      return false;
    if (consumeIf(TokenKind::Semi))
      continue;
    // A declaration keyword in column 1 almost certainly starts the next
    // top-level declaration: this block lacks its '}'.
    if (isDeclKeyword(tok.kind) && tok.atLineStart &&
        diags.getLineAndColumn(tok.getLoc()).second == 1 &&
        !peek().is(TokenKind::Equal)) {
      errorUnclosed(TokenKind::RBrace, "the body of " + owner, open);
      return false;
    }
    uint64_t before = consumed;
    bool ok;
    if (kind == BlockKind::Function) {
      StmtPtr stmt = parseStmt(kind);
      ok = stmt != nullptr;
      if (stmt)
        stmts->push_back(std::move(stmt));
    } else {
      ok = parseField(*fields);
    }
    if (!ok) {
      syncStatement();
      if (consumed == before && !tok.is(TokenKind::RBrace))
        consume();
    }
  }
  if (tok.is(TokenKind::Eof)) {
    errorUnclosed(TokenKind::RBrace, "the body of " + owner, open);
    return false;
  }
  consume(); // '}'
  return true;
}

/// Handles tokens that cannot start a statement of this block; returns true
/// (after reporting and skipping) if it did.
bool ParserImpl::rejectMisplacedStmt(BlockKind kind) {
  if (tok.isKeyword() && peek().is(TokenKind::Equal)) {
    diags.error(tok.range, "'" + tok.spelling +
                               "' is a keyword and cannot be used as a name");
    consume();
    return true;
  }
  if (isDeclKeyword(tok.kind)) {
    diags.error(tok.range, "nested '" + tok.spelling +
                               "' declaration: declarations are only allowed "
                               "at top level");
    skipNestedDecl();
    return true;
  }
  bool paramOrReturn =
      tok.is(TokenKind::KwParam) || tok.is(TokenKind::KwReturn);
  if (paramOrReturn && kind != BlockKind::Function) {
    diags.error(tok.range, "'" + tok.spelling +
                               "' is only allowed inside a fn or model body");
    consume();
    return true;
  }
  if (tok.is(TokenKind::RParen) || tok.is(TokenKind::RBracket)) {
    diags.error(tok.range, "unmatched '" + tok.spelling + "'");
    return true;
  }
  return false;
}

StmtPtr ParserImpl::parseStmt(BlockKind kind) {
  if (rejectMisplacedStmt(kind))
    return nullptr;
  llvm::SMLoc start = tok.getLoc();
  if (consumeIf(TokenKind::KwReturn)) {
    ExprPtr value = parseExpr();
    if (!value)
      return nullptr;
    return std::make_unique<ReturnStmt>(rangeFrom(start), std::move(value));
  }
  if (consumeIf(TokenKind::KwParam))
    return parseParamStmt(start);
  if (!tok.is(TokenKind::Identifier)) {
    errorExpected("a statement (a name to bind, 'param' or 'return')");
    return nullptr;
  }
  std::string name = tok.spelling.str();
  llvm::SMRange nameRange = tok.range;
  consume();
  if (!consumeIf(TokenKind::Equal)) {
    errorExpected("'=' after '" + name + "'");
    return nullptr;
  }
  ExprPtr value = parseExpr();
  if (!value)
    return nullptr;
  return std::make_unique<LetStmt>(rangeFrom(start), std::move(name),
                                   nameRange, std::move(value));
}

StmtPtr ParserImpl::parseParamStmt(llvm::SMLoc start) {
  if (!tok.is(TokenKind::Identifier)) {
    errorExpected("a parameter name after 'param'");
    return nullptr;
  }
  std::string name = tok.spelling.str();
  llvm::SMRange nameRange = tok.range;
  consume();
  if (!consumeIf(TokenKind::Colon)) {
    errorExpected("':' after parameter name '" + name + "'");
    return nullptr;
  }
  TypeRef type;
  if (!parseType(type, "for parameter '" + name + "'"))
    return nullptr;
  if (!consumeIf(TokenKind::Equal)) {
    errorExpected("'=' and an initialiser for parameter '" + name + "'");
    return nullptr;
  }
  ExprPtr init = parseExpr();
  if (!init)
    return nullptr;
  return std::make_unique<ParamStmt>(rangeFrom(start), std::move(name),
                                     nameRange, std::move(type),
                                     std::move(init));
}

bool ParserImpl::parseField(std::vector<Field> &fields) {
  // Field names may be keywords (`train = idx(...)` in a data block).
  bool keywordName = tok.isKeyword() && peek().is(TokenKind::Equal);
  if (!keywordName && rejectMisplacedStmt(BlockKind::Data))
    return false;
  if (!tok.is(TokenKind::Identifier) && !keywordName) {
    errorExpected("a field ('name = value')");
    return false;
  }
  Field field;
  field.name = tok.spelling.str();
  field.nameRange = tok.range;
  consume();
  if (!consumeIf(TokenKind::Equal)) {
    errorExpected("'=' after field name '" + field.name + "'");
    return false;
  }
  field.value = parseExpr();
  if (!field.value)
    return false;
  field.range = rangeFrom(field.nameRange.Start);
  fields.push_back(std::move(field));
  return true;
}

void ParserImpl::skipNestedDecl() {
  while (!tok.is(TokenKind::LBrace) && !tok.is(TokenKind::RBrace) &&
         !tok.is(TokenKind::Eof))
    consume();
  if (!tok.is(TokenKind::LBrace))
    return;
  int depth = 0;
  do {
    if (tok.is(TokenKind::LBrace))
      ++depth;
    else if (tok.is(TokenKind::RBrace))
      --depth;
    consume();
  } while (depth > 0 && !tok.is(TokenKind::Eof));
}

bool ParserImpl::atStatementStart() {
  switch (tok.kind) {
  case TokenKind::KwParam:
  case TokenKind::KwReturn:
    return true;
  case TokenKind::Identifier:
    return peek().is(TokenKind::Equal);
  default:
    return isDeclKeyword(tok.kind) ||
           (tok.isKeyword() && peek().is(TokenKind::Equal));
  }
}

void ParserImpl::syncStatement() {
  int depth = 0;
  while (!tok.is(TokenKind::Eof)) {
    if (depth <= 0 && tok.is(TokenKind::RBrace))
      return;
    if (depth <= 0 && tok.is(TokenKind::Semi)) {
      consume();
      return;
    }
    if (tok.atLineStart && atStatementStart())
      return;
    if (isOpening(tok.kind))
      ++depth;
    else if (isClosing(tok.kind))
      --depth;
    consume();
  }
}

void ParserImpl::syncTopLevel() {
  int depth = 0;
  while (!tok.is(TokenKind::Eof)) {
    if (depth <= 0 && tok.atLineStart && isDeclKeyword(tok.kind))
      return;
    if (tok.is(TokenKind::LBrace))
      ++depth;
    else if (tok.is(TokenKind::RBrace) && depth > 0)
      --depth;
    consume();
  }
}
