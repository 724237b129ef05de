//===- AttentionSimd.h - The vector operations of one attention build -----===//
//
// Defines, for AttentionKernels.cpp only, the few vector operations its
// micro-kernels and softmax sweeps are written in, for the instruction set
// of the build that includes it: AVX-512 (16 lanes, opmask registers), AVX2
// + FMA (8 lanes, integer lane masks), or one scalar lane (the baseline
// build on every architecture). Everything is in an anonymous namespace, so
// each build gets its own copy and no definition compiled for a wide level
// can be linked into another build.
//
// `transposeTile` transposes one kLanes x kLanes tile (unpacks and
// shuffles: 4 stages with AVX-512, 3 with AVX2). `fma(a, b, c)` is a * b + c, fused with AVX2 and AVX-512 and two roundings
// in the scalar build (SSE2 has no FMA, and the file is built with
// -ffp-contract=off). `exp2` is Cephes' exp2f polynomial on [-1/2, 1/2]
// scaled by 2^n (relative error about 2e-7); it is meant for arguments
// <= 0 (scores minus their maximum) and gives exactly 0 below -127 (-150
// with AVX-512), and NaN for NaN. It does not set errno or raise traps.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_CORE_ATTENTIONSIMD_H
#define MODELRT_LIB_CORE_ATTENTIONSIMD_H

