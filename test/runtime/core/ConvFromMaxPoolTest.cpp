//===- ConvFromMaxPoolTest.cpp - Convolution gradients from pooling's ----===//
//
// modelrt_conv2d_backward_from_max_pool2d and its weights-only form
// (runtime/lib/core/ConvFromMaxPool.cpp) against the calls they replace,
// modelrt_max_pool2d_backward_codes then modelrt_conv2d_backward (or
// modelrt_conv2d_backward_weights without dx):
// the same bits in dx and dw, with each BLAS library active, for output
// channels below, at and past oneDNN's 16-channel block, odd output sizes
// (a row and a column no window covers), the SimpleCNN's two convolutions,
// -0 and NaN gradients and no images. Where oneDNN's convolutions run AVX-512
// code, the pooling's gradient must write dy in its blocks: the scratch dy
// stays unwritten. The weights-only form on the direct loops (few input
// channels) sums in another order: ConvDirectTest checks it.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Conv.h"
#include "core/ConvBackends.h"
#include "core/ConvDirect.h"
#include "core/PoolKernels.h"
#include "modelrt/core/Bf16.h"
#include "modelrt/core/Blas.h"
#include "modelrt/core/Pool.h"
#include "TestValues.h"

#include "BlasLibraryParam.h"
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace modelrt;
using modelrt_test::bitsOf;
using modelrt_test::valuesOf;

