//===- Parser.cpp - Declarations, statements, types and recovery ----------===//
//
// The top of the recursive-descent parser: module, imports, the four
// declaration kinds, signatures, types and shapes, block statements, and
// error recovery (resynchronisation at the next statement or declaration).
// Expressions are in ParseExpr.cpp.
//
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"

#include "modelc/Frontend/Parser.h"

using namespace modelc;
using namespace modelc::detail;

ParserImpl::ParserImpl(DiagnosticEngine &diags, unsigned bufferId,
                       std::vector<Comment> *comments)
    : diags(diags), bufferId(bufferId), lexer(diags, bufferId, comments) {
  tok = lexer.next();
  prevEnd = tok.getLoc();
}

//===----------------------------------------------------------------------===//
// Token helpers
//===----------------------------------------------------------------------===//

const Token &ParserImpl::peek(unsigned n) {
  while (ahead.size() < n)
    ahead.push_back(lexer.next());
  return ahead[n - 1];
}

void ParserImpl::consume() {
  if (tok.is(TokenKind::Eof))
    return;
  prevEnd = tok.range.End;
  ++consumed;
  if (ahead.empty()) {
    tok = lexer.next();
  } else {
    tok = std::move(ahead.front());
    ahead.pop_front();
  }
}

bool ParserImpl::consumeIf(TokenKind kind) {
  if (!tok.is(kind))
    return false;
  consume();
  return true;
}

void ParserImpl::errorExpected(const llvm::Twine &what) {
  if (tok.is(TokenKind::Error))
    return; // The lexer already reported this character.
  diags.error(tok.getLoc(), "expected " + what + ", found " + tok.describe(),
              {tok.range});
}

void ParserImpl::errorUnclosed(TokenKind close, const llvm::Twine &what,
                               llvm::SMLoc open) {
  if (tok.is(TokenKind::Error))
    return; // The lexer already reported this character.
  llvm::StringRef closeText = getTokenKindSpelling(close);
  errorExpected("'" + closeText + "' to close " + what);
  const char *openText = close == TokenKind::RParen     ? "("
                         : close == TokenKind::RBracket ? "["
                                                        : "{";
  diags.note(open, llvm::Twine("to match this '") + openText + "'");
}

static bool isDeclKeyword(TokenKind kind) {
  return kind == TokenKind::KwFn || kind == TokenKind::KwModel ||
         kind == TokenKind::KwData || kind == TokenKind::KwTrain ||
         kind == TokenKind::KwImport;
}

//===----------------------------------------------------------------------===//
// Module and declarations
//===----------------------------------------------------------------------===//

std::unique_ptr<Module> ParserImpl::parseModule() {
  llvm::StringRef name =
      diags.getSourceMgr().getMemoryBuffer(bufferId)->getBufferIdentifier();
  auto module = std::make_unique<Module>(name.str(), bufferId);
  bool sawDecl = false;
  while (!tok.is(TokenKind::Eof) && !diags.hasTooManyErrors()) {
    if (consumeIf(TokenKind::Semi))
      continue;
    uint64_t before = consumed;
    bool ok;
    if (tok.is(TokenKind::KwImport)) {
      ok = parseImport(*module, sawDecl);
    } else {
      sawDecl |= isDeclKeyword(tok.kind);
      DeclPtr decl = parseDecl();
      ok = decl != nullptr;
      if (decl)
        module->addDecl(std::move(decl));
    }
    if (!ok) {
      syncTopLevel();
      if (consumed == before)
        consume();
    }
  }
  return module;
}

bool ParserImpl::parseImport(Module &module, bool afterDecl) {
  llvm::SMLoc start = tok.getLoc();
  consume(); // 'import'
  Import import;
  const char *what = "a module name after 'import'";
  do {
    if (!tok.is(TokenKind::Identifier)) {
      errorExpected(what);
      return false;
    }
    import.path.push_back(tok.spelling.str());
    consume();
    what = "a module name after '.'";
  } while (consumeIf(TokenKind::Dot));
  if (consumeIf(TokenKind::KwAs)) {
    if (!tok.is(TokenKind::Identifier)) {
      errorExpected("a name after 'as'");
      return false;
    }
    import.alias = tok.spelling.str();
    consume();
  }
  import.range = rangeFrom(start);
  if (afterDecl) {
    diags.error(import.range, "imports must come before all declarations");
    return true;
  }
  module.addImport(std::move(import));
  return true;
}

