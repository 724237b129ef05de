//===- Gemv.h - The runtime's own vector-matrix product -------------------===//
//
// Declares, for Blas.cpp, the product of one row by a row-major matrix
// (every layer's product at batch 1): c = alpha a B + beta c, with AVX-512,
// AVX2 and scalar kernels (Gemv.cpp). The libraries' general GEMMs pack
// their operands and fork their threads for such a product, which then costs
// several times the time to stream B once.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_CORE_GEMV_H
#define MODELRT_LIB_CORE_GEMV_H

#include "modelrt/core/CpuFeatures.h"

#include <cstdint>

namespace modelrt {

/// c (1 x N) = alpha a (1 x K, element k at a[k * inca]) B (K x N, row k at
/// B + k * ldb) + beta c; c is not read when beta is 0.
struct GemvShape {
  int64_t K = 0, N = 0, inca = 1, ldb = 0;
};

/// True when gemv() computes \p shape (a non-empty product with ldb >= N).
bool gemvApplies(const GemvShape &shape);

/// The product with the kernels of \p level, on \p threads threads (1 or 2,
/// on runInTwoParts' team: the columns in two halves when there are at
/// least 256, which gives the bits of one thread; the rows in two halves
/// otherwise, which gives the same bits on every run with two threads).
void gemv(CpuLevel level, int threads, const GemvShape &shape, float alpha, const float *a,
          const float *B, float beta, float *c);

} // namespace modelrt

#endif // MODELRT_LIB_CORE_GEMV_H
