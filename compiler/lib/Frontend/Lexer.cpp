//===- Lexer.cpp - Hand-written lexer of the modelc language --------------===//
//
// Identifiers and keywords, integer and float literals (with their checks),
// strings with escapes, `//` and `/* */` comments, and punctuation (longest
// match). Errors are reported and lexing continues with a best-effort token.
//
//===----------------------------------------------------------------------===//

#include "modelc/Frontend/Lexer.h"

#include <cstring>

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

using namespace modelc;

static bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool isDigit(char c) { return c >= '0' && c <= '9'; }
static bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }

Lexer::Lexer(DiagnosticEngine &diags, unsigned bufferId,
             std::vector<Comment> *comments)
    : diags(diags), comments(comments) {
  const llvm::MemoryBuffer *buf =
      diags.getSourceMgr().getMemoryBuffer(bufferId);
  cur = buf->getBufferStart();
  end = buf->getBufferEnd();
  // A UTF-8 byte-order mark, which some editors write, is no token.
  if (llvm::StringRef(cur, end - cur).starts_with(kByteOrderMark))
    cur += kByteOrderMark.size();
}

std::unique_ptr<llvm::MemoryBuffer>
modelc::withoutByteOrderMark(std::unique_ptr<llvm::MemoryBuffer> buffer) {
  llvm::StringRef text = buffer->getBuffer();
  if (!text.starts_with(kByteOrderMark))
    return buffer;
  return llvm::MemoryBuffer::getMemBufferCopy(
      text.drop_front(kByteOrderMark.size()), buffer->getBufferIdentifier());
}

static llvm::SMLoc locOf(const char *p) {
  return llvm::SMLoc::getFromPointer(p);
}

void Lexer::recordComment(const char *start, const char *stop, bool isBlock,
                          bool ownLine) {
  if (!comments)
    return;
  Comment comment;
  comment.range = llvm::SMRange(locOf(start), locOf(stop));
  comment.ownLine = ownLine;
  comment.isBlock = isBlock;
  comments->push_back(comment);
}

void Lexer::skipSpaceAndComments() {
  while (cur < end) {
    char c = *cur;
    if (c == '\n') {
      atLineStart = true;
      ++cur;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      ++cur;
    } else if (c == '/' && cur + 1 < end && cur[1] == '/') {
      const char *start = cur;
      while (cur < end && *cur != '\n')
        ++cur;
      // A CR before the newline is line-ending whitespace, not comment text.
      const char *stop = cur;
      if (stop - start > 2 && stop[-1] == '\r')
        --stop;
      recordComment(start, stop, /*isBlock=*/false, atLineStart);
    } else if (c == '/' && cur + 1 < end && cur[1] == '*') {
      const char *start = cur;
      bool startsLine = atLineStart;
      cur += 2;
      while (cur < end && !(*cur == '*' && cur + 1 < end && cur[1] == '/')) {
        if (*cur == '\n')
          atLineStart = true;
        ++cur;
      }
      if (cur >= end) {
        diags.error(locOf(start), "unterminated block comment",
                    {llvm::SMRange(locOf(start), locOf(start + 2))});
        return;
      }
      cur += 2;
      recordComment(start, cur, /*isBlock=*/true, startsLine);
    } else {
      return;
    }
  }
}

Token Lexer::makeToken(TokenKind kind, const char *start) {
  Token tok;
  tok.kind = kind;
  tok.spelling = llvm::StringRef(start, cur - start);
  tok.range = llvm::SMRange(locOf(start), locOf(cur));
  tok.atLineStart = atLineStart;
  atLineStart = false;
  return tok;
}

Token Lexer::next() {
  skipSpaceAndComments();
  // Past the error limit nothing more is reported: the rest is not lexed.
  if (diags.hasTooManyErrors())
    cur = end;
  if (cur >= end)
    return makeToken(TokenKind::Eof, end);
  const char *start = cur;
  char c = *cur;
  if (isIdentStart(c))
    return lexIdentifier(start);
  if (isDigit(c))
    return lexNumber(start);
  if (c == '"')
    return lexString(start);
  return lexPunctuation(start);
}

