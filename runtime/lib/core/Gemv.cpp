//===- Gemv.cpp - The runtime's own vector-matrix product -----------------===//
//
// Implements Gemv.h: c = alpha a B + beta c for one row a (K) and a row-major
// K x N matrix B, the product of every layer at batch 1. Each block of 16
// (AVX-512) or 8 (AVX2) columns keeps its sums in registers while B streams
// through once, k after k; the last block is masked. Every column adds its
// K terms in order, one fused multiply-add each. Two threads
// (runInTwoParts) take half of the columns each when there are at least 256
// (the same bits as one thread), or else half of B's rows each, their sums
// added at the end (the same bits on every run with two threads: each half
// of a row streams contiguously). The kernels are compiled for
// their instruction set with target attributes and chosen by the runtime's
// level (CpuFeatures.h).
//
//===----------------------------------------------------------------------===//
#include "Gemv.h"
#include "modelrt/core/CpuFeatures.h"
#include "modelrt/core/Parallel.h"

#include <algorithm>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace modelrt {
namespace {

/// Columns from which two threads take a half of the columns each (every
/// row's half is then at least 512 contiguous bytes); fewer columns split
/// the rows instead.
constexpr int64_t kColumnSplit = 256;

/// c[j] = alpha sum_k a[k] B[k, j] + beta c[j] for j < n, in order of k.
void gemvScalar(int64_t K, int64_t n, float alpha, const float *a, int64_t inca,
                const float *B, int64_t ldb, float beta, float *c) {
  for (int64_t j = 0; j < n; ++j) {
    float sum = 0;
    for (int64_t k = 0; k < K; ++k)
      sum = __builtin_fmaf(a[k * inca], B[k * ldb + j], sum);
    c[j] = beta == 0 ? alpha * sum : alpha * sum + beta * c[j];
  }
}

#if defined(__x86_64__)
/// V vectors of 16 columns (n of them valid, the last vector masked) with
/// AVX-512; V is a constant so that the sums stay in registers.
template <int V>
__attribute__((target("avx512f"))) void blockAvx512(int64_t K, int64_t n, float alpha,
                                                    const float *a, int64_t inca,
                                                    const float *B, int64_t ldb, float beta,
                                                    float *c) {
  constexpr int W = 16;
  __m512 acc[V];
  for (int v = 0; v < V; ++v)
    acc[v] = _mm512_setzero_ps();
  __mmask16 tail = __mmask16((1u << (n - int64_t(V - 1) * W)) - 1u);
  for (int64_t k = 0; k < K; ++k) {
    __m512 x = _mm512_set1_ps(a[k * inca]);
    const float *row = B + k * ldb;
    for (int v = 0; v + 1 < V; ++v)
      acc[v] = _mm512_fmadd_ps(x, _mm512_loadu_ps(row + v * W), acc[v]);
    acc[V - 1] = _mm512_fmadd_ps(x, _mm512_maskz_loadu_ps(tail, row + (V - 1) * W), acc[V - 1]);
  }
  __m512 al = _mm512_set1_ps(alpha), be = _mm512_set1_ps(beta);
  for (int v = 0; v < V; ++v) {
    __mmask16 m = v + 1 < V ? __mmask16(0xffff) : tail;
    __m512 r = _mm512_mul_ps(al, acc[v]);
    if (beta != 0)
      r = _mm512_add_ps(r, _mm512_mul_ps(be, _mm512_maskz_loadu_ps(m, c + v * W)));
    _mm512_mask_storeu_ps(c + v * W, m, r);
  }
}

/// V vectors of 8 columns with AVX2 + FMA (the last one masked), V <= 12.
template <int V>
__attribute__((target("avx2,fma"))) void blockAvx2(int64_t K, int64_t n, float alpha,
                                                  const float *a, int64_t inca, const float *B,
                                                  int64_t ldb, float beta, float *c) {
  constexpr int W = 8;
  __m256 acc[V];
  for (int v = 0; v < V; ++v)
    acc[v] = _mm256_setzero_ps();
  int rest = int(n - int64_t(V - 1) * W);
  alignas(32) int lanes[W];
  for (int i = 0; i < W; ++i)
    lanes[i] = i < rest ? -1 : 0;
  __m256i tail = _mm256_load_si256(reinterpret_cast<const __m256i *>(lanes));
  for (int64_t k = 0; k < K; ++k) {
    __m256 x = _mm256_set1_ps(a[k * inca]);
    const float *row = B + k * ldb;
    for (int v = 0; v + 1 < V; ++v)
      acc[v] = _mm256_fmadd_ps(x, _mm256_loadu_ps(row + v * W), acc[v]);
    acc[V - 1] = _mm256_fmadd_ps(x, _mm256_maskload_ps(row + (V - 1) * W, tail), acc[V - 1]);
  }
  __m256 al = _mm256_set1_ps(alpha), be = _mm256_set1_ps(beta);
  __m256i all = _mm256_set1_epi32(-1);
  for (int v = 0; v < V; ++v) {
    __m256i m = v + 1 < V ? all : tail;
    __m256 r = _mm256_mul_ps(al, acc[v]);
    if (beta != 0)
      r = _mm256_add_ps(r, _mm256_mul_ps(be, _mm256_maskload_ps(c + v * W, m)));
    _mm256_maskstore_ps(c + v * W, m, r);
  }
}

using BlockFn = void (*)(int64_t, int64_t, float, const float *, int64_t, const float *,
                         int64_t, float, float *);

/// blockAvx512<1..16> and blockAvx2<1..12>, by vector count (AVX2 has 16
/// ymm registers: 12 sums, the broadcast and the tail mask fit).
constexpr BlockFn kAvx512Blocks[16] = {
    blockAvx512<1>,  blockAvx512<2>,  blockAvx512<3>,  blockAvx512<4>,
    blockAvx512<5>,  blockAvx512<6>,  blockAvx512<7>,  blockAvx512<8>,
    blockAvx512<9>,  blockAvx512<10>, blockAvx512<11>, blockAvx512<12>,
    blockAvx512<13>, blockAvx512<14>, blockAvx512<15>, blockAvx512<16>};
constexpr BlockFn kAvx2Blocks[12] = {blockAvx2<1>, blockAvx2<2>,  blockAvx2<3>,  blockAvx2<4>,
                                     blockAvx2<5>, blockAvx2<6>,  blockAvx2<7>,  blockAvx2<8>,
                                     blockAvx2<9>, blockAvx2<10>, blockAvx2<11>, blockAvx2<12>};
#endif

/// Columns [j0, j1) with the kernel of \p level, block by block.
void columns(CpuLevel level, int64_t K, int64_t j0, int64_t j1, float alpha, const float *a,
             int64_t inca, const float *B, int64_t ldb, float beta, float *c) {
#if defined(__x86_64__)
  int64_t width = level == CpuLevel::Avx512 ? 16 : 8,
          block = level == CpuLevel::Avx512 ? 16 * width : 12 * width;
  for (int64_t j = j0; j < j1; j += block) {
    int64_t n = std::min(block, j1 - j), vecs = (n + width - 1) / width;
    if (level == CpuLevel::Avx512)
      kAvx512Blocks[vecs - 1](K, n, alpha, a, inca, B + j, ldb, beta, c + j);
    else if (level == CpuLevel::Avx2)
      kAvx2Blocks[vecs - 1](K, n, alpha, a, inca, B + j, ldb, beta, c + j);
    else
      gemvScalar(K, n, alpha, a, inca, B + j, ldb, beta, c + j);
  }
#else
  gemvScalar(K, j1 - j0, alpha, a, inca, B + j0, ldb, beta, c + j0);
#endif
}

} // namespace

