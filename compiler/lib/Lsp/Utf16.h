//===- Utf16.h - LSP positions: UTF-16 columns over UTF-8 text -*- C++ -*-===//
//
// The protocol's positions count a line's characters in UTF-16 code units
// (its default encoding, the one every client speaks); the documents are
// UTF-8. These two conversions are the only places that cross: an incoming
// position (a request's, a change's range) becomes a byte offset, and an
// outgoing one is counted from the line's bytes. A character outside the
// Basic Multilingual Plane (a 4-byte sequence) is two units.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_LIB_LSP_UTF16_H
#define MODELC_LIB_LSP_UTF16_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>

namespace modelc {
namespace lsp {

/// Bytes of the UTF-8 character at \p i of \p text: 1 for ASCII and for
/// any byte that does not start a whole, well-formed sequence (a stray
/// continuation byte, an invalid lead, a sequence cut short), so a
/// character never reaches past a line's end.
inline size_t utf8SequenceLength(llvm::StringRef text, size_t i) {
  unsigned char b = static_cast<unsigned char>(text[i]);
  size_t n = b >= 0xF0 && b <= 0xF4 ? 4 : b >= 0xE0 && b <= 0xEF ? 3
             : b >= 0xC2 && b <= 0xDF                          ? 2
                                                                : 1;
  if (i + n > text.size())
    return 1;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80)
      return 1;
  return n;
}

/// UTF-16 code units of the UTF-8 text \p bytes (part of one line).
inline int utf16Length(llvm::StringRef bytes) {
  int units = 0;
  for (size_t i = 0; i < bytes.size();) {
    size_t n = utf8SequenceLength(bytes, i);
    units += n == 4 ? 2 : 1;
    i += n;
  }
  return units;
}

/// Whether \p text's line ends at byte \p p: a '\n', or the '\r' of a
/// "\r\n".
inline bool atLineEnd(llvm::StringRef text, size_t p) {
  return text[p] == '\n' ||
         (text[p] == '\r' && p + 1 < text.size() && text[p + 1] == '\n');
}

/// The byte offset in \p text of position (\p line, \p character), the
/// character in UTF-16 units. Past the end of its line: the line's end
/// (before its "\n" or "\r\n"); a negative part counts as 0. A line past
/// the last one sets \p pastEnd and gives the end of the text.
inline size_t offsetAt(llvm::StringRef text, int line, int character,
                       bool *pastEnd = nullptr) {
  size_t p = 0;
  for (int l = 0; l < line; ++l) {
    size_t nl = text.find('\n', p);
    if (nl == llvm::StringRef::npos) {
      if (pastEnd)
        *pastEnd = true;
      return text.size();
    }
    p = nl + 1;
  }
  if (pastEnd)
    *pastEnd = false;
  for (int units = 0; units < character && p < text.size() && !atLineEnd(text, p);) {
    size_t n = utf8SequenceLength(text, p);
    units += n == 4 ? 2 : 1;
    p += n;
  }
  return p;
}

} // namespace lsp
} // namespace modelc

#endif // MODELC_LIB_LSP_UTF16_H
