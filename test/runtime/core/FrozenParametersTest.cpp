//===- FrozenParametersTest.cpp - Rounded weights kept for a scope ---------===//
//
// FrozenParameters.h: which matrices a scope covers (wholly inside one
// parameter, on the thread that opened it, while it lives); the rounded
// copies it keeps and frees; and the products that use them. A product
// whose weights are frozen must give the bits of the same product without
// a scope, and a weight changed between two scopes must be read anew: a
// stale copy would be a silent wrong answer after an optimizer step.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/FrozenParameters.h"
#include "modelrt/core/Bf16.h"
#include "modelrt/core/Blas.h"
#include "modelrt/core/Conv.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <thread>
#include <vector>

using namespace modelrt;

namespace {

std::vector<float> randomValues(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = d(rng);
  return v;
}

bool sameBits(const std::vector<float> &a, const std::vector<float> &b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * 4) == 0;
}

} // namespace

TEST(FrozenParameters, CoverMatricesInsideOneParameterOnTheirThread) {
  std::vector<std::vector<float>> params = {std::vector<float>(100), std::vector<float>(50)};
  const float *p = params[0].data();
  std::vector<float> other(100);
  EXPECT_EQ(frozenGeneration(p, 10, 10, 10), 0u) << "no scope yet";
  uint64_t outer;
  {
    FrozenParameters frozen(params);
    outer = frozenGeneration(p, 10, 10, 10);
    EXPECT_NE(outer, 0u);
    // Columns 5..9 of every row end at element 5 + 9 * 10 + 5 = 100: inside.
    EXPECT_EQ(frozenGeneration(p + 5, 10, 10, 5), outer);
    // Ten columns from 5 run past the end (element 105).
    EXPECT_EQ(frozenGeneration(p + 5, 10, 10, 10), 0u);
    EXPECT_EQ(frozenGeneration(params[1].data(), 1, 1, 50), outer);
    EXPECT_EQ(frozenGeneration(params[1].data() + 1, 1, 1, 50), 0u);
    EXPECT_EQ(frozenGeneration(other.data(), 10, 10, 10), 0u) << "not a parameter";
    EXPECT_EQ(frozenGeneration(p, 10, 0, 10), 0u) << "empty";
    uint64_t elsewhere = 1;
    std::thread([&] { elsewhere = frozenGeneration(p, 10, 10, 10); }).join();
    EXPECT_EQ(elsewhere, 0u) << "another thread's products do not see the scope";
    {
      FrozenParameters inner(params);
      EXPECT_EQ(frozenGeneration(p, 10, 10, 10), outer) << "a nested scope is the outer one";
    }
    EXPECT_EQ(frozenGeneration(p, 10, 10, 10), outer) << "the outer scope still lives";
  }
  EXPECT_EQ(frozenGeneration(p, 10, 10, 10), 0u) << "the scope ended";
  FrozenParameters again(params);
  uint64_t next = frozenGeneration(p, 10, 10, 10);
  EXPECT_NE(next, 0u);
  EXPECT_NE(next, outer) << "every scope has its own generation";
}

TEST(FrozenParameters, ACopyIsCurrentOnlyForTheSameFrozenMatrixInTheSameScope) {
  std::vector<std::vector<float>> params = {std::vector<float>(64)};
  std::vector<float> activations(64);
  const float *w = params[0].data();
  RoundedFrom held;
  EXPECT_FALSE(roundedCopyIsCurrent(held, w, 8, 8, 8)) << "no scope: round";
  EXPECT_FALSE(roundedCopyIsCurrent(held, w, 8, 8, 8)) << "still no scope";
  {
    FrozenParameters frozen(params);
    EXPECT_FALSE(roundedCopyIsCurrent(held, w, 8, 8, 8)) << "first use in the scope";
    EXPECT_TRUE(roundedCopyIsCurrent(held, w, 8, 8, 8));
    EXPECT_FALSE(roundedCopyIsCurrent(held, w, 8, 4, 8)) << "another matrix";
    EXPECT_FALSE(roundedCopyIsCurrent(held, w, 8, 8, 8)) << "the buffer now holds the other";
    EXPECT_TRUE(roundedCopyIsCurrent(held, w, 8, 8, 8));
    EXPECT_FALSE(roundedCopyIsCurrent(held, activations.data(), 8, 8, 8));
    EXPECT_FALSE(roundedCopyIsCurrent(held, activations.data(), 8, 8, 8))
        << "an activation is rounded at every call";
    EXPECT_FALSE(roundedCopyIsCurrent(held, w, 8, 8, 8));
  }
  FrozenParameters next(params);
  EXPECT_FALSE(roundedCopyIsCurrent(held, w, 8, 8, 8)) << "a new scope: the weights may differ";
}

