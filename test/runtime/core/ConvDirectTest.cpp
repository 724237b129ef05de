//===- ConvDirectTest.cpp - The direct convolutions of few input channels -===//
//
// The direct loops (runtime/lib/core/ConvDirect.h) through the C functions
// of Conv.h, on hosts whose kernels are AVX2 or AVX-512 (skipped
// elsewhere):
//   - the forward convolution, against a scalar reference written from
//     ConvDirect.h's order (+0, one std::fma per tap: kernel row, column,
//     then the channels, in bf16 in pairs with the odd one first, on
//     operands rounded by roundThroughBf16; taps in the padding skipped;
//     then the bias), bit for bit, over channels 1..4, padding 0..2, rows
//     wider than a vector, output channels that fill no group of 8, NaN
//     inputs and an infinite weight that only the padding meets;
//   - the convolution with its 2x2 max pooling, against the forward then
//     Pool.h's pooling, bit for bit, the convolution's result unwritten;
//   - the same against oneDNN's f32 and avx512_bf16 primitives, where those
//     run (jit:avx512_core, jit_bf16:avx512_core_bf16), bit for bit;
//   - the weights' gradient from the pooling's gradient, against a float64
//     sum over the output gradient Pool.h writes from the codes, within
//     d 2^-24 times the sum of the terms' magnitudes, d the most additions
//     any term passes in the documented order (the first-order bound of a
//     summation tree); NaN gradients give NaN exactly where the float64 sum
//     is NaN;
//   - which shapes the loops take, and what convolutionKernels() says;
//   - on AVX-512 hosts, the AVX2 loops against the AVX-512 ones, called
//     directly: the same bits for the forward, the pooling and its codes,
//     and the weights' partial sums.
//
//===----------------------------------------------------------------------===//
#include "core/ConvDirect.h"
#include "core/ConvDirectKernels.h"
#include "modelrt/core/Bf16.h"
#include "modelrt/core/Blas.h"
#include "modelrt/core/Conv.h"
#include "modelrt/core/Pool.h"
#include "TestValues.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace modelrt;
using modelrt_test::bitsOf;
using modelrt_test::valuesOf;