bool gemvApplies(const GemvShape &s) { return s.K > 0 && s.N > 0 && s.ldb >= s.N; }

void gemv(CpuLevel level, int threads, const GemvShape &s, float alpha, const float *a,
          const float *B, float beta, float *c) {
  if (threads < 2 || s.N < 32 || (s.N < kColumnSplit && s.K < 64)) {
    columns(level, s.K, 0, s.N, alpha, a, s.inca, B, s.ldb, beta, c);
    return;
  }
  if (s.N >= kColumnSplit) { // whole vectors of columns on each side
    int64_t half = (s.N / 2 + 15) / 16 * 16;
    runInTwoParts([&](int part) {
      int64_t j0 = part ? half : 0, j1 = part ? s.N : half;
      columns(level, s.K, j0, j1, alpha, a, s.inca, B, s.ldb, beta, c);
    });
    return;
  }
  // Few columns: each thread streams a contiguous half of B's rows into its
  // own sums, then c = alpha (first + second) + beta c.
  float sums[2][kColumnSplit];
  int64_t k0 = s.K / 2;
  runInTwoParts([&](int part) {
    int64_t from = part ? k0 : 0, count = part ? s.K - k0 : k0;
    columns(level, count, 0, s.N, 1.0f, a + from * s.inca, s.inca, B + from * s.ldb, s.ldb,
            0.0f, sums[part]);
  });
  for (int64_t j = 0; j < s.N; ++j) {
    float r = alpha * (sums[0][j] + sums[1][j]);
    c[j] = beta == 0 ? r : r + beta * c[j];
  }
}

} // namespace modelrt
