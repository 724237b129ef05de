//===- GemmMappingTest.cpp - cblas_sgemm -> column-major cuBLAS mapping ----===//
//
// Checks mapSgemm() (runtime/lib/cuda/GemmMapping.h) against a naive
// reference: for both orders, all four transpositions, shapes from {1, 7, 63,
// 65} and padded leading dimensions, a column-major reference sgemm run with
// the mapped arguments must equal a row-/column-major reference of the
// original call. Also the argument errors.
//
//===----------------------------------------------------------------------===//
#include "cuda/GemmMapping.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace modelrt;
using namespace modelrt::cuda;

namespace {

/// C = alpha op(A) op(B) + beta C, column-major (what cuBLAS computes).
void referenceColumnMajor(const ColumnMajorGemm &g, float alpha, float beta) {
  for (int64_t j = 0; j < g.n; ++j)
    for (int64_t i = 0; i < g.m; ++i) {
      double sum = 0;
      for (int64_t p = 0; p < g.k; ++p)
        sum += double(g.transA ? g.A[p + i * g.lda] : g.A[i + p * g.lda]) *
               (g.transB ? g.B[j + p * g.ldb] : g.B[p + j * g.ldb]);
      float &c = g.C[i + j * g.ldc];
      c = float(alpha * sum + beta * c);
    }
}

/// Element (r, c) of a stored matrix in the given order.
float &at(std::vector<float> &m, bool rowMajor, int64_t ld, int64_t r,
          int64_t c) {
  return rowMajor ? m[r * ld + c] : m[r + c * ld];
}

/// cblas_sgemm's definition, element by element, in either order.
void referenceCblas(bool rowMajor, bool ta, bool tb, int64_t M, int64_t N,
                    int64_t K, float alpha, std::vector<float> &A, int64_t lda,
                    std::vector<float> &B, int64_t ldb, float beta,
                    std::vector<float> &C, int64_t ldc) {
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < K; ++p)
        sum += double(ta ? at(A, rowMajor, lda, p, i)
                         : at(A, rowMajor, lda, i, p)) *
               (tb ? at(B, rowMajor, ldb, j, p) : at(B, rowMajor, ldb, p, j));
      float &c = at(C, rowMajor, ldc, i, j);
      c = float(alpha * sum + beta * c);
    }
}

std::vector<float> pattern(size_t n, int seed) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = float(int((i * 7919 + seed * 104729) % 201) - 100) / 64.0f;
  return v;
}

/// Runs one case; returns the largest difference.
double runCase(bool rowMajor, bool ta, bool tb, int64_t M, int64_t N,
               int64_t K, int64_t pad) {
  // Stored shapes: op(A) is M x K, so A is (ta ? K x M : M x K).
  int64_t aRows = ta ? K : M, aCols = ta ? M : K;
  int64_t bRows = tb ? N : K, bCols = tb ? K : N;
  int64_t lda = (rowMajor ? aCols : aRows) + pad;
  int64_t ldb = (rowMajor ? bCols : bRows) + pad;
  int64_t ldc = (rowMajor ? N : M) + pad;
  std::vector<float> A = pattern(lda * (rowMajor ? aRows : aCols), 1);
  std::vector<float> B = pattern(ldb * (rowMajor ? bRows : bCols), 2);
  std::vector<float> C = pattern(ldc * (rowMajor ? M : N), 3);
  std::vector<float> expected = C;
  referenceCblas(rowMajor, ta, tb, M, N, K, 0.5f, A, lda, B, ldb, -1.5f,
                 expected, ldc);
  Expected<ColumnMajorGemm> g = mapSgemm(
      rowMajor ? 101 : 102, ta ? 112 : 111, tb ? 112 : 111, M, N, K, A.data(),
      lda, B.data(), ldb, C.data(), ldc);
  EXPECT_TRUE(g.isOk()) << g.message();
  if (!g)
    return 1e9;
  referenceColumnMajor(*g, 0.5f, -1.5f);
  double worst = 0;
  for (size_t i = 0; i < C.size(); ++i)
    worst = std::max(worst, double(std::fabs(C[i] - expected[i])));
  return worst;
}

} // namespace

TEST(GemmMappingTest, MatchesCblasForAllOrdersTranspositionsAndShapes) {
  const int64_t dims[] = {1, 7, 63, 65};
  int cases = 0;
  for (bool rowMajor : {true, false})
    for (bool ta : {false, true})
      for (bool tb : {false, true})
        for (int64_t M : dims)
          for (int64_t N : dims)
            for (int64_t K : dims) {
              int64_t pad = (M + N + K) % 3;
              EXPECT_LE(runCase(rowMajor, ta, tb, M, N, K, pad), 1e-3)
                  << "rowMajor=" << rowMajor << " ta=" << ta << " tb=" << tb
                  << " M=" << M << " N=" << N << " K=" << K;
              ++cases;
            }
  EXPECT_EQ(cases, 512);
}

