//===- ConvBackwardTest.cpp - Both gradients of a convolution in one call -===//
//
// modelrt_conv2d_backward and its bf16 form (runtime/lib/core/Conv.cpp)
// against the two calls they replace, modelrt_conv2d_backward_data(_bf16)
// then modelrt_conv2d_backward_weights(_bf16): the same bits in dx and dw,
// with each BLAS library active, for output channels below, at and past
// oneDNN's 16-channel block, odd sizes, stride 2, a 1x1 kernel, the
// SimpleCNN's second convolution, NaN inputs, a shape oneDNN refuses and
// no images. Where oneDNN's convolutions run AVX-512 code, the weights'
// gradient must read the data gradient's reorder of dy
// (oneDnnSharedBackwardInputs).
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Conv.h"
#include "core/ConvBackends.h"
#include "modelrt/core/Blas.h"
#include "TestValues.h"

#include "BlasLibraryParam.h"
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace modelrt;
using modelrt_test::bitsOf;
using modelrt_test::valuesOf;

namespace {

/// The two gradients of one call.
struct Gradients {
  std::vector<float> dx, dw;
};

/// The fused call (\p fused) or the two calls it replaces, on \p s's
/// inputs (a NaN in dy at every \p nanEvery-th element, when not 0).
Gradients run(const ConvShape &s, bool bf16, bool fused, size_t nanEvery) {
  std::vector<float> dy = valuesOf(size_t(s.n * s.o * s.oh * s.ow), 1, nanEvery);
  std::vector<float> x = valuesOf(size_t(s.n * s.c * s.h * s.w), 2);
  std::vector<float> w = valuesOf(size_t(s.o * s.c * s.kh * s.kw), 3);
  Gradients g{std::vector<float>(x.size(), -7.0f), std::vector<float>(w.size(), -7.0f)};
  if (fused) {
    auto call = bf16 ? modelrt_conv2d_backward_bf16 : modelrt_conv2d_backward;
    call(dy.data(), x.data(), w.data(), g.dx.data(), g.dw.data(), s.n, s.c, s.h, s.w, s.o, s.kh,
         s.kw, s.oh, s.ow, s.strideH, s.strideW, s.padH, s.padW, s.dilH, s.dilW);
    return g;
  }
  auto data = bf16 ? modelrt_conv2d_backward_data_bf16 : modelrt_conv2d_backward_data;
  auto weights = bf16 ? modelrt_conv2d_backward_weights_bf16 : modelrt_conv2d_backward_weights;
  data(dy.data(), w.data(), g.dx.data(), s.n, s.c, s.h, s.w, s.o, s.kh, s.kw, s.oh, s.ow,
       s.strideH, s.strideW, s.padH, s.padW, s.dilH, s.dilW);
  weights(x.data(), dy.data(), g.dw.data(), s.n, s.c, s.h, s.w, s.o, s.kh, s.kw, s.oh, s.ow,
          s.strideH, s.strideW, s.padH, s.padW, s.dilH, s.dilW);
  return g;
}

/// \p s and the precision, for messages.
std::string describe(const ConvShape &s, bool bf16) {
  return "N" + std::to_string(s.n) + " C" + std::to_string(s.c) + " " + std::to_string(s.h) +
         "x" + std::to_string(s.w) + " O" + std::to_string(s.o) + " K" + std::to_string(s.kh) +
         " stride " + std::to_string(s.strideH) + (bf16 ? " bf16" : " f32");
}

/// Compares the fused call with the two calls on \p shapes in both
/// precisions.
void checkShapes(const std::vector<ConvShape> &shapes, size_t nanEvery) {
  for (const ConvShape &s : shapes)
    for (bool bf16 : {false, true}) {
      Gradients want = run(s, bf16, false, nanEvery);
      Gradients got = run(s, bf16, true, nanEvery);
      EXPECT_EQ(bitsOf(got.dx), bitsOf(want.dx)) << describe(s, bf16);
      EXPECT_EQ(bitsOf(got.dw), bitsOf(want.dw)) << describe(s, bf16);
    }
}

/// Sizes: N, C, H, W, O, KH, KW, OH, OW, stride, padding, dilation.
const std::vector<ConvShape> kShapes = {
    {2, 3, 12, 10, 5, 3, 3, 12, 10, 1, 1, 1, 1, 1, 1},
    {2, 3, 12, 10, 16, 3, 3, 12, 10, 1, 1, 1, 1, 1, 1},
    {3, 8, 7, 9, 17, 3, 3, 7, 9, 1, 1, 1, 1, 1, 1},
    {2, 5, 15, 11, 20, 3, 3, 7, 5, 2, 2, 0, 0, 1, 1},
    {2, 24, 6, 6, 32, 1, 1, 6, 6, 1, 1, 0, 0, 1, 1},
    {64, 32, 14, 14, 64, 3, 3, 14, 14, 1, 1, 1, 1, 1, 1}};

/// Runs each test with each BLAS library (BlasLibraryParam.h).
class ConvBackwardWith : public modelrt_test::WithBlasLibrary {};

INSTANTIATE_TEST_SUITE_P(Libraries, ConvBackwardWith, modelrt_test::kBothBlasLibraries,
                         modelrt_test::blasLibraryName);

/// The refusal hook of ARefusedShapeGivesTheBitsOfTheTwoCalls: five images.
bool refuseFiveImages(const ConvShape &s) { return s.n == 5; }

} // namespace

TEST_P(ConvBackwardWith, GivesTheBitsOfTheTwoCalls) {
  int64_t sharedBefore = oneDnnSharedBackwardInputs();
  checkShapes(kShapes, 0);
  int64_t shared = oneDnnSharedBackwardInputs() - sharedBefore;
  if (GetParam() == BlasLibrary::OpenBlas)
    EXPECT_EQ(shared, 0) << "im2col has no reorder to share";
  else if (oneDnnConvolutionImpls().find("avx512") != std::string::npos)
    EXPECT_GT(shared, 0) << "no weights' gradient read the data gradient's reorder of dy";
}

TEST_P(ConvBackwardWith, NaNInputsGiveTheBitsOfTheTwoCalls) {
  checkShapes({kShapes[2], kShapes[5]}, 37);
}

// A shape oneDNN refuses runs the two gradients by im2col.
TEST(ConvBackward, ARefusedShapeGivesTheBitsOfTheTwoCalls) {
  ASSERT_TRUE(useBlasLibrary(BlasLibrary::OneDnn).isOk());
  setOneDnnConvRefusalForTesting(refuseFiveImages);
  int64_t sharedBefore = oneDnnSharedBackwardInputs();
  checkShapes({{5, 3, 9, 8, 24, 3, 3, 9, 8, 1, 1, 1, 1, 1, 1}}, 0);
  EXPECT_EQ(oneDnnSharedBackwardInputs(), sharedBefore);
  setOneDnnConvRefusalForTesting(nullptr);
}

// No images: dx is left as it was, dw is zeros.
TEST(ConvBackward, NoImages) {
  for (auto *call : {modelrt_conv2d_backward, modelrt_conv2d_backward_bf16}) {
    float dx = -7.0f;
    std::vector<float> dw(2 * 3 * 3 * 3, -7.0f);
    call(nullptr, nullptr, nullptr, &dx, dw.data(), 0, 3, 5, 5, 2, 3, 3, 5, 5, 1, 1, 1, 1, 1, 1);
    EXPECT_EQ(dx, -7.0f);
    EXPECT_EQ(dw, std::vector<float>(dw.size(), 0.0f));
  }
}
