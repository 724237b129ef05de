//===- ConvMaxPoolTest.cpp - A convolution and the max pooling of its result -===//
//
// modelrt_conv2d_forward_bias_max_pool2d and its bf16 form
// (runtime/lib/core/ConvMaxPool.cpp) against the two calls they replace,
// modelrt_conv2d_forward_bias(_bf16) then modelrt_max_pool2d_forward(_codes):
// the same bits in the pooled output and the codes, with each BLAS library
// active, for output channels below, at and past oneDNN's 16-channel block,
// odd sizes, the SimpleCNN's two shapes, NaN inputs and a shape oneDNN
// refuses. Where oneDNN's convolutions run AVX-512 code, it writes the
// result in 16-channel blocks, and the pooling must read them there: the
// scratch y stays unwritten.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Conv.h"
#include "core/ConvBackends.h"
#include "core/ConvDirect.h"
#include "modelrt/core/Blas.h"
#include "TestValues.h"
#include "modelrt/core/CpuFeatures.h"
#include "modelrt/core/Pool.h"

#include "BlasLibraryParam.h"
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace modelrt;
using modelrt_test::bitsOf;
using modelrt_test::valuesOf;

namespace {

/// Convolution sizes with a 3x3 kernel, padding 1, stride 1 (OH = H).
ConvShape sameSize(int64_t n, int64_t c, int64_t h, int64_t w, int64_t o) {
  return {n, c, h, w, o, 3, 3, h, w, 1, 1, 1, 1, 1, 1};
}

/// One call's results: the pooled output, the codes, and the scratch y.
struct Pooled {
  std::vector<float> pooled, y;
  std::vector<uint8_t> codes;
};

/// The fused call (\p fused) or the two calls it replaces, on \p s's
/// inputs, with codes or without.
Pooled run(const ConvShape &s, bool bf16, bool withCodes, bool fused, size_t nanEvery) {
  std::vector<float> x = valuesOf(size_t(s.n * s.c * s.h * s.w), 1, nanEvery);
  std::vector<float> w = valuesOf(size_t(s.o * s.c * s.kh * s.kw), 2);
  std::vector<float> bias = valuesOf(size_t(s.o), 3);
  int64_t ph = s.oh / 2, pw = s.ow / 2;
  const float sentinel = 12345.0f;
  Pooled r{std::vector<float>(size_t(s.n * s.o * ph * pw), -7.0f),
           std::vector<float>(size_t(s.n * s.o * s.oh * s.ow), sentinel),
           std::vector<uint8_t>(size_t(s.n * s.o * ph * pw), 255)};
  uint8_t *codes = withCodes ? r.codes.data() : nullptr;
  if (fused) {
    auto call = bf16 ? modelrt_conv2d_forward_bias_max_pool2d_bf16
                     : modelrt_conv2d_forward_bias_max_pool2d;
    call(x.data(), w.data(), bias.data(), r.y.data(), r.pooled.data(), codes, s.n, s.c, s.h,
         s.w, s.o, s.kh, s.kw, s.oh, s.ow, s.strideH, s.strideW, s.padH, s.padW, s.dilH, s.dilW);
    return r;
  }
  auto conv = bf16 ? modelrt_conv2d_forward_bias_bf16 : modelrt_conv2d_forward_bias;
  conv(x.data(), w.data(), bias.data(), r.y.data(), s.n, s.c, s.h, s.w, s.o, s.kh, s.kw, s.oh,
       s.ow, s.strideH, s.strideW, s.padH, s.padW, s.dilH, s.dilW);
  if (codes)
    modelrt_max_pool2d_forward_codes(r.y.data(), r.pooled.data(), codes, s.n, s.o, s.oh, s.ow,
                                     ph, pw, 2, 2, 2, 2, 0, 0);
  else
    modelrt_max_pool2d_forward(r.y.data(), r.pooled.data(), s.n, s.o, s.oh, s.ow, ph, pw, 2, 2,
                               2, 2, 0, 0);
  return r;
}

/// \p s, the precision and whether codes were written, for messages.
std::string describe(const ConvShape &s, bool bf16, bool withCodes) {
  return "N" + std::to_string(s.n) + " C" + std::to_string(s.c) + " " + std::to_string(s.h) +
         "x" + std::to_string(s.w) + " O" + std::to_string(s.o) + (bf16 ? " bf16" : " f32") +
         (withCodes ? " codes" : "");
}

/// Whether the scratch y of \p r was never written.
bool untouched(const Pooled &r) {
  for (float v : r.y)
    if (v != 12345.0f)
      return false;
  return true;
}

/// Compares the fused call with the two calls on \p shapes; returns how
/// many fused calls left y unwritten (the blocked path).
int checkShapes(const std::vector<ConvShape> &shapes, size_t nanEvery) {
  int blocked = 0;
  for (const ConvShape &s : shapes)
    for (bool bf16 : {false, true})
      for (bool withCodes : {true, false}) {
        Pooled want = run(s, bf16, withCodes, false, nanEvery);
        Pooled got = run(s, bf16, withCodes, true, nanEvery);
        EXPECT_EQ(bitsOf(got.pooled), bitsOf(want.pooled)) << describe(s, bf16, withCodes);
        EXPECT_EQ(got.codes, want.codes) << describe(s, bf16, withCodes);
        blocked += untouched(got);
      }
  return blocked;
}

const std::vector<ConvShape> kShapes = {
    sameSize(2, 3, 12, 10, 5),   sameSize(2, 3, 12, 10, 16),  sameSize(3, 8, 7, 9, 17),
    sameSize(1, 4, 2, 2, 40),    sameSize(64, 1, 28, 28, 32), sameSize(64, 32, 14, 14, 64),
    {2, 3, 15, 11, 20, 3, 3, 7, 5, 2, 2, 0, 0, 1, 1}};

/// Runs each test with each BLAS library (BlasLibraryParam.h).
class ConvMaxPoolWith : public modelrt_test::WithBlasLibrary {};

INSTANTIATE_TEST_SUITE_P(Libraries, ConvMaxPoolWith, modelrt_test::kBothBlasLibraries,
                         modelrt_test::blasLibraryName);

/// The refusal hook of ARefusedShapePoolsTheIm2colResult: six images.
bool refuseSixImages(const ConvShape &s) { return s.n == 6; }

} // namespace

