//===- BlasTest.cpp - cblas_sgemm through oneDNN and through OpenBLAS -----===//
//
// The runtime's cblas_sgemm (runtime/lib/core/Blas.cpp), with each of its two
// libraries, against a float64 loop written here: every transpose
// combination, products with one row or one column and general ones, padded
// leading dimensions, alpha and beta, odd sizes around the vector widths
// (1, 7, 63, 65, 1000), on one thread and on every core; the same product
// twice gives the same bits. Then each library's own configuration: the
// default choice, thread counts, OpenBLAS's sgemv and row halves.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Blas.h"
#include "modelrt/core/CpuFeatures.h"

#include "BlasLibraryParam.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

using namespace modelrt;

namespace {

/// C = alpha op(A) op(B) + beta C, row-major, in float64.
void reference(bool tA, bool tB, int M, int N, int K, double alpha, const std::vector<float> &A,
               int lda, const std::vector<float> &B, int ldb, double beta, std::vector<double> &C,
               int ldc) {
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double sum = 0;
      for (int k = 0; k < K; ++k)
        sum += double(tA ? A[k * lda + m] : A[m * lda + k]) *
               double(tB ? B[n * ldb + k] : B[k * ldb + n]);
      C[m * ldc + n] = alpha * sum + beta * C[m * ldc + n];
    }
}

float value(int i, int salt) { return std::sin(0.7f * float(i) + float(salt)) * 0.5f; }

/// Fills A, B and C with value(i, salt), value(i, salt + 1), value(i, salt + 2).
void fillOperands(std::vector<float> &A, std::vector<float> &B, std::vector<float> &C, int salt) {
  for (std::vector<float> *v : {&A, &B, &C}) {
    for (size_t i = 0; i < v->size(); ++i)
      (*v)[i] = value(int(i), salt);
    ++salt;
  }
}


/// Runs each test with each BLAS library (BlasLibraryParam.h).
class BlasWith : public modelrt_test::WithBlasLibrary {};

INSTANTIATE_TEST_SUITE_P(Libraries, BlasWith, modelrt_test::kBothBlasLibraries,
                         modelrt_test::blasLibraryName);

/// Runs each test with OpenBLAS active, and oneDNN (the default) after.
class OpenBlasActive : public ::testing::Test {
protected:
  void SetUp() override { ASSERT_TRUE(useBlasLibrary(BlasLibrary::OpenBlas).isOk()); }
  void TearDown() override { ASSERT_TRUE(useBlasLibrary(BlasLibrary::OneDnn).isOk()); }
};

/// A product that runs on every core (oneDNN) or on OpenBLAS's threads.
void bigProduct(std::vector<float> &C) {
  const int M = 1000, N = 65, K = 1000;
  std::vector<float> A(size_t(M) * K), B(size_t(K) * N);
  for (size_t i = 0; i < A.size(); ++i)
    A[i] = value(int(i), 11);
  for (size_t i = 0; i < B.size(); ++i)
    B[i] = value(int(i), 12);
  C.assign(size_t(M) * N, 0.0f);
  cblas_sgemm(101, 111, 111, M, N, K, 1.0f, A.data(), K, B.data(), N, 0.0f, C.data(), N);
}

} // namespace

TEST(Blas, OneDnnIsTheDefault) {
  if (const char *want = std::getenv("MODELRT_BLAS"))
    GTEST_SKIP() << "MODELRT_BLAS=" << want << " chooses";
  Status s = loadBlas();
  ASSERT_TRUE(s.isOk()) << s.message();
  EXPECT_EQ(blasKernels().rfind("oneDNN ", 0), 0u) << blasKernels();
}

TEST(Blas, OpenBlasGetsTheCoreTheFeaturesCallFor) {
  if (std::getenv("MODELRT_OPENBLAS_CORETYPE"))
    GTEST_SKIP() << "MODELRT_OPENBLAS_CORETYPE chooses";
  ASSERT_TRUE(useBlasLibrary(BlasLibrary::OpenBlas).isOk());
  EXPECT_EQ(blasCoreName(), hostKernels().openblasCore);
  EXPECT_EQ(blasKernels(), "OpenBLAS, " + std::string(hostKernels().openblasCore) + " kernels");
  ASSERT_TRUE(useBlasLibrary(BlasLibrary::OneDnn).isOk());
}

