//===- Blas.h - Matrix products by a library chosen for the CPU's features -===//
//
// Declares modelrt's BLAS layer. Compiled models call `cblas_sgemm` for
// matrix products (compiler/lib/Transforms/Linalg/MatmulToBlas.cpp; their
// convolutions call Conv.h, which follows the library chosen here);
// the runtime defines that symbol and forwards it to one of two libraries,
// each opened with dlopen (the executable links neither) and each told which
// kernels to use from the CPU's features (CpuFeatures.h), never left to a
// table of CPU models:
//   - oneDNN (libdnnl.so.2, Debian's libdnnl2), the default: `dnnl_sgemm`,
//     JIT-compiled for the instruction set oneDNN detects by features,
//     capped at the runtime's level (MODELRT_CPU_ISA). Products of at least
//     128k multiply-adds run on every core (OpenMP threads), smaller ones on
//     one, unless OMP_NUM_THREADS is set.
//   - OpenBLAS (libopenblas.so.0), when oneDNN cannot be opened or
//     MODELRT_BLAS=openblas: opened with OPENBLAS_CORETYPE set to the core
//     the features call for (Cooperlake or SkylakeX on AVX-512, Haswell on
//     AVX2, ...; the environment's OPENBLAS_CORETYPE is NOT passed on), or
//     to MODELRT_OPENBLAS_CORETYPE=NAME when set.
//     - OpenBLAS gets one thread per 16M multiply-adds of each product, at
//       most one per core, unless OPENBLAS_NUM_THREADS or OMP_NUM_THREADS
//       is set (docs/cli.md, "Threads");
//     - OPENBLAS_THREAD_TIMEOUT defaults to 4: OpenBLAS's idle threads
//       sleep instead of spinning on the second core between products;
//     - a product with one column (or one row times a transposed B) runs as
//       sgemv;
//     - a product of at least 512 rows and 32M multiply-adds runs as two
//       single-threaded halves of its rows on the runtime's two threads
//       (Parallel.h).
// With either library, a product with one row and an untransposed B (every
// layer at batch 1) runs the runtime's own kernel (runtime/lib/core/Gemv.h).
// MODELRT_BLAS=onednn|openblas|auto chooses; MODELRT_ONEDNN / MODELRT_OPENBLAS
// name other library files.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CORE_BLAS_H
#define MODELRT_CORE_BLAS_H

#include "modelrt/core/Status.h"

#include <string>

namespace modelrt {

/// The libraries cblas_sgemm can forward to.
enum class BlasLibrary { OneDnn, OpenBlas };

/// Chooses the library once (thread-safe; MODELRT_BLAS, else oneDNN when it
/// opens, else OpenBLAS), opens and configures it as above. Returns the same
/// error on every call when none can be opened (naming each library and the
/// package that provides it) or MODELRT_BLAS / MODELRT_CPU_ISA is malformed.
Status loadBlas();

/// Makes cblas_sgemm forward to \p which from now on, opening it if needed
/// (for tests and benchmarks that compare the two); fails as loadBlas().
Status useBlasLibrary(BlasLibrary which);

/// The library and kernels that cblas_sgemm uses now ("oneDNN 2.6.3 sgemm,
/// avx512_core_amx kernels", "OpenBLAS, Cooperlake kernels"); empty before
/// a library is opened (this opens none).
std::string blasKernels();

/// The OpenMP threads the oneDNN backend gives an M x N x K product (0 when
/// OMP_NUM_THREADS decides). Opens oneDNN.
int blasThreadsFor(int M, int N, int K);

/// OpenBLAS's name for the kernels it chose ("SkylakeX", "Haswell", ...);
/// empty when OpenBLAS was not opened (this does not open it).
std::string blasCoreName();

/// Whether cblas_sgemm runs a row-major M x N x K product as two row halves
/// on the runtime's two threads (OpenBLAS only; see the file comment).
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
/// CBLAS's sgemm, forwarded to the chosen library (loaded on first use if
/// loadBlas() was not called). If none can be opened it prints loadBlas()'s
/// error and aborts: it returns nothing to report through, and the CLI
/// calls loadBlas() first, so this is only reached by programs embedding the
/// runtime without checking.
void cblas_sgemm(int order, int transA, int transB, int M, int N, int K, float alpha,
                 const float *A, int lda, const float *B, int ldb, float beta, float *C,
                 int ldc);
}

#endif // MODELRT_CORE_BLAS_H
