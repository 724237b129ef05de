//===- Npy.h - The NPY header rules of the compiler and the runtime -*- C++ -*-===//
//
// One reading of an NPY file's header for both its readers: Sema (which
// types an `npy(inputs, labels)` data split at compile time) and the
// runtime's readNpy (which loads the arrays). Layout: "\x93NUMPY", major,
// minor, a little-endian header length (u16 for v1, u32 for v2/v3), an ASCII
// Python dict literal with 'descr', 'fortran_order' and 'shape', then the
// data in C order. Supported element types: little-endian <f4 <f8 <i4 <i8
// and |u1 (the runtime's tensor types); anything else (object, pickled,
// big-endian, Fortran order) is refused, never loaded. Plain C++17; no file
// access: callers read the bytes and word their own messages with the
// byte offset given.
//
//===----------------------------------------------------------------------===//
#ifndef MODELSUPPORT_NPY_H
#define MODELSUPPORT_NPY_H

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace modelsupport {
namespace npy {

/// The element types an NPY file may hold.
enum class Elem { F32, F64, I32, I64, U8 };

/// What the header says.
struct Header {
  Elem elem = Elem::F32;
  std::string descr;          ///< as written, e.g. '<f4'
  std::vector<int64_t> shape; ///< () for a scalar
  size_t dataStart = 0;       ///< the data's first byte
};

/// Bytes per element of \p e.
inline unsigned elemSize(Elem e) {
  return e == Elem::U8 ? 1 : e == Elem::F32 || e == Elem::I32 ? 4 : 8;
}

/// Whether \p e is a float type.
inline bool isFloat(Elem e) { return e == Elem::F32 || e == Elem::F64; }

/// The short name of \p e ("f32", "f64", "i32", "i64", "u8").
inline const char *elemName(Elem e) {
  static const char *names[] = {"f32", "f64", "i32", "i64", "u8"};
  return names[int(e)];
}

namespace detail {
/// The value text after 'key': in the header dict; empty if missing.
inline std::string dictValue(const std::string &header, const std::string &key) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos)
    return "";
  size_t colon = header.find(':', k);
  if (colon == std::string::npos)
    return "";
  size_t b = header.find_first_not_of(" ", colon + 1);
  if (b == std::string::npos)
    return "";
  size_t e; // one past the value
  if (header[b] == '(' || header[b] == '\'') {
    e = header.find(header[b] == '(' ? ')' : '\'', b + 1);
    e = e == std::string::npos ? e : e + 1;
  } else {
    e = header.find_first_of(",}", b);
  }
  if (e == std::string::npos || e <= b)
    return "";
  return header.substr(b, e - b);
}

/// Whether the dict key 'key' (the quoted name, then ':' after optional
/// spaces) appears more than once in the header (numpy would take the last;
/// such a header is refused rather than read either way).
inline bool repeatsKey(const std::string &header, const std::string &key) {
  const std::string quoted = "'" + key + "'";
  int count = 0;
  for (size_t k = header.find(quoted); k != std::string::npos; k = header.find(quoted, k + 1)) {
    size_t next = header.find_first_not_of(' ', k + quoted.size());
    count += next != std::string::npos && header[next] == ':';
  }
  return count > 1;
}

/// Parses "(3, 4)" / "(3,)" / "()" into \p shape.
inline bool parseShape(const std::string &text, std::vector<int64_t> &shape) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')')
    return false;
  std::string inner = text.substr(1, text.size() - 2);
  size_t i = 0;
  while (i < inner.size()) {
    while (i < inner.size() && (inner[i] == ' ' || inner[i] == ','))
      ++i;
    if (i >= inner.size())
      break;
    size_t j = i;
    while (j < inner.size() && std::isdigit(static_cast<unsigned char>(inner[j])))
      ++j;
    if (j == i || j - i > 12)
      return false;
    shape.push_back(std::stoll(inner.substr(i, j - i)));
    i = j;
    if (i < inner.size() && inner[i] != ',' && inner[i] != ' ')
      return false;
  }
  return true;
}