namespace {

/// A 3x3 convolution of stride 1 whose output keeps the shape padding gives.
ConvShape shapeOf(int64_t n, int64_t c, int64_t h, int64_t w, int64_t o, int64_t pad) {
  return {n, c, h, w, o, 3, 3, h + 2 * pad - 2, w + 2 * pad - 2, 1, 1, pad, pad, 1, 1};
}

std::string describe(const ConvShape &s, bool bf16) {
  return "N" + std::to_string(s.n) + " C" + std::to_string(s.c) + " " + std::to_string(s.h) +
         "x" + std::to_string(s.w) + " O" + std::to_string(s.o) + " pad " +
         std::to_string(s.padH) + (bf16 ? " bf16" : " f32");
}

/// The channels of one kernel row and column in summation order.
std::vector<int64_t> channelOrder(int64_t c, bool bf16) {
  std::vector<int64_t> order;
  for (int64_t k = 0; k < c; k += bf16 ? 2 : 1) {
    if (bf16 && k + 1 < c)
      order.push_back(k + 1);
    order.push_back(k);
  }
  return order;
}

/// The forward convolution as ConvDirect.h writes its order.
std::vector<float> referenceForward(const ConvShape &s, const std::vector<float> &x,
                                    const std::vector<float> &w, const float *bias, bool bf16) {
  auto operand = [bf16](float v) { return bf16 ? roundThroughBf16(v) : v; };
  std::vector<float> y(size_t(s.n * s.o * s.oh * s.ow));
  for (int64_t n = 0; n < s.n; ++n)
    for (int64_t o = 0; o < s.o; ++o)
      for (int64_t oy = 0; oy < s.oh; ++oy)
        for (int64_t ox = 0; ox < s.ow; ++ox) {
          float sum = 0.0f;
          for (int64_t i = 0; i < 3; ++i)
            for (int64_t j = 0; j < 3; ++j)
              for (int64_t c : channelOrder(s.c, bf16)) {
                int64_t iy = oy - s.padH + i, ix = ox - s.padW + j;
                if (iy < 0 || iy >= s.h || ix < 0 || ix >= s.w)
                  continue;
                sum = std::fma(operand(w[size_t(((o * s.c + c) * 3 + i) * 3 + j)]),
                               operand(x[size_t(((n * s.c + c) * s.h + iy) * s.w + ix)]), sum);
              }
          y[size_t(((n * s.o + o) * s.oh + oy) * s.ow + ox)] = bias ? sum + bias[o] : sum;
        }
  return y;
}

/// Expects \p got to hold the bits of \p want, NaN for NaN (whose payload
/// depends on the operand order of the instruction).
void expectSameBits(const std::vector<float> &got, const std::vector<float> &want,
                    const std::string &what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  std::vector<uint32_t> g = bitsOf(got), e = bitsOf(want);
  size_t wrong = 0, first = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (std::isnan(want[i]) ? !std::isnan(got[i]) : g[i] != e[i])
      if (!wrong++)
        first = i;
  EXPECT_EQ(wrong, 0u) << what << ": first at " << first << ", " << got[first] << " for "
                       << want[first];
}

void forward(const ConvShape &s, const std::vector<float> &x, const std::vector<float> &w,
             const float *bias, std::vector<float> &y, bool bf16) {
  if (bias)
    (bf16 ? modelrt_conv2d_forward_bias_bf16 : modelrt_conv2d_forward_bias)(
        x.data(), w.data(), bias, y.data(), s.n, s.c, s.h, s.w, s.o, s.kh, s.kw, s.oh, s.ow,
        s.strideH, s.strideW, s.padH, s.padW, s.dilH, s.dilW);
  else
    (bf16 ? modelrt_conv2d_forward_bf16 : modelrt_conv2d_forward)(
        x.data(), w.data(), y.data(), s.n, s.c, s.h, s.w, s.o, s.kh, s.kw, s.oh, s.ow, s.strideH,
        s.strideW, s.padH, s.padW, s.dilH, s.dilW);
}

/// The shapes of the grid: every channel count and padding, a row of
/// outputs narrower than a vector and one wider than two, 5 and 17 output
/// channels.
std::vector<ConvShape> gridShapes() {
  std::vector<ConvShape> shapes;
  for (int64_t c = 1; c <= 4; ++c)
    for (int64_t pad = 0; pad <= 2; ++pad) {
      shapes.push_back(shapeOf(3, c, 7, 6, 5, pad));
      shapes.push_back(shapeOf(2, c, 9, 37, 17, pad));
    }
  shapes.push_back(shapeOf(4, 1, 28, 28, 32, 1)); // the SimpleCNN's first layer
  return shapes;
}

class ConvDirect : public ::testing::Test {
protected:
  void SetUp() override {
    if (!directConvolutionsOnHost())
      GTEST_SKIP() << "the direct loops run on AVX2 and AVX-512 hosts only";
  }
};

} // namespace

TEST_F(ConvDirect, ForwardSumsInTheDocumentedOrder) {
  int64_t before = directConvolutionCalls();
  int calls = 0;
  for (const ConvShape &s : gridShapes())
    for (bool bf16 : {false, true})
      for (bool withBias : {true, false}) {
        std::vector<float> x = valuesOf(size_t(s.n * s.c * s.h * s.w), 1);
        std::vector<float> w = valuesOf(size_t(s.o * s.c * 9), 2);
        std::vector<float> bias = valuesOf(size_t(s.o), 3);
        std::vector<float> y(size_t(s.n * s.o * s.oh * s.ow), 12345.0f);
        const float *b = withBias ? bias.data() : nullptr;
        forward(s, x, w, b, y, bf16);
        ++calls;
        expectSameBits(y, referenceForward(s, x, w, b, bf16), describe(s, bf16));
      }
  EXPECT_EQ(directConvolutionCalls() - before, calls) << "every call took the direct loops";
  std::string isa = directConvolutionIsa();
  EXPECT_NE(convolutionKernels().find(isa == "avx2" ? "direct AVX2 loops" : "direct AVX-512 loops"),
            std::string::npos)
      << convolutionKernels();
}

