//===- ImageFolderTest.cpp - Image folders (data/ImageFolder.cpp) ---------===//
//
// The per-image rules against values computed here by hand: BT.601 luma
// rounded, grey replicated to RGB, bilinear resizing with half-pixel
// centres, the centre crop's corner; and a folder read back in class and
// file-name order with its class labels, a folder whose classes differ
// from the compiled ones refused.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"
#include "modelrt/data/ImageFolder.h"
#include "modelrt/io/PngWriter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sys/stat.h>

using namespace modelrt;
using namespace modelrt_test;

namespace {
/// A U8 [c, h, w] tensor of \p v.
Tensor image(int64_t c, int64_t h, int64_t w, const std::vector<int> &v) {
  Tensor t(DType::U8, {c, h, w});
  for (size_t i = 0; i < v.size(); ++i)
    t.as<unsigned char>()[i] = static_cast<unsigned char>(v[i]);
  return t;
}
std::vector<int> values(const Tensor &t) {
  const unsigned char *p = t.as<unsigned char>();
  return std::vector<int>(p, p + t.numElements());
}
} // namespace

TEST(ImageFolder, ChannelRule) {
  // Two RGB pixels, planar: R = {255, 10}, G = {0, 20}, B = {0, 200}.
  Tensor rgb = image(3, 1, 2, {255, 10, 0, 20, 0, 200});
  std::vector<int> luma;
  for (auto [r, g, b] : {std::make_tuple(255, 0, 0), std::make_tuple(10, 20, 200)})
    luma.push_back(int(std::lround(0.299 * r + 0.587 * g + 0.114 * b)));
  EXPECT_EQ(values(convertChannels(rgb, 1)), luma); // 76, 37
  EXPECT_EQ(values(convertChannels(image(1, 1, 2, {7, 9}), 3)),
            (std::vector<int>{7, 9, 7, 9, 7, 9}));
}

TEST(ImageFolder, BilinearResizeAndCentreCrop) {
  // Width 2 -> 4: source x = (i + 0.5) / 2 - 0.5 = -0.25 (clamped to 0),
  // 0.25, 0.75, 1.25 (clamped to the last pixel).
  EXPECT_EQ(values(resizeBilinear(image(1, 1, 2, {0, 100}), 1, 4)),
            (std::vector<int>{0, 25, 75, 100}));
  // 2x2 -> 1x1 samples the centre: the mean of the four.
  EXPECT_EQ(values(resizeBilinear(image(1, 2, 2, {0, 40, 80, 120}), 1, 1)),
            (std::vector<int>{60}));
  std::vector<int> v(2 * 5 * 4);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = int(i);
  // 5x4 -> 3x2: the top-left corner at ((5 - 3) / 2, (4 - 2) / 2) = (1, 1).
  EXPECT_EQ(values(centerCrop(image(2, 5, 4, v), 3, 2)),
            (std::vector<int>{5, 6, 9, 10, 13, 14, 25, 26, 29, 30, 33, 34}));
}

TEST(ImageFolder, ReadsClassesInOrderAndRefusesOtherClasses) {
  TempDir tmp;
  for (const char *d : {"b", "a"})
    ASSERT_EQ(::mkdir(tmp.path(d).c_str(), 0755), 0);
  const uint8_t grey1[4] = {1, 2, 3, 4}, grey2[4] = {5, 6, 7, 8}, grey3[4] = {9, 9, 9, 9};
  ASSERT_TRUE(writePng(tmp.path("b/x.png"), grey3, 2, 2, 1).isOk());
  ASSERT_TRUE(writePng(tmp.path("a/2.png"), grey2, 2, 2, 1).isOk());
  ASSERT_TRUE(writePng(tmp.path("a/1.png"), grey1, 2, 2, 1).isOk());
  ImageFolderSpec spec;
  spec.classNames = {"a", "b"};
  spec.channels = 1, spec.height = 2, spec.width = 2;
  auto d = readImageFolder(tmp.root(), spec);
  ASSERT_TRUE(d.isOk()) << d.message();
  ASSERT_EQ(d->size(), 3);
  std::vector<float> x(d->inputs.as<float>(), d->inputs.as<float>() + 12);
  EXPECT_EQ(x, (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9}));
  EXPECT_EQ(std::vector<int64_t>(d->labels.as<int64_t>(), d->labels.as<int64_t>() + 3),
            (std::vector<int64_t>{0, 0, 1}));
  spec.classNames = {"a", "c"};
  auto other = readImageFolder(tmp.root(), spec);
  ASSERT_FALSE(other.isOk());
  EXPECT_NE(other.message().find(": the class folders are [a, b] but the model was compiled "
                                 "with classes [a, c]"), std::string::npos) << other.message();
  spec.classNames = {"a", "b"};
  spec.height = 3;
  auto size = readImageFolder(tmp.root(), spec);
  ASSERT_FALSE(size.isOk());
  EXPECT_NE(size.message().find("a/1.png: image is 2x2 but the model's images are 2x3"),
            std::string::npos) << size.message();
}

