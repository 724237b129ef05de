//===- PoolSimd.h - The vector operations of one build of the pool kernels ===//
//
// Defines, for PoolKernels.cpp only, the few vector operations its fast
// paths are written in, for the instruction set of the build that includes
// it: AVX-512 (16 lanes, masked loads and stores), AVX2 (8 lanes, maskload
// and maskstore), SSE2 (4 lanes; partial vectors through a small buffer),
// or one scalar lane elsewhere. Everything is in an anonymous namespace:
// each build of PoolKernels.cpp gets its own copy, so no definition compiled
// for a wide level can be linked into another build.
//
// `pickMax(m, v)` is one step of the max-pooling scan (take v when v > m or
// v is NaN); `taken(m, v)` is its condition, for the scans that also track
// where the maximum is. `unzip` / `zip` split two vectors into their even
// and odd elements and back; `permute2` takes any lanes of two vectors (one
// instruction with AVX-512, a few with AVX2, through memory with SSE2).
// `storeBytes` / `loadBytes` move small whole numbers between lanes and
// bytes (the codes of each window's maximum).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_CORE_POOLSIMD_H
#define MODELRT_LIB_CORE_POOLSIMD_H

#include <cstdint>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace modelrt {
namespace {

#if defined(__AVX512F__)
/// A vector of floats, a set of its lanes, and its lane count.
using Vec = __m512;
using Mask = __mmask16;
constexpr int kLanes = 16;

/// Every lane \p v.
inline Vec splat(float v) { return _mm512_set1_ps(v); }
/// a + b and a / b, lane by lane.
inline Vec add(Vec a, Vec b) { return _mm512_add_ps(a, b); }
inline Vec divide(Vec a, Vec b) { return _mm512_div_ps(a, b); }
/// Lanes 0..n-1 (n <= kLanes).
inline Mask firstLanes(int n) { return _cvtu32_mask16((1u << n) - 1u); }
/// The lanes in \p a or (and) in \p b.
inline Mask maskOr(Mask a, Mask b) { return Mask(a | b); }
inline Mask maskAnd(Mask a, Mask b) { return Mask(a & b); }
/// Lanes of \p a not in \p b.
inline Mask maskAndNot(Mask a, Mask b) { return Mask(a & ~b); }
/// The lanes where a == b.
inline Mask equal(Vec a, Vec b) { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
/// The lanes where the scan takes v over m: v > m or v is NaN.
inline Mask taken(Vec m, Vec v) {
  return Mask(_mm512_cmp_ps_mask(v, m, _CMP_GT_OQ) | _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q));
}
/// k ? a : b, lane by lane.
inline Vec select(Mask k, Vec a, Vec b) { return _mm512_mask_blend_ps(k, b, a); }
/// k ? v : 0.
inline Vec keep(Mask k, Vec v) { return _mm512_maskz_mov_ps(k, v); }
/// k ? 0 : v.
inline Vec keepUnless(Mask k, Vec v) { return _mm512_maskz_mov_ps(Mask(~k), v); }
/// The scan's step on values: maxps(v, m) is v > m ? v : m, and v where v
/// is NaN.
inline Vec pickMax(Vec m, Vec v) {
  return _mm512_mask_max_ps(v, _mm512_cmp_ps_mask(v, v, _CMP_ORD_Q), v, m);
}
/// p[0..n) (n <= kLanes) in the first lanes, zeros after.
inline Vec loadPart(const float *p, int n) { return _mm512_maskz_loadu_ps(firstLanes(n), p); }
/// The first \p n lanes of \p v to p[0..n).
inline void storePart(float *p, Vec v, int n) { _mm512_mask_storeu_ps(p, firstLanes(n), v); }
/// [first, v[0], ..., v[kLanes-2]].
inline Vec shiftIn(Vec v, float first) {
  // v rotated up by one lane, lane 0 from first.
  __m512i bits = _mm512_castps_si512(v);
  return _mm512_castsi512_ps(
      _mm512_mask_alignr_epi32(_mm512_castps_si512(splat(first)), 0xfffe, bits, bits, 15));
}
/// Lane indices for permute2, 0 .. 2 kLanes - 1.
using Lanes = __m512i;
/// The indices idx[0..kLanes).
inline Lanes lanes(const int32_t *idx) { return _mm512_loadu_si512(idx); }
/// Lane l of the result is lane idx[l] of (a, b): a's lanes first.
inline Vec permute2(Vec a, Vec b, Lanes idx) { return _mm512_permutex2var_ps(a, idx, b); }
/// The even and odd lanes of two vectors (lo's first): lo[0], lo[2], ...
inline void unzip(Vec lo, Vec hi, Vec &even, Vec &odd) {
  const __m512i e = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i o = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  even = _mm512_permutex2var_ps(lo, e, hi);
  odd = _mm512_permutex2var_ps(lo, o, hi);
}
/// The inverse of unzip.
inline void zip(Vec even, Vec odd, Vec &lo, Vec &hi) {
  const __m512i l = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const __m512i h = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  lo = _mm512_permutex2var_ps(even, l, odd);
  hi = _mm512_permutex2var_ps(even, h, odd);
}

#elif defined(__AVX2__) // the operations above, 8 lanes
using Vec = __m256;
using Mask = __m256;
constexpr int kLanes = 8;

inline Vec splat(float v) { return _mm256_set1_ps(v); }
inline Vec add(Vec a, Vec b) { return _mm256_add_ps(a, b); }
inline Vec divide(Vec a, Vec b) { return _mm256_div_ps(a, b); }
/// firstLanes as maskload's and maskstore's integer mask.
inline __m256i firstLanesInt(int n) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
inline Mask firstLanes(int n) { return _mm256_castsi256_ps(firstLanesInt(n)); }
inline Mask maskOr(Mask a, Mask b) { return _mm256_or_ps(a, b); }
inline Mask maskAnd(Mask a, Mask b) { return _mm256_and_ps(a, b); }
inline Mask maskAndNot(Mask a, Mask b) { return _mm256_andnot_ps(b, a); }
inline Mask equal(Vec a, Vec b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
inline Mask taken(Vec m, Vec v) {
  return _mm256_or_ps(_mm256_cmp_ps(v, m, _CMP_GT_OQ), _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
}
inline Vec select(Mask k, Vec a, Vec b) { return _mm256_blendv_ps(b, a, k); }
inline Vec keep(Mask k, Vec v) { return _mm256_and_ps(k, v); }
inline Vec keepUnless(Mask k, Vec v) { return _mm256_andnot_ps(k, v); }
inline Vec pickMax(Vec m, Vec v) {
  return _mm256_blendv_ps(_mm256_max_ps(v, m), v, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
}
inline Vec loadPart(const float *p, int n) {
  return n == kLanes ? _mm256_loadu_ps(p) : _mm256_maskload_ps(p, firstLanesInt(n));
}
inline void storePart(float *p, Vec v, int n) {
  if (n == kLanes)
    _mm256_storeu_ps(p, v);
  else
    _mm256_maskstore_ps(p, firstLanesInt(n), v);
}
inline Vec shiftIn(Vec v, float first) {
  Vec up = _mm256_permutevar8x32_ps(v, _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6));
  return _mm256_blend_ps(up, splat(first), 1);
}
using Lanes = __m256i;
inline Lanes lanes(const int32_t *idx) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(idx));
}
inline Vec permute2(Vec a, Vec b, Lanes idx) {
  // Each source permuted by the index's low three bits, then b's where idx >= 8.
  Vec fromB = _mm256_castsi256_ps(_mm256_cmpgt_epi32(idx, _mm256_set1_epi32(kLanes - 1)));
  return _mm256_blendv_ps(_mm256_permutevar8x32_ps(a, idx), _mm256_permutevar8x32_ps(b, idx),
                          fromB);
}
inline void unzip(Vec lo, Vec hi, Vec &even, Vec &odd) {
  // Within each 128-bit half, then the halves' 64-bit pairs into order.
  Vec e = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
  Vec o = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1));
  even = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(e), _MM_SHUFFLE(3, 1, 2, 0)));
  odd = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(o), _MM_SHUFFLE(3, 1, 2, 0)));
}
inline void zip(Vec even, Vec odd, Vec &lo, Vec &hi) {
  Vec a = _mm256_unpacklo_ps(even, odd), b = _mm256_unpackhi_ps(even, odd);
  lo = _mm256_permute2f128_ps(a, b, 0x20);
  hi = _mm256_permute2f128_ps(a, b, 0x31);
}