// ConvDirect.h's order is that of oneDNN's primitives for these shapes on
// AVX-512 (the values here have no subnormals, which vdpbf16ps flushes).
TEST_F(ConvDirect, GivesTheBitsOfOneDnnsAvx512Primitives) {
  ASSERT_TRUE(useBlasLibrary(BlasLibrary::OneDnn).isOk());
  int compared = 0;
  for (const ConvShape &s : gridShapes())
    for (bool bf16 : {false, true}) {
      if (bf16 && bf16ProductPath() != Bf16Path::Avx512Bf16)
        continue;
      std::vector<float> x = valuesOf(size_t(s.n * s.c * s.h * s.w), 11);
      std::vector<float> w = valuesOf(size_t(s.o * s.c * 9), 12);
      std::vector<float> bias = valuesOf(size_t(s.o), 13);
      std::vector<float> y(size_t(s.n * s.o * s.oh * s.ow)), theirs(y.size());
      if (!oneDnnConvolution(ConvKind::Forward, s, 1, x.data(), w.data(), theirs.data(), bf16,
                             bias.data()))
        continue;
      std::string impls = oneDnnConvolutionImpls();
      if (impls.find(bf16 ? "jit_bf16:avx512_core_bf16" : "jit:avx512_core") ==
          std::string::npos)
        continue;
      forward(s, x, w, bias.data(), y, bf16);
      expectSameBits(y, theirs, describe(s, bf16) + " against oneDNN");
      ++compared;
    }
  if (compared == 0)
    GTEST_SKIP() << "oneDNN runs no AVX-512 convolution here";
}

// NaN inputs spread as in the reference; an infinite weight that only the
// padding meets at an output changes nothing there (the tap is skipped,
// not multiplied by zero).
TEST_F(ConvDirect, NonFiniteValuesFollowTheTaps) {
  for (int64_t c : {1, 3})
    for (bool bf16 : {false, true}) {
      ConvShape s = shapeOf(2, c, 6, 19, 9, 1);
      std::vector<float> x = valuesOf(size_t(s.n * s.c * s.h * s.w), 4, 23);
      std::vector<float> w = valuesOf(size_t(s.o * s.c * 9), 5);
      w[0] = std::numeric_limits<float>::infinity(); // o 0, c 0, tap (0, 0)
      std::vector<float> y(size_t(s.n * s.o * s.oh * s.ow));
      forward(s, x, w, nullptr, y, bf16);
      std::vector<float> want = referenceForward(s, x, w, nullptr, bf16);
      expectSameBits(y, want, describe(s, bf16));
      EXPECT_TRUE(std::isfinite(want[0]) || std::isnan(x[0])) << "the corner skips the tap";
    }
}

// A product that underflows makes a sum -0; a tap in the padding that
// follows must leave it -0 (a multiply-add of w * 0 = +0 would make it
// +0). At output (0, 0) of a 3x3 image padded by 1, tap (1, 1) gives
// -1e-20 * 1e-30 = -0, the inside taps after it add -0.5 * 0 = -0, and
// tap (2, 0), in the padding, has weight 0.5. That output is also the
// first element of the only pooling window, which the pooling keeps.
TEST_F(ConvDirect, PaddingKeepsASumOfMinusZero) {
  ConvShape s = shapeOf(1, 1, 3, 3, 2, 1);
  std::vector<float> x(9, 0.0f), w(18, 0.0f);
  x[0] = 1e-30f;
  w[4] = -1e-20f;
  w[5] = w[7] = w[8] = -0.5f;
  w[6] = 0.5f;
  w[9 + 4] = 1e-20f; // the second channel: +0
  for (bool bf16 : {false, true}) {
    std::vector<float> y(size_t(s.n * s.o * s.oh * s.ow), 12345.0f);
    forward(s, x, w, nullptr, y, bf16);
    std::vector<float> want = referenceForward(s, x, w, nullptr, bf16);
    ASSERT_TRUE(std::signbit(want[0]) && want[0] == 0.0f) << "the reference gives -0";
    expectSameBits(y, want, describe(s, bf16));
    std::vector<float> pooled(2), wantPooled(2), bias(2, -0.0f), scratch(y.size());
    std::vector<uint8_t> codes(2), wantCodes(2);
    modelrt_max_pool2d_forward_codes(want.data(), wantPooled.data(), wantCodes.data(), s.n, s.o,
                                     s.oh, s.ow, 1, 1, 2, 2, 2, 2, 0, 0);
    ASSERT_TRUE(std::signbit(wantPooled[0])) << "the pooling keeps the -0";
    (bf16 ? modelrt_conv2d_forward_bias_max_pool2d_bf16 : modelrt_conv2d_forward_bias_max_pool2d)(
        x.data(), w.data(), bias.data(), scratch.data(), pooled.data(), codes.data(), s.n, s.c,
        s.h, s.w, s.o, s.kh, s.kw, s.oh, s.ow, 1, 1, s.padH, s.padW, 1, 1);
    EXPECT_EQ(bitsOf(pooled), bitsOf(wantPooled)) << describe(s, bf16);
    EXPECT_EQ(codes, wantCodes) << describe(s, bf16);
  }
}

