//===- Lexer.h - Hand-written lexer of the modelc language ------*- C++ -*-===//
//
// Turns one SourceMgr buffer into Tokens. Lexical errors (bad characters,
// malformed numbers, strings or comments) are reported through the
// DiagnosticEngine; the lexer then carries on with a best-effort token so the
// parser can keep going and report further errors.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_FRONTEND_LEXER_H
#define MODELC_FRONTEND_LEXER_H

#include "modelc/Frontend/Diagnostics.h"
#include "modelc/Frontend/Token.h"

#include <vector>

namespace modelc {

/// Lexes one buffer of a SourceMgr.
class Lexer {
public:
  /// Lexes buffer `bufferId` of `diags.getSourceMgr()`.
  Lexer(DiagnosticEngine &diags, unsigned bufferId);

  /// Returns the next token; returns Eof forever at the end.
  Token next();

  /// Lexes the whole buffer; the last token is Eof.
  std::vector<Token> lexAll();

private:
  void skipSpaceAndComments();
  Token makeToken(TokenKind kind, const char *start);
  Token lexIdentifier(const char *start);
  Token lexNumber(const char *start);
  bool skipGluedSuffix();
  Token lexString(const char *start);
  Token lexPunctuation(const char *start);
  bool lexEscape(const char *&p, std::string &out);
  void fillNumberValue(Token &tok, bool isFloat);

  DiagnosticEngine &diags;
  const char *cur;
  const char *end;
  /// True until the first token on the current line has been produced.
  bool atLineStart = true;
};

} // namespace modelc

#endif // MODELC_FRONTEND_LEXER_H
