//===- NpyReader.cpp - NPY reader and writer -------------------------------===//
//
// NPY layout: "\x93NUMPY", major, minor, a little-endian header length (u16
// for v1, u32 for v2/v3), an ASCII Python dict literal with 'descr',
// 'fortran_order' and 'shape', padded with spaces and '\n', then the data.
//
//===----------------------------------------------------------------------===//
#include "modelrt/data/Readers.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace modelrt {

/// Finds the value text after 'key': in the header dict; empty if missing.
static std::string dictValue(const std::string &header, const std::string &key) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos)
    return "";
  size_t colon = header.find(':', k);
  if (colon == std::string::npos)
    return "";
  size_t b = header.find_first_not_of(" ", colon + 1);
  if (b == std::string::npos)
    return "";
  size_t e;
  if (header[b] == '(')
    e = header.find(')', b) + 1;
  else if (header[b] == '\'')
    e = header.find('\'', b + 1) + 1;
  else
    e = header.find_first_of(",}", b);
  if (e == std::string::npos || e == 0)
    return "";
  return header.substr(b, e - b);
}

static bool descrToDType(const std::string &descr, DType &dtype) {
  static const struct { const char *d; DType t; } table[] = {
      {"'<f4'", DType::F32}, {"'<f8'", DType::F64}, {"'<i4'", DType::I32},
      {"'<i8'", DType::I64}, {"'|u1'", DType::U8},  {"'<u1'", DType::U8}};
  for (auto &e : table)
    if (descr == e.d) {
      dtype = e.t;
      return true;
    }
  return false;
}

/// Parses "(3, 4)" / "(3,)" / "()" into dims.
static bool parseShape(const std::string &text, std::vector<int64_t> &shape) {
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

Expected<Tensor> parseNpy(const std::vector<unsigned char> &b, const std::string &path) {
  const char *p = path.c_str();
  if (b.size() < 10 || std::memcmp(b.data(), "\x93NUMPY", 6) != 0)
    return errorf("%s: byte 0: not an NPY file (missing \\x93NUMPY magic)", p);
  unsigned major = b[6];
  if (major < 1 || major > 3)
    return errorf("%s: byte 6: unsupported NPY version %u.%u", p, major, b[7]);
  size_t lenBytes = major == 1 ? 2 : 4;
  if (b.size() < 8 + lenBytes)
    return errorf("%s: truncated NPY header at byte %zu", p, b.size());
  size_t hlen = b[8] | (size_t(b[9]) << 8);
  if (lenBytes == 4)
    hlen |= (size_t(b[10]) << 16) | (size_t(b[11]) << 24);
  size_t dataStart = 8 + lenBytes + hlen;
  if (b.size() < dataStart)
    return errorf("%s: truncated NPY header: file ends at byte %zu, header ends at %zu", p,
                  b.size(), dataStart);
  std::string header(b.begin() + 8 + lenBytes, b.begin() + dataStart);
  DType dtype;
  std::string descr = dictValue(header, "descr");
  if (descr.empty())
    return errorf("%s: byte %zu: bad NPY header: no 'descr'", p, 8 + lenBytes);
  if (!descrToDType(descr, dtype))
    return errorf("%s: unsupported NPY dtype %s (supported: little-endian <f4 <f8 <i4 <i8 |u1)",
                  p, descr.c_str());
  std::string fortran = dictValue(header, "fortran_order");
  if (fortran == "True")
    return errorf("%s: NPY array is in Fortran order; only C order is supported", p);
  if (fortran != "False")
    return errorf("%s: byte %zu: bad NPY header: 'fortran_order' missing or invalid", p,
                  8 + lenBytes);
  std::vector<int64_t> shape;
  if (!parseShape(dictValue(header, "shape"), shape))
    return errorf("%s: byte %zu: bad NPY header: 'shape' missing or invalid", p, 8 + lenBytes);
  // The claimed size is checked against the limits and the file before the
  // tensor is allocated.
  auto need = checkedDataBytes(shape, dtypeSize(dtype), UINT64_MAX, path);
  if (!need)
    return need.status();
  if (b.size() - dataStart < *need)
    return errorf("%s: truncated NPY data: file ends at byte %zu, shape %s needs %llu", p,
                  b.size(), shapeToString(shape).c_str(),
                  (unsigned long long)(dataStart + *need));
  if (b.size() - dataStart > *need)
    return errorf("%s: byte %llu: unexpected trailing bytes after NPY data", p,
                  (unsigned long long)(dataStart + *need));
  Tensor t(dtype, shape);
  if (t.numBytes())
    std::memcpy(t.data(), b.data() + dataStart, t.numBytes());
  return t;
}

Expected<Tensor> readNpy(const std::string &path) {
  auto bytes = readDataFile(path);
  if (!bytes)
    return bytes.status();
  return parseNpy(*bytes, path);
}

Status writeNpy(const std::string &path, const Tensor &t) {
  static const char *descr[] = {"<f4", "<f8", "<i4", "<i8", "|u1"};
  std::string shape = "(";
  for (int64_t d : t.shape())
    shape += std::to_string(d) + ",";
  if (t.rank() > 1)
    shape.pop_back();
  shape += ")";
  std::string header = std::string("{'descr': '") + descr[int(t.dtype())] +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f)
    return errorf("%s: cannot create: %s", path.c_str(), std::strerror(errno));
  unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                           static_cast<unsigned char>(header.size() & 0xff),
                           static_cast<unsigned char>(header.size() >> 8)};
  bool ok = std::fwrite(pre, 1, 10, f) == 10 &&
            std::fwrite(header.data(), 1, header.size(), f) == header.size() &&
            std::fwrite(t.data(), 1, t.numBytes(), f) == t.numBytes();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok)
    return errorf("%s: write failed: %s", path.c_str(), std::strerror(errno));
  return Status::ok();
}

} // namespace modelrt
