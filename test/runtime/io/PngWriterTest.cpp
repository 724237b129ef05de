//===- PngWriterTest.cpp - PNG files written through libpng ---------------===//
//
// encodePng / writePng (io/PngWriter.h): gray, RGB and RGBA images decode
// back to the same pixels with the runtime's reader (readImage, which drops
// alpha), the signature and
// IHDR say what was asked, and bad requests are errors that name the path.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include "modelrt/data/Readers.h"
#include "modelrt/io/PngWriter.h"

#include <gtest/gtest.h>

using namespace modelrt;
using namespace modelrt_test;

namespace {

/// Interleaved pixels whose values differ per channel, row and column.
std::vector<uint8_t> pattern(int64_t w, int64_t h, int c) {
  std::vector<uint8_t> px(size_t(w * h * c));
  for (int64_t y = 0; y < h; ++y)
    for (int64_t x = 0; x < w; ++x)
      for (int k = 0; k < c; ++k)
        px[size_t((y * w + x) * c + k)] = uint8_t((x * 37 + y * 11 + k * 101) % 256);
  return px;
}

/// Big-endian 32-bit value at \p at.
uint32_t be32(const std::string &s, size_t at) {
  return uint32_t(uint8_t(s[at])) << 24 | uint32_t(uint8_t(s[at + 1])) << 16 |
         uint32_t(uint8_t(s[at + 2])) << 8 | uint32_t(uint8_t(s[at + 3]));
}

} // namespace

TEST(PngWriter, GrayRgbAndRgbaRoundTripThroughTheReader) {
  TempDir dir;
  for (int c : {1, 3, 4}) {
    const int64_t w = 13, h = 7;
    std::vector<uint8_t> px = pattern(w, h, c);
    std::string path = dir.path("img" + std::to_string(c) + ".png");
    ASSERT_TRUE(writePng(path, px.data(), w, h, c).isOk());
    auto img = readImage(path);
    ASSERT_TRUE(img.isOk()) << img.message();
    int kept = c == 4 ? 3 : c; // the reader drops alpha
    ASSERT_EQ(img->shape(), (std::vector<int64_t>{kept, h, w}));
    const unsigned char *got = img->as<unsigned char>();
    for (int k = 0; k < kept; ++k)
      for (int64_t i = 0; i < w * h; ++i)
        ASSERT_EQ(got[k * w * h + i], px[size_t(i * c + k)]) << c << " " << k << " " << i;
  }
}

TEST(PngWriter, TheHeaderSaysWhatWasAsked) {
  std::vector<uint8_t> px = pattern(28, 28, 1);
  auto bytes = encodePng(px.data(), 28, 28, 1);
  ASSERT_TRUE(bytes.isOk()) << bytes.message();
  ASSERT_GT(bytes->size(), 33u);
  EXPECT_EQ(bytes->substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(bytes->substr(12, 4), "IHDR");
  EXPECT_EQ(be32(*bytes, 16), 28u); // width
  EXPECT_EQ(be32(*bytes, 20), 28u); // height
  EXPECT_EQ(uint8_t((*bytes)[24]), 8u); // bit depth
  EXPECT_EQ(uint8_t((*bytes)[25]), 0u); // colour type: gray
}

TEST(PngWriter, BadRequestsAreErrors) {
  std::vector<uint8_t> px = pattern(4, 4, 4);
  auto five = encodePng(px.data(), 4, 4, 5);
  ASSERT_FALSE(five.isOk());
  EXPECT_NE(five.message().find("5 channels"), std::string::npos) << five.message();
  auto empty = encodePng(px.data(), 0, 4, 1);
  ASSERT_FALSE(empty.isOk());
  EXPECT_NE(empty.message().find("0x4 image cannot be written"), std::string::npos)
      << empty.message();
  Status st = writePng("/nonexistent-dir/x.png", px.data(), 4, 4, 1);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("/nonexistent-dir/x.png"), std::string::npos) << st.message();
}
