//===- BlasOneDnn.cpp - Matrix products by oneDNN's sgemm ------------------===//
//
// Implements the oneDNN half of Blas.h: runs row-major products through
// `dnnl_sgemm`, oneDNN's JIT-compiled f32 GEMM, of the library OneDnn.h
// opens (once, with its instruction set capped at the level chosen from the
// CPU's features; oneDNN's own dispatch is by features too, never by CPU
// model). Threads are OpenMP's (oneDNN is built on libgomp): a product runs
// on every core when it has at least kMacsForAllCores multiply-adds, on one
// otherwise; a user's OMP_NUM_THREADS is left alone. The same thread count
// gives the same bits.
//
//===----------------------------------------------------------------------===//
#include "BlasBackends.h"
#include "OneDnn.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace modelrt {

Status loadOneDnn() { return oneDnnLibrary().status; }

std::string oneDnnKernels() {
  const OneDnnLibrary &d = oneDnnLibrary();
  return d.sgemm ? d.version + " sgemm, " + d.isa + " kernels" : "";
}

int oneDnnThreadsFor(int64_t M, int64_t N, int64_t K) {
  return oneDnnThreadsForWork(double(M) * double(N) * double(K), kMacsForAllCores);
}

void oneDnnSgemm(bool tA, bool tB, int64_t M, int64_t N, int64_t K, float alpha,
                 const float *A, int64_t lda, const float *B, int64_t ldb, float beta, float *C,
                 int64_t ldc) {
  const OneDnnLibrary &d = oneDnnLibrary();
  if (!d.sgemm) {
    std::fprintf(stderr, "modelrt: %s\n", d.status.message().c_str());
    std::abort();
  }
  setOneDnnThreads(oneDnnThreadsFor(M, N, K));
  dnnl_status_t rc =
      d.sgemm(tA ? 'T' : 'N', tB ? 'T' : 'N', M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
  if (rc != dnnl_success) { // only for arguments the compiler never emits
    std::fprintf(stderr, "modelrt: dnnl_sgemm failed (status %d) on a %lldx%lldx%lld product "
                 "(lda %lld, ldb %lld, ldc %lld)\n", int(rc), (long long)M, (long long)N,
                 (long long)K, (long long)lda, (long long)ldb, (long long)ldc);
    std::abort();
  }
}

} // namespace modelrt