#elif defined(__SSE2__) // the operations above, 4 lanes
using Vec = __m128;
using Mask = __m128;
constexpr int kLanes = 4;

inline Vec splat(float v) { return _mm_set1_ps(v); }
inline Vec add(Vec a, Vec b) { return _mm_add_ps(a, b); }
inline Vec divide(Vec a, Vec b) { return _mm_div_ps(a, b); }
inline Mask firstLanes(int n) {
  return _mm_castsi128_ps(_mm_cmpgt_epi32(_mm_set1_epi32(n), _mm_setr_epi32(0, 1, 2, 3)));
}
inline Mask maskOr(Mask a, Mask b) { return _mm_or_ps(a, b); }
inline Mask maskAnd(Mask a, Mask b) { return _mm_and_ps(a, b); }
inline Mask maskAndNot(Mask a, Mask b) { return _mm_andnot_ps(b, a); }
inline Mask equal(Vec a, Vec b) { return _mm_cmpeq_ps(a, b); }
inline Mask taken(Vec m, Vec v) { return _mm_or_ps(_mm_cmpgt_ps(v, m), _mm_cmpunord_ps(v, v)); }
inline Vec select(Mask k, Vec a, Vec b) { return _mm_or_ps(_mm_and_ps(k, a), _mm_andnot_ps(k, b)); }
inline Vec keep(Mask k, Vec v) { return _mm_and_ps(k, v); }
inline Vec keepUnless(Mask k, Vec v) { return _mm_andnot_ps(k, v); }
inline Vec pickMax(Vec m, Vec v) { return select(_mm_cmpunord_ps(v, v), v, _mm_max_ps(v, m)); }
inline Vec loadPart(const float *p, int n) {
  if (n == kLanes)
    return _mm_loadu_ps(p);
  alignas(16) float lanes[kLanes] = {0, 0, 0, 0};
  for (int i = 0; i < n; ++i)
    lanes[i] = p[i];
  return _mm_load_ps(lanes);
}
inline void storePart(float *p, Vec v, int n) {
  if (n == kLanes)
    return _mm_storeu_ps(p, v);
  alignas(16) float lanes[kLanes];
  _mm_store_ps(lanes, v);
  for (int i = 0; i < n; ++i)
    p[i] = lanes[i];
}
inline Vec shiftIn(Vec v, float first) {
  Vec t = _mm_shuffle_ps(splat(first), v, _MM_SHUFFLE(0, 0, 0, 0)); // first first v0 v0
  return _mm_shuffle_ps(t, v, _MM_SHUFFLE(2, 1, 2, 0));             // first v0 v1 v2
}
struct Lanes {
  int32_t idx[kLanes];
};
inline Lanes lanes(const int32_t *idx) { return {{idx[0], idx[1], idx[2], idx[3]}}; }
inline Vec permute2(Vec a, Vec b, Lanes idx) { // SSE2 has no variable permutes
  alignas(16) float both[2 * kLanes];
  _mm_store_ps(both, a);
  _mm_store_ps(both + kLanes, b);
  return _mm_setr_ps(both[idx.idx[0]], both[idx.idx[1]], both[idx.idx[2]], both[idx.idx[3]]);
}
inline void unzip(Vec lo, Vec hi, Vec &even, Vec &odd) {
  even = _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
  odd = _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1));
}
inline void zip(Vec even, Vec odd, Vec &lo, Vec &hi) {
  lo = _mm_unpacklo_ps(even, odd);
  hi = _mm_unpackhi_ps(even, odd);
}