// Products below 128k multiply-adds run on one OpenMP thread, larger ones
// on every core (unless OMP_NUM_THREADS decides).
TEST(Blas, OneDnnThreadsFollowTheProductSize) {
  ASSERT_TRUE(useBlasLibrary(BlasLibrary::OneDnn).isOk());
  if (std::getenv("OMP_NUM_THREADS")) {
    EXPECT_EQ(blasThreadsFor(1000, 256, 784), 0);
    return;
  }
  int cores = int(std::max(1u, std::thread::hardware_concurrency()));
  EXPECT_EQ(blasThreadsFor(64, 10, 128), 1);
  EXPECT_EQ(blasThreadsFor(8, 100, 127), 1);
  EXPECT_EQ(blasThreadsFor(8, 128, 128), cores);
  EXPECT_EQ(blasThreadsFor(64, 256, 784), cores);
}

TEST_P(BlasWith, TheSameProductGivesTheSameBits) {
  std::vector<float> first, second;
  bigProduct(first);
  bigProduct(second);
  ASSERT_EQ(first.size(), second.size());
  EXPECT_EQ(std::memcmp(first.data(), second.data(), first.size() * sizeof(float)), 0);
}

TEST_P(BlasWith, SgemmMatchesFloat64Reference) {
  struct Shape {
    int M, N, K;
  };
  std::vector<Shape> shapes = {{1, 1, 1},    {1, 7, 65},  {1, 256, 784}, {1, 10, 128},
                               {65, 1, 7},   {1000, 1, 3}, {7, 1, 63},   {5, 9, 17},
                               {64, 10, 128}, {63, 65, 1},  {65, 63, 7},  {1000, 7, 65},
                               {7, 1000, 63}, {65, 1000, 1000}};
  for (Shape sh : shapes)
    for (int tA = 0; tA < 2; ++tA)
      for (int tB = 0; tB < 2; ++tB)
        for (float beta : {0.0f, 0.5f}) {
          int pad = 3; // leading dimensions larger than the rows
          int aRows = tA ? sh.K : sh.M, aCols = tA ? sh.M : sh.K;
          int bRows = tB ? sh.N : sh.K, bCols = tB ? sh.K : sh.N;
          int lda = aCols + pad, ldb = bCols + pad, ldc = sh.N + pad;
          std::vector<float> A(size_t(aRows) * lda), B(size_t(bRows) * ldb),
              C(size_t(sh.M) * ldc);
          fillOperands(A, B, C, 1);
          std::vector<double> want(C.begin(), C.end());
          reference(tA, tB, sh.M, sh.N, sh.K, 1.5, A, lda, B, ldb, beta, want, ldc);
          cblas_sgemm(101, tA ? 112 : 111, tB ? 112 : 111, sh.M, sh.N, sh.K, 1.5f, A.data(),
                      lda, B.data(), ldb, beta, C.data(), ldc);
          for (int m = 0; m < sh.M; ++m)
            for (int n = 0; n < ldc; ++n) {
              size_t i = size_t(m) * ldc + n;
              double tol = 1e-5 * (1 + std::sqrt(double(sh.K)));
              if (n >= sh.N) // padding is never written
                ASSERT_EQ(C[i], value(int(i), 3)) << "padding at " << m << "," << n;
              else
                ASSERT_NEAR(C[i], want[i], tol)
                    << sh.M << "x" << sh.N << "x" << sh.K << " tA=" << tA << " tB=" << tB
                    << " beta=" << beta << " at " << m << "," << n;
            }
        }
}

// OpenBLAS loads with OPENBLAS_THREAD_TIMEOUT=4 (its idle threads sleep
// instead of spinning) unless the user set the variable, and the
// environment is left as it was.
TEST_F(OpenBlasActive, IdleThreadsSleepUnlessTheUserSetTheTimeout) {
  const char *user = std::getenv("OPENBLAS_THREAD_TIMEOUT");
  int timeout = blasThreadTimeout();
  ASSERT_NE(timeout, -1) << "this OpenBLAS does not report its thread timeout";
  if (user) {
    EXPECT_STREQ(std::getenv("OPENBLAS_THREAD_TIMEOUT"), user);
  } else {
    EXPECT_EQ(timeout, 4);
    EXPECT_EQ(std::getenv("OPENBLAS_THREAD_TIMEOUT"), nullptr);
  }
}

