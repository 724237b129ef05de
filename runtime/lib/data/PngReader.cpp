//===- PngReader.cpp - A small PNG decoder over zlib's inflate -------------===//
//
// Reads 8-bit, non-interlaced PNGs of colour type 0 (gray), 2 (RGB), 4 (gray
// + alpha) and 6 (RGBA): checks the signature and every chunk's CRC-32,
// inflates the concatenated IDAT data, undoes the five scanline filters and
// returns planar U8 [C, H, W] without alpha.
//
//===----------------------------------------------------------------------===//
#include "modelrt/data/Readers.h"

#include <cstdlib>
#include <cstring>
#include <zlib.h>

namespace modelrt {
namespace {

/// The largest expansion of deflate (zlib's technical notes: 1032:1).
constexpr uint64_t kMaxDeflateRatio = 1032;

uint32_t be32(const unsigned char *p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}

/// Header fields of IHDR.
struct PngHeader {
  uint32_t width = 0, height = 0;
  int depth = 0, colorType = 0, interlace = 0;
  int channels() const { return colorType == 0 ? 1 : colorType == 2 ? 3 : colorType == 4 ? 2 : 4; }
};

Status checkHeader(const PngHeader &h, const std::string &path) {
  const char *p = path.c_str();
  if (h.width == 0 || h.height == 0 || h.width > (1u << 15) || h.height > (1u << 15))
    return errorf("%s: unsupported PNG: size %ux%u (1..32768 each)", p, h.width, h.height);
  if (h.colorType == 3)
    return errorf("%s: unsupported PNG: palette images (colour type 3); save as 8-bit gray or "
                  "RGB", p);
  if (h.colorType != 0 && h.colorType != 2 && h.colorType != 4 && h.colorType != 6)
    return errorf("%s: invalid PNG: colour type %d", p, h.colorType);
  if (h.depth != 8)
    return errorf("%s: unsupported PNG: bit depth %d (only 8-bit gray, gray+alpha, RGB and "
                  "RGBA)", p, h.depth);
  if (h.interlace != 0)
    return errorf("%s: unsupported PNG: interlaced (Adam7) images", p);
  return Status::ok();
}

Status inflateAll(const std::string &idat, size_t expected, std::vector<unsigned char> &out,
                  const std::string &path) {
  out.assign(expected + 1, 0); // one spare byte detects excess data
  z_stream z{};
  if (inflateInit(&z) != Z_OK)
    return errorf("%s: zlib initialisation failed", path.c_str());
  z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(idat.data()));
  z.avail_in = static_cast<uInt>(idat.size());
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  int rc = inflate(&z, Z_FINISH);
  size_t got = out.size() - z.avail_out;
  inflateEnd(&z);
  if (rc != Z_STREAM_END || got != expected)
    return errorf("%s: corrupt PNG image data: %s (%zu of %zu bytes inflated)", path.c_str(),
                  rc == Z_STREAM_END ? "wrong size" : rc == Z_BUF_ERROR ? "truncated or too long"
                                                                        : "zlib data error",
                  got, expected);
  out.resize(expected);
  return Status::ok();
}

int paeth(int a, int b, int c) {
  int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/// Undoes the filters in place; raw holds H rows of (1 + stride) bytes.
Status unfilter(std::vector<unsigned char> &raw, const PngHeader &h, const std::string &path) {
  size_t bpp = h.channels(), stride = size_t(h.width) * bpp;
  for (uint32_t y = 0; y < h.height; ++y) {
    unsigned char *row = &raw[y * (stride + 1)];
    const unsigned char *prev = y ? row - (stride + 1) + 1 : nullptr;
    int filter = row[0];
    if (filter > 4)
      return errorf("%s: corrupt PNG: row %u has filter type %d", path.c_str(), y, filter);
    unsigned char *cur = row + 1;
    for (size_t i = 0; i < stride; ++i) {
      int a = i >= bpp ? cur[i - bpp] : 0, b = prev ? prev[i] : 0;
      int c = prev && i >= bpp ? prev[i - bpp] : 0;
      int add = filter == 0 ? 0 : filter == 1 ? a : filter == 2 ? b
                : filter == 3 ? (a + b) / 2 : paeth(a, b, c);
      cur[i] = static_cast<unsigned char>(cur[i] + add);
    }
  }
  return Status::ok();
}

/// Walks the chunks, filling \p h and \p idat.
Status readChunks(const std::vector<unsigned char> &b, const std::string &path, PngHeader &h,
                  std::string &idat) {
  const char *p = path.c_str();
  size_t pos = 8;
  bool sawHeader = false;
  while (true) {
    if (b.size() - pos < 12)
      return errorf("%s: truncated PNG at byte %zu (no IEND chunk)", p, pos);
    uint32_t len = be32(&b[pos]);
    std::string type(reinterpret_cast<const char *>(&b[pos + 4]), 4);
    if (len > b.size() - pos - 12)
      return errorf("%s: truncated PNG: chunk '%s' at byte %zu needs %u bytes", p, type.c_str(),
                    pos, len);
    uint32_t crc = static_cast<uint32_t>(crc32(0, &b[pos + 4], len + 4));
    if (crc != be32(&b[pos + 8 + len]))
      return errorf("%s: corrupt PNG: CRC mismatch in chunk '%s' at byte %zu", p, type.c_str(),
                    pos);
    const unsigned char *data = &b[pos + 8];
    if (!sawHeader && type != "IHDR")
      return errorf("%s: invalid PNG: first chunk is '%s', not IHDR", p, type.c_str());
    if (type == "IHDR") {
      if (len != 13)
        return errorf("%s: invalid PNG: IHDR of %u bytes", p, len);
      h.width = be32(data), h.height = be32(data + 4);
      h.depth = data[8], h.colorType = data[9], h.interlace = data[12];
      sawHeader = true;
      MODELRT_TRY(checkHeader(h, path));
    } else if (type == "IDAT") {
      idat.append(reinterpret_cast<const char *>(data), len);
    } else if (type == "IEND") {
      return Status::ok();
    } else if (!(type[0] & 0x20)) {
      return errorf("%s: unsupported PNG: critical chunk '%s' at byte %zu", p, type.c_str(), pos);
    }
    pos += 12 + size_t(len);
  }
}
} // namespace

Expected<Tensor> decodePng(const std::vector<unsigned char> &b, const std::string &path) {
  static const unsigned char kSig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  if (b.size() < 8 || std::memcmp(b.data(), kSig, 8) != 0)
    return errorf("%s: not a PNG file (bad signature)", path.c_str());
  PngHeader h;
  std::string idat;
  MODELRT_TRY(readChunks(b, path, h, idat));
  if (idat.empty())
    return errorf("%s: invalid PNG: no IDAT chunk", path.c_str());
  size_t stride = size_t(h.width) * h.channels();
  // Deflate expands at most 1032:1, so IDAT data bounds the image it can hold;
  // the claimed size is checked against it before the buffer is allocated.
  auto need = checkedDataBytes({int64_t(h.height), int64_t(stride + 1)}, 1,
                               uint64_t(idat.size()) * kMaxDeflateRatio, path);
  if (!need)
    return need.status();
  std::vector<unsigned char> raw;
  MODELRT_TRY(inflateAll(idat, (stride + 1) * h.height, raw, path));
  MODELRT_TRY(unfilter(raw, h, path));
  int outC = h.channels() >= 3 ? 3 : 1;
  Tensor t(DType::U8, {outC, int64_t(h.height), int64_t(h.width)});
  unsigned char *o = t.as<unsigned char>();
  size_t plane = size_t(h.width) * h.height;
  for (uint32_t y = 0; y < h.height; ++y)
    for (uint32_t x = 0; x < h.width; ++x)
      for (int c = 0; c < outC; ++c)
        o[c * plane + size_t(y) * h.width + x] = raw[y * (stride + 1) + 1 + x * h.channels() + c];
  return t;
}

Expected<Tensor> readPng(const std::string &path) {
  auto bytes = readDataFile(path);
  if (!bytes)
    return bytes.status();
  return decodePng(*bytes, path);
}

} // namespace modelrt