TEST(GemmMappingTest, RowMajorSwapsOperands) {
  float a, b, c;
  Expected<ColumnMajorGemm> g =
      mapSgemm(101, 112, 111, 2, 3, 4, &a, 2, &b, 3, &c, 3);
  ASSERT_TRUE(g.isOk()) << g.message();
  EXPECT_EQ(g->A, &b);
  EXPECT_EQ(g->B, &a);
  EXPECT_EQ(g->m, 3);
  EXPECT_EQ(g->n, 2);
  EXPECT_FALSE(g->transA);
  EXPECT_TRUE(g->transB);
}

TEST(GemmMappingTest, BadArgumentsAreNamed) {
  float x;
  auto call = [&](int32_t order, int32_t ta, int32_t tb, int64_t M,
                  int64_t N, int64_t K, int64_t lda, int64_t ldb,
                  int64_t ldc) {
    return mapSgemm(order, ta, tb, M, N, K, &x, lda, &x, ldb, &x, ldc)
        .message();
  };
  EXPECT_EQ(call(100, 111, 111, 1, 1, 1, 1, 1, 1),
            "modelrt_cuda_sgemm: order = 100, must be 101 (row) or 102 "
            "(column)");
  EXPECT_EQ(call(101, 113, 111, 1, 1, 1, 1, 1, 1),
            "modelrt_cuda_sgemm: transA = 113, must be 111 or 112");
  EXPECT_EQ(call(101, 111, 111, 1, -2, 1, 1, 1, 1),
            "modelrt_cuda_sgemm: N = -2, must not be negative");
  // Row-major A (M x K = 4 x 5) needs lda >= 5.
  EXPECT_EQ(call(101, 111, 111, 4, 3, 5, 4, 3, 3),
            "modelrt_cuda_sgemm: lda = 4, must be at least 5");
  // Row-major C (4 x 3) needs ldc >= 3.
  EXPECT_EQ(call(101, 111, 111, 4, 3, 5, 5, 3, 2),
            "modelrt_cuda_sgemm: ldc = 2, must be at least 3");
  // Column-major transposed B (N x K = 3 x 5 stored) needs ldb >= 3.
  EXPECT_EQ(call(102, 111, 112, 4, 3, 5, 4, 2, 4),
            "modelrt_cuda_sgemm: ldb = 2, must be at least 3");
}

TEST(GemmMappingTest, SplitKOnlyForFewOutputsAndALongInnerDimension) {
  auto plan = [](int64_t m, int64_t n, int64_t k, int64_t most = kSplitKDefaultSlices) {
    SplitK s = planSplitK(m, n, k, most);
    return std::make_pair(s.slices, s.sliceK);
  };
  using P = std::pair<int64_t, int64_t>;
  // The CNN's first weight gradient at batch 512: 256 slices of 1568; at
  // batch 64, 50176 / 256 = 196 slices of 256.
  EXPECT_EQ(plan(9, 32, 401408), P(256, 1568));
  EXPECT_EQ(plan(9, 32, 50176), P(196, 256));
  // At least 4 slices of at least 256: 1024 is split, 1023 is not.
  EXPECT_EQ(plan(9, 32, 1024), P(4, 256));
  EXPECT_EQ(plan(9, 32, 1023), P(1, 1023));
  // At most 4096 outputs; the last slice shorter (255 x 391 < 100000).
  EXPECT_EQ(plan(64, 64, 100000), P(256, 391));
  EXPECT_EQ(plan(65, 64, 100000), P(1, 100000));
  // MODELRT_SPLITK_SLICES: another maximum, or 0 (no split).
  EXPECT_EQ(plan(9, 32, 401408, 64), P(64, 6272));
  EXPECT_EQ(plan(9, 32, 401408, 0), P(1, 401408));
  // The slices cover k exactly: the last one is not empty.
  for (int64_t k = 1024; k < 300000; k += 4099) {
    SplitK s = planSplitK(3, 5, k, kSplitKDefaultSlices);
    ASSERT_GT(s.slices, 1) << k;
    EXPECT_LE(s.slices, kSplitKDefaultSlices) << k;
    EXPECT_LT((s.slices - 1) * s.sliceK, k) << k;
    EXPECT_GE(s.slices * s.sliceK, k) << k;
  }
}

TEST(GemmMappingTest, SliceOperandsStartAtTheirInnerIndex) {
  // op(A)(i, p) is A[i + p*lda], or A[p + i*lda] transposed; op(B)(p, j) is
  // B[p + j*ldb], or B[j + p*ldb] transposed. Slice k0 starts at p = k0.
  float a[1], b[1];
  ColumnMajorGemm g;
  g.A = a, g.B = b, g.lda = 10, g.ldb = 20;
  g.transA = g.transB = false;
  EXPECT_EQ(sliceA(g, 3), a + 30);
  EXPECT_EQ(sliceB(g, 3), b + 3);
  EXPECT_EQ(sliceStrideA(g, 7), 70);
  EXPECT_EQ(sliceStrideB(g, 7), 7);
  g.transA = g.transB = true;
  EXPECT_EQ(sliceA(g, 3), a + 3);
  EXPECT_EQ(sliceB(g, 3), b + 60);
  EXPECT_EQ(sliceStrideA(g, 7), 7);
  EXPECT_EQ(sliceStrideB(g, 7), 140);
}