/// The element type of \p descr, or false.
inline bool parseDescr(const std::string &descr, Elem &e) {
  static const struct { const char *d; Elem e; } table[] = {
      {"'<f4'", Elem::F32}, {"'<f8'", Elem::F64}, {"'<i4'", Elem::I32},
      {"'<i8'", Elem::I64}, {"'|u1'", Elem::U8},  {"'<u1'", Elem::U8}};
  for (const auto &t : table)
    if (descr == t.d) {
      e = t.e;
      return true;
    }
  return false;
}
} // namespace detail

/// The bytes from the file's start to its data (magic, version, length
/// field and header text) as the first \p n bytes at \p b say, or 0 when
/// they do not say it (fewer than 12 bytes, or no NPY magic): what a reader
/// must have before parseHeader.
inline size_t headerBytes(const unsigned char *b, size_t n) {
  if (n < 12 || std::memcmp(b, "\x93NUMPY", 6) != 0)
    return 0;
  size_t lenBytes = b[6] == 1 ? 2 : 4;
  size_t hlen = b[8] | (size_t(b[9]) << 8);
  if (lenBytes == 4)
    hlen |= (size_t(b[10]) << 16) | (size_t(b[11]) << 24);
  return 8 + lenBytes + hlen;
}

/// Where an error concerns the header as a whole rather than one byte.
constexpr size_t kNoByte = size_t(-1);

/// Parses the header of the \p n bytes at \p b (all of the file, or at least
/// its header) into \p h. Returns "" on success, else the reason, with
/// \p errorByte the offset it concerns (kNoByte: the header as a whole).
inline std::string parseHeader(const unsigned char *b, size_t n, Header &h,
                               size_t &errorByte) {
  errorByte = 0;
  if (n < 10 || std::memcmp(b, "\x93NUMPY", 6) != 0)
    return "not an NPY file (missing \\x93NUMPY magic)";
  unsigned major = b[6];
  errorByte = 6;
  if (major < 1 || major > 3)
    return "unsupported NPY version " + std::to_string(major) + "." + std::to_string(b[7]);
  size_t lenBytes = major == 1 ? 2 : 4;
  errorByte = n;
  if (n < 8 + lenBytes)
    return "truncated NPY header";
  size_t hlen = b[8] | (size_t(b[9]) << 8);
  if (lenBytes == 4)
    hlen |= (size_t(b[10]) << 16) | (size_t(b[11]) << 24);
  h.dataStart = 8 + lenBytes + hlen;
  if (n < h.dataStart)
    return "truncated NPY header: the file ends at byte " + std::to_string(n) +
           ", the header at " + std::to_string(h.dataStart);
  std::string text(reinterpret_cast<const char *>(b) + 8 + lenBytes, hlen);
  errorByte = 8 + lenBytes;
  for (const char *key : {"descr", "fortran_order", "shape"})
    if (detail::repeatsKey(text, key))
      return std::string("bad NPY header: '") + key + "' is given twice";
  h.descr = detail::dictValue(text, "descr");
  if (h.descr.empty())
    return "bad NPY header: no 'descr'";
  errorByte = kNoByte;
  if (!detail::parseDescr(h.descr, h.elem))
    return "unsupported NPY dtype " + h.descr +
           " (supported: little-endian <f4 <f8 <i4 <i8 |u1; object and pickled arrays are "
           "never loaded)";
  std::string fortran = detail::dictValue(text, "fortran_order");
  if (fortran == "True")
    return "NPY array is in Fortran order; only C order is supported";
  errorByte = 8 + lenBytes;
  if (fortran != "False")
    return "bad NPY header: 'fortran_order' missing or invalid";
  if (!detail::parseShape(detail::dictValue(text, "shape"), h.shape))
    return "bad NPY header: 'shape' missing or invalid";
  errorByte = 0;
  return "";
}

} // namespace npy
} // namespace modelsupport

#endif // MODELSUPPORT_NPY_H
