//===- PngReaderTest.cpp - The PNG decoder ---------------------------------===//
#include "TestPng.h"
#include "TestUtil.h"
#include "modelrt/data/Readers.h"

#include <gtest/gtest.h>

using namespace modelrt;
using namespace modelrt_test;

/// Pseudo-random pixels (a fixed LCG) so every filter sees varied data.
static std::vector<unsigned char> pixels(size_t n, uint32_t seed) {
  std::vector<unsigned char> v(n);
  for (auto &x : v)
    x = static_cast<unsigned char>((seed = seed * 1664525u + 1013904223u) >> 24);
  return v;
}

TEST(Png, GrayWithEveryFilterType) {
  const uint32_t w = 7, h = 10;
  std::vector<unsigned char> px = pixels(w * h, 1);
  auto t = decodePng(makePng(w, h, 0, 1, px, {0, 1, 2, 3, 4}), "g.png");
  ASSERT_TRUE(t.isOk()) << t.message();
  EXPECT_EQ(t->dtype(), DType::U8);
  EXPECT_EQ(t->shape(), (std::vector<int64_t>{1, h, w}));
  EXPECT_EQ(std::vector<unsigned char>(t->as<unsigned char>(), t->as<unsigned char>() + w * h), px);
}

TEST(Png, RgbAndAlphaBecomePlanarWithoutAlpha) {
  const uint32_t w = 5, h = 4;
  std::vector<unsigned char> rgba = pixels(w * h * 4, 2), rgb;
  for (size_t i = 0; i < rgba.size(); ++i)
    if (i % 4 != 3)
      rgb.push_back(rgba[i]);
  for (auto [type, ch, src] : {std::make_tuple(2, 3, &rgb), std::make_tuple(6, 4, &rgba)}) {
    auto t = decodePng(makePng(w, h, type, ch, *src, {4, 3, 2, 1}), "c.png");
    ASSERT_TRUE(t.isOk()) << t.message();
    EXPECT_EQ(t->shape(), (std::vector<int64_t>{3, h, w}));
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x)
        for (int c = 0; c < 3; ++c)
          EXPECT_EQ(t->as<unsigned char>()[(c * h + y) * w + x], rgb[(y * w + x) * 3 + c]);
  }
  std::vector<unsigned char> ga = pixels(w * h * 2, 3);
  auto t = decodePng(makePng(w, h, 4, 2, ga, {1}), "ga.png");
  ASSERT_TRUE(t.isOk()) << t.message();
  EXPECT_EQ(t->shape(), (std::vector<int64_t>{1, h, w}));
  EXPECT_EQ(t->as<unsigned char>()[w * h - 1], ga[(w * h - 1) * 2]);
}

TEST(Png, BadFilesAreClearErrors) {
  std::vector<unsigned char> good = makePng(3, 3, 0, 1, pixels(9, 4), {2});
  auto expectError = [](const std::vector<unsigned char> &b, const std::string &fragment) {
    auto t = decodePng(b, "x.png");
    ASSERT_FALSE(t.isOk());
    EXPECT_NE(t.message().find("x.png: " + fragment), std::string::npos) << t.message();
  };
  expectError({'G', 'I', 'F', '8', '9', 'a', 0, 0}, "not a PNG file (bad signature)");
  std::vector<unsigned char> b = good;
  b[good.size() - 20] ^= 0x10; // inside the second IDAT's data
  expectError(b, "corrupt PNG: CRC mismatch in chunk 'IDAT'");
  expectError(std::vector<unsigned char>(good.begin(), good.begin() + 40), "truncated PNG");
  expectError(makePng(2, 2, 3, 1, pixels(4, 5)), "unsupported PNG: palette images");
  std::vector<unsigned char> deep = makePng(2, 2, 0, 1, pixels(4, 6));
  deep[24] = 16; // bit depth in IHDR: fix the CRC so only the depth is wrong
  uint32_t crc = uint32_t(crc32(0, &deep[12], 17));
  for (int i = 0; i < 4; ++i)
    deep[29 + i] = (crc >> (24 - 8 * i)) & 0xFF;
  expectError(deep, "unsupported PNG: bit depth 16");
  std::vector<unsigned char> inter = makePng(2, 2, 0, 1, pixels(4, 7));
  inter[28] = 1; // interlace method
  crc = uint32_t(crc32(0, &inter[12], 17));
  for (int i = 0; i < 4; ++i)
    inter[29 + i] = (crc >> (24 - 8 * i)) & 0xFF;
  expectError(inter, "unsupported PNG: interlaced");
  expectError(makePng(3, 3, 0, 1, pixels(9, 4), {7}), "corrupt PNG: row 0 has filter type 7");
  TempDir tmp;
  writeBytes(tmp.path("ok.png"), good);
  EXPECT_TRUE(readPng(tmp.path("ok.png")).isOk());
  EXPECT_FALSE(readPng(tmp.path("missing.png")).isOk());
}

TEST(Png, ClaimedSizeIsCheckedAgainstTheImageData) {
  // IHDR claims 32768x32768 RGB (3 GiB) over a few bytes of IDAT: deflate
  // cannot expand that far, so the decoder refuses before allocating.
  std::vector<unsigned char> b = makePng(1, 1, 2, 3, {1, 2, 3});
  for (int at : {16, 20}) { // width, height
    b[at] = 0, b[at + 1] = 0, b[at + 2] = 0x80, b[at + 3] = 0;
  }
  uint32_t crc = uint32_t(crc32(0, &b[12], 17));
  for (int i = 0; i < 4; ++i)
    b[29 + i] = (crc >> (24 - 8 * i)) & 0xFF;
  auto t = decodePng(b, "big.png");
  ASSERT_FALSE(t.isOk());
  EXPECT_NE(t.message().find("big.png: shape [32768, 98305] claims 3221258240 elements "
                             "(3221258240 bytes) but the file can hold at most"),
            std::string::npos) << t.message();
}