TEST(FrozenParameters, RoundedCopiesAreKeptForTheScopeAndFreedAfter) {
  std::vector<std::vector<float>> params = {randomValues(6 * 7, 1)};
  std::vector<float> expected(params[0].size()), scratch;
  roundThroughBf16(params[0].data(), expected.data(), int64_t(expected.size()));
  const float *first;
  {
    FrozenParameters frozen(params);
    first = roundedThroughBf16(params[0].data(), 7, 6, 7, scratch);
    EXPECT_NE(first, scratch.data()) << "a frozen weight's copy is the scope's";
    EXPECT_EQ(std::memcmp(first, expected.data(), expected.size() * 4), 0);
    EXPECT_EQ(roundedThroughBf16(params[0].data(), 7, 6, 7, scratch), first) << "rounded once";
    EXPECT_EQ(frozenCopyElements(), 42);
    // Rows 1..2, columns 2..5: a strided view is its own dense copy.
    const float *view = roundedThroughBf16(params[0].data() + 9, 7, 2, 4, scratch);
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 4; ++c)
        EXPECT_EQ(view[r * 4 + c], expected[size_t(9 + r * 7 + c)]);
    EXPECT_EQ(frozenCopyElements(), 50);
  }
  EXPECT_EQ(frozenCopyElements(), 0) << "freed with the scope";
  {
    FrozenParameters frozen(params);
    const float *copy = roundedThroughBf16(params[0].data(), 7, 6, 7, scratch);
    EXPECT_EQ(frozenGeneration(copy, 7, 6, 7), frozenGeneration(params[0].data(), 7, 6, 7))
        << "a rounded copy is frozen too (an f32 convolution keeps it reordered)";
    std::vector<uint16_t> bitsScratch;
    const uint16_t *bits = roundedToBf16(params[0].data(), 7, 6, 7, bitsScratch);
    EXPECT_NE(bits, bitsScratch.data()) << "the bf16 copy of a frozen weight is the scope's";
    EXPECT_EQ(roundedToBf16(params[0].data(), 7, 6, 7, bitsScratch), bits) << "rounded once";
    for (size_t i = 0; i < expected.size(); ++i)
      EXPECT_EQ(bits[i], roundToBf16(params[0][i]));
    EXPECT_EQ(frozenCopyElements(), 84);
  }
  EXPECT_EQ(frozenCopyElements(), 0);
  params[0][3] = 3.0f; // an optimizer step between two scopes
  FrozenParameters next(params);
  EXPECT_EQ(roundedThroughBf16(params[0].data(), 7, 6, 7, scratch)[3], 3.0f);
  // An operand outside the parameters is rounded into the scratch at every call.
  std::vector<float> x = {1.0f, 2.0f};
  const float *rounded = roundedThroughBf16(x.data(), 2, 1, 2, scratch);
  EXPECT_EQ(rounded, scratch.data());
  x[1] = 5.0f;
  EXPECT_EQ(roundedThroughBf16(x.data(), 2, 1, 2, scratch)[1], 5.0f);
}