DeclPtr ParserImpl::parseDecl() {
  switch (tok.kind) {
  case TokenKind::KwFn:
  case TokenKind::KwModel:
    return parseFuncDecl();
  case TokenKind::KwData:
  case TokenKind::KwTrain:
    return parseDataOrTrainDecl();
  case TokenKind::KwParam:
  case TokenKind::KwReturn:
    diags.error(tok.range, "'" + tok.spelling +
                               "' is only allowed inside a fn or model body");
    return nullptr;
  case TokenKind::RParen:
  case TokenKind::RBracket:
  case TokenKind::RBrace:
    diags.error(tok.range, "unmatched '" + tok.spelling + "'");
    return nullptr;
  default:
    errorExpected("'fn', 'model', 'data' or 'train' at top level");
    return nullptr;
  }
}

DeclPtr ParserImpl::parseFuncDecl() {
  llvm::SMLoc start = tok.getLoc();
  bool isModel = tok.is(TokenKind::KwModel);
  std::string keyword = tok.spelling.str();
  consume();
  if (!tok.is(TokenKind::Identifier)) {
    errorExpected("a name after '" + keyword + "'");
    return nullptr;
  }
  std::string name = tok.spelling.str();
  llvm::SMRange nameRange = tok.range;
  consume();
  std::string owner = keyword + " '" + name + "'";
  if (!tok.is(TokenKind::LParen)) {
    errorExpected("'(' to start the parameters of " + owner);
    return nullptr;
  }
  std::vector<Param> params;
  std::optional<TypeRef> result;
  if (!parseSignature(params, result))
    return nullptr;
  if (!tok.is(TokenKind::LBrace)) {
    errorExpected("'{' to start the body of " + owner);
    return nullptr;
  }
  std::vector<StmtPtr> body;
  parseBlock(BlockKind::Function, owner, &body, nullptr);
  return std::make_unique<FuncDecl>(
      isModel ? Decl::Kind::Model : Decl::Kind::Fn, rangeFrom(start),
      std::move(name), nameRange, std::move(params), std::move(result),
      std::move(body));
}

DeclPtr ParserImpl::parseDataOrTrainDecl() {
  llvm::SMLoc start = tok.getLoc();
  bool isTrain = tok.is(TokenKind::KwTrain);
  std::string keyword = tok.spelling.str();
  consume();
  if (!tok.is(TokenKind::Identifier)) {
    errorExpected("a " + llvm::Twine(isTrain ? "model" : "data set") +
                  " name after '" + keyword + "'");
    return nullptr;
  }
  std::string name = tok.spelling.str();
  llvm::SMRange nameRange = tok.range;
  consume();
  std::string dataName;
  llvm::SMRange dataRange;
  if (isTrain && !parseTrainHeader(name, dataName, dataRange))
    return nullptr;
  std::string owner = keyword + " '" + name + "'";
  if (!tok.is(TokenKind::LBrace)) {
    errorExpected("'{' to start the body of " + owner);
    return nullptr;
  }
  std::vector<Field> fields;
  parseBlock(isTrain ? BlockKind::Train : BlockKind::Data, owner, nullptr,
             &fields);
  if (isTrain)
    return std::make_unique<TrainDecl>(rangeFrom(start), std::move(name),
                                       nameRange, std::move(dataName),
                                       dataRange, std::move(fields));
  return std::make_unique<DataDecl>(rangeFrom(start), std::move(name),
                                    nameRange, std::move(fields));
}

bool ParserImpl::parseTrainHeader(const std::string &model,
                                  std::string &dataName,
                                  llvm::SMRange &dataRange) {
  if (!consumeIf(TokenKind::KwOn)) {
    errorExpected("'on' after 'train " + model + "'");
    return false;
  }
  if (!tok.is(TokenKind::Identifier)) {
    errorExpected("a data set name after 'on'");
    return false;
  }
  dataName = tok.spelling.str();
  dataRange = tok.range;
  consume();
  return true;
}