#else // the operations above on one scalar lane
using Vec = float;
using Mask = bool;
constexpr int kLanes = 1;

inline Vec splat(float v) { return v; }
inline Vec add(Vec a, Vec b) { return a + b; }
inline Vec divide(Vec a, Vec b) { return a / b; }
inline Mask firstLanes(int n) { return n > 0; }
inline Mask maskOr(Mask a, Mask b) { return a || b; }
inline Mask maskAnd(Mask a, Mask b) { return a && b; }
inline Mask maskAndNot(Mask a, Mask b) { return a && !b; }
inline Mask equal(Vec a, Vec b) { return a == b; }
inline Mask taken(Vec m, Vec v) { return v > m || v != v; }
inline Vec select(Mask k, Vec a, Vec b) { return k ? a : b; }
inline Vec keep(Mask k, Vec v) { return k ? v : 0.0f; }
inline Vec keepUnless(Mask k, Vec v) { return k ? 0.0f : v; }
inline Vec pickMax(Vec m, Vec v) { return taken(m, v) ? v : m; }
inline Vec loadPart(const float *p, int n) { return n > 0 ? p[0] : 0.0f; }
inline void storePart(float *p, Vec v, int n) {
  if (n > 0)
    p[0] = v;
}
inline Vec shiftIn(Vec, float first) { return first; }
struct Lanes {
  int32_t idx;
};
inline Lanes lanes(const int32_t *idx) { return {idx[0]}; }
inline Vec permute2(Vec a, Vec b, Lanes idx) { return idx.idx ? b : a; }
inline void unzip(Vec lo, Vec hi, Vec &even, Vec &odd) {
  even = lo;
  odd = hi;
}
inline void zip(Vec even, Vec odd, Vec &lo, Vec &hi) {
  lo = even;
  hi = odd;
}
#endif