TEST_F(ConvDirect, PoolsTheBitsOfTheForward) {
  std::vector<ConvShape> shapes = {shapeOf(3, 1, 7, 6, 5, 0), shapeOf(2, 2, 9, 37, 17, 1),
                                   shapeOf(2, 3, 8, 35, 9, 2), shapeOf(64, 1, 28, 28, 32, 1)};
  for (const ConvShape &s : shapes)
    for (bool bf16 : {false, true}) {
      int64_t ph = s.oh / 2, pw = s.ow / 2;
      std::vector<float> x = valuesOf(size_t(s.n * s.c * s.h * s.w), 6, 41);
      std::vector<float> w = valuesOf(size_t(s.o * s.c * 9), 7);
      std::vector<float> bias = valuesOf(size_t(s.o), 8);
      std::vector<float> y(size_t(s.n * s.o * s.oh * s.ow)), want(size_t(s.n * s.o * ph * pw));
      std::vector<uint8_t> wantCodes(want.size());
      forward(s, x, w, bias.data(), y, bf16);
      modelrt_max_pool2d_forward_codes(y.data(), want.data(), wantCodes.data(), s.n, s.o, s.oh,
                                       s.ow, ph, pw, 2, 2, 2, 2, 0, 0);
      std::vector<float> scratch(y.size(), 12345.0f), pooled(want.size());
      std::vector<uint8_t> codes(want.size(), 9);
      (bf16 ? modelrt_conv2d_forward_bias_max_pool2d_bf16
            : modelrt_conv2d_forward_bias_max_pool2d)(
          x.data(), w.data(), bias.data(), scratch.data(), pooled.data(), codes.data(), s.n,
          s.c, s.h, s.w, s.o, s.kh, s.kw, s.oh, s.ow, 1, 1, s.padH, s.padW, 1, 1);
      EXPECT_EQ(bitsOf(pooled), bitsOf(want)) << describe(s, bf16);
      EXPECT_EQ(codes, wantCodes) << describe(s, bf16);
      EXPECT_EQ(scratch, std::vector<float>(y.size(), 12345.0f)) << "y is not written";
    }
}

TEST_F(ConvDirect, WeightsFromMaxPoolWithinTheSummationBound) {
  std::vector<ConvShape> shapes = {shapeOf(3, 1, 7, 6, 5, 0), shapeOf(2, 2, 9, 37, 17, 1),
                                   shapeOf(3, 4, 8, 35, 9, 2), shapeOf(64, 1, 28, 28, 32, 1)};
  int64_t calls = directConvolutionCalls();
  for (const ConvShape &s : shapes)
    for (size_t nanEvery : {size_t(0), size_t(97)}) {
      int64_t ph = s.oh / 2, pw = s.ow / 2;
      std::vector<float> grad = valuesOf(size_t(s.n * s.o * ph * pw), 9, nanEvery);
      std::vector<float> x = valuesOf(size_t(s.n * s.c * s.h * s.w), 10);
      std::vector<uint8_t> codes(grad.size());
      for (size_t i = 0; i < codes.size(); ++i) {
        codes[i] = uint8_t((i * 5 + i / 3) % 4);
        if (i % 13 == 6)
          grad[i] = -0.0f;
      }
      std::vector<float> dy(size_t(s.n * s.o * s.oh * s.ow));
      modelrt_max_pool2d_backward_codes(grad.data(), codes.data(), dy.data(), s.n, s.o, s.oh,
                                        s.ow, ph, pw, 2, 2, 2, 2, 0, 0);
      std::vector<float> scratch(dy.size(), 12345.0f), dw(size_t(s.o * s.c * 9), -7.0f);
      modelrt_conv2d_backward_weights_from_max_pool2d(
          grad.data(), codes.data(), x.data(), scratch.data(), dw.data(), s.n, s.c, s.h, s.w,
          s.o, 3, 3, s.oh, s.ow, 1, 1, s.padH, s.padW, 1, 1);
      EXPECT_EQ(scratch, std::vector<float>(dy.size(), 12345.0f)) << "no dy is written";
      EXPECT_EQ(directConvolutionCalls(), ++calls) << "the direct loops ran";
      // The deepest term of each sum passes 4 ph additions in registers, one
      // per image and vector of columns, the halves and the 16 lanes.
      double depth = double(4 * ph + s.n * ((pw + 15) / 16) + 1 + 16);
      for (int64_t o = 0; o < s.o; ++o)
        for (int64_t c = 0; c < s.c; ++c)
          for (int64_t ij = 0; ij < 9; ++ij) {
            double sum = 0.0, magnitude = 0.0;
            for (int64_t n = 0; n < s.n; ++n)
              for (int64_t oy = 0; oy < s.oh; ++oy)
                for (int64_t ox = 0; ox < s.ow; ++ox) {
                  int64_t iy = oy - s.padH + ij / 3, ix = ox - s.padW + ij % 3;
                  if (iy < 0 || iy >= s.h || ix < 0 || ix >= s.w)
                    continue;
                  double term = double(dy[size_t(((n * s.o + o) * s.oh + oy) * s.ow + ox)]) *
                                x[size_t(((n * s.c + c) * s.h + iy) * s.w + ix)];
                  sum += term;
                  magnitude += std::fabs(term);
                }
            float got = dw[size_t((o * s.c + c) * 9 + ij)];
            if (std::isnan(sum)) {
              EXPECT_TRUE(std::isnan(got)) << describe(s, false);
              continue;
            }
            double bound = depth * std::ldexp(1.0, -24) * magnitude;
            EXPECT_LE(std::fabs(got - sum), bound)
                << describe(s, false) << " o " << o << " c " << c << " tap " << ij;
          }
    }
}