//===----------------------------------------------------------------------===//
// Signatures and types
//===----------------------------------------------------------------------===//

bool ParserImpl::parseSignature(std::vector<Param> &params,
                                std::optional<TypeRef> &result) {
  llvm::SMLoc open = tok.getLoc();
  consume(); // '('
  while (!tok.is(TokenKind::RParen)) {
    if (!parseParam(params))
      return false;
    if (consumeIf(TokenKind::Comma))
      continue;
    if (!tok.is(TokenKind::RParen)) {
      errorUnclosed(TokenKind::RParen, "the parameter list", open);
      return false;
    }
  }
  consume(); // ')'
  if (consumeIf(TokenKind::Arrow)) {
    TypeRef type;
    if (!parseType(type, "after '->'"))
      return false;
    result = std::move(type);
  }
  return true;
}

bool ParserImpl::parseParam(std::vector<Param> &params) {
  if (!tok.is(TokenKind::Identifier)) {
    errorExpected("a parameter name");
    return false;
  }
  Param param;
  param.name = tok.spelling.str();
  param.nameRange = tok.range;
  consume();
  if (!consumeIf(TokenKind::Colon)) {
    errorExpected("':' after parameter name '" + param.name + "'");
    return false;
  }
  if (!parseType(param.type, "for parameter '" + param.name + "'"))
    return false;
  if (consumeIf(TokenKind::Equal)) {
    param.defaultValue = parseExpr();
    if (!param.defaultValue)
      return false;
  }
  param.range = rangeFrom(param.nameRange.Start);
  params.push_back(std::move(param));
  return true;
}

bool ParserImpl::parseType(TypeRef &type, llvm::StringRef context) {
  if (!tok.is(TokenKind::Identifier)) {
    errorExpected("a type " + context);
    return false;
  }
  type.name = tok.spelling.str();
  type.nameRange = tok.range;
  type.range = tok.range;
  consume();
  if (!tok.is(TokenKind::LBracket))
    return true;
  llvm::SMLoc open = tok.getLoc();
  consume();
  type.hasShape = true;
  if (tok.is(TokenKind::RBracket)) {
    diags.error(llvm::SMRange(type.nameRange.Start, tok.range.End),
                "empty shape '" + type.name + "[]': write '" + type.name +
                    "' for a scalar");
    return false;
  }
  llvm::SMLoc ellipsisLoc;
  while (true) {
    if (!parseDim(type, ellipsisLoc))
      return false;
    if (consumeIf(TokenKind::Comma))
      continue;
    if (consumeIf(TokenKind::RBracket))
      break;
    errorUnclosed(TokenKind::RBracket, "the shape of '" + type.name + "'",
                  open);
    return false;
  }
  type.range = rangeFrom(type.nameRange.Start);
  return true;
}

bool ParserImpl::parseDim(TypeRef &type, llvm::SMLoc &ellipsisLoc) {
  Dim dim;
  dim.range = tok.range;
  switch (tok.kind) {
  case TokenKind::Ellipsis:
    if (ellipsisLoc.isValid()) {
      diags.error(tok.range, "a shape can contain at most one '...'");
      diags.note(ellipsisLoc, "the first '...' is here");
      return false;
    }
    ellipsisLoc = tok.getLoc();
    dim.kind = Dim::Kind::Ellipsis;
    break;
  case TokenKind::Identifier:
    dim.kind = Dim::Kind::Symbol;
    dim.name = tok.spelling.str();
    break;
  case TokenKind::IntLit:
    dim.kind = Dim::Kind::Constant;
    dim.value = tok.intValue;
    break;
  case TokenKind::Error:
    return false; // Already reported by the lexer.
  default:
    diags.error(tok.getLoc(),
                "invalid dimension: expected an integer, a name or '...', "
                "found " + tok.describe(),
                {tok.range});
    return false;
  }
  consume();
  type.dims.push_back(std::move(dim));
  return true;
}

std::unique_ptr<Module> modelc::parseModule(DiagnosticEngine &diags,
                                            unsigned bufferId,
                                            std::vector<Comment> *comments) {
  ParserImpl parser(diags, bufferId, comments);
  return parser.parseModule();
}
