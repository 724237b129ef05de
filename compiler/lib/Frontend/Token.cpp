//===- Token.cpp - Tokens of the modelc language --------------------------===//
//
// Names and spellings of token kinds, and Token::describe() used by the
// parser's "expected X, found Y" diagnostics.
//
//===----------------------------------------------------------------------===//

#include "modelc/Frontend/Token.h"

using namespace modelc;

llvm::StringRef modelc::getTokenKindName(TokenKind kind) {
  switch (kind) {
  case TokenKind::Eof: return "eof";
  case TokenKind::Error: return "error";
  case TokenKind::Identifier: return "identifier";
  case TokenKind::IntLit: return "int";
  case TokenKind::FloatLit: return "float";
  case TokenKind::StringLit: return "string";
  case TokenKind::KwImport: return "kw_import";
  case TokenKind::KwAs: return "kw_as";
  case TokenKind::KwFn: return "kw_fn";
  case TokenKind::KwModel: return "kw_model";
  case TokenKind::KwData: return "kw_data";
  case TokenKind::KwTrain: return "kw_train";
  case TokenKind::KwOn: return "kw_on";
  case TokenKind::KwParam: return "kw_param";
  case TokenKind::KwReturn: return "kw_return";
  case TokenKind::KwTrue: return "kw_true";
  case TokenKind::KwFalse: return "kw_false";
  case TokenKind::LParen: return "l_paren";
  case TokenKind::RParen: return "r_paren";
  case TokenKind::LBracket: return "l_bracket";
  case TokenKind::RBracket: return "r_bracket";
  case TokenKind::LBrace: return "l_brace";
  case TokenKind::RBrace: return "r_brace";
  case TokenKind::Comma: return "comma";
  case TokenKind::Colon: return "colon";
  case TokenKind::Semi: return "semi";
  case TokenKind::Equal: return "equal";
  case TokenKind::Dot: return "dot";
  case TokenKind::Ellipsis: return "ellipsis";
  case TokenKind::Arrow: return "arrow";
  case TokenKind::PipeOp: return "pipe";
  case TokenKind::Plus: return "plus";
  case TokenKind::Minus: return "minus";
  case TokenKind::Star: return "star";
  case TokenKind::Slash: return "slash";
  case TokenKind::StarStar: return "starstar";
  case TokenKind::At: return "at";
  case TokenKind::EqEq: return "eqeq";
  case TokenKind::NotEq: return "noteq";
  case TokenKind::Less: return "less";
  case TokenKind::LessEq: return "lesseq";
  case TokenKind::Greater: return "greater";
  case TokenKind::GreaterEq: return "greatereq";
  }
  return "unknown";
}

llvm::StringRef modelc::getTokenKindSpelling(TokenKind kind) {
  switch (kind) {
  case TokenKind::KwImport: return "import";
  case TokenKind::KwAs: return "as";
  case TokenKind::KwFn: return "fn";
  case TokenKind::KwModel: return "model";
  case TokenKind::KwData: return "data";
  case TokenKind::KwTrain: return "train";
  case TokenKind::KwOn: return "on";
  case TokenKind::KwParam: return "param";
  case TokenKind::KwReturn: return "return";
  case TokenKind::KwTrue: return "true";
  case TokenKind::KwFalse: return "false";
  case TokenKind::LParen: return "(";
  case TokenKind::RParen: return ")";
  case TokenKind::LBracket: return "[";
  case TokenKind::RBracket: return "]";
  case TokenKind::LBrace: return "{";
  case TokenKind::RBrace: return "}";
  case TokenKind::Comma: return ",";
  case TokenKind::Colon: return ":";
  case TokenKind::Semi: return ";";
  case TokenKind::Equal: return "=";
  case TokenKind::Dot: return ".";
  case TokenKind::Ellipsis: return "...";
  case TokenKind::Arrow: return "->";
  case TokenKind::PipeOp: return "|>";
  case TokenKind::Plus: return "+";
  case TokenKind::Minus: return "-";
  case TokenKind::Star: return "*";
  case TokenKind::Slash: return "/";
  case TokenKind::StarStar: return "**";
  case TokenKind::At: return "@";
  case TokenKind::EqEq: return "==";
  case TokenKind::NotEq: return "!=";
  case TokenKind::Less: return "<";
  case TokenKind::LessEq: return "<=";
  case TokenKind::Greater: return ">";
  case TokenKind::GreaterEq: return ">=";
  default: return "";
  }
}

std::string Token::describe() const {
  switch (kind) {
  case TokenKind::Eof: return "end of file";
  case TokenKind::Error: return "invalid character '" + spelling.str() + "'";
  case TokenKind::Identifier: return "identifier '" + spelling.str() + "'";
  case TokenKind::IntLit: return "integer literal '" + spelling.str() + "'";
  case TokenKind::FloatLit: return "float literal '" + spelling.str() + "'";
  case TokenKind::StringLit: {
    llvm::StringRef s = spelling;
    if (s.size() > 24)
      return "string literal " + s.take_front(20).str() + "...\"";
    return "string literal " + s.str();
  }
  default:
    break;
  }
  if (isKeyword())
    return "keyword '" + spelling.str() + "'";
  return "'" + spelling.str() + "'";
}
