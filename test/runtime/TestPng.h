//===- TestPng.h - A PNG encoder for the tests ----------------------------===//
//
// Builds PNG files from interleaved 8-bit pixels with a chosen filter per row
// (the forward filters written from the PNG specification, independent of
// the runtime's decoder), zlib-compressed IDAT split into two chunks.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_TEST_TESTPNG_H
#define MODELRT_TEST_TESTPNG_H

#include <cstdlib>
#include <string>
#include <vector>
#include <zlib.h>

namespace modelrt_test {

/// Appends one chunk (length, type, data, CRC-32 of type + data).
inline void pngChunk(std::vector<unsigned char> &out, const char *type,
                     const std::vector<unsigned char> &data) {
  auto be = [&](uint32_t v) {
    for (int s = 24; s >= 0; s -= 8)
      out.push_back((v >> s) & 0xFF);
  };
  be(uint32_t(data.size()));
  std::vector<unsigned char> td(type, type + 4);
  td.insert(td.end(), data.begin(), data.end());
  out.insert(out.end(), td.begin(), td.end());
  be(uint32_t(crc32(0, td.data(), uInt(td.size()))));
}

/// A PNG of \p w x \p h pixels of \p channels bytes (colour type \p colorType),
/// row y filtered with filters[y % filters.size()].
inline std::vector<unsigned char> makePng(uint32_t w, uint32_t h, int colorType, int channels,
                                          const std::vector<unsigned char> &px,
                                          const std::vector<int> &filters = {0}) {
  size_t stride = size_t(w) * channels;
  std::vector<unsigned char> raw;
  for (uint32_t y = 0; y < h; ++y) {
    int f = filters[y % filters.size()];
    raw.push_back(static_cast<unsigned char>(f));
    for (size_t i = 0; i < stride; ++i) {
      int x = px[y * stride + i];
      int a = i >= size_t(channels) ? px[y * stride + i - channels] : 0;
      int b = y ? px[(y - 1) * stride + i] : 0;
      int c = y && i >= size_t(channels) ? px[(y - 1) * stride + i - channels] : 0;
      int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
      int pred = f == 0 ? 0 : f == 1 ? a : f == 2 ? b : f == 3 ? (a + b) / 2
                 : (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      raw.push_back(static_cast<unsigned char>(x - pred));
    }
  }
  uLongf zlen = compressBound(uLong(raw.size()));
  std::vector<unsigned char> z(zlen);
  compress(z.data(), &zlen, raw.data(), uLong(raw.size()));
  z.resize(zlen);
  std::vector<unsigned char> out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  std::vector<unsigned char> ihdr;
  for (uint32_t v : {w, h})
    for (int s = 24; s >= 0; s -= 8)
      ihdr.push_back((v >> s) & 0xFF);
  ihdr.insert(ihdr.end(), {8, (unsigned char)colorType, 0, 0, 0});
  pngChunk(out, "IHDR", ihdr);
  pngChunk(out, "tEXt", {'C', 'o', 'm', 'm', 'e', 'n', 't', 0, 'h', 'i'});
  size_t half = z.size() / 2;
  pngChunk(out, "IDAT", std::vector<unsigned char>(z.begin(), z.begin() + half));
  pngChunk(out, "IDAT", std::vector<unsigned char>(z.begin() + half, z.end()));
  pngChunk(out, "IEND", {});
  return out;
}

} // namespace modelrt_test

#endif // MODELRT_TEST_TESTPNG_H
