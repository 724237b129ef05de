//===- GemvTest.cpp - The runtime's one-row product against float64 -------===//
//
// runtime/lib/core/Gemv.cpp against a float64 loop written here, at every level
// this CPU runs (scalar, AVX2, AVX-512): odd sizes (1, 7, 63, 65, 1000 and
// the MLP's 784 x 256), A's elements contiguous or strided (a transposed
// one-column A), padded leading dimensions, alpha and beta (C holds NaN
// before a beta = 0 product, so it must not be read), padding never written,
// on one and two threads; two threads give the bits of one when they split
// the columns (N >= 256), and the same bits on every run when they split the
// rows. Then cblas_sgemm's one-row products, which take this path.
//
//===----------------------------------------------------------------------===//
#include "core/Gemv.h"
#include "modelrt/core/Blas.h"
#include "modelrt/core/CpuFeatures.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace modelrt;

namespace {

float value(int64_t i, int salt) { return std::sin(0.37f * float(i) + float(salt)) * 0.5f; }

/// The levels this CPU runs.
std::vector<CpuLevel> levels() {
  std::vector<CpuLevel> out = {CpuLevel::Baseline};
  CpuLevel top = supportedLevel(hostCpuFeatures());
  if (top >= CpuLevel::Avx2)
    out.push_back(CpuLevel::Avx2);
  if (top >= CpuLevel::Avx512)
    out.push_back(CpuLevel::Avx512);
  return out;
}

struct Case {
  int64_t K, N, inca, pad;
  float alpha, beta;
};

/// Runs \p c at \p level on \p threads threads; returns C (N + pad values).
std::vector<float> run(const Case &c, CpuLevel level, int threads) {
  std::vector<float> a(size_t(c.K * c.inca)), B(size_t(c.K * (c.N + c.pad)));
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = value(int64_t(i), 1);
  for (size_t i = 0; i < B.size(); ++i)
    B[i] = value(int64_t(i), 2);
  std::vector<float> C(size_t(c.N + c.pad));
  for (size_t i = 0; i < C.size(); ++i)
    C[i] = c.beta == 0 ? std::numeric_limits<float>::quiet_NaN() : value(int64_t(i), 3);
  GemvShape s{c.K, c.N, c.inca, c.N + c.pad};
  EXPECT_TRUE(gemvApplies(s));
  gemv(level, threads, s, c.alpha, a.data(), B.data(), c.beta, C.data());
  return C;
}

/// The float64 result of \p c at column j.
double reference(const Case &c, int64_t j) {
  double sum = 0;
  for (int64_t k = 0; k < c.K; ++k)
    sum += double(value(k * c.inca, 1)) * double(value(k * (c.N + c.pad) + j, 2));
  return c.alpha * sum + (c.beta == 0 ? 0.0 : c.beta * double(value(j, 3)));
}

const Case kCases[] = {{1, 1, 1, 0, 1.0f, 0.0f},     {7, 1, 1, 3, 1.5f, 0.5f},
                       {65, 7, 3, 1, 1.0f, 0.0f},    {63, 63, 1, 0, 0.75f, 1.0f},
                       {784, 65, 1, 5, 1.0f, 0.0f},  {1, 1000, 1, 0, 1.0f, 0.5f},
                       {784, 256, 1, 0, 1.0f, 0.0f}, {256, 1000, 2, 7, -1.0f, 0.25f},
                       {3136, 128, 1, 0, 1.0f, 0.0f}, {1001, 65, 3, 2, 0.5f, 2.0f}};

} // namespace

TEST(Gemv, MatchesFloat64AtEveryLevel) {
  for (CpuLevel level : levels())
    for (const Case &c : kCases)
      for (int threads : {1, 2}) {
        std::vector<float> C = run(c, level, threads);
        double tol = 1e-6 * (1 + double(c.K));
        for (int64_t j = 0; j < c.N + c.pad; ++j) {
          if (j >= c.N) { // padding is never written
            EXPECT_TRUE(c.beta == 0 ? std::isnan(C[size_t(j)]) : C[size_t(j)] == value(j, 3))
                << "padding " << j;
            continue;
          }
          ASSERT_NEAR(C[size_t(j)], reference(c, j), tol)
              << cpuLevelName(level) << " K=" << c.K << " N=" << c.N << " inca=" << c.inca
              << " threads=" << threads << " column " << j;
        }
      }
}

TEST(Gemv, ThreadCountsGiveReproducibleBits) {
  for (CpuLevel level : levels())
    for (const Case &c : kCases) {
      std::vector<float> one = run(c, level, 1), two = run(c, level, 2),
                         again = run(c, level, 2);
      size_t bytes = one.size() * sizeof(float);
      EXPECT_EQ(std::memcmp(two.data(), again.data(), bytes), 0)
          << cpuLevelName(level) << " K=" << c.K << " N=" << c.N;
      if (c.N >= 256)
        EXPECT_EQ(std::memcmp(one.data(), two.data(), bytes), 0)
            << cpuLevelName(level) << " K=" << c.K << " N=" << c.N;
    }
}

// cblas_sgemm sends a one-row product with an untransposed B here, with A
// either a row (lda unused) or a transposed column (stride lda).
TEST(Gemv, OneRowProductsGoThroughCblas) {
  const int K = 300, N = 77, lda = 4;
  std::vector<float> A(size_t(K * lda)), B(size_t(K * N)), C(N, 1.0f);
  for (size_t i = 0; i < A.size(); ++i)
    A[i] = value(int64_t(i), 4);
  for (size_t i = 0; i < B.size(); ++i)
    B[i] = value(int64_t(i), 5);
  ASSERT_TRUE(loadBlas().isOk());
  cblas_sgemm(101, 112, 111, 1, N, K, 2.0f, A.data(), lda, B.data(), N, 0.5f, C.data(), N);
  for (int j = 0; j < N; ++j) {
    double sum = 0;
    for (int k = 0; k < K; ++k)
      sum += double(A[size_t(k * lda)]) * double(B[size_t(k * N + j)]);
    ASSERT_NEAR(C[size_t(j)], 2.0 * sum + 0.5, 1e-4) << "column " << j;
  }
}
