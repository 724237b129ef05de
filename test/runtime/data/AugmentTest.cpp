//===- AugmentTest.cpp - The augmentation kernels and their sampling -------===//
//
// Kernels with fixed parameters against PyTorch references
// (ref/augment_ref.py, which writes data/AugmentRef.inc) or values worked
// out by hand; the sampling against its documented distributions over
// 10,000 draws; applyAugmentations against the kernels fed the same draws.
//
//===----------------------------------------------------------------------===//
#include "modelrt/data/Augment.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

using namespace modelrt;

#include "AugmentRef.inc"

namespace {
/// The reference script's image: ((i * 37) % 101) / 100 at flat index i.
std::vector<float> refImage(ImageShape s) {
  std::vector<float> v(s.size());
  for (int64_t i = 0; i < s.size(); ++i)
    v[i] = float(double((i * 37) % 101) / 100);
  return v;
}

template <size_t N>
void expectNear(const std::vector<float> &got, const float (&want)[N], float tol) {
  ASSERT_EQ(got.size(), N);
  for (size_t i = 0; i < N; ++i)
    EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
}

/// |fraction - p| within 3 standard deviations of n Bernoulli(p) draws.
void expectProportion(int64_t hits, int64_t n, double p) {
  double sigma = std::sqrt(p * (1 - p) / double(n));
  EXPECT_NEAR(double(hits) / double(n), p, 3 * sigma);
}
} // namespace

TEST(Augment, BilinearResizeMatchesTorchInterpolate) {
  ImageShape s{2, 6, 7}, out{2, 3, 3};
  std::vector<float> src = refImage(s), dst(out.size());
  resizeBilinear(dst.data(), out, src.data(), s, Box{1, 2, 5, 4});
  expectNear(dst, kResizeDown, 1e-6f);
  ImageShape s1{1, 4, 5}, up{1, 7, 5};
  src = refImage(s1), dst.assign(up.size(), 0);
  resizeBilinear(dst.data(), up, src.data(), s1, Box{0, 1, 3, 3});
  expectNear(dst, kResizeUp, 1e-6f);
}

TEST(Augment, ResizedCropOfAConstantImageIsConstant) {
  ImageShape s{1, 9, 11};
  std::vector<float> src(s.size(), 0.625f), dst(s.size());
  resizeBilinear(dst.data(), s, src.data(), s, Box{2, 3, 4, 5});
  for (float v : dst)
    EXPECT_EQ(v, 0.625f);
}

TEST(Augment, RotationMatchesTorchvisionGridSample) {
  ImageShape s{2, 4, 5};
  std::vector<float> src = refImage(s), dst(s.size());
  const float half[2] = {0.5f, 0.5f};
  rotateImage(dst.data(), src.data(), s, 30.0, half);
  expectNear(dst, kRotate30, 1e-6f);
  ImageShape t{1, 5, 4};
  src = refImage(t), dst.assign(t.size(), 0);
  const float minusOne[1] = {-1.0f};
  rotateImage(dst.data(), src.data(), t, -100.0, minusOne);
  expectNear(dst, kRotateMinus100, 1e-6f);
}

TEST(Augment, RotationBy90IsExact) {
  // Counter-clockwise: the right column becomes the top row.
  ImageShape s{1, 3, 3};
  std::vector<float> src = {1, 2, 3, 4, 5, 6, 7, 8, 9}, dst(9);
  const float zero[1] = {0.0f};
  rotateImage(dst.data(), src.data(), s, 90.0, zero);
  std::vector<float> want = {3, 6, 9, 2, 5, 8, 1, 4, 7};
  for (int i = 0; i < 9; ++i)
    EXPECT_FLOAT_EQ(dst[i], want[i]) << i;
  rotateImage(dst.data(), src.data(), s, 0.0, zero);
  EXPECT_EQ(dst, src);
}