/// p[0..count) (count <= 2 kLanes, zeros after) split into its even and
/// odd elements.
inline void loadUnzipped(const float *p, int count, Vec &even, Vec &odd) {
  Vec lo = loadPart(p, count < kLanes ? count : kLanes);
  Vec hi = count > kLanes ? loadPart(p + kLanes, count - kLanes) : splat(0.0f);
  unzip(lo, hi, even, odd);
}

/// Stores p[0..count) (count <= 2 kLanes) = even[0], odd[0], even[1], ...
inline void storeZipped(float *p, Vec even, Vec odd, int count) {
  Vec lo, hi;
  zip(even, odd, lo, hi);
  storePart(p, lo, count < kLanes ? count : kLanes);
  if (count > kLanes)
    storePart(p + kLanes, hi, count - kLanes);
}

/// The first \p n lanes of \p v (whole numbers in [0, 255]) to p[0..n) as
/// bytes: max pooling's codes.
inline void storeBytes(uint8_t *p, Vec v, int n) {
#if defined(__AVX512F__)
  _mm512_mask_cvtepi32_storeu_epi8(p, firstLanes(n), _mm512_cvttps_epi32(v));
#else
  float lanes[kLanes];
  storePart(lanes, v, kLanes);
  for (int i = 0; i < n; ++i)
    p[i] = uint8_t(lanes[i]);
#endif
}

/// The bytes p[0..n) as floats in the first \p n lanes; the lanes after
/// are zeros, or the bytes after when \p end (the end of the buffer)
/// leaves a whole vector's worth to read.
inline Vec loadBytes(const uint8_t *p, int n, const uint8_t *end) {
#if defined(__AVX512F__)
  if (end - p >= kLanes)
    return _mm512_cvtepi32_ps(
        _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p))));
  alignas(16) uint8_t bytes[kLanes] = {};
  for (int i = 0; i < n; ++i)
    bytes[i] = p[i];
  return _mm512_cvtepi32_ps(
      _mm512_cvtepu8_epi32(_mm_load_si128(reinterpret_cast<const __m128i *>(bytes))));
#elif defined(__AVX2__)
  if (end - p >= kLanes)
    return _mm256_cvtepi32_ps(
        _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i *>(p))));
  float lanes[kLanes] = {};
  for (int i = 0; i < n; ++i)
    lanes[i] = float(p[i]);
  return loadPart(lanes, kLanes);
#else
  (void)end;
  float lanes[kLanes] = {};
  for (int i = 0; i < n; ++i)
    lanes[i] = float(p[i]);
  return loadPart(lanes, kLanes);
#endif
}

} // namespace
} // namespace modelrt

#endif // MODELRT_LIB_CORE_POOLSIMD_H