#include <cstdint>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace modelrt {
namespace {

/// Cephes' exp2f coefficients: 2^f = 1 + f P(f), |f| <= 1/2, highest first.
constexpr float kExp2P[6] = {1.535336188319500e-4f, 1.339887440266574e-3f,
                             9.618437357674640e-3f, 5.550332471162809e-2f,
                             2.402264791363012e-1f, 6.931472028550421e-1f};

constexpr float kNegInf = -__builtin_inff();

/// [lo, hi) clamped to [0, n].
inline void clampLanes(int64_t &lo, int64_t &hi, int n) {
  lo = lo < 0 ? 0 : (lo > n ? n : lo);
  hi = hi < lo ? lo : (hi > n ? n : hi);
}

#if defined(__AVX512F__)
/// A vector of floats, a set of its lanes, and the lane count.
using Vec = __m512;
using Mask = __mmask16;
constexpr int kLanes = 16;
/// How many accumulators the micro-kernels keep in registers (of 32).
constexpr int kAccumulators = 24;

inline Vec zero() { return _mm512_setzero_ps(); }
inline Vec splat(float v) { return _mm512_set1_ps(v); }
inline Vec load(const float *p) { return _mm512_loadu_ps(p); }
inline void store(float *p, Vec v) { _mm512_storeu_ps(p, v); }
/// The lanes of \p k from p (zeros elsewhere) / to p (others untouched).
inline Vec loadMasked(const float *p, Mask k) { return _mm512_maskz_loadu_ps(k, p); }
inline void storeMasked(float *p, Mask k, Vec v) { _mm512_mask_storeu_ps(p, k, v); }
inline Vec add(Vec a, Vec b) { return _mm512_add_ps(a, b); }
inline Vec sub(Vec a, Vec b) { return _mm512_sub_ps(a, b); }
inline Vec mul(Vec a, Vec b) { return _mm512_mul_ps(a, b); }
inline Vec fma(Vec a, Vec b, Vec c) { return _mm512_fmadd_ps(a, b, c); }
/// max(a, b); b when b is NaN.
inline Vec max(Vec a, Vec b) { return _mm512_max_ps(a, b); }
/// k ? v : 0, and k ? a : b, lane by lane.
inline Vec keep(Mask k, Vec v) { return _mm512_maskz_mov_ps(k, v); }
inline Vec select(Mask k, Vec a, Vec b) { return _mm512_mask_blend_ps(k, b, a); }
/// The lanes [lo, hi) of a vector (any integers; clamped).
inline Mask lanesIn(int64_t lo, int64_t hi) {
  clampLanes(lo, hi, kLanes);
  uint32_t bits = ((1u << hi) - 1u) & ~((1u << lo) - 1u);
  return _cvtu32_mask16(bits);
}
inline bool anyLane(Mask k) { return k != 0; }
/// The lanes equal to -inf.
inline Mask isNegInf(Vec v) { return _mm512_cmp_ps_mask(v, splat(kNegInf), _CMP_EQ_OQ); }
/// The sum of the lanes.
inline float reduceAdd(Vec v) { return _mm512_reduce_add_ps(v); }
/// dst[c * ldd + r] = src[r * lds + c] for r, c < kLanes.
inline void transposeTile(const float *src, int64_t lds, float *dst, int64_t ldd) {
  Vec u[16];
  for (int g = 0; g < 4; ++g) { // u[4g + m] lane L: column 4L + m of rows 4g..4g+3
    const float *r = src + 4 * g * lds;
    Vec a = load(r), b = load(r + lds), c = load(r + 2 * lds), d = load(r + 3 * lds);
    Vec t0 = _mm512_unpacklo_ps(a, b), t1 = _mm512_unpackhi_ps(a, b);
    Vec t2 = _mm512_unpacklo_ps(c, d), t3 = _mm512_unpackhi_ps(c, d);
    u[4 * g] = _mm512_shuffle_ps(t0, t2, 0x44);
    u[4 * g + 1] = _mm512_shuffle_ps(t0, t2, 0xee);
    u[4 * g + 2] = _mm512_shuffle_ps(t1, t3, 0x44);
    u[4 * g + 3] = _mm512_shuffle_ps(t1, t3, 0xee);
  }
  for (int m = 0; m < 4; ++m) { // columns m, 4 + m, 8 + m, 12 + m
    Vec v = _mm512_shuffle_f32x4(u[m], u[4 + m], 0x88), w = _mm512_shuffle_f32x4(u[m], u[4 + m], 0xdd);
    Vec v2 = _mm512_shuffle_f32x4(u[8 + m], u[12 + m], 0x88),
        w2 = _mm512_shuffle_f32x4(u[8 + m], u[12 + m], 0xdd);
    store(dst + m * ldd, _mm512_shuffle_f32x4(v, v2, 0x88));
    store(dst + (8 + m) * ldd, _mm512_shuffle_f32x4(v, v2, 0xdd));
    store(dst + (4 + m) * ldd, _mm512_shuffle_f32x4(w, w2, 0x88));
    store(dst + (12 + m) * ldd, _mm512_shuffle_f32x4(w, w2, 0xdd));
  }
}
inline Vec exp2(Vec x) {
  x = _mm512_min_ps(splat(128.0f), _mm512_max_ps(splat(-150.0f), x));
  Vec n = _mm512_roundscale_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  Vec f = sub(x, n), p = splat(kExp2P[0]);
  for (int i = 1; i < 6; ++i)
    p = fma(p, f, splat(kExp2P[i]));
  p = fma(p, f, splat(1.0f));
  return _mm512_scalef_ps(p, n);
}

#elif defined(__AVX2__) // the operations above, 8 lanes
using Vec = __m256;
using Mask = __m256i;
constexpr int kLanes = 8;
constexpr int kAccumulators = 12; // of 16

inline Vec zero() { return _mm256_setzero_ps(); }
inline Vec splat(float v) { return _mm256_set1_ps(v); }
inline Vec load(const float *p) { return _mm256_loadu_ps(p); }
inline void store(float *p, Vec v) { _mm256_storeu_ps(p, v); }
inline Vec loadMasked(const float *p, Mask k) { return _mm256_maskload_ps(p, k); }
inline void storeMasked(float *p, Mask k, Vec v) { _mm256_maskstore_ps(p, k, v); }
inline Vec add(Vec a, Vec b) { return _mm256_add_ps(a, b); }
inline Vec sub(Vec a, Vec b) { return _mm256_sub_ps(a, b); }
inline Vec mul(Vec a, Vec b) { return _mm256_mul_ps(a, b); }
inline Vec fma(Vec a, Vec b, Vec c) { return _mm256_fmadd_ps(a, b, c); }
inline Vec max(Vec a, Vec b) { return _mm256_max_ps(a, b); }
inline Vec keep(Mask k, Vec v) { return _mm256_and_ps(_mm256_castsi256_ps(k), v); }
inline Vec select(Mask k, Vec a, Vec b) { return _mm256_blendv_ps(b, a, _mm256_castsi256_ps(k)); }
inline Mask lanesIn(int64_t lo, int64_t hi) {
  clampLanes(lo, hi, kLanes);
  __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  __m256i fromLo = _mm256_cmpgt_epi32(iota, _mm256_set1_epi32(int(lo) - 1));
  return _mm256_and_si256(fromLo, _mm256_cmpgt_epi32(_mm256_set1_epi32(int(hi)), iota));
}
inline bool anyLane(Mask k) { return !_mm256_testz_si256(k, k); }
inline Mask isNegInf(Vec v) {
  return _mm256_castps_si256(_mm256_cmp_ps(v, splat(kNegInf), _CMP_EQ_OQ));
}
inline float reduceAdd(Vec v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  return _mm_cvtss_f32(_mm_add_ss(s, _mm_movehdup_ps(s)));
}
inline void transposeTile(const float *src, int64_t lds, float *dst, int64_t ldd) {
  Vec u[8];
  for (int g = 0; g < 2; ++g) { // u[4g + m] lane L: column 4L + m of rows 4g..4g+3
    const float *r = src + 4 * g * lds;
    Vec a = load(r), b = load(r + lds), c = load(r + 2 * lds), d = load(r + 3 * lds);
    Vec t0 = _mm256_unpacklo_ps(a, b), t1 = _mm256_unpackhi_ps(a, b);
    Vec t2 = _mm256_unpacklo_ps(c, d), t3 = _mm256_unpackhi_ps(c, d);
    u[4 * g] = _mm256_shuffle_ps(t0, t2, 0x44);
    u[4 * g + 1] = _mm256_shuffle_ps(t0, t2, 0xee);
    u[4 * g + 2] = _mm256_shuffle_ps(t1, t3, 0x44);
    u[4 * g + 3] = _mm256_shuffle_ps(t1, t3, 0xee);
  }
  for (int m = 0; m < 4; ++m) { // columns m and 4 + m
    store(dst + m * ldd, _mm256_permute2f128_ps(u[m], u[4 + m], 0x20));
    store(dst + (4 + m) * ldd, _mm256_permute2f128_ps(u[m], u[4 + m], 0x31));
  }
}
inline Vec exp2(Vec x) {
  x = _mm256_min_ps(splat(127.0f), _mm256_max_ps(splat(-127.0f), x));
  Vec n = _mm256_round_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  Vec f = sub(x, n), p = splat(kExp2P[0]);
  for (int i = 1; i < 6; ++i)
    p = fma(p, f, splat(kExp2P[i]));
  p = fma(p, f, splat(1.0f));
  // 2^n from its exponent field; n = -127 gives the bits of +0.
  __m256i e = _mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127));
  return mul(p, _mm256_castsi256_ps(_mm256_slli_epi32(e, 23)));
}