TEST(Augment, ColourFactorsMatchTorchvision) {
  ImageShape s{3, 2, 3};
  std::vector<float> img = refImage(s);
  adjustBrightness(img.data(), s, 1.7, 0.0f, 1.0f);
  expectNear(img, kBrightness, 1e-6f);
  img = refImage(s);
  adjustContrast(img.data(), s, 0.4, 0.0f, 1.0f);
  expectNear(img, kContrast, 1e-6f);
  img = refImage(s);
  adjustSaturation(img.data(), s, 0.3, 0.0f, 1.0f);
  expectNear(img, kSaturation, 1e-6f);
  img = refImage(s);
  adjustSaturation(img.data(), s, 2.5, 0.0f, 1.0f);
  expectNear(img, kSaturationHigh, 1e-6f);
  ImageShape grey{1, 2, 3};
  img = refImage(grey);
  adjustContrast(img.data(), grey, 1.6, 0.0f, 1.0f);
  expectNear(img, kContrastGrey, 1e-6f);
}

TEST(Augment, BrightnessByHandAndInInputUnits) {
  ImageShape s{1, 1, 4};
  std::vector<float> img = {0.0f, 0.25f, 0.5f, 1.0f};
  adjustBrightness(img.data(), s, 0.5, 0.0f, 1.0f);
  EXPECT_EQ(img, (std::vector<float>{0.0f, 0.125f, 0.25f, 0.5f}));
  // Pixels u in [0, 1] given to the model as x = -2u + 0.3 (black 0.3,
  // white -1.7): the result is the transform of the result on u.
  ImageShape rgb{3, 2, 3};
  for (double f : {0.6, 1.8}) {
    std::vector<float> u = refImage(rgb), x(u.size());
    for (size_t i = 0; i < u.size(); ++i)
      x[i] = float(-2.0 * u[i] + 0.3);
    adjustContrast(u.data(), rgb, f, 0.0f, 1.0f);
    adjustContrast(x.data(), rgb, f, 0.3f, -1.7f);
    for (size_t i = 0; i < u.size(); ++i)
      EXPECT_NEAR(x[i], -2.0 * u[i] + 0.3, 1e-5) << "factor " << f << " element " << i;
  }
}

TEST(Augment, EraseAndFlipByHand) {
  ImageShape s{2, 3, 4};
  std::vector<float> img(s.size(), 1.0f);
  eraseBox(img.data(), s, Box{1, 1, 2, 2}, -0.5f);
  for (int c = 0; c < 2; ++c)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 4; ++x)
        EXPECT_EQ(img[(c * 3 + y) * 4 + x], (y >= 1 && x >= 1 && x < 3) ? -0.5f : 1.0f);
  std::vector<float> row = {1, 2, 3};
  hflipImage(row.data(), ImageShape{1, 1, 3});
  EXPECT_EQ(row, (std::vector<float>{3, 2, 1}));
}

TEST(Augment, ResizedCropBoxesFollowScaleAndRatio) {
  const double scale[2] = {0.08, 1.0}, ratio[2] = {3.0 / 4, 4.0 / 3};
  Rng rng(11);
  double minArea = 1, maxArea = 0;
  for (int i = 0; i < 10000; ++i) {
    Box b = sampleResizedCrop(rng, 64, 64, scale, ratio);
    ASSERT_GE(b.top, 0);
    ASSERT_GE(b.left, 0);
    ASSERT_LE(b.top + b.height, 64);
    ASSERT_LE(b.left + b.width, 64);
    double area = double(b.height * b.width) / (64 * 64);
    minArea = std::min(minArea, area), maxArea = std::max(maxArea, area);
    // Rounding each side to an integer moves the area by at most about one
    // row and one column, and the ratio by about one pixel in 5.
    EXPECT_GE(area, 0.08 - 2.0 * std::sqrt(0.08 * 1.34) / 64 - 1e-9);
    EXPECT_LE(area, 1.0);
    double aspect = double(b.width) / double(b.height);
    EXPECT_GE(aspect, 0.75 * (1 - 1.0 / 5)) << b.width << "x" << b.height;
    EXPECT_LE(aspect, 4.0 / 3 * (1 + 1.0 / 5)) << b.width << "x" << b.height;
  }
  EXPECT_LT(minArea, 0.1);
  EXPECT_GT(maxArea, 0.9);
  // No try fits: torchvision's centre crop of the largest box in `ratio`.
  const double tooLarge[2] = {2, 3}, wide[2] = {2, 3};
  EXPECT_EQ(sampleResizedCrop(rng, 64, 64, tooLarge, ratio), (Box{0, 0, 64, 64}));
  EXPECT_EQ(sampleResizedCrop(rng, 64, 64, tooLarge, wide), (Box{16, 0, 32, 64}));
  // A ratio so extreme that the fallback's side rounds to 0 (64 / 200):
  // one row is kept, never an empty box.
  const double extreme[2] = {200, 300};
  EXPECT_EQ(sampleResizedCrop(rng, 64, 64, tooLarge, extreme), (Box{31, 0, 1, 64}));
}

