//===- NpyReader.cpp - NPY reader and writer -------------------------------===//
//
// The header is read by modelsupport/Npy.h, the rules the compiler uses too;
// here the data's size is checked against the limits and the file before
// the tensor is allocated (parseNpyLayout, which MappedArray.cpp shares).
//
//===----------------------------------------------------------------------===//
#include "modelrt/data/Readers.h"
#include "modelrt/io/AtomicFile.h"

#include "modelsupport/Npy.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace modelrt {

/// The runtime's tensor type for NPY element type \p e.
static DType npyDType(modelsupport::npy::Elem e) {
  using modelsupport::npy::Elem;
  return e == Elem::F32   ? DType::F32
         : e == Elem::F64 ? DType::F64
         : e == Elem::I32 ? DType::I32
         : e == Elem::I64 ? DType::I64
                          : DType::U8;
}

Expected<NpyLayout> parseNpyLayout(const unsigned char *b, size_t size, const std::string &path,
                                   uint64_t maxElements, uint64_t maxBytes) {
  const char *p = path.c_str();
  modelsupport::npy::Header h;
  size_t at = 0;
  std::string err = modelsupport::npy::parseHeader(b, size, h, at);
  if (!err.empty() && at == modelsupport::npy::kNoByte)
    return errorf("%s: %s", p, err.c_str());
  if (!err.empty())
    return errorf("%s: byte %zu: %s", p, at, err.c_str());
  NpyLayout out{npyDType(h.elem), h.shape, h.dataStart};
  // The claimed size is checked against the limits and the file before the
  // data is touched.
  auto need = checkedDataBytes(h.shape, dtypeSize(out.dtype), UINT64_MAX, path, maxElements,
                               maxBytes);
  if (!need)
    return need.status();
  if (size - h.dataStart < *need)
    return errorf("%s: truncated NPY data: file ends at byte %zu, shape %s needs %llu", p, size,
                  shapeToString(h.shape).c_str(), (unsigned long long)(h.dataStart + *need));
  if (size - h.dataStart > *need)
    return errorf("%s: byte %llu: unexpected trailing bytes after NPY data", p,
                  (unsigned long long)(h.dataStart + *need));
  return out;
}

Expected<Tensor> parseNpy(const std::vector<unsigned char> &b, const std::string &path) {
  auto layout = parseNpyLayout(b.data(), b.size(), path);
  if (!layout)
    return layout.status();
  Tensor t(layout->dtype, layout->shape);
  if (t.numBytes())
    std::memcpy(t.data(), b.data() + layout->dataStart, t.numBytes());
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
  const char pre[10] = {'\x93',
                        'N',
                        'U',
                        'M',
                        'P',
                        'Y',
                        1,
                        0,
                        static_cast<char>(header.size() & 0xff),
                        static_cast<char>(header.size() >> 8)};
  std::string bytes(pre, sizeof pre);
  bytes += header;
  bytes.append(static_cast<const char *>(t.data()), t.numBytes());
  return writeFileAtomically(path, bytes);
}

} // namespace modelrt
