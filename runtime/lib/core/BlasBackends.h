//===- BlasBackends.h - The two libraries behind cblas_sgemm ---------------===//
//
// Declares, for Blas.cpp, the oneDNN backend (BlasOneDnn.cpp, on the library
// OneDnn.h opens) and the size from which products use every core; and, for
// the convolutions (Conv.cpp), which library cblas_sgemm forwards to. The
// OpenBLAS backend lives in Blas.cpp itself. Each is opened once, on first
// use.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_CORE_BLASBACKENDS_H
#define MODELRT_LIB_CORE_BLASBACKENDS_H

#include "modelrt/core/Blas.h"
#include "modelrt/core/Status.h"

#include <cstdint>
#include <optional>
#include <string>

namespace modelrt {

/// Multiply-adds from which a product runs on every core, by oneDNN and by
/// the one-row kernel alike (below, waking the other threads costs more
/// than they save; bench/compare/kernels.py).
constexpr double kMacsForAllCores = 128.0 * 1024;

/// Multiply-adds from which a convolution runs on every core: a oneDNN
/// convolution wakes the threads for each of its reorders as well
/// (bench/conv/runtime_conv.cpp: at batch 1 a 225k one is faster on one
/// core, a 3.6M one on two).
constexpr double kConvMacsForAllCores = 1024.0 * 1024;

/// The library cblas_sgemm forwards to now; none before one is opened (this
/// opens none).
std::optional<BlasLibrary> activeBlasLibrary();

/// Makes sure a BLAS library is open: prints loadBlas()'s error and aborts
/// when none can be (for the C entry points, which have nothing to report
/// through: cblas_sgemm, the convolutions, the bf16 products).
void requireBlas();

/// Opens oneDNN (once) with its instruction set capped at the host's level;
/// the same error on every call when it cannot.
Status loadOneDnn();

/// "oneDNN 2.6.3 sgemm, avx512_core_amx kernels" (empty when not opened).
std::string oneDnnKernels();

/// The OpenMP threads oneDnnSgemm gives an M x N x K product (0: the user's
/// OMP_NUM_THREADS decides).
int oneDnnThreadsFor(int64_t M, int64_t N, int64_t K);

/// Row-major C = alpha op(A) op(B) + beta C by dnnl_sgemm. Aborts with a
/// message if oneDNN cannot be opened (loadBlas() reports that first).
void oneDnnSgemm(bool tA, bool tB, int64_t M, int64_t N, int64_t K, float alpha,
                 const float *A, int64_t lda, const float *B, int64_t ldb, float beta, float *C,
                 int64_t ldc);

} // namespace modelrt

#endif // MODELRT_LIB_CORE_BLASBACKENDS_H
