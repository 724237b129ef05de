//===- ImageReaderTest.cpp - PNG and JPEG decoding (data/ImageReader.cpp) -===//
//
// Images are written here, with libpng's and libjpeg's encoders or the
// independent PNG encoder of TestPng.h, from known pixels; readImage must
// give back those pixels as planar [C, H, W]: 16-bit samples scaled to
// round(v * 255 / 65535), palettes expanded, 1-bit grey to 0/255, Adam7
// de-interlaced, alpha dropped; JPEGs within a lossy tolerance. The header
// reader of modelsupport/Image.h (the compiler's) must agree with every
// decode on size and channels. Corrupt and truncated files are errors that
// name the file.
//
//===----------------------------------------------------------------------===//
#include "TestPng.h"
#include "TestUtil.h"
#include "modelrt/data/Readers.h"
#include "modelsupport/Image.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <png.h>
#include <jpeglib.h>

using namespace modelrt;
using namespace modelrt_test;

namespace {

/// Pseudo-random values below \p mod (a fixed LCG).
std::vector<unsigned> values(size_t n, uint32_t seed, unsigned mod = 256) {
  std::vector<unsigned> v(n);
  for (auto &x : v)
    x = ((seed = seed * 1664525u + 1013904223u) >> 8) % mod;
  return v;
}

/// What to write with libpng: interleaved samples, one per channel.
struct PngSpec {
  uint32_t w, h;
  int colorType, depth, interlace = PNG_INTERLACE_NONE;
  std::vector<unsigned> samples;    ///< packed by libpng for depth < 8
  std::vector<png_color> palette;   ///< colour type 3
  std::vector<png_byte> paletteAlpha; ///< a tRNS chunk for the palette
};

/// Writes \p s to \p path with libpng's encoder.
void writePngFile(const std::string &path, const PngSpec &s) {
  FILE *f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  png_init_io(png, f);
  png_set_IHDR(png, info, s.w, s.h, s.depth, s.colorType, s.interlace,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (!s.palette.empty())
    png_set_PLTE(png, info, s.palette.data(), int(s.palette.size()));
  if (!s.paletteAlpha.empty())
    png_set_tRNS(png, info, s.paletteAlpha.data(), int(s.paletteAlpha.size()), nullptr);
  png_write_info(png, info);
  if (s.depth < 8)
    png_set_packing(png);
  if (s.depth == 16)
    png_set_swap(png); // rows below are little-endian 16-bit
  size_t perRow = s.samples.size() / s.h, bytes = s.depth == 16 ? 2 : 1;
  std::vector<unsigned char> rows(s.samples.size() * bytes);
  for (size_t i = 0; i < s.samples.size(); ++i)
    for (size_t b = 0; b < bytes; ++b)
      rows[i * bytes + b] = (s.samples[i] >> (8 * b)) & 0xFF;
  std::vector<png_bytep> ptrs;
  for (uint32_t y = 0; y < s.h; ++y)
    ptrs.push_back(rows.data() + y * perRow * bytes);
  png_write_image(png, ptrs.data());
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  std::fclose(f);
}

/// Writes interleaved 8-bit \p px (\p channels 1 or 3) as a JPEG.
void writeJpegFile(const std::string &path, int w, int h, int channels,
                   const std::vector<unsigned char> &px, int quality) {
  FILE *f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  jpeg_compress_struct c;
  jpeg_error_mgr err;
  c.err = jpeg_std_error(&err);
  jpeg_create_compress(&c);
  jpeg_stdio_dest(&c, f);
  c.image_width = w, c.image_height = h, c.input_components = channels;
  c.in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(&c);
  jpeg_set_quality(&c, quality, TRUE);
  jpeg_start_compress(&c, TRUE);
  while (c.next_scanline < c.image_height) {
    JSAMPROW row = const_cast<unsigned char *>(&px[c.next_scanline * size_t(w) * channels]);
    jpeg_write_scanlines(&c, &row, 1);
  }
  jpeg_finish_compress(&c);
  jpeg_destroy_compress(&c);
  std::fclose(f);
}

/// Reads \p path, checks the header reader agrees, returns the pixels.
std::vector<unsigned> decoded(const std::string &path, int channels, uint32_t w, uint32_t h) {
  auto t = readImage(path);
  EXPECT_TRUE(t.isOk()) << t.message();
  if (!t)
    return {};
  EXPECT_EQ(t->dtype(), DType::U8);
  EXPECT_EQ(t->shape(), (std::vector<int64_t>{channels, h, w}));
  modelsupport::image::Header header;
  EXPECT_EQ(modelsupport::image::readHeader(path, header), "");
  EXPECT_EQ(header.channels, channels);
  EXPECT_EQ(header.width, int64_t(w));
  EXPECT_EQ(header.height, int64_t(h));
  const unsigned char *p = t->as<unsigned char>();
  return std::vector<unsigned>(p, p + t->numElements());
}

/// Interleaved \p px ([h*w, from]) as planar, keeping \p keep channels, each
/// value mapped by \p f.
template <class F>
std::vector<unsigned> planarOf(const std::vector<unsigned> &px, int from, int keep, F f) {
  size_t n = px.size() / from;
  std::vector<unsigned> out(n * keep);
  for (size_t i = 0; i < n; ++i)
    for (int c = 0; c < keep; ++c)
      out[c * n + i] = f(px[i * from + c]);
  return out;
}
unsigned same(unsigned v) { return v; }

} // namespace

TEST(Image, SixteenBitSamplesAreScaledToRoundedEightBit) {
  TempDir tmp;
  std::vector<unsigned> px = values(9 * 5 * 3, 1, 65536);
  px[0] = 0, px[1] = 65535, px[2] = 128, px[3] = 32767, px[4] = 32896;
  writePngFile(tmp.path("rgb16.png"), {9, 5, PNG_COLOR_TYPE_RGB, 16, 0, px, {}});
  auto scaled = [](unsigned v) { return unsigned((uint64_t(v) * 255 * 2 + 65535) / (2 * 65535)); };
  EXPECT_EQ(decoded(tmp.path("rgb16.png"), 3, 9, 5), planarOf(px, 3, 3, scaled));
  std::vector<unsigned> ga = values(4 * 6 * 2, 2, 65536);
  writePngFile(tmp.path("ga16.png"), {4, 6, PNG_COLOR_TYPE_GRAY_ALPHA, 16, 0, ga, {}});
  EXPECT_EQ(decoded(tmp.path("ga16.png"), 1, 4, 6), planarOf(ga, 2, 1, scaled));
}

TEST(Image, PaletteAndLowBitDepths) {
  TempDir tmp;
  std::vector<png_color> pal = {{10, 20, 30}, {200, 100, 0}, {0, 255, 7}, {1, 2, 3}};
  std::vector<unsigned> idx = values(7 * 3, 3, 4);
  writePngFile(tmp.path("pal.png"), {7, 3, PNG_COLOR_TYPE_PALETTE, 2, 0, idx, pal});
  std::vector<unsigned> want(7 * 3 * 3);
  for (size_t i = 0; i < idx.size(); ++i) {
    want[i] = pal[idx[i]].red;
    want[idx.size() + i] = pal[idx[i]].green;
    want[2 * idx.size() + i] = pal[idx[i]].blue;
  }
  EXPECT_EQ(decoded(tmp.path("pal.png"), 3, 7, 3), want);
  // A tRNS chunk (palette transparency) is dropped like alpha: still RGB.
  PngSpec withAlpha{7, 3, PNG_COLOR_TYPE_PALETTE, 2, 0, idx, pal};
  withAlpha.paletteAlpha = {0, 128, 255, 7};
  writePngFile(tmp.path("pal-trns.png"), withAlpha);
  EXPECT_EQ(decoded(tmp.path("pal-trns.png"), 3, 7, 3), want);
  std::vector<unsigned> bits = values(11 * 2, 4, 2), quads = values(5 * 5, 5, 16);
  writePngFile(tmp.path("g1.png"), {11, 2, PNG_COLOR_TYPE_GRAY, 1, 0, bits, {}});
  EXPECT_EQ(decoded(tmp.path("g1.png"), 1, 11, 2),
            planarOf(bits, 1, 1, [](unsigned v) { return v * 255; }));
  writePngFile(tmp.path("g4.png"), {5, 5, PNG_COLOR_TYPE_GRAY, 4, 0, quads, {}});
  EXPECT_EQ(decoded(tmp.path("g4.png"), 1, 5, 5),
            planarOf(quads, 1, 1, [](unsigned v) { return v * 17; }));
}

TEST(Image, InterlacedAndAlphaImages) {
  TempDir tmp;
  std::vector<unsigned> rgb = values(13 * 11 * 3, 6);
  writePngFile(tmp.path("adam7.png"),
               {13, 11, PNG_COLOR_TYPE_RGB, 8, PNG_INTERLACE_ADAM7, rgb, {}});
  EXPECT_EQ(decoded(tmp.path("adam7.png"), 3, 13, 11), planarOf(rgb, 3, 3, same));
  std::vector<unsigned> ga = values(6 * 4 * 2, 7);
  writePngFile(tmp.path("ga.png"), {6, 4, PNG_COLOR_TYPE_GRAY_ALPHA, 8, 0, ga, {}});
  EXPECT_EQ(decoded(tmp.path("ga.png"), 1, 6, 4), planarOf(ga, 2, 1, same));
  std::vector<unsigned> rgba = values(3 * 8 * 4, 8);
  writePngFile(tmp.path("rgba.png"),
               {3, 8, PNG_COLOR_TYPE_RGB_ALPHA, 8, PNG_INTERLACE_ADAM7, rgba, {}});
  EXPECT_EQ(decoded(tmp.path("rgba.png"), 3, 3, 8), planarOf(rgba, 4, 3, same));
}

TEST(Image, EveryPngFilterTypeFromAnIndependentEncoder) {
  const uint32_t w = 7, h = 10;
  std::vector<unsigned> v = values(w * h * 3, 9);
  std::vector<unsigned char> px(v.begin(), v.end());
  auto t = decodeImage(makePng(w, h, 2, 3, px, {0, 1, 2, 3, 4}), "f.png");
  ASSERT_TRUE(t.isOk()) << t.message();
  const unsigned char *p = t->as<unsigned char>();
  EXPECT_EQ(std::vector<unsigned>(p, p + t->numElements()), planarOf(v, 3, 3, same));
}

TEST(Image, JpegWithinTheLossyTolerance) {
  TempDir tmp;
  const int w = 24, h = 16;
  std::vector<unsigned char> rgb(w * h * 3), grey(w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) { // smooth gradients: small JPEG error
      grey[y * w + x] = static_cast<unsigned char>(40 + 5 * x + 3 * y);
      for (int c = 0; c < 3; ++c) // at most 20 + 69 + 60 + 60 = 209
        rgb[(y * w + x) * 3 + c] = static_cast<unsigned char>(20 + 3 * x + 4 * y + 30 * c);
    }
  writeJpegFile(tmp.path("rgb.jpg"), w, h, 3, rgb, 100);
  writeJpegFile(tmp.path("grey.jpeg"), w, h, 1, grey, 100);
  for (auto [name, ch, src] : {std::make_tuple("rgb.jpg", 3, &rgb),
                               std::make_tuple("grey.jpeg", 1, &grey)}) {
    std::vector<unsigned> got = decoded(tmp.path(name), ch, w, h);
    std::vector<unsigned> want = planarOf(std::vector<unsigned>(src->begin(), src->end()), ch,
                                          ch, same);
    ASSERT_EQ(got.size(), want.size());
    int worst = 0;
    for (size_t i = 0; i < got.size(); ++i)
      worst = std::max(worst, std::abs(int(got[i]) - int(want[i])));
    EXPECT_LE(worst, ch == 1 ? 2 : 6) << name;
  }
}

TEST(Image, CorruptAndTruncatedFilesNameTheFile) {
  TempDir tmp;
  writePngFile(tmp.path("ok.png"), {16, 16, PNG_COLOR_TYPE_RGB, 8, 0, values(768, 10), {}});
  std::vector<unsigned char> jpg(64 * 64 * 3);
  for (size_t i = 0; i < jpg.size(); ++i)
    jpg[i] = static_cast<unsigned char>(i * 7 % 251);
  writeJpegFile(tmp.path("ok.jpg"), 64, 64, 3, jpg, 90);
  auto bytes = [&](const char *name) { return *readDataFile(tmp.path(name)); };
  auto expectError = [](const std::vector<unsigned char> &b, const std::string &name,
                        const std::string &fragment) {
    auto t = decodeImage(b, name);
    ASSERT_FALSE(t.isOk()) << name;
    EXPECT_NE(t.message().find(name + ": " + fragment), std::string::npos) << t.message();
  };
  std::vector<unsigned char> png = bytes("ok.png"), jpeg = bytes("ok.jpg");
  expectError(std::vector<unsigned char>(png.begin(), png.end() - 30), "short.png",
              "PNG: truncated PNG");
  std::vector<unsigned char> crc = png;
  crc[crc.size() - 20] ^= 0x10; // inside IDAT's data
  expectError(crc, "crc.png", "PNG: ");
  expectError(std::vector<unsigned char>(jpeg.begin(), jpeg.begin() + jpeg.size() / 2),
              "half.jpg", "JPEG: ");
  std::vector<unsigned char> flipped = jpeg;
  for (size_t i = jpeg.size() / 2; i < jpeg.size() / 2 + 40; ++i)
    flipped[i] = 0xFF; // markers inside the entropy-coded data
  expectError(flipped, "bad.jpg", "JPEG: ");
  expectError({'G', 'I', 'F', '8', '9', 'a', 0, 0}, "x.gif",
              "not a PNG or JPEG file (bad signature)");
  EXPECT_TRUE(readImage(tmp.path("ok.png")).isOk());
  EXPECT_TRUE(readImage(tmp.path("ok.jpg")).isOk());
  EXPECT_FALSE(readImage(tmp.path("missing.png")).isOk());
}

TEST(Image, ClaimedSizeIsCheckedAgainstTheImageData) {
  // IHDR claims 32768x32768 RGB (3 GiB) over a few bytes of IDAT: deflate
  // cannot expand that far, so the decoder refuses before allocating.
  std::vector<unsigned char> b = makePng(1, 1, 2, 3, {1, 2, 3});
  for (int at : {16, 20}) { // width, height
    b[at] = 0, b[at + 1] = 0, b[at + 2] = 0x80, b[at + 3] = 0;
  }
  uint32_t crc = uint32_t(crc32(0, &b[12], 17));
  for (int i = 0; i < 4; ++i)
    b[29 + i] = (crc >> (24 - 8 * i)) & 0xFF;
  auto t = decodeImage(b, "big.png");
  ASSERT_FALSE(t.isOk());
  EXPECT_NE(t.message().find("big.png: shape [32768, 32768, 3] claims 3221225472 elements"),
            std::string::npos) << t.message();
}
