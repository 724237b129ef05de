//===- Token.h - Tokens of the modelc language ------------------*- C++ -*-===//
//
// The token kinds produced by the Lexer and the Token value type: kind,
// spelling (a view into the source buffer), source range and whether the
// token is the first on its line (the parser uses that to decide that a '('
// on a new line does not continue a call, and to resynchronise after errors).
// Comment: a comment's range, recorded by the lexer for the formatter.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_FRONTEND_TOKEN_H
#define MODELC_FRONTEND_TOKEN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <string>

namespace modelc {

/// Every kind of token.
enum class TokenKind {
  Eof,
  /// A character the lexer rejected (already reported); the parser stays
  /// silent about it to avoid cascades.
  Error,
  Identifier,
  IntLit,
  FloatLit,
  StringLit,
  // Keywords.
  KwImport,
  KwAs,
  KwFn,
  KwModel,
  KwData,
  KwTrain,
  KwOn,
  KwParam,
  KwReturn,
  KwTrue,
  KwFalse,
  // Punctuation.
  LParen,   ///< (
  RParen,   ///< )
  LBracket, ///< [
  RBracket, ///< ]
  LBrace,   ///< {
  RBrace,   ///< }
  Comma,    ///< ,
  Colon,    ///< :
  Semi,     ///< ;
  Equal,    ///< =
  Dot,      ///< .
  Ellipsis, ///< ...
  Arrow,    ///< ->
  PipeOp,   ///< |>
  Plus,     ///< +
  Minus,    ///< -
  Star,     ///< *
  Slash,    ///< /
  StarStar, ///< **
  At,       ///< @
  EqEq,     ///< ==
  NotEq,    ///< !=
  Less,     ///< <
  LessEq,   ///< <=
  Greater,  ///< >
  GreaterEq ///< >=
};

/// A short name of the kind for `--emit=tokens` ("identifier", "kw_model",
/// "l_paren", ...).
llvm::StringRef getTokenKindName(TokenKind kind);

/// The fixed spelling of a keyword or punctuation kind ("model", "|>"), or an
/// empty string for identifiers, literals and EOF.
llvm::StringRef getTokenKindSpelling(TokenKind kind);

/// One token.
struct Token {
  TokenKind kind = TokenKind::Eof;
  /// The exact source text (for strings: including the quotes).
  llvm::StringRef spelling;
  /// Source range of the token.
  llvm::SMRange range;
  /// True when no other token precedes it on its line.
  bool atLineStart = false;
  /// Value of an IntLit (0 after a reported error).
  int64_t intValue = 0;
  /// Value of a FloatLit.
  double floatValue = 0;
  /// Decoded value of a StringLit (escapes resolved, no quotes).
  std::string stringValue;

  /// True if the token has kind `k`.
  bool is(TokenKind k) const { return kind == k; }
  /// True for the keywords `import` ... `false`.
  bool isKeyword() const {
    return kind >= TokenKind::KwImport && kind <= TokenKind::KwFalse;
  }
  /// Start location of the token.
  llvm::SMLoc getLoc() const { return range.Start; }
  /// A phrase describing the token for diagnostics: "identifier 'x'",
  /// "keyword 'model'", "'}'", "integer literal '3'", "end of file".
  std::string describe() const;
};

/// A comment kept for tools that reproduce the source (the formatter): the
/// lexer records it when asked to, and the parser ignores it.
struct Comment {
  /// The comment's text, `//` or `/*` included (no trailing newline).
  llvm::SMRange range;
  /// True when no token precedes it on its line.
  bool ownLine = false;
  /// True for a `/* */` comment, false for a `//` one.
  bool isBlock = false;
};

} // namespace modelc

#endif // MODELC_FRONTEND_TOKEN_H
