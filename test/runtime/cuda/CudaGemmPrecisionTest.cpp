//===- CudaGemmPrecisionTest.cpp - The bf16 and TF32 GPU products ----------===//
//
// Checks modelrt_cuda_gemm_bf16 and modelrt_cuda_gemm_tf32 (GpuAbi.h) on the
// fake cuBLAS, whose cublasGemmEx rounds the operands as the tensor cores do
// (TensorCoreRounding.h): every order and transposition, beta 0 and not,
// with and without split-K, against a float64 reference of the rounded
// operands. The f32 product of the same operands (modelrt_cuda_sgemm) is
// outside that bound, so the comparison sees whether the operands were
// rounded. Also the TF32 rounding on hand-worked values, and that an
// argument error names the entry point.
//
//===----------------------------------------------------------------------===//
#include "CudaTestSupport.h"
#include "TensorCoreRounding.h"

#include "modelrt/cuda/GpuAbi.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace {

using GemmEntry = void (*)(int32_t, int32_t, int32_t, int32_t, int32_t, int32_t, float,
                           const float *, int32_t, const float *, int32_t, float, float *,
                           int32_t);

/// One product's shape and storage: op(A) is M x K, op(B) K x N, C M x N
/// (padded by 2 along its leading dimension).
struct Case {
  int32_t order;
  bool ta, tb;
  int64_t M, N, K;
  float alpha, beta;

  bool row() const { return order == 101; }
  int64_t lda() const { return row() ? (ta ? M : K) : (ta ? K : M); }
  int64_t ldb() const { return row() ? (tb ? K : N) : (tb ? N : K); }
  int64_t ldc() const { return (row() ? N : M) + 2; }
  float opA(const std::vector<float> &A, int64_t i, int64_t p) const {
    return row() != ta ? A[i * lda() + p] : A[p * lda() + i];
  }
  float opB(const std::vector<float> &B, int64_t p, int64_t j) const {
    return row() != tb ? B[p * ldb() + j] : B[j * ldb() + p];
  }
  int64_t cIndex(int64_t i, int64_t j) const { return row() ? i * ldc() + j : j * ldc() + i; }
};

/// Values with all 24 significant bits in use (so that rounding them to bf16
/// or TF32 changes them), of either sign, in [-2, 2).
std::vector<float> fullMantissaValues(int64_t n, uint32_t seed) {
  std::vector<float> v(static_cast<size_t>(n));
  uint32_t x = seed;
  for (float &f : v) {
    x = x * 1664525u + 1013904223u; // LCG
    f = float(int32_t(x >> 8) - (1 << 23)) / float(1 << 22);
  }
  return v;
}

/// The largest ratio |C - reference| / bound over C's elements, where the
/// reference is alpha * sum(round(a) round(b)) + beta * C0 in float64 and the
/// bound that of an f32 accumulation of the (exact) products of rounded
/// operands: K additions, the scaling by alpha and the addition of beta C0
/// (also covers split-K, whose partial sums and their sum add no more than
/// K - 1 terms to any one), each rounding by at most 2^-24 of its magnitude:
/// gamma(K + 2) * (|alpha| sum |round(a) round(b)| + |beta C0|), with
/// gamma(n) = n u / (1 - n u), u = 2^-24.
double worstRatio(const Case &c, const std::vector<float> &A, const std::vector<float> &B,
                  const std::vector<float> &C0, const std::vector<float> &C,
                  float (*round)(float)) {
  const double u = std::ldexp(1.0, -24), n = double(c.K + 2);
  const double gamma = n * u / (1 - n * u);
  double worst = 0;
  for (int64_t i = 0; i < c.M; ++i)
    for (int64_t j = 0; j < c.N; ++j) {
      double sum = 0, scale = 0;
      for (int64_t p = 0; p < c.K; ++p) {
        double t = double(round(c.opA(A, i, p))) * round(c.opB(B, p, j));
        sum += t;
        scale += std::fabs(t);
      }
      double old = c.beta == 0.0f ? 0.0 : C0[size_t(c.cIndex(i, j))];
      double want = c.alpha * sum + c.beta * old;
      double bound = gamma * (std::fabs(c.alpha) * scale + std::fabs(c.beta * old));
      worst = std::max(worst, std::fabs(C[size_t(c.cIndex(i, j))] - want) / bound);
    }
  return worst;
}

/// Runs \p entry on \p c's operands (from fixed seeds) and returns the worst
/// ratio against the reference rounded by \p round; \p launches and \p calls
/// receive the fake's counts of kernel launches and cuBLAS calls.
double runCase(const Case &c, GemmEntry entry, float (*round)(float),
               const std::function<FakeCudaCounters()> &counters, int *launches, int *calls) {
  std::vector<float> A = fullMantissaValues(c.M * c.K, 1), B = fullMantissaValues(c.K * c.N, 2);
  std::vector<float> C0 = fullMantissaValues((c.row() ? c.M : c.N) * c.ldc(), 3);
  std::vector<float> C = C0;
  FakeCudaCounters before = counters();
  entry(c.order, c.ta ? 112 : 111, c.tb ? 112 : 111, int32_t(c.M), int32_t(c.N),
        int32_t(c.K), c.alpha, A.data(), int32_t(c.lda()), B.data(), int32_t(c.ldb()), c.beta,
        C.data(), int32_t(c.ldc()));
  *launches = counters().launches - before.launches;
  *calls = counters().sgemms - before.sgemms;
  return worstRatio(c, A, B, C0, C, round);
}