TEST_P(ConvMaxPoolWith, GivesTheBitsOfTheTwoCalls) {
  int untouchedY = checkShapes(kShapes, 0), direct = 0;
  for (const ConvShape &s : kShapes) // the direct loops pool in registers
    direct += directConvolutionShape(s) && directConvolutionsOnHost() ? 4 : 0;
  if (GetParam() == BlasLibrary::OpenBlas)
    EXPECT_EQ(untouchedY, direct) << "im2col has no blocked result";
  else if (oneDnnConvolutionImpls().find("avx512") != std::string::npos)
    EXPECT_GT(untouchedY, direct) << "no shape pooled oneDNN's 16-channel blocks";
}

TEST_P(ConvMaxPoolWith, NaNInputsGiveTheBitsOfTheTwoCalls) {
  checkShapes({sameSize(2, 3, 12, 10, 17), sameSize(1, 2, 8, 6, 32)}, 37);
}

// A shape oneDNN refuses runs im2col, writes y, and pools it.
TEST(ConvMaxPool, ARefusedShapePoolsTheIm2colResult) {
  ASSERT_TRUE(useBlasLibrary(BlasLibrary::OneDnn).isOk());
  setOneDnnConvRefusalForTesting(refuseSixImages);
  ConvShape s = sameSize(6, 5, 10, 8, 24); // five channels: not the direct loops
  for (bool withCodes : {true, false}) {
    Pooled want = run(s, false, withCodes, false, 0);
    Pooled got = run(s, false, withCodes, true, 0);
    EXPECT_EQ(bitsOf(got.pooled), bitsOf(want.pooled));
    EXPECT_EQ(got.codes, want.codes);
    EXPECT_EQ(bitsOf(got.y), bitsOf(want.y)) << "the refused shape's y is the convolution";
  }
  setOneDnnConvRefusalForTesting(nullptr);
}

TEST(ConvMaxPool, NoImagesWritesNothing) {
  ConvShape s = sameSize(0, 3, 10, 8, 24);
  for (auto *fused : {modelrt_conv2d_forward_bias_max_pool2d,
                      modelrt_conv2d_forward_bias_max_pool2d_bf16}) {
    float pooled = -7.0f, y = 1.0f;
    uint8_t code = 9;
    fused(nullptr, nullptr, nullptr, &y, &pooled, &code, s.n, s.c, s.h, s.w, s.o, s.kh, s.kw,
          s.oh, s.ow, 1, 1, 1, 1, 1, 1);
    EXPECT_EQ(pooled, -7.0f);
    EXPECT_EQ(code, 9);
    EXPECT_EQ(y, 1.0f);
  }
}
