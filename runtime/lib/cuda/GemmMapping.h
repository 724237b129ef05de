//===- GemmMapping.h - cblas_sgemm arguments to cuBLAS's (internal) --------===//
//
// Declares the pure mapping from cblas_sgemm's arguments (either order) to
// the column-major cublasSgemm call: a row-major C = op(A) op(B) is computed
// as the column-major C^T = op(B)^T op(A)^T, i.e. with the operands, their
// transpositions, M and N swapped. It validates like cblas (enum values,
// negative sizes, leading dimensions) and is unit-tested against a reference.
// Also the split-K plan of a product (planSplitK) and its slices' operands.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_CUDA_GEMMMAPPING_H
#define MODELRT_LIB_CUDA_GEMMMAPPING_H

#include "modelrt/core/Status.h"

#include <cstdint>

namespace modelrt {
namespace cuda {

/// cblas enum values.
enum : int32_t {
  kCblasRowMajor = 101,
  kCblasColMajor = 102,
  kCblasNoTrans = 111,
  kCblasTrans = 112
};

/// A column-major sgemm: C(m x n) = alpha op(A)(m x k) op(B)(k x n) + beta C.
struct ColumnMajorGemm {
  bool transA = false, transB = false;
  int64_t m = 0, n = 0, k = 0;
  const float *A = nullptr;
  int64_t lda = 0;
  const float *B = nullptr;
  int64_t ldb = 0;
  float *C = nullptr;
  int64_t ldc = 0;
};

/// Maps cblas_sgemm's arguments (without alpha/beta, which do not change) to
/// the column-major call; an error names \p caller (the entry point) and the
/// bad argument.
Expected<ColumnMajorGemm> mapSgemm(int32_t order, int32_t transA,
                                   int32_t transB, int64_t M, int64_t N,
                                   int64_t K, const float *A, int64_t lda,
                                   const float *B, int64_t ldb, float *C,
                                   int64_t ldc,
                                   const char *caller = "modelrt_cuda_sgemm");

/// A product computed in slices of its inner dimension: slices - 1 of
/// sliceK, the last one of the rest, each into its own partial result, the
/// partial results then added. slices == 1: one product, no split.
struct SplitK {
  int64_t slices = 1;
  int64_t sliceK = 0;
};

/// Split-K limits: at most this many outputs (m * n); slices of at least
/// this length, at least this many of them (else no split); at most
/// kSplitKDefaultSlices slices unless MODELRT_SPLITK_SLICES says otherwise
/// (up to kSplitKMaxSlices; 0 turns split-K off).
constexpr int64_t kSplitKMaxOutputs = 4096;
constexpr int64_t kSplitKMinSliceK = 256;
constexpr int64_t kSplitKMinSlices = 4;
constexpr int64_t kSplitKDefaultSlices = 256;
constexpr int64_t kSplitKMaxSlices = 1024;

/// The split of an m x n x k product into at most \p maxSlices slices: a
/// long inner dimension over few outputs (a convolution's weight gradient:
/// 9 x 32 outputs over the batch's pixels, 401408 at batch 512), which
/// cuBLAS alone runs on a few thread blocks (1.7 TFLOP/s on the H200), is
/// cut into as many slices of at least 256 as \p maxSlices allows; any
/// other product is not split.
SplitK planSplitK(int64_t m, int64_t n, int64_t k, int64_t maxSlices);

/// \p g's A and B advanced to inner index \p k0 (the operands of the slice
/// that starts there), and the distance between consecutive slices' A and
/// B for slices of \p sliceK.
const float *sliceA(const ColumnMajorGemm &g, int64_t k0);
const float *sliceB(const ColumnMajorGemm &g, int64_t k0);
int64_t sliceStrideA(const ColumnMajorGemm &g, int64_t sliceK);
int64_t sliceStrideB(const ColumnMajorGemm &g, int64_t sliceK);

} // namespace cuda
} // namespace modelrt

#endif // MODELRT_LIB_CUDA_GEMMMAPPING_H
