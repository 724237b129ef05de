//===- GemmMapping.h - cblas_sgemm arguments to cuBLAS's (internal) --------===//
//
// Declares the pure mapping from cblas_sgemm's arguments (either order) to
// the column-major cublasSgemm call: a row-major C = op(A) op(B) is computed
// as the column-major C^T = op(B)^T op(A)^T, i.e. with the operands, their
// transpositions, M and N swapped. It validates like cblas (enum values,
// negative sizes, leading dimensions) and is unit-tested against a reference.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_CUDA_GEMMMAPPING_H
#define MODELRT_LIB_CUDA_GEMMMAPPING_H

#include "modelrt/Status.h"

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
/// the column-major call; an error names the bad argument.
Expected<ColumnMajorGemm> mapSgemm(int32_t order, int32_t transA,
                                   int32_t transB, int64_t M, int64_t N,
                                   int64_t K, const float *A, int64_t lda,
                                   const float *B, int64_t ldb, float *C,
                                   int64_t ldc);

} // namespace cuda
} // namespace modelrt

#endif // MODELRT_LIB_CUDA_GEMMMAPPING_H
