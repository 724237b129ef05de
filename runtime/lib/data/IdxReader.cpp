//===- IdxReader.cpp - IDX (MNIST) reader and gzip-aware file reading ------===//
//
// The header is read by modelsupport/Idx.h's rules, the compiler's too;
// then the big-endian elements, in C order.
//
//===----------------------------------------------------------------------===//
#include "modelrt/data/Readers.h"

#include "modelsupport/Idx.h"

#include <cstring>
#include <zlib.h>

namespace modelrt {

Expected<std::vector<unsigned char>> readFileMaybeGzip(const std::string &path) {
  auto size = statDataFile(path);
  if (!size)
    return size.status();
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f)
    return errorf("%s: cannot open: %s", path.c_str(), std::strerror(errno));
  std::vector<unsigned char> out;
  unsigned char buf[1 << 16];
  while (true) {
    int n = gzread(f, buf, sizeof buf);
    if (n < 0) {
      int code = 0;
      std::string msg = gzerror(f, &code);
      gzclose(f);
      return errorf("%s: read error after %zu bytes: %s", path.c_str(), out.size(),
                    msg.c_str());
    }
    if (n == 0)
      break;
    if (out.size() + size_t(n) > kMaxDataBytes) {
      gzclose(f);
      return errorf("%s: decompressed data exceeds the limit of %llu bytes", path.c_str(),
                    (unsigned long long)kMaxDataBytes);
    }
    out.insert(out.end(), buf, buf + n);
  }
  gzclose(f);
  return out;
}

static uint32_t readBigEndian32(const unsigned char *p) {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
}

/// The runtime dtype an IDX type byte's elements decode to (integers of
/// up to 32 bits widen to i32).
static DType idxDType(unsigned code) {
  return code == 0x08   ? DType::U8
         : code == 0x0D ? DType::F32
         : code == 0x0E ? DType::F64
                        : DType::I32;
}

/// Decodes one big-endian element of IDX type \p code at \p p into \p out[i].
static void decodeIdxElement(unsigned char code, const unsigned char *p,
                             Tensor &out, int64_t i) {
  switch (code) {
  case 0x08: out.as<uint8_t>()[i] = p[0]; break;
  case 0x09: out.as<int32_t>()[i] = static_cast<int8_t>(p[0]); break;
  case 0x0B: out.as<int32_t>()[i] = static_cast<int16_t>((p[0] << 8) | p[1]); break;
  case 0x0C: out.as<int32_t>()[i] = static_cast<int32_t>(readBigEndian32(p)); break;
  case 0x0D: {
    uint32_t bits = readBigEndian32(p);
    std::memcpy(&out.as<float>()[i], &bits, 4);
    break;
  }
  case 0x0E: {
    uint64_t bits = (uint64_t(readBigEndian32(p)) << 32) | readBigEndian32(p + 4);
    std::memcpy(&out.as<double>()[i], &bits, 8);
    break;
  }
  }
}

Expected<Tensor> readIdx(const std::string &path) {
  auto bytesOr = readFileMaybeGzip(path);
  if (!bytesOr)
    return bytesOr.status();
  const std::vector<unsigned char> &b = *bytesOr;
  const char *p = path.c_str();
  modelsupport::idx::Header h;
  size_t at = 0;
  std::string err = modelsupport::idx::parseHeader(b.data(), b.size(), h, at);
  if (!err.empty())
    return at == modelsupport::idx::kNoByte ? errorf("%s: %s", p, err.c_str())
                                            : errorf("%s: byte %zu: %s", p, at, err.c_str());
  DType dtype = idxDType(h.typeCode);
  size_t elemSize = modelsupport::idx::elemSize(h.typeCode), headerSize = h.dataStart;
  const std::vector<int64_t> &shape = h.dims;
  auto bytes = checkedDataBytes(shape, elemSize, UINT64_MAX, path);
  if (!bytes)
    return bytes.status();
  int64_t n = int64_t(*bytes / elemSize);
  err = modelsupport::idx::checkSize(h, b.size(), at);
  if (!err.empty())
    return at == modelsupport::idx::kNoByte ? errorf("%s: %s", p, err.c_str())
                                            : errorf("%s: byte %zu: %s", p, at, err.c_str());
  Tensor t(dtype, shape);
  for (int64_t i = 0; i < n; ++i)
    decodeIdxElement(h.typeCode, &b[headerSize + size_t(i) * elemSize], t, i);
  return t;
}

} // namespace modelrt