TEST(Augment, ErasingProbabilityAndBoxes) {
  // Boxes this small always fit, so the erased fraction is the coin's.
  ModelrtAugment erase{MODELRT_AUG_ERASING, {0.5, 0.02, 0.1, 0.3, 3.3, 0.0}};
  ImageShape s{1, 32, 32};
  std::vector<float> src(s.size(), 1.0f), dst(s.size()), scratch;
  int64_t erased = 0;
  for (uint64_t i = 0; i < 10000; ++i) {
    Rng rng(mixSeed(3, i));
    applyAugmentations({erase}, s, {}, dst.data(), src.data(), rng, scratch);
    int64_t zeros = std::count(dst.begin(), dst.end(), 0.0f);
    erased += zeros > 0;
    ASSERT_LE(zeros, int64_t(0.1 * 1024 * 1.3)) << i;
  }
  expectProportion(erased, 10000, 0.5);
  const double scale[2] = {0.02, 0.33}, ratio[2] = {0.3, 3.3};
  Rng rng(5);
  for (int i = 0; i < 10000; ++i)
    if (std::optional<Box> b = sampleErasing(rng, 32, 32, scale, ratio)) {
      ASSERT_LT(b->height, 32);
      ASSERT_LT(b->width, 32);
      ASSERT_LE(b->top + b->height, 32);
      ASSERT_LE(b->left + b->width, 32);
    }
}

TEST(Augment, FlipProbability) {
  ModelrtAugment flip{MODELRT_AUG_HFLIP, {0.3}};
  ImageShape s{1, 1, 2};
  std::vector<float> src = {1, 2}, dst(2), scratch;
  int64_t flipped = 0;
  for (uint64_t i = 0; i < 10000; ++i) {
    Rng rng(mixSeed(9, i));
    applyAugmentations({flip}, s, {}, dst.data(), src.data(), rng, scratch);
    flipped += dst[0] == 2;
  }
  expectProportion(flipped, 10000, 0.3);
}

TEST(Augment, RotationAnglesAndTheirApplication) {
  Rng rng(21);
  double sum = 0;
  for (int i = 0; i < 10000; ++i) {
    double a = sampleAngle(rng, 15);
    ASSERT_GE(a, -15);
    ASSERT_LE(a, 15);
    sum += a;
  }
  // U(-15, 15) has standard deviation 15 / sqrt(3).
  EXPECT_NEAR(sum / 10000, 0, 3 * 15 / std::sqrt(3.0) / 100);
  // applyAugmentations rotates by the angle its stream draws.
  ImageShape s{1, 5, 5};
  std::vector<float> src = refImage(s), got(s.size()), want(s.size()), scratch;
  Rng a(77), b(77);
  applyAugmentations({{MODELRT_AUG_ROTATION, {15, 0.25}}}, s, {}, got.data(), src.data(), a,
                     scratch);
  const float fill[1] = {0.25f};
  rotateImage(want.data(), src.data(), s, sampleAngle(b, 15), fill);
  EXPECT_EQ(got, want);
}

TEST(Augment, JitterFactorsAndOrders) {
  const double strength[3] = {0.4, 0.2, 1.5};
  Rng rng(8);
  std::map<std::array<int, 3>, int64_t> orders;
  for (int i = 0; i < 10000; ++i) {
    JitterDraw d = sampleJitter(rng, strength);
    for (int k = 0; k < 3; ++k) {
      ASSERT_GE(d.factor[k], std::max(0.0, 1 - strength[k]));
      ASSERT_LE(d.factor[k], 1 + strength[k]);
    }
    std::array<int, 3> sorted = d.order;
    std::sort(sorted.begin(), sorted.end());
    ASSERT_EQ(sorted, (std::array<int, 3>{0, 1, 2}));
    orders[d.order] += 1;
  }
  ASSERT_EQ(orders.size(), 6u);
  for (const auto &kv : orders)
    expectProportion(kv.second, 10000, 1.0 / 6);
}

