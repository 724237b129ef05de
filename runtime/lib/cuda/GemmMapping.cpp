//===- GemmMapping.cpp - cblas_sgemm arguments to cuBLAS's -----------------===//
//
// Implements mapSgemm(), planSplitK() and the slice operands of GemmMapping.h.
//
//===----------------------------------------------------------------------===//
#include "GemmMapping.h"

#include <algorithm>
#include <string>

namespace modelrt {
namespace cuda {

static Status badArgument(const char *caller, const char *name, int64_t value,
                          const char *need) {
  return Status::error(std::string(caller) + ": " + name + " = " +
                       std::to_string(value) + ", " + need);
}

/// Checks a column-major operand of \p rows rows: ld >= max(1, rows).
static Status checkLd(const char *caller, const char *name, int64_t ld,
                      int64_t rows) {
  int64_t need = rows > 1 ? rows : 1;
  if (ld < need)
    return badArgument(caller, name, ld, ("must be at least " +
                                  std::to_string(need)).c_str());
  return Status::ok();
}

Expected<ColumnMajorGemm> mapSgemm(int32_t order, int32_t transA,
                                   int32_t transB, int64_t M, int64_t N,
                                   int64_t K, const float *A, int64_t lda,
                                   const float *B, int64_t ldb, float *C,
                                   int64_t ldc, const char *caller) {
  if (order != kCblasRowMajor && order != kCblasColMajor)
    return badArgument(caller, "order", order, "must be 101 (row) or 102 (column)");
  if (transA != kCblasNoTrans && transA != kCblasTrans)
    return badArgument(caller, "transA", transA, "must be 111 or 112");
  if (transB != kCblasNoTrans && transB != kCblasTrans)
    return badArgument(caller, "transB", transB, "must be 111 or 112");
  if (M < 0 || N < 0 || K < 0)
    return badArgument(caller, M < 0 ? "M" : (N < 0 ? "N" : "K"),
                       M < 0 ? M : (N < 0 ? N : K), "must not be negative");
  ColumnMajorGemm g;
  bool ta = transA == kCblasTrans, tb = transB == kCblasTrans;
  if (order == kCblasColMajor)
    g = {ta, tb, M, N, K, A, lda, B, ldb, C, ldc};
  else // C^T = op(B)^T op(A)^T in column-major terms
    g = {tb, ta, N, M, K, B, ldb, A, lda, C, ldc};
  // Rows of the stored (column-major) operands.
  MODELRT_TRY(checkLd(caller, order == kCblasRowMajor ? "ldb" : "lda", g.lda,
                      g.transA ? g.k : g.m));
  MODELRT_TRY(checkLd(caller, order == kCblasRowMajor ? "lda" : "ldb", g.ldb,
                      g.transB ? g.n : g.k));
  MODELRT_TRY(checkLd(caller, "ldc", g.ldc, g.m));
  return g;
}

SplitK planSplitK(int64_t m, int64_t n, int64_t k, int64_t maxSlices) {
  int64_t slices = std::min(maxSlices, k / kSplitKMinSliceK);
  if (m * n > kSplitKMaxOutputs || slices < kSplitKMinSlices)
    return {1, k};
  int64_t sliceK = (k + slices - 1) / slices;
  return {(k + sliceK - 1) / sliceK, sliceK};
}

// Column-major: op(A) is m x k, A[i + p*lda] (A^T: A[p + i*lda]); op(B) is
// k x n, B[p + j*ldb] (B^T: B[j + p*ldb]).
const float *sliceA(const ColumnMajorGemm &g, int64_t k0) {
  return g.A + (g.transA ? k0 : k0 * g.lda);
}
const float *sliceB(const ColumnMajorGemm &g, int64_t k0) {
  return g.B + (g.transB ? k0 * g.ldb : k0);
}
int64_t sliceStrideA(const ColumnMajorGemm &g, int64_t sliceK) {
  return g.transA ? sliceK : sliceK * g.lda;
}
int64_t sliceStrideB(const ColumnMajorGemm &g, int64_t sliceK) {
  return g.transB ? sliceK * g.ldb : sliceK;
}

} // namespace cuda
} // namespace modelrt