#else // the operations above on one scalar lane
using Vec = float;
using Mask = bool;
constexpr int kLanes = 1;
constexpr int kAccumulators = 12;

inline Vec zero() { return 0.0f; }
inline Vec splat(float v) { return v; }
inline Vec load(const float *p) { return *p; }
inline void store(float *p, Vec v) { *p = v; }
inline Vec loadMasked(const float *p, Mask k) { return k ? *p : 0.0f; }
inline void storeMasked(float *p, Mask k, Vec v) {
  if (k)
    *p = v;
}
inline Vec add(Vec a, Vec b) { return a + b; }
inline Vec sub(Vec a, Vec b) { return a - b; }
inline Vec mul(Vec a, Vec b) { return a * b; }
inline Vec fma(Vec a, Vec b, Vec c) { return a * b + c; }
inline Vec max(Vec a, Vec b) { return a > b ? a : b; }
inline Vec keep(Mask k, Vec v) { return k ? v : 0.0f; }
inline Vec select(Mask k, Vec a, Vec b) { return k ? a : b; }
inline Mask lanesIn(int64_t lo, int64_t hi) { return lo <= 0 && hi > 0; }
inline bool anyLane(Mask k) { return k; }
inline Mask isNegInf(Vec v) { return v == kNegInf; }
inline float reduceAdd(Vec v) { return v; }
inline void transposeTile(const float *src, int64_t, float *dst, int64_t) { *dst = *src; }
inline Vec exp2(Vec x) {
  if (x != x)
    return x;
  x = x < -127.0f ? -127.0f : (x > 127.0f ? 127.0f : x);
  int n = int(x + 127.5f) - 127; // round half up; x + 127.5 > 0 truncates as floor
  float f = x - float(n), p = kExp2P[0];
  for (int i = 1; i < 6; ++i)
    p = p * f + kExp2P[i];
  p = p * f + 1.0f;
  uint32_t bits = uint32_t(n + 127) << 23;
  float scale;
  __builtin_memcpy(&scale, &bits, sizeof scale);
  return p * scale;
}
#endif

} // namespace
} // namespace modelrt

#endif // MODELRT_LIB_CORE_ATTENTIONSIMD_H
