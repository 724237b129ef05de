//===- Text.h - Text files as token streams (compiler + runtime) ----------===//
//
// The facts about `text(path, seq=N)` data that the compiler (which builds
// the vocabulary and checks the file) and the runtime (which turns the text
// into token ids) must agree on:
//  * UTF-8 is strict (RFC 3629): no overlong forms, no surrogates, nothing
//    above U+10FFFF, no truncated sequence; a byte-order mark is an
//    ordinary character (U+FEFF);
//  * places are 1-based lines (a line ends after '\n') and 1-based columns
//    counted in characters (code points) before the place;
//  * `tokens = chars`: the vocabulary is the file's distinct code points,
//    sorted; a character's id is its index there; `tokens = bytes`: a
//    byte's id is its value (256 ids);
//  * a window of length N starting at token s is tokens[s, s + N) and its
//    labels tokens[s + 1, s + N + 1), so a stream of n tokens holds
//    n - N windows (starts 0 .. n - N - 1) and needs n >= N + 1;
//  * an epoch is (n - 1) / N windows, as many as fit without overlapping:
//    training draws their starts at random from all n - N, evaluation
//    takes the non-overlapping ones (starts 0, N, 2N, ...).
// Plain C++17, no libraries.
//
//===----------------------------------------------------------------------===//
#ifndef MODELSUPPORT_TEXT_H
#define MODELSUPPORT_TEXT_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace modelsupport {
namespace text {

/// How text becomes tokens (the values of the ABI's MODELRT_TOKENS_*).
enum class Tokens : int32_t { Chars = 1, Bytes = 2 };

/// The vocabulary size of `Tokens::Bytes`.
constexpr int64_t kByteVocabulary = 256;

/// Decodes the code point at `s[i]` (of `n` bytes) into `cp` and advances
/// `i`; returns false, leaving `i`, at a byte that starts no valid UTF-8
/// sequence.
inline bool decodeUtf8(const unsigned char *s, size_t n, size_t &i,
                       uint32_t &cp) {
  unsigned char b = s[i];
  size_t len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3
                            : (b >> 3) == 30 ? 4 : 0;
  if (len == 0 || i + len > n)
    return false;
  uint32_t v = len == 1 ? b : b & (0x7f >> len);
  for (size_t k = 1; k < len; ++k) {
    if ((s[i + k] & 0xc0) != 0x80)
      return false;
    v = (v << 6) | (s[i + k] & 0x3f);
  }
  static const uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (v < kMin[len] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
    return false;
  cp = v;
  i += len;
  return true;
}

/// A place in a text: its byte offset, line and column (1-based, columns
/// in characters).
struct Place {
  size_t offset = 0, line = 1, column = 1;
};

/// The place of byte `offset` of `s` (whose bytes before it are valid
/// UTF-8, as decodeText guarantees when it stops there).
inline Place placeOf(const unsigned char *s, size_t offset) {
  Place p;
  p.offset = offset;
  for (size_t i = 0; i < offset;) {
    uint32_t cp = s[i];
    if (!decodeUtf8(s, offset, i, cp))
      ++i;
    if (cp == '\n')
      p.line += 1, p.column = 1;
    else
      p.column += 1;
  }
  return p;
}

/// Decodes the whole text into code points; on invalid UTF-8 returns false
/// with `bad` the offending byte's offset.
inline bool decodeText(const unsigned char *s, size_t n,
                       std::vector<uint32_t> &out, size_t &bad) {
  out.clear();
  for (size_t i = 0; i < n;) {
    uint32_t cp = 0;
    if (!decodeUtf8(s, n, i, cp)) {
      bad = i;
      return false;
    }
    out.push_back(cp);
  }
  return true;
}

/// The chars vocabulary of decoded text: its distinct code points, sorted.
inline std::vector<uint32_t> vocabularyOf(std::vector<uint32_t> codePoints) {
  std::sort(codePoints.begin(), codePoints.end());
  codePoints.erase(std::unique(codePoints.begin(), codePoints.end()),
                   codePoints.end());
  return codePoints;
}

/// The id of code point `cp` in sorted `vocab`, or -1 when it is not there.
inline int64_t idOf(const std::vector<uint32_t> &vocab, uint32_t cp) {
  auto it = std::lower_bound(vocab.begin(), vocab.end(), cp);
  return it != vocab.end() && *it == cp ? int64_t(it - vocab.begin()) : -1;
}

/// Appends the UTF-8 encoding of code point `cp` to `out`.
inline void appendUtf8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xc0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += char(0xe0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3f));
    out += char(0x80 | (cp & 0x3f));
  } else {
    out += char(0xf0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3f));
    out += char(0x80 | ((cp >> 6) & 0x3f));
    out += char(0x80 | (cp & 0x3f));
  }
}

/// "'a'", "'\\n'", "U+00A0 ' '" for messages: the character, escaped when
/// it is a control character, with its code point above ASCII.
inline std::string describeChar(uint32_t cp) {
  static const char *kHex = "0123456789ABCDEF";
  std::string hex = "U+";
  for (int shift = cp > 0xfffff ? 20 : cp > 0xffff ? 16 : 12; shift >= 0; shift -= 4)
    hex += kHex[(cp >> shift) & 0xf];
  if (cp == '\n')
    return "'\\n'";
  if (cp == '\t')
    return "'\\t'";
  if (cp < 0x20 || cp == 0x7f)
    return hex;
  std::string utf8;
  appendUtf8(utf8, cp);
  return cp < 0x80 ? "'" + utf8 + "'" : hex + " '" + utf8 + "'";
}

/// The number of windows of length `seq` in a stream of `n` tokens (the
/// starts 0 .. n - seq - 1; 0 when it is shorter than seq + 1).
inline int64_t windowCount(int64_t n, int64_t seq) {
  return n > seq ? n - seq : 0;
}

/// The windows of one epoch of a stream of `n` tokens: the non-overlapping
/// ones, (n - 1) / seq (0 when it is shorter than seq + 1).
inline int64_t epochWindows(int64_t n, int64_t seq) {
  return n > seq ? (n - 1) / seq : 0;
}

} // namespace text
} // namespace modelsupport

#endif // MODELSUPPORT_TEXT_H