namespace {

/// One call's results: the gradients and the scratch dy.
struct Gradients {
  std::vector<float> dx, dw, dy;
};

const float kSentinel = 12345.0f;

/// Subnormal, tie and overflowing values for the bf16 rounding of dy, put
/// at every 17th pooled gradient by run() when asked.
const float kRoundingCases[] = {1e-40f, -3e-39f, 1.00390625f /* a tie */, -1.01171875f,
                                3.4028235e38f, -0.0f};

/// The fused call (\p fused) or the calls it replaces on \p s's inputs,
/// with dx or without (\p withDx), bf16 gradients with \p bf16; NaNs in
/// the pooled gradient at every \p nanEvery-th element when not 0, and
/// kRoundingCases with \p roundingCases.
Gradients run(const ConvShape &s, bool withDx, bool fused, size_t nanEvery, bool bf16 = false,
              bool roundingCases = false) {
  int64_t ph = s.oh / 2, pw = s.ow / 2;
  std::vector<float> pooledGrad = valuesOf(size_t(s.n * s.o * ph * pw), 1, nanEvery);
  if (roundingCases)
    for (size_t i = 0; i < pooledGrad.size(); i += 17)
      pooledGrad[i] = kRoundingCases[(i / 17) % (sizeof kRoundingCases / sizeof(float))];
  std::vector<float> x = valuesOf(size_t(s.n * s.c * s.h * s.w), 2);
  std::vector<float> w = valuesOf(size_t(s.o * s.c * s.kh * s.kw), 3);
  std::vector<uint8_t> codes(pooledGrad.size());
  for (size_t i = 0; i < codes.size(); ++i) {
    codes[i] = uint8_t((i * 7 + i / 5) % 4);
    if (i % 11 == 4)
      pooledGrad[i] = -0.0f; // the gradient adds it to +0
  }
  Gradients g{std::vector<float>(x.size(), -7.0f), std::vector<float>(w.size(), -7.0f),
              std::vector<float>(size_t(s.n * s.o * s.oh * s.ow), kSentinel)};
  float *dx = withDx ? g.dx.data() : nullptr;
  if (fused && dx) {
    (bf16 ? modelrt_conv2d_backward_from_max_pool2d_bf16
          : modelrt_conv2d_backward_from_max_pool2d)(
        pooledGrad.data(), codes.data(), x.data(), w.data(), g.dy.data(), dx, g.dw.data(), s.n,
        s.c, s.h, s.w, s.o, s.kh, s.kw, s.oh, s.ow, s.strideH, s.strideW, s.padH, s.padW,
        s.dilH, s.dilW);
    return g;
  }
  if (fused) {
    (bf16 ? modelrt_conv2d_backward_weights_from_max_pool2d_bf16
          : modelrt_conv2d_backward_weights_from_max_pool2d)(
        pooledGrad.data(), codes.data(), x.data(), g.dy.data(), g.dw.data(), s.n, s.c, s.h, s.w,
        s.o, s.kh, s.kw, s.oh, s.ow, s.strideH, s.strideW, s.padH, s.padW, s.dilH, s.dilW);
    return g;
  }
  modelrt_max_pool2d_backward_codes(pooledGrad.data(), codes.data(), g.dy.data(), s.n, s.o, s.oh,
                                    s.ow, ph, pw, 2, 2, 2, 2, 0, 0);
  if (dx)
    (bf16 ? modelrt_conv2d_backward_bf16 : modelrt_conv2d_backward)(
        g.dy.data(), x.data(), w.data(), dx, g.dw.data(), s.n, s.c, s.h, s.w, s.o, s.kh, s.kw,
        s.oh, s.ow, s.strideH, s.strideW, s.padH, s.padW, s.dilH, s.dilW);
  else
    (bf16 ? modelrt_conv2d_backward_weights_bf16 : modelrt_conv2d_backward_weights)(
        x.data(), g.dy.data(), g.dw.data(), s.n, s.c, s.h, s.w, s.o, s.kh, s.kw, s.oh, s.ow,
        s.strideH, s.strideW, s.padH, s.padW, s.dilH, s.dilW);
  return g;
}

/// \p s and whether dx was asked for, for messages.
std::string describe(const ConvShape &s, bool withDx) {
  return "N" + std::to_string(s.n) + " C" + std::to_string(s.c) + " " + std::to_string(s.h) +
         "x" + std::to_string(s.w) + " O" + std::to_string(s.o) + (withDx ? " dx" : "");
}

/// True where the weights-only f32 form takes the direct loops, which sum
/// dw in another order (ConvDirect.h; ConvDirectTest checks them).
bool direct(const ConvShape &s, bool withDx, bool bf16 = false) {
  return !withDx && !bf16 && directConvolutionShape(s) && directConvolutionsOnHost();
}

/// Compares the fused call with the calls it replaces on \p shapes (bf16
/// gradients with \p bf16; run()'s \p roundingCases); returns how many
/// fused calls left the scratch dy unwritten on oneDNN's blocks.
int checkShapes(const std::vector<ConvShape> &shapes, size_t nanEvery, bool bf16 = false,
                bool roundingCases = false) {
  int blocked = 0;
  for (const ConvShape &s : shapes)
    for (bool withDx : {true, false}) {
      if (direct(s, withDx, bf16))
        continue;
      Gradients want = run(s, withDx, false, nanEvery, bf16, roundingCases);
      Gradients got = run(s, withDx, true, nanEvery, bf16, roundingCases);
      std::string what = describe(s, withDx) + (bf16 ? " bf16" : "");
      if (withDx)
        EXPECT_EQ(bitsOf(got.dx), bitsOf(want.dx)) << what;
      EXPECT_EQ(bitsOf(got.dw), bitsOf(want.dw)) << what;
      blocked += got.dy == std::vector<float>(got.dy.size(), kSentinel);
    }
  return blocked;
}

/// Given how many bf16 fused calls left dy unwritten: where oneDNN's
/// AVX512-BF16 primitives ran, the pooling's gradient must have written
/// their bf16 blocks at least once; on another bf16 path (AMX) that did not
/// happen, the test says so by skipping after its comparisons.
void expectBf16Blocks(int blocked) {
  if (bf16ProductPath() == Bf16Path::Emulated || !hostHasBlocked16GradBf16())
    return; // the separate functions run: the comparisons above cover it
  if (bf16ProductPath() == Bf16Path::Avx512Bf16 &&
      oneDnnConvolutionImpls().find("avx512_core_bf16") != std::string::npos)
    EXPECT_GT(blocked, 0) << "no pooling gradient wrote oneDNN's bf16 blocks";
  else if (blocked == 0)
    GTEST_SKIP() << "oneDNN's bf16 primitives here (" << oneDnnConvolutionImpls()
                 << ") take dy in another layout: the fused calls ran the separate functions";
}

/// 3x3, padding 1, stride 1 convolutions (OH = H).
ConvShape sameSize(int64_t n, int64_t c, int64_t h, int64_t w, int64_t o) {
  return {n, c, h, w, o, 3, 3, h, w, 1, 1, 1, 1, 1, 1};
}

const std::vector<ConvShape> kShapes = {
    sameSize(2, 3, 12, 10, 5),   sameSize(2, 3, 12, 10, 16), sameSize(3, 8, 7, 9, 17),
    sameSize(2, 4, 4, 4, 40),    sameSize(64, 1, 28, 28, 32), sameSize(64, 32, 14, 14, 64),
    {2, 3, 15, 11, 20, 3, 3, 7, 5, 2, 2, 0, 0, 1, 1}};

/// Runs each test with each BLAS library (BlasLibraryParam.h).
class ConvFromMaxPoolWith : public modelrt_test::WithBlasLibrary {};

INSTANTIATE_TEST_SUITE_P(Libraries, ConvFromMaxPoolWith, modelrt_test::kBothBlasLibraries,
                         modelrt_test::blasLibraryName);

} // namespace

