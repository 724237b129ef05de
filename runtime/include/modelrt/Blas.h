//===- Blas.h - OpenBLAS, loaded at start-up with the CPU's own kernels ----===//
//
// Declares modelrt's BLAS layer. Compiled models call `cblas_sgemm` for
// matrix products and convolutions (compiler/lib/Pipelines/MatmulToBlas.cpp);
// the runtime defines that symbol and forwards it to OpenBLAS
// (libopenblas.so.0), which it opens with dlopen so that it decides what
// OpenBLAS sees when it picks its kernels:
//   - OPENBLAS_CORETYPE from the environment is NOT passed on: OpenBLAS
//     detects the CPU. (Machines that set OPENBLAS_CORETYPE=Haswell on an
//     AVX-512 CPU halve every matrix product: MLP training 59k -> 80k
//     samples/s on the development machine once it is ignored.)
//   - MODELRT_OPENBLAS_CORETYPE=NAME chooses OpenBLAS's core (as
//     OPENBLAS_CORETYPE would), for the rare CPU OpenBLAS misdetects.
//   - OpenBLAS gets one thread per 16M multiply-adds of each product, at
//     most one per core, unless OPENBLAS_NUM_THREADS or OMP_NUM_THREADS is
//     set (docs/cli.md, "Threads");
//   - OPENBLAS_THREAD_TIMEOUT defaults to 4: OpenBLAS's idle threads sleep
//     instead of spinning on the second core between products;
//   - a product with one row or one column runs as sgemv;
//   - a product of at least 512 rows and 32M multiply-adds (the MLP's first
//     layer at evaluation batch 1000) runs as two single-threaded halves of
//     its rows on the runtime's two threads (Parallel.h): 245 against
//     160-228 GFLOP/s for OpenBLAS's own two threads on this shape.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_BLAS_H
#define MODELRT_BLAS_H

#include "modelrt/Status.h"

#include <string>

namespace modelrt {

/// Opens OpenBLAS once (thread-safe) and configures it as above. Returns the
/// same error on every call when it cannot be opened (naming the library and
/// the package that provides it).
Status loadBlas();

/// OpenBLAS's name for the kernels it chose ("SkylakeX", "Haswell", ...);
/// empty when OpenBLAS was not opened (this does not open it).
std::string blasCoreName();

/// Whether cblas_sgemm runs a row-major M x N x K product as two row halves
/// on the runtime's two threads (see the file comment). Opens OpenBLAS.
bool blasSplitsRows(int M, int N, int K);

/// The idle-spin limit OpenBLAS read from OPENBLAS_THREAD_TIMEOUT when it
/// loaded (as openblas_thread_timeout reports it; -1 when it cannot tell).
/// The runtime sets 4 (spin 2^4 cycles, then sleep) unless the user set
/// the variable. Opens OpenBLAS.
int blasThreadTimeout();

/// OpenBLAS's current thread count (openblas_get_num_threads; 0 when it
/// has none or is not loaded). Opens OpenBLAS.
int blasThreadCount();

} // namespace modelrt

extern "C" {
/// CBLAS's sgemm, forwarded to OpenBLAS (loaded on first use if loadBlas()
/// was not called). If OpenBLAS cannot be opened it prints loadBlas()'s
/// error and aborts: it returns nothing to report through, and the CLI
/// calls loadBlas() first, so this is only reached by programs embedding the
/// runtime without checking.
void cblas_sgemm(int order, int transA, int transB, int M, int N, int K, float alpha,
                 const float *A, int lda, const float *B, int ldb, float beta, float *C,
                 int ldc);
}

#endif // MODELRT_BLAS_H