TEST(Augment, ResizedCropApplicationUsesItsDraw) {
  ModelrtAugment rrc{MODELRT_AUG_RESIZED_CROP, {0.08, 1.0, 3.0 / 4, 4.0 / 3}};
  ImageShape s{3, 8, 10};
  std::vector<float> src = refImage(s), got(s.size()), want(s.size()), scratch;
  Rng a(4), b(4);
  applyAugmentations({rrc}, s, {}, got.data(), src.data(), a, scratch);
  resizeBilinear(want.data(), s, src.data(), s, sampleResizedCrop(b, 8, 10, rrc.args, rrc.args + 2));
  EXPECT_EQ(got, want);
}

TEST(Augment, ChecksTheSampleShape) {
  std::vector<ModelrtAugment> jitter = {{MODELRT_AUG_COLOR_JITTER, {0, 0, 0.5, 1}}};
  EXPECT_TRUE(checkAugmentations(jitter, {3, 4, 4}, "d").isOk());
  EXPECT_EQ(checkAugmentations(jitter, {4, 4}, "d").message(),
            "d: color_jitter's saturation needs RGB samples [3, H, W], got [4, 4]");
  EXPECT_EQ(checkAugmentations(jitter, {16}, "d").message(),
            "d: augmentation needs image samples [H, W] or [C, H, W], got [16]");
  Expected<ImageShape> s = checkAugmentations({{MODELRT_AUG_HFLIP, {1}}}, {5, 6}, "d");
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(s->c, 1);
  EXPECT_EQ(s->h, 5);
  EXPECT_EQ(s->w, 6);
}

// Colour jitter and a rotation's fill through a per-channel transform
// (torchvision's Normalize after ToTensor): the result is the transform of
// the result on the pixels, and the fill the transform of the stored fill.
TEST(Augment, PixelArgumentsGoThroughTheChannelTransform) {
  ImageShape s{3, 4, 5};
  ChannelTransform t{{1 / (255 * 0.229), 1 / (255 * 0.224), 1 / (255 * 0.225)},
                     {-0.485 / 0.229, -0.456 / 0.224, -0.406 / 0.225}};
  std::vector<float> stored = refImage(s), pixels(s.size()), x(s.size());
  for (int64_t c = 0; c < 3; ++c)
    for (int64_t i = 0; i < 20; ++i) {
      stored[c * 20 + i] *= 255.0f / 1.01f;
      pixels[c * 20 + i] = stored[c * 20 + i] / 255.0f;
      x[c * 20 + i] = t.apply(stored[c * 20 + i], c);
    }
  ModelrtAugment jitter{MODELRT_AUG_COLOR_JITTER, {0.5, 0.5, 0.5, 255}};
  std::vector<float> gotX(s.size()), gotPixels(s.size()), scratch;
  Rng a(12), b(12);
  applyAugmentations({jitter}, s, t, gotX.data(), x.data(), a, scratch);
  ModelrtAugment unit = jitter;
  unit.args[3] = 1;
  applyAugmentations({unit}, s, {}, gotPixels.data(), pixels.data(), b, scratch);
  for (int64_t c = 0; c < 3; ++c)
    for (int64_t i = 0; i < 20; ++i)
      EXPECT_NEAR(gotX[c * 20 + i], t.apply(255.0 * gotPixels[c * 20 + i], c), 1e-4)
          << c << " " << i;
  // A rotation's fill of stored 255 is each channel's white.
  ModelrtAugment rot{MODELRT_AUG_ROTATION, {40, 255}};
  std::vector<float> got(s.size()), want(s.size());
  Rng r(3), q(3);
  applyAugmentations({rot}, s, t, got.data(), x.data(), r, scratch);
  const float fill[3] = {t.apply(255, 0), t.apply(255, 1), t.apply(255, 2)};
  rotateImage(want.data(), x.data(), s, sampleAngle(q, 40), fill);
  EXPECT_EQ(got, want);
  EXPECT_NE(fill[0], fill[1]);
}