/// The operands of \p s in the loops' form (f32: the channels in order),
/// x with a NaN every \p nanEvery values (none for 0).
struct LoopOperands {
  LoopOperands(const ConvShape &s, uint32_t salt, size_t nanEvery)
      : x(valuesOf(size_t(s.n * s.c * s.h * s.w), salt, nanEvery)),
        w(valuesOf(size_t(s.o * s.c * 9), salt + 1)), bias(valuesOf(size_t(s.o), salt + 2)),
        taps(w.size()) {
    for (int64_t o = 0; o < s.o; ++o)
      for (int64_t ij = 0; ij < 9; ++ij)
        for (int64_t c = 0; c < s.c; ++c)
          taps[size_t((o * 9 + ij) * s.c + c)] = w[size_t((o * s.c + c) * 9 + ij)];
    conv.s = s;
    conv.x = x.data();
    conv.taps = taps.data();
    conv.bias = bias.data();
  }
  std::vector<float> x, w, bias, taps;
  DirectConv conv;
};

/// Scratch memory for \p loops and \p s, at a 64-byte boundary.
float *scratchOf(const DirectLoops &loops, const ConvShape &s, std::vector<float> &memory) {
  memory.assign(size_t(loops.scratchFloats(s)) + 16, 0.0f);
  uintptr_t at = reinterpret_cast<uintptr_t>(memory.data());
  return reinterpret_cast<float *>((at + 63) & ~uintptr_t(63));
}

// Both builds of the loops, called directly on one host, give the same
// bits: each output sums the same terms in the same order, and each
// pooled column adds into the same lane of the weights' partial sums.
// With finite operands the AVX2 loops skip their masks; with a NaN in x
// or an infinite weight they take them.
TEST(ConvDirectLoops, Avx2GivesTheBitsOfAvx512) {
  if (std::string(directConvolutionIsa()) != "avx512")
    GTEST_SKIP() << "both builds of the loops run on AVX-512 hosts only";
  std::vector<ConvShape> shapes = gridShapes();
  shapes.push_back(shapeOf(3, 2, 9, 70, 6, 1)); // pooled rows of 35 columns: 3 AVX-512 vectors
  for (const ConvShape &s : shapes)
    for (size_t nanEvery : {size_t(0), size_t(53)}) {
      LoopOperands ops(s, 11, nanEvery);
      if (nanEvery)
        ops.taps[0] = std::numeric_limits<float>::infinity();
      int64_t ph = s.oh / 2, pw = s.ow / 2;
      std::vector<float> y[2], pooled[2], sums[2], memory;
      std::vector<uint8_t> codes[2];
      const DirectLoops *loops[2] = {&kDirectLoopsAvx512, &kDirectLoopsAvx2};
      std::vector<float> grad = valuesOf(size_t(s.n * s.o * ph * pw), 12, nanEvery ? 31 : 0);
      for (int k = 0; k < 2; ++k) {
        y[k].assign(size_t(s.n * s.o * s.oh * s.ow), 12345.0f);
        loops[k]->forward(ops.conv, y[k].data(), scratchOf(*loops[k], s, memory), 0, s.n);
        if (ph < 1 || pw < 1)
          continue;
        pooled[k].assign(size_t(s.n * s.o * ph * pw), 12345.0f);
        codes[k].assign(pooled[k].size(), 9);
        loops[k]->forwardMaxPool(ops.conv, pooled[k].data(), codes[k].data(),
                                 scratchOf(*loops[k], s, memory), 0, s.n);
        sums[k].assign(size_t(s.o * s.c * 9 * kDirectLanes), 0.0f);
        loops[k]->weightsFromMaxPool(ops.conv, grad.data(), codes[0].data(), sums[k].data(),
                                     scratchOf(*loops[k], s, memory), 0, s.n);
      }
      expectSameBits(y[1], y[0], "forward " + describe(s, false));
      expectSameBits(pooled[1], pooled[0], "pooled " + describe(s, false));
      EXPECT_EQ(codes[1], codes[0]) << describe(s, false);
      expectSameBits(sums[1], sums[0], "weights " + describe(s, false));
    }
}