TEST(ImageFolder, MixedGreyAndRgbResizedAndCropped) {
  TempDir tmp;
  for (const char *d : {"a", "b"})
    ASSERT_EQ(::mkdir(tmp.path(d).c_str(), 0755), 0);
  uint8_t grey[16], rgb[12];
  for (int i = 0; i < 16; ++i)
    grey[i] = uint8_t(i);
  for (int i = 0; i < 4; ++i) // a constant colour: R 10, G 20, B 30
    rgb[3 * i] = 10, rgb[3 * i + 1] = 20, rgb[3 * i + 2] = 30;
  ASSERT_TRUE(writePng(tmp.path("a/g.png"), grey, 4, 4, 1).isOk());
  ASSERT_TRUE(writePng(tmp.path("b/c.png"), rgb, 2, 2, 3).isOk());
  ImageFolderSpec spec;
  spec.classNames = {"a", "b"};
  spec.channels = 3, spec.height = 2, spec.width = 2;
  spec.resizeHeight = 4, spec.resizeWidth = 4, spec.centerCrop = true;
  auto d = readImageFolder(tmp.root(), spec);
  ASSERT_TRUE(d.isOk()) << d.message();
  // Grey replicated, kept at 4x4, its centre (rows 1-2, columns 1-2); the
  // colour image resized to 4x4 (constant) and cropped.
  std::vector<float> x(d->inputs.as<float>(), d->inputs.as<float>() + 24);
  EXPECT_EQ(x, (std::vector<float>{5, 6, 9, 10, 5, 6, 9, 10, 5, 6, 9, 10,
                                   10, 10, 10, 10, 20, 20, 20, 20, 30, 30, 30, 30}));
  spec.channels = 1; // luma of (10, 20, 30): 2.99 + 11.74 + 3.42 = 18.15
  d = readImageFolder(tmp.root(), spec);
  ASSERT_TRUE(d.isOk()) << d.message();
  x.assign(d->inputs.as<float>(), d->inputs.as<float>() + 8);
  EXPECT_EQ(x, (std::vector<float>{5, 6, 9, 10, 18, 18, 18, 18}));
}

// Decoding runs on every usable core, each image into its own slot: the
// samples come out in file order, and with bad files in both halves of the
// list the error names the first bad file in that order (1.png), not the
// one the other share reached first.
TEST(ImageFolder, ParallelDecodingKeepsOrderAndTheFirstError) {
  TempDir tmp;
  ASSERT_EQ(::mkdir(tmp.path("a").c_str(), 0755), 0);
  ASSERT_EQ(::mkdir(tmp.path("b").c_str(), 0755), 0);
  for (int i = 0; i < 6; ++i) {
    const uint8_t px[4] = {uint8_t(i), uint8_t(10 + i), uint8_t(20 + i), uint8_t(30 + i)};
    ASSERT_TRUE(writePng(tmp.path(std::string(i < 3 ? "a/" : "b/") + char('0' + i) + ".png"),
                         px, 2, 2, 1).isOk());
  }
  ImageFolderSpec spec;
  spec.classNames = {"a", "b"};
  spec.channels = 1, spec.height = 2, spec.width = 2;
  auto d = readImageFolder(tmp.root(), spec);
  ASSERT_TRUE(d.isOk()) << d.message();
  ASSERT_EQ(d->size(), 6);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(d->inputs.as<float>()[4 * i + 3], float(30 + i)) << "sample " << i;
    EXPECT_EQ(d->labels.as<int64_t>()[i], i < 3 ? 0 : 1);
  }
  for (const char *bad : {"a/1.png", "b/4.png"})
    writeText(tmp.path(bad), "not an image");
  auto broken = readImageFolder(tmp.root(), spec);
  ASSERT_FALSE(broken.isOk());
  EXPECT_NE(broken.message().find("a/1.png"), std::string::npos) << broken.message();
}