std::vector<Token> Lexer::lexAll() {
  std::vector<Token> tokens;
  do {
    tokens.push_back(next());
  } while (!tokens.back().is(TokenKind::Eof));
  return tokens;
}

Token Lexer::lexIdentifier(const char *start) {
  while (cur < end && isIdentChar(*cur))
    ++cur;
  llvm::StringRef text(start, cur - start);
  TokenKind kind = llvm::StringSwitch<TokenKind>(text)
                       .Case("import", TokenKind::KwImport)
                       .Case("as", TokenKind::KwAs)
                       .Case("fn", TokenKind::KwFn)
                       .Case("model", TokenKind::KwModel)
                       .Case("data", TokenKind::KwData)
                       .Case("train", TokenKind::KwTrain)
                       .Case("on", TokenKind::KwOn)
                       .Case("param", TokenKind::KwParam)
                       .Case("return", TokenKind::KwReturn)
                       .Case("true", TokenKind::KwTrue)
                       .Case("false", TokenKind::KwFalse)
                       .Default(TokenKind::Identifier);
  return makeToken(kind, start);
}

bool Lexer::skipGluedSuffix() {
  // A letter, '_' or another ".digit" glued to a number makes it invalid;
  // the whole run is consumed so it is reported as one token.
  bool glued = cur < end && (isIdentChar(*cur) ||
                             (*cur == '.' && cur + 1 < end && isDigit(cur[1])));
  if (!glued)
    return false;
  while (cur < end && (isIdentChar(*cur) || *cur == '.' ||
                       ((*cur == '+' || *cur == '-') &&
                        (cur[-1] == 'e' || cur[-1] == 'E'))))
    ++cur;
  return true;
}

Token Lexer::lexNumber(const char *start) {
  auto digits = [&] {
    const char *s = cur;
    while (cur < end && isDigit(*cur))
      ++cur;
    return cur != s;
  };
  digits();
  bool isFloat = false;
  const char *problem = nullptr; // Set when a specific defect was found.
  if (cur < end && *cur == '.' && !(cur + 1 < end && cur[1] == '.')) {
    ++cur;
    isFloat = true;
    if (!digits())
      problem = "expected digits after '.'";
  }
  if (!problem && cur < end && (*cur == 'e' || *cur == 'E')) {
    ++cur;
    isFloat = true;
    if (cur < end && (*cur == '+' || *cur == '-'))
      ++cur;
    if (!digits())
      problem = "expected digits in the exponent";
  }
  bool glued = skipGluedSuffix();
  Token tok = makeToken(isFloat ? TokenKind::FloatLit : TokenKind::IntLit,
                        start);
  if (problem || glued) {
    std::string msg = "invalid number literal '" + tok.spelling.str() + "'";
    if (problem && !glued)
      msg += std::string(": ") + problem;
    diags.error(tok.range, msg);
    return tok; // value stays 0
  }
  fillNumberValue(tok, isFloat);
  return tok;
}

void Lexer::fillNumberValue(Token &tok, bool isFloat) {
  std::string text = tok.spelling.str();
  errno = 0;
  if (isFloat) {
    tok.floatValue = std::strtod(text.c_str(), nullptr);
    if (errno == ERANGE && std::isinf(tok.floatValue)) {
      diags.error(tok.range, "float literal '" + text + "' is out of range");
      tok.floatValue = 0;
    }
    return;
  }
  unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE || v > (unsigned long long)INT64_MAX) {
    diags.error(tok.range, "integer literal '" + text +
                               "' is too large (the maximum is "
                               "9223372036854775807)");
    return;
  }
  tok.intValue = (int64_t)v;
}

bool Lexer::lexEscape(const char *&p, std::string &out) {
  // p points at the backslash.
  char e = p + 1 < end ? p[1] : '\0';
  switch (e) {
  case '\\': out += '\\'; break;
  case '"': out += '"'; break;
  case 'n': out += '\n'; break;
  case 't': out += '\t'; break;
  default: {
    if (p + 1 >= end || e == '\n' || e == '\r') {
      ++p; // Leave the line break to the caller.
      return false;
    }
    std::string shown = (e >= 0x20 && e < 0x7f)
                             ? std::string(1, e)
                             : llvm::formatv("x{0:x-2}", (unsigned char)e).str();
    diags.error(locOf(p), "invalid escape sequence '\\" + shown +
                              "' in string literal (allowed: \\\\ \\\" \\n "
                              "\\t)",
                {llvm::SMRange(locOf(p), locOf(p + 2))});
    p += 2;
    return false;
  }
  }
  p += 2;
  return true;
}

