//===- IdxReader.cpp - IDX (MNIST) reader and gzip-aware file reading ------===//
//
// IDX layout: bytes 0-1 zero, byte 2 the element type (0x08 u8, 0x09 i8,
// 0x0B i16, 0x0C i32, 0x0D f32, 0x0E f64), byte 3 the rank, then one
// big-endian u32 per dimension, then the big-endian elements.
//
//===----------------------------------------------------------------------===//
#include "modelrt/data/Readers.h"

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

/// Element size and runtime dtype of an IDX type byte; size 0 if unknown.
static size_t idxElementSize(unsigned char code, DType &dtype) {
  switch (code) {
  case 0x08: dtype = DType::U8; return 1;
  case 0x09: dtype = DType::I32; return 1;
  case 0x0B: dtype = DType::I32; return 2;
  case 0x0C: dtype = DType::I32; return 4;
  case 0x0D: dtype = DType::F32; return 4;
  case 0x0E: dtype = DType::F64; return 8;
  default: return 0;
  }
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
  if (b.size() < 4)
    return errorf("%s: truncated IDX header: file ends at byte %zu, header needs 4", p,
                  b.size());
  if (b[0] != 0 || b[1] != 0)
    return errorf("%s: byte 0: not an IDX file (magic bytes 0x%02x 0x%02x, expected 0x00 0x00)",
                  p, b[0], b[1]);
  DType dtype;
  size_t elemSize = idxElementSize(b[2], dtype);
  if (elemSize == 0)
    return errorf("%s: byte 2: unknown IDX element type 0x%02x", p, b[2]);
  unsigned rank = b[3];
  if (rank == 0)
    return errorf("%s: byte 3: IDX rank is 0", p);
  size_t headerSize = 4 + 4 * size_t(rank);
  if (b.size() < headerSize)
    return errorf("%s: truncated IDX header: file ends at byte %zu, %u dimensions need %zu",
                  p, b.size(), rank, headerSize);
  std::vector<int64_t> shape;
  for (unsigned i = 0; i < rank; ++i) {
    uint32_t d = readBigEndian32(&b[4 + 4 * i]);
    if (d == 0 || d > (1u << 31))
      return errorf("%s: byte %u: invalid dimension %u", p, 4 + 4 * i, d);
    shape.push_back(d);
  }
  auto bytes = checkedDataBytes(shape, elemSize, UINT64_MAX, path);
  if (!bytes)
    return bytes.status();
  int64_t n = int64_t(*bytes / elemSize);
  size_t need = headerSize + size_t(*bytes);
  if (b.size() < need)
    return errorf("%s: truncated IDX data: file ends at byte %zu, shape %s needs %zu bytes",
                  p, b.size(), shapeToString(shape).c_str(), need);
  if (b.size() > need)
    return errorf("%s: byte %zu: %zu unexpected trailing bytes after IDX data", p, need,
                  b.size() - need);
  Tensor t(dtype, shape);
  for (int64_t i = 0; i < n; ++i)
    decodeIdxElement(b[2], &b[headerSize + size_t(i) * elemSize], t, i);
  return t;
}

} // namespace modelrt
