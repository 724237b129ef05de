//===- Idx.h - The IDX header rules of the compiler and the runtime -*- C++ -*-===//
//
// One reading of an IDX (MNIST) file's header for both its readers: Sema
// (which types an `idx(images, labels)` data split at compile time) and the
// runtime's readIdx (which loads the arrays). Layout: bytes 0-1 zero, byte 2
// the element type (0x08 u8, 0x09 i8, 0x0B i16, 0x0C i32, 0x0D f32, 0x0E
// f64), byte 3 the rank, then one big-endian u32 per dimension, then the
// big-endian elements in C order. Plain C++17; no file access: callers read
// the bytes (plain or gzip) and word their own messages with the byte
// offset given.
//
//===----------------------------------------------------------------------===//
#ifndef MODELSUPPORT_IDX_H
#define MODELSUPPORT_IDX_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace modelsupport {
namespace idx {

/// Bytes per element of IDX type byte \p code; 0 when IDX defines none.
inline unsigned elemSize(unsigned code) {
  switch (code) {
  case 0x08:
  case 0x09:
    return 1;
  case 0x0B:
    return 2;
  case 0x0C:
  case 0x0D:
    return 4;
  case 0x0E:
    return 8;
  default:
    return 0;
  }
}

/// The short name of IDX type byte \p code ("u8", "i8", "i16", "i32",
/// "f32", "f64"); nullptr when IDX defines none.
inline const char *elemName(unsigned code) {
  switch (code) {
  case 0x08:
    return "u8";
  case 0x09:
    return "i8";
  case 0x0B:
    return "i16";
  case 0x0C:
    return "i32";
  case 0x0D:
    return "f32";
  case 0x0E:
    return "f64";
  default:
    return nullptr;
  }
}

/// Whether IDX type byte \p code is a float type.
inline bool isFloat(unsigned code) { return code == 0x0D || code == 0x0E; }

/// The largest dimension a header may give.
constexpr uint32_t kMaxDim = uint32_t(1) << 31;

/// What the header says.
struct Header {
  unsigned typeCode = 0;     ///< byte 2
  std::vector<int64_t> dims; ///< one per rank, each in [1, kMaxDim]
  size_t dataStart = 0;      ///< the data's first byte: 4 + 4 x rank
};

/// The bytes of the header the first \p n bytes at \p b call for (4 when
/// fewer than 4 are there): what a reader must have before parseHeader.
inline size_t headerBytes(const unsigned char *b, size_t n) {
  return n < 4 ? 4 : 4 + 4 * size_t(b[3]);
}

/// Where an error concerns the header as a whole rather than one byte.
constexpr size_t kNoByte = size_t(-1);

/// Parses the header of the \p n bytes at \p b (all of the file, or at
/// least its header) into \p h. Returns "" on success, else the reason,
/// with \p errorByte the offset it concerns (kNoByte: the header as a
/// whole).
inline std::string parseHeader(const unsigned char *b, size_t n, Header &h, size_t &errorByte) {
  errorByte = kNoByte;
  if (n < 4)
    return "truncated IDX header: the file ends at byte " + std::to_string(n) +
           ", the header needs 4";
  char hex[48];
  errorByte = 0;
  if (b[0] != 0 || b[1] != 0) {
    std::snprintf(hex, sizeof hex, "0x%02x 0x%02x", b[0], b[1]);
    return std::string("not an IDX file (magic bytes ") + hex + ", expected 0x00 0x00)";
  }
  errorByte = 2;
  if (!elemSize(b[2])) {
    std::snprintf(hex, sizeof hex, "0x%02x", b[2]);
    return std::string("unknown IDX element type ") + hex +
           " (IDX defines 0x08 u8, 0x09 i8, 0x0b i16, 0x0c i32, 0x0d f32, 0x0e f64)";
  }
  errorByte = 3;
  if (b[3] == 0)
    return "IDX rank is 0";
  h.typeCode = b[2];
  h.dataStart = headerBytes(b, n);
  errorByte = kNoByte;
  if (n < h.dataStart)
    return "truncated IDX header: the file ends at byte " + std::to_string(n) + ", " +
           std::to_string(b[3]) + " dimensions need " + std::to_string(h.dataStart);
  h.dims.clear();
  for (size_t i = 0; i < b[3]; ++i) {
    const unsigned char *p = b + 4 + 4 * i;
    uint32_t d = (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
    errorByte = 4 + 4 * i;
    if (d == 0 || d > kMaxDim)
      return "dimension " + std::to_string(i) + " is " + std::to_string(d) +
             (d ? ", above the limit of 2^31" : ": IDX dimensions are at least 1");
    h.dims.push_back(d);
  }
  errorByte = kNoByte;
  return "";
}

/// The bytes of a file of header \p h, header and data, in \p bytes; false
/// when they overflow 64 bits.
inline bool fileBytes(const Header &h, uint64_t &bytes) {
  uint64_t n = elemSize(h.typeCode);
  for (int64_t d : h.dims)
    if (__builtin_mul_overflow(n, uint64_t(d), &n))
      return false;
  return !__builtin_add_overflow(n, uint64_t(h.dataStart), &bytes);
}

/// Why a file of \p size bytes does not hold what header \p h says, or ""
/// when it does, with \p errorByte the offset it concerns (kNoByte: the
/// file as a whole).
inline std::string checkSize(const Header &h, uint64_t size, size_t &errorByte) {
  errorByte = kNoByte;
  std::string shape = "[";
  for (size_t i = 0; i < h.dims.size(); ++i)
    shape += (i ? ", " : "") + std::to_string(h.dims[i]);
  shape += "]";
  uint64_t need = 0;
  if (!fileBytes(h, need))
    return "shape " + shape + " holds more bytes than a file can";
  if (size < need)
    return "truncated IDX data: file ends at byte " + std::to_string(size) + ", shape " + shape +
           " needs " + std::to_string(need) + " bytes";
  if (size > need) {
    errorByte = size_t(need);
    return std::to_string(size - need) + " unexpected trailing bytes after IDX data";
  }
  return "";
}

} // namespace idx
} // namespace modelsupport

#endif // MODELSUPPORT_IDX_H