// Products below 16M multiply-adds run on one OpenBLAS thread, larger ones on
// one thread per 16M, at most one per core (unless OPENBLAS_NUM_THREADS or
// OMP_NUM_THREADS is set: then the count is the user's and is not checked).
TEST_F(OpenBlasActive, ThreadsFollowTheProductSize) {
  if (std::getenv("OPENBLAS_NUM_THREADS") || std::getenv("OMP_NUM_THREADS"))
    GTEST_SKIP() << "the thread count is the user's";
  int cores = int(std::max(1u, std::thread::hardware_concurrency()));
  auto run = [](int M, int N, int K) {
    std::vector<float> A(size_t(M) * K, 0.5f), B(size_t(K) * N, 0.25f), C(size_t(M) * N);
    cblas_sgemm(101, 111, 111, M, N, K, 1.0f, A.data(), K, B.data(), N, 0.0f, C.data(), N);
    return C[0];
  };
  EXPECT_FLOAT_EQ(run(64, 256, 784), 0.125f * 784); // 12.8M multiply-adds
  EXPECT_EQ(blasThreadCount(), 1);
  EXPECT_FLOAT_EQ(run(256, 256, 1024), 0.125f * 1024); // 64M: 4 threads wanted
  EXPECT_EQ(blasThreadCount(), std::min(cores, 4));
  run(64, 256, 784);
  EXPECT_EQ(blasThreadCount(), 1);
}

// Products of at least 512 rows and 32M multiply-adds run as two row halves
// on the runtime's two threads (when it has them and the OpenBLAS thread
// count is not the user's): odd row counts, both transpositions of A (whose
// half starts at a row or at a column), padded leading dimensions, beta.
TEST_F(OpenBlasActive, RowHalvesMatchFloat64Reference) {
  const int M = 515, N = 130, K = 480; // 32.1M multiply-adds
  bool split = blasSplitsRows(M, N, K);
  if (!std::getenv("OPENBLAS_NUM_THREADS") && !std::getenv("OMP_NUM_THREADS") &&
      std::thread::hardware_concurrency() >= 2 && !std::getenv("MODELRT_THREADS"))
    EXPECT_TRUE(split);
  EXPECT_FALSE(blasSplitsRows(511, 4096, 4096)); // too few rows
  EXPECT_FALSE(blasSplitsRows(1000, 16, 16));    // too little work
  for (int tA = 0; tA < 2; ++tA)
    for (int tB = 0; tB < 2; ++tB) {
      int pad = 5;
      int aRows = tA ? K : M, aCols = tA ? M : K;
      int bRows = tB ? N : K, bCols = tB ? K : N;
      int lda = aCols + pad, ldb = bCols + pad, ldc = N + pad;
      std::vector<float> A(size_t(aRows) * lda), B(size_t(bRows) * ldb), C(size_t(M) * ldc);
      fillOperands(A, B, C, 4);
      std::vector<double> want(C.begin(), C.end());
      reference(tA, tB, M, N, K, 0.75, A, lda, B, ldb, 0.5, want, ldc);
      cblas_sgemm(101, tA ? 112 : 111, tB ? 112 : 111, M, N, K, 0.75f, A.data(), lda, B.data(),
                  ldb, 0.5f, C.data(), ldc);
      double tol = 1e-5 * (1 + std::sqrt(double(K)));
      for (int m = 0; m < M; ++m)
        for (int n = 0; n < ldc; ++n) {
          size_t i = size_t(m) * ldc + n;
          if (n >= N)
            ASSERT_EQ(C[i], value(int(i), 6)) << "padding at " << m << "," << n;
          else
            ASSERT_NEAR(C[i], want[i], tol) << "tA=" << tA << " tB=" << tB << " at " << m << ","
                                             << n;
        }
    }
}