/// y = x W (M x K by K x N) through the bf16 entry point.
std::vector<float> productBf16(const std::vector<float> &x, const float *w, int M, int K, int N) {
  std::vector<float> y(size_t(M) * size_t(N));
  modelrt_gemm_bf16(101, 111, 111, M, N, K, 1.0f, x.data(), K, w, N, 0.0f, y.data(), N);
  return y;
}

TEST(FrozenParameters, ProductsOfFrozenWeightsGiveTheBitsOfUnfrozenOnes) {
  ASSERT_TRUE(useBlasLibrary(BlasLibrary::OneDnn).isOk());
  const int M = 3, K = 37, N = 19;
  std::vector<std::vector<float>> params = {randomValues(size_t(K) * N, 2)};
  std::vector<float> x = randomValues(size_t(M) * K, 3);
  std::vector<float> unfrozen = productBf16(x, params[0].data(), M, K, N);
  std::vector<float> x2 = randomValues(size_t(M) * K, 4);
  std::vector<float> unfrozen2 = productBf16(x2, params[0].data(), M, K, N);
  std::vector<float> steppedWeights = params[0];
  for (float &v : steppedWeights) // what the step below makes of them
    v *= -0.5f;
  // Its product, before the scopes: no unfrozen call comes between them.
  std::vector<float> stepped = productBf16(x, steppedWeights.data(), M, K, N);
  EXPECT_FALSE(sameBits(stepped, unfrozen));
  {
    FrozenParameters frozen(params);
    EXPECT_TRUE(sameBits(productBf16(x, params[0].data(), M, K, N), unfrozen));
    EXPECT_TRUE(sameBits(productBf16(x, params[0].data(), M, K, N), unfrozen)) << "reused";
    EXPECT_TRUE(sameBits(productBf16(x2, params[0].data(), M, K, N), unfrozen2))
        << "a new input with the same weights";
  }
  params[0] = steppedWeights; // the step between two scopes, in place
  FrozenParameters next(params);
  EXPECT_TRUE(sameBits(productBf16(x, params[0].data(), M, K, N), stepped))
      << "the new scope reads the changed weights";
}

/// A padded 3x3 convolution of a 2x16x6x6 input to 16 channels, through
/// \p forward (modelrt_conv2d_forward or its bf16 form): over more than 4
/// channels, so oneDNN's primitive (which reorders the weights into its
/// channel blocks) or the emulation runs it, not a first layer's loops.
template <typename Forward>
std::vector<float> convolve(Forward forward, const std::vector<float> &x, const float *w) {
  std::vector<float> y(2 * 16 * 6 * 6);
  forward(x.data(), w, y.data(), 2, 16, 6, 6, 16, 3, 3, 6, 6, 1, 1, 1, 1, 1, 1);
  return y;
}

TEST(FrozenParameters, ConvolutionsOfFrozenWeightsGiveTheBitsOfUnfrozenOnes) {
  ASSERT_TRUE(useBlasLibrary(BlasLibrary::OneDnn).isOk());
  std::vector<float> x = randomValues(2 * 16 * 6 * 6, 5);
  for (auto forward : {modelrt_conv2d_forward, modelrt_conv2d_forward_bf16}) {
    std::vector<std::vector<float>> params = {randomValues(16 * 16 * 3 * 3, 6)};
    std::vector<float> unfrozen = convolve(forward, x, params[0].data());
    std::vector<float> steppedWeights = params[0];
    for (float &v : steppedWeights)
      v += 0.25f;
    std::vector<float> stepped = convolve(forward, x, steppedWeights.data());
    EXPECT_FALSE(sameBits(stepped, unfrozen));
    {
      FrozenParameters frozen(params);
      EXPECT_TRUE(sameBits(convolve(forward, x, params[0].data()), unfrozen));
      EXPECT_TRUE(sameBits(convolve(forward, x, params[0].data()), unfrozen)) << "reused";
    }
    params[0] = steppedWeights; // in place, with no unfrozen call since the scope
    FrozenParameters next(params);
    EXPECT_TRUE(sameBits(convolve(forward, x, params[0].data()), stepped))
        << "the new scope reads the changed weights";
  }
}