// The AVX2 loops called directly, on every host that runs either build:
// the border sum of -0 of PaddingKeepsASumOfMinusZero, which the AVX2
// loops first sum without masks (+0) and then again with them.
TEST(ConvDirectLoops, Avx2KeepsABorderSumOfMinusZero) {
  if (!*directConvolutionIsa())
    GTEST_SKIP() << "the direct loops run on AVX2 and AVX-512 hosts only";
  ConvShape s = shapeOf(1, 1, 3, 3, 2, 1);
  std::vector<float> x(9, 0.0f), w(18, 0.0f), bias(2, -0.0f), memory;
  x[0] = 1e-30f;
  w[4] = -1e-20f;
  w[5] = w[7] = w[8] = -0.5f;
  w[6] = 0.5f;
  w[9 + 4] = 1e-20f;
  DirectConv conv;
  conv.s = s;
  conv.x = x.data();
  conv.taps = w.data(); // one channel: the tap order is the weights' order
  std::vector<float> y(18, 12345.0f), want = referenceForward(s, x, w, nullptr, false);
  kDirectLoopsAvx2.forward(conv, y.data(), scratchOf(kDirectLoopsAvx2, s, memory), 0, 1);
  ASSERT_TRUE(std::signbit(want[0]) && want[0] == 0.0f);
  expectSameBits(y, want, "forward");
  std::vector<float> pooled(2), wantPooled(2);
  std::vector<uint8_t> codes(2), wantCodes(2);
  modelrt_max_pool2d_forward_codes(want.data(), wantPooled.data(), wantCodes.data(), 1, 2, 3, 3,
                                   1, 1, 2, 2, 2, 2, 0, 0);
  conv.bias = bias.data();
  kDirectLoopsAvx2.forwardMaxPool(conv, pooled.data(), codes.data(),
                                  scratchOf(kDirectLoopsAvx2, s, memory), 0, 1);
  EXPECT_EQ(bitsOf(pooled), bitsOf(wantPooled));
  EXPECT_EQ(codes, wantCodes);
}

TEST(ConvDirectShapes, TakesFewChannels3x3Stride1Only) {
  EXPECT_TRUE(directConvolutionShape(shapeOf(1, 1, 5, 5, 1, 1)));
  EXPECT_TRUE(directConvolutionShape(shapeOf(1, 4, 3, 3, 70, 0)));
  EXPECT_TRUE(directConvolutionShape(shapeOf(1, 3, 1, 1, 2, 2)));
  EXPECT_FALSE(directConvolutionShape(shapeOf(0, 1, 5, 5, 1, 1))) << "no images";
  EXPECT_FALSE(directConvolutionShape(shapeOf(1, 5, 5, 5, 1, 1))) << "five channels";
  ConvShape s = shapeOf(1, 1, 9, 9, 4, 1);
  ConvShape stride = s, dilation = s, kernel = s, pad = s, size = s;
  stride.strideW = 2;
  stride.ow = 5;
  dilation.dilH = 2;
  dilation.oh = 7;
  kernel = {1, 1, 9, 9, 4, 5, 5, 5, 5, 1, 1, 0, 0, 1, 1};
  pad.padH = 3;
  pad.oh = 13;
  size.ow = 8; // not the size the padding gives
  for (const ConvShape &other : {stride, dilation, kernel, pad, size})
    EXPECT_FALSE(directConvolutionShape(other)) << describe(other, false);
}