Token Lexer::lexString(const char *start) {
  const char *p = start + 1;
  std::string value;
  bool terminated = false;
  while (p < end) {
    char c = *p;
    if (c == '"') {
      ++p;
      terminated = true;
      break;
    }
    if (c == '\n' || c == '\r')
      break;
    if (c == '\\') {
      lexEscape(p, value);
      continue;
    }
    if ((unsigned char)c < 0x20 && c != '\t') {
      diags.error(locOf(p),
                  llvm::formatv("control byte 0x{0:x-2} in string literal",
                                (unsigned char)c)
                      .str(),
                  {llvm::SMRange(locOf(p), locOf(p + 1))});
      ++p;
      continue;
    }
    value += c;
    ++p;
  }
  cur = p;
  Token tok = makeToken(TokenKind::StringLit, start);
  tok.stringValue = std::move(value);
  if (!terminated) {
    const char *why = p < end ? " (a string cannot span lines)" : "";
    diags.error(locOf(start), llvm::Twine("unterminated string literal") + why,
                {llvm::SMRange(locOf(start), locOf(start + 1))});
  }
  return tok;
}

/// Reports an unexpected character (a whole UTF-8 sequence when it starts
/// one) and skips it.
static const char *skipUnexpected(DiagnosticEngine &diags, const char *p,
                                  const char *end) {
  unsigned char c = (unsigned char)*p;
  const char *q = p + 1;
  if (c >= 0xC0)
    while (q < end && ((unsigned char)*q & 0xC0) == 0x80 && q - p < 4)
      ++q;
  std::string shown;
  if (c >= 0x20 && c < 0x7f)
    shown = std::string(1, (char)c);
  else if (c >= 0xC0 && q - p > 1)
    shown = std::string(p, q);
  else
    shown = llvm::formatv("\\x{0:x-2}", c).str();
  diags.error(locOf(p), "unexpected character '" + shown + "'",
              {llvm::SMRange(locOf(p), locOf(q))});
  return q;
}

Token Lexer::lexPunctuation(const char *start) {
  char c = *cur++;
  char n = cur < end ? *cur : '\0';
  auto one = [&](TokenKind k) { return makeToken(k, start); };
  auto two = [&](TokenKind k) {
    ++cur;
    return makeToken(k, start);
  };
  switch (c) {
  case '(': return one(TokenKind::LParen);
  case ')': return one(TokenKind::RParen);
  case '[': return one(TokenKind::LBracket);
  case ']': return one(TokenKind::RBracket);
  case '{': return one(TokenKind::LBrace);
  case '}': return one(TokenKind::RBrace);
  case ',': return one(TokenKind::Comma);
  case ':': return one(TokenKind::Colon);
  case ';': return one(TokenKind::Semi);
  case '+': return one(TokenKind::Plus);
  case '/': return one(TokenKind::Slash);
  case '@': return one(TokenKind::At);
  case '=': return n == '=' ? two(TokenKind::EqEq) : one(TokenKind::Equal);
  case '<': return n == '=' ? two(TokenKind::LessEq) : one(TokenKind::Less);
  case '>':
    return n == '=' ? two(TokenKind::GreaterEq) : one(TokenKind::Greater);
  case '*': return n == '*' ? two(TokenKind::StarStar) : one(TokenKind::Star);
  case '-': return n == '>' ? two(TokenKind::Arrow) : one(TokenKind::Minus);
  case '.':
    if (n == '.' && cur + 1 < end && cur[1] == '.') {
      cur += 2;
      return makeToken(TokenKind::Ellipsis, start);
    }
    return one(TokenKind::Dot);
  case '|':
    if (n == '>')
      return two(TokenKind::PipeOp);
    break;
  case '!':
    if (n == '=')
      return two(TokenKind::NotEq);
    break;
  default:
    break;
  }
  cur = skipUnexpected(diags, start, end);
  return makeToken(TokenKind::Error, start);
}
