//===- Lexer.h - Hand-written lexer of the modelc language ------*- C++ -*-===//
//
// Turns one SourceMgr buffer into Tokens. Lexical errors (bad characters,
// malformed numbers, strings or comments) are reported through the
// DiagnosticEngine; the lexer then carries on with a best-effort token so the
// parser can keep going and report further errors. Comments are skipped, or
// recorded for the formatter when it asks.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_FRONTEND_LEXER_H
#define MODELC_FRONTEND_LEXER_H

#include "modelc/Frontend/Diagnostics.h"
#include "modelc/Frontend/Token.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <vector>

namespace modelc {

/// The UTF-8 byte-order mark that some editors write at the start of a
/// file. The lexer skips it.
constexpr llvm::StringLiteral kByteOrderMark = "\xEF\xBB\xBF";

/// \p buffer without a leading byte-order mark (a copy under the same name
/// when it has one), so that diagnostics count line 1's columns from its
/// first character, as an editor shows them.
std::unique_ptr<llvm::MemoryBuffer>
withoutByteOrderMark(std::unique_ptr<llvm::MemoryBuffer> buffer);

/// Lexes one buffer of a SourceMgr.
class Lexer {
public:
  /// Lexes buffer `bufferId` of `diags.getSourceMgr()`.
  /// When `comments` is given, every comment is appended to it in source
  /// order (comments are otherwise skipped like whitespace).
  Lexer(DiagnosticEngine &diags, unsigned bufferId,
        std::vector<Comment> *comments = nullptr);

  /// Returns the next token; returns Eof forever at the end.
  Token next();

  /// Lexes the whole buffer; the last token is Eof.
  std::vector<Token> lexAll();

private:
  void skipSpaceAndComments();
  void recordComment(const char *start, const char *stop, bool isBlock,
                     bool ownLine);
  Token makeToken(TokenKind kind, const char *start);
  Token lexIdentifier(const char *start);
  Token lexNumber(const char *start);
  bool skipGluedSuffix();
  Token lexString(const char *start);
  Token lexPunctuation(const char *start);
  bool lexEscape(const char *&p, std::string &out);
  void fillNumberValue(Token &tok, bool isFloat);

  DiagnosticEngine &diags;
  /// Where comments are recorded (null: not recorded).
  std::vector<Comment> *comments;
  const char *cur;
  const char *end;
  /// True until the first token on the current line has been produced.
  bool atLineStart = true;
};

} // namespace modelc

#endif // MODELC_FRONTEND_LEXER_H