struct Precision {
  const char *name;
  GemmEntry entry;
  float (*round)(float);
};

const Precision kPrecisions[] = {{"bf16", modelrt_cuda_gemm_bf16, modelrt::roundThroughBf16},
                                 {"tf32", modelrt_cuda_gemm_tf32, roundThroughTf32}};

} // namespace

TEST(TensorCoreRoundingTest, Tf32KeepsTenMantissaBitsTiesAwayFromZero) {
  const float ulp = std::ldexp(1.0f, -10); // TF32's ulp at 1
  EXPECT_EQ(roundThroughTf32(1.0f + ulp / 2), 1.0f + ulp);           // a tie: away from 0
  EXPECT_EQ(roundThroughTf32(-(1.0f + ulp / 2)), -(1.0f + ulp));     // also below 0
  EXPECT_EQ(roundThroughTf32(1.0f + ulp / 4), 1.0f);                 // below half: down
  EXPECT_EQ(roundThroughTf32(1.0f + 3 * ulp / 4), 1.0f + ulp);       // above half: up
  EXPECT_EQ(roundThroughTf32(2.0f - ulp / 2), 2.0f);                 // a tie carried into 2^1
  EXPECT_EQ(roundThroughTf32(1.0f + ulp), 1.0f + ulp);               // representable: kept
  EXPECT_EQ(roundThroughTf32(INFINITY), INFINITY);
  EXPECT_TRUE(std::isnan(roundThroughTf32(std::nanf(""))));
  EXPECT_EQ(operandRounding(CUBLAS_COMPUTE_32F)(1.0f + ulp / 4), 1.0f + ulp / 4);
}

TEST_F(FakeDriverTest, RoundedProductsMatchAReferenceOfRoundedOperands) {
  // 7 x 5 over K = 64 (one call) and 3 x 5 over K = 8195 (split-K: 32
  // slices, one batched call, one for the last slice, then the sum kernel).
  auto counts = [this] { return counters(); };
  int cases = 0;
  for (const Precision &p : kPrecisions)
    for (int64_t K : {64, 8195})
      for (int32_t order : {101, 102})
        for (bool ta : {false, true})
          for (bool tb : {false, true})
            for (float beta : {0.0f, 0.5f}) {
              Case c{order, ta, tb, K == 64 ? 7 : 3, 5, K, 1.5f, beta};
              int launches = 0, calls = 0;
              double worst = runCase(c, p.entry, p.round, counts, &launches, &calls);
              ASSERT_EQ(modelrt_cuda_status(), 0) << modelrt_cuda_error_message();
              EXPECT_LE(worst, 1.0) << p.name << " K " << K << " order " << order << " ta "
                                    << ta << " tb " << tb << " beta " << beta;
              EXPECT_EQ(calls, K == 64 ? 1 : 2) << p.name;
              EXPECT_EQ(launches, K == 64 ? 0 : 1) << p.name;
              ++cases;
            }
  EXPECT_EQ(cases, 64);
}

TEST_F(FakeDriverTest, TheF32ProductIsOutsideTheRoundedBound) {
  // The same operands unrounded (modelrt_cuda_sgemm) miss the reference of
  // rounded operands by more than the bound: the bound sees the rounding.
  // With K = 64 the bound is about 66 * 2^-24 of sum |a b|, while rounding
  // an operand moves it by up to 2^-8 (bf16) or 2^-11 (TF32) of itself.
  auto counts = [this] { return counters(); };
  for (const Precision &p : kPrecisions) {
    Case c{101, false, false, 7, 5, 64, 1.0f, 0.0f};
    int launches = 0, calls = 0;
    EXPECT_GT(runCase(c, modelrt_cuda_sgemm, p.round, counts, &launches, &calls), 4.0) << p.name;
    EXPECT_LE(runCase(c, p.entry, p.round, counts, &launches, &calls), 1.0) << p.name;
  }
  // And the bf16 product misses the TF32 reference: the two differ.
  Case c{101, false, false, 7, 5, 64, 1.0f, 0.0f};
  int launches = 0, calls = 0;
  EXPECT_GT(runCase(c, modelrt_cuda_gemm_bf16, roundThroughTf32, counts, &launches, &calls), 4.0);
  ASSERT_EQ(modelrt_cuda_status(), 0) << modelrt_cuda_error_message();
}

TEST_F(FakeDriverTest, GemmExBadArgumentNamesTheEntryPoint) {
  float x = 0;
  modelrt_cuda_gemm_tf32(101, 111, 111, 2, 2, 2, 1.0f, &x, 1, &x, 2, 0.0f, &x, 2);
  EXPECT_STREQ(modelrt_cuda_error_message(),
               "modelrt_cuda_gemm_tf32: lda = 1, must be at least 2");
  EXPECT_EQ(counters().sgemms, 0);
}