TEST_P(ConvFromMaxPoolWith, GivesTheBitsOfTheCallsItReplaces) {
  int blocked = checkShapes(kShapes, 0);
  if (GetParam() == BlasLibrary::OpenBlas)
    EXPECT_EQ(blocked, 0) << "im2col reads dy in NCHW";
  else if (oneDnnConvolutionImpls().find("avx512") != std::string::npos)
    EXPECT_GT(blocked, 0) << "no pooling gradient wrote oneDNN's 16-channel blocks";
}

// oneDNN's AVX-512 primitives take dy in 16-channel blocks for these
// shapes, O below a block and past one, stride 2, and the SimpleCNN's.
TEST(ConvFromMaxPool, TheBlockedShapesWriteDyInBlocks) {
  ASSERT_TRUE(useBlasLibrary(BlasLibrary::OneDnn).isOk());
  for (const ConvShape &s : {kShapes[0], kShapes[4], kShapes[5], kShapes[6]}) {
    int blocked = checkShapes({s}, 0);
    if (oneDnnConvolutionImpls().find("avx512") != std::string::npos)
      EXPECT_EQ(blocked, direct(s, false) ? 1 : 2) << describe(s, true);
  }
}

TEST_P(ConvFromMaxPoolWith, NaNGradientsGiveTheBitsOfTheCallsItReplaces) {
  checkShapes({kShapes[2], kShapes[5]}, 37);
}

// The bf16 gradients: dy written in bf16 blocks where oneDNN's AVX512-BF16
// primitives take it so (every shape here but where oneDNN refuses), with
// the bits of the separate bf16 calls, whose reorder rounds dy.
TEST_P(ConvFromMaxPoolWith, Bf16GivesTheBitsOfTheCallsItReplaces) {
  expectBf16Blocks(checkShapes(kShapes, 0, /*bf16=*/true));
}

// NaN, subnormal (rounded to zero, as vcvtneps2bf16 does), tied, -0 and
// overflowing gradients round as oneDNN's reorder rounds them.
TEST_P(ConvFromMaxPoolWith, Bf16RoundsDyAsOneDnnDoes) {
  expectBf16Blocks(
      checkShapes({kShapes[2], kShapes[5]}, 37, /*bf16=*/true, /*roundingCases=*/true));
}

// No images: dx is left as it was, dw is zeros.
TEST(ConvFromMaxPool, NoImages) {
  float dx = -7.0f, dy = kSentinel;
  std::vector<float> dw(2 * 3 * 3 * 3, -7.0f);
  modelrt_conv2d_backward_from_max_pool2d(nullptr, nullptr, nullptr, nullptr, &dy, &dx,
                                          dw.data(), 0, 3, 6, 6, 2, 3, 3, 6, 6, 1, 1, 1, 1, 1, 1);
  EXPECT_EQ(dx, -7.0f);
  EXPECT_EQ(dw, std::vector<float>(dw.size(), 0.0f));
  dw.assign(dw.size(), -7.0f);
  modelrt_conv2d_backward_weights_from_max_pool2d(nullptr, nullptr, nullptr, &dy, dw.data(), 0,
                                                  3, 6, 6, 2, 3, 3, 6, 6, 1, 1, 1, 1, 1, 1);
  EXPECT_EQ(dw, std::vector<float>(dw.size(), 0.0f));
}
