//===- ConvDirectKernelsAvx2.cpp - The direct convolution loops (AVX2) ----===//
//
// Implements kDirectLoopsAvx2 (ConvDirectKernels.h), compiled with AVX2
// and FMA (runtime/CMakeLists.txt) and called only on hosts of that level:
// the loops of ConvDirectKernels.cpp with vectors of 8 lanes. Each output
// element takes the same fused multiply-adds in the same order, and the
// weights' gradient adds each pooled column into the same lane of the
// 16-lane partial sums (two vectors per 16 pooled columns), so both
// instruction sets give the same bits (a NaN for a NaN: where two NaNs
// meet, which payload survives depends on the instruction's form).
//   - A mask is a vector whose lanes are all ones where true; a masked
//     multiply-add blends the product into the sum where the mask is set,
//     so a lane masked off keeps its sum whatever its operands.
//   - Forwards, when every weight is finite, a vector of outputs is first
//     summed without masks: a tap in the padding then reads a zero of the
//     scratch rows and adds w * 0 = +-0, which leaves a nonzero sum as it
//     is and gives every later multiply-add the same value, so the two
//     sums can differ only in the sign of a zero result. A vector whose
//     sum is zero in a lane that some mask leaves out (a border of the
//     image) is summed again with the masks.
//   - The weights' gradient skips the masks when neither x nor the pooled
//     gradient of its images holds an infinity or NaN: a tap in the
//     padding, or a lane past the last pooled column, then adds a finite
//     value times a zero of the scratch rows (or of the masked load), +-0,
//     which can only turn a partial sum of -0 into +0; a later nonzero
//     term gives the same bits either way, and the partial sums are added
//     into lanes that start at +0 and so are never -0 (x + -0 = x).
//   - Tails (rows and pooled columns past the last full vector) are read
//     and written with vmaskmov, whole vectors with plain moves; codes are
//     packed to bytes and written 8, 4, 2 and 1 at a time.
// No floating-point contraction beyond the explicit fused multiply-adds;
// nothing inline from the C++ library.
//
//===----------------------------------------------------------------------===//
#include "ConvDirectKernels.h"

#include <immintrin.h>
#include <type_traits>

namespace modelrt {
namespace {

constexpr int K = int(kDirectKernel);

/// The lanes of a vector.
constexpr int64_t kLanes = 8;

/// Floats before column 0 of a scratch row (at least the padding), and the
/// floats of a row past column W - 1 that vector loads may read.
constexpr int64_t kRowLead = 16, kRowTail = 48;

/// A scratch row's floats: whole vectors.
int64_t rowFloats(const ConvShape &s) {
  return (kRowLead + s.w + kRowTail + kLanes - 1) / kLanes * kLanes;
}

/// The first \p n lanes (0..8) as a mask.
__m256i firstLanes(int64_t n) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(int(n)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

int64_t lanesAt(int64_t at, int64_t size) { return size - at < kLanes ? size - at : kLanes; }

/// sum + a * x where \p mask is set, sum elsewhere.
__m256 maskedFma(__m256 a, __m256 x, __m256 sum, __m256 mask) {
  return _mm256_blendv_ps(sum, _mm256_fmadd_ps(a, x, sum), mask);
}

/// maskedFma, or (\p Masked false) sum + a * x.
template <bool Masked> __m256 tapFma(__m256 a, __m256 x, __m256 sum, __m256 mask) {
  if (Masked)
    return maskedFma(a, x, sum, mask);
  return _mm256_fmadd_ps(a, x, sum);
}

/// The lanes among the first \p lanes that \p mask leaves out, as bits.
int leftOut(__m256 mask, int64_t lanes) {
  return ~_mm256_movemask_ps(mask) & int((1u << lanes) - 1u);
}

/// True when one of the \p count sums is zero in a lane of \p lanes (bits).
bool zeroIn(const __m256 *sums, int count, int lanes) {
  int zero = 0;
  for (int k = 0; k < count; ++k)
    zero |= _mm256_movemask_ps(_mm256_cmp_ps(sums[k], _mm256_setzero_ps(), _CMP_EQ_OQ));
  return (zero & lanes) != 0;
}

/// sums[k] + bias (for the \p count sums, bias[k] per sum), when there is one.
void addBias(__m256 *sums, int count, const float *bias) {
  if (bias)
    for (int k = 0; k < count; ++k)
      sums[k] = _mm256_add_ps(sums[k], _mm256_set1_ps(bias[k]));
}

/// True when every one of the \p count values at \p v is finite.
bool allFinite(const float *v, int64_t count) {
  bool finite = true;
  for (int64_t k = 0; k < count; ++k)
    finite &= v[k] - v[k] == 0.0f; // false for an infinity or NaN
  return finite;
}


/// Copies input row \p iy of channel \p c of image \p n into \p row (from
/// row[kRowLead]), zeros around it; all zeros when the row is padding.
void copyRow(const DirectConv &d, int64_t n, int64_t c, int64_t iy, float *row) {
  const ConvShape &s = d.s;
  int64_t size = rowFloats(s), k = 0;
  for (; k < size; k += kLanes)
    _mm256_storeu_ps(row + k, _mm256_setzero_ps());
  if (iy < 0 || iy >= s.h)
    return;
  const float *in = d.x + ((n * s.c + c) * s.h + iy) * s.w;
  for (k = 0; k + kLanes <= s.w; k += kLanes)
    _mm256_storeu_ps(row + kRowLead + k, _mm256_loadu_ps(in + k));
  if (k < s.w) { // the zeros past the row stay
    __m256i m = firstLanes(s.w - k);
    _mm256_maskstore_ps(row + kRowLead + k, m, _mm256_maskload_ps(in + k, m));
  }
}

/// Stores the first \p lanes lanes of \p v at \p to.
void storeLanes(float *to, __m256 v, int64_t lanes) {
  if (lanes == kLanes)
    _mm256_storeu_ps(to, v);
  else
    _mm256_maskstore_ps(to, firstLanes(lanes), v);
}

/// The first \p lanes lanes at \p from, zeros past them.
__m256 loadLanes(const float *from, int64_t lanes) {
  return lanes == kLanes ? _mm256_loadu_ps(from) : _mm256_maskload_ps(from, firstLanes(lanes));
}

/// The lanes l < \p lanes whose input column first + step * l + offset
/// lies in [0, W).
__m256 insideColumns(const ConvShape &s, int64_t first, int64_t step, int64_t offset,
                     int64_t lanes) {
  alignas(32) int32_t m[kLanes];
  for (int64_t l = 0; l < kLanes; ++l) {
    int64_t col = first + step * l + offset;
    m[l] = l < lanes && col >= 0 && col < s.w ? -1 : 0;
  }
  return _mm256_castsi256_ps(_mm256_load_si256(reinterpret_cast<const __m256i *>(m)));
}

bool insideRows(const ConvShape &s, int64_t iy) { return iy >= 0 && iy < s.h; }

/// The lanes where v is taken over m in Pool.h's scan: v > m, or v NaN.
__m256 taken(__m256 m, __m256 v) {
  return _mm256_or_ps(_mm256_cmp_ps(v, m, _CMP_GT_OQ), _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
}

/// A 2x2 window's maximum and code (0..3) from its elements in row-major
/// order, as Pool.h's max pooling scans it.
void pick2x2(const __m256 y[4], __m256 &max, __m256i &code) {
  __m256 t1 = taken(y[0], y[1]), t2 = taken(y[2], y[3]);
  __m256 top = _mm256_blendv_ps(y[0], y[1], t1);
  __m256 bottom = _mm256_blendv_ps(y[2], y[3], t2);
  __m256 t3 = taken(top, bottom);
  max = _mm256_blendv_ps(top, bottom, t3);
  __m256i one = _mm256_set1_epi32(1);
  __m256i topCode = _mm256_and_si256(_mm256_castps_si256(t1), one);
  __m256i bottomCode = _mm256_add_epi32(_mm256_and_si256(_mm256_castps_si256(t2), one),
                                        _mm256_set1_epi32(2));
  code = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(topCode),
                                              _mm256_castsi256_ps(bottomCode), t3));
}

//===-- A row of 2x2 windows -----------------------------------------------===//

/// The input of one row of windows and one vector of pooled columns.
struct WindowRows {
  /// split[c][r][k]: input row 2 ph - padH + r of channel c, its columns
  /// 2 pw + k - padW for the vector's pooled columns pw.
  __m256 split[kDirectMaxChannels][K + 1][K + 1];
  /// mask[q][i][j]: the lanes where tap (i, j) of window element q =
  /// (dy, dx) reads inside the image.
  __m256 mask[4][K][K];
  /// The pooled columns (bits) that some mask leaves out.
  int border;
};

/// The even elements of from[0..15].
__m256 evenColumns(const float *from) {
  __m256 e = _mm256_shuffle_ps(_mm256_loadu_ps(from), _mm256_loadu_ps(from + kLanes),
                               _MM_SHUFFLE(2, 0, 2, 0)); // a0 a2 b0 b2 | a4 a6 b4 b6
  return _mm256_castpd_ps(
      _mm256_permute4x64_pd(_mm256_castps_pd(e), _MM_SHUFFLE(3, 1, 2, 0)));
}

/// Splits the rows of windows \p ph of image \p n for the pooled columns
/// from \p pw0 (\p lanes of them) into \p w.
void splitWindowRows(const DirectConv &d, int64_t n, int64_t ph, int64_t pw0, int64_t lanes,
                     float *row, WindowRows &w) {
  const ConvShape &s = d.s;
  int64_t top = 2 * ph - s.padH;
  for (int64_t t = 0; t < s.c; ++t)
    for (int r = 0; r <= K; ++r) {
      copyRow(d, n, d.channelOrder[t], top + r, row);
      for (int k = 0; k <= K; ++k)
        w.split[t][r][k] = evenColumns(row + kRowLead + 2 * pw0 + k - s.padW);
    }
  __m256 inside[K + 1];
  for (int k = 0; k <= K; ++k)
    inside[k] = insideColumns(s, 2 * pw0, 2, k - s.padW, lanes);
  w.border = 0;
  for (int q = 0; q < 4; ++q)
    for (int i = 0; i < K; ++i)
      for (int j = 0; j < K; ++j) {
        w.mask[q][i][j] =
            insideRows(s, top + (q >> 1) + i) ? inside[(q & 1) + j] : _mm256_setzero_ps();
        w.border |= leftOut(w.mask[q][i][j], lanes);
      }
}

/// The sums of the four window elements of output channels \p o0 and \p o1
/// (y[0..3] and y[4..7]) over the split rows of \p C channels: +0, then
/// each tap (\p Masked: the masks' lanes only).
template <int C, bool Masked>
void windowSums(const DirectConv &d, const WindowRows &w, int64_t o0, int64_t o1,
                __m256 y[8]) {
  const float *w0 = d.taps + o0 * K * K * C, *w1 = d.taps + o1 * K * K * C;
  for (int k = 0; k < 8; ++k)
    y[k] = _mm256_setzero_ps();
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < K; ++j)
      for (int t = 0; t < C; ++t) {
        __m256 a = _mm256_set1_ps(w0[(i * K + j) * C + t]);
        __m256 b = _mm256_set1_ps(w1[(i * K + j) * C + t]);
        for (int q = 0; q < 4; ++q) {
          __m256 x = w.split[t][(q >> 1) + i][(q & 1) + j];
          y[q] = tapFma<Masked>(a, x, y[q], w.mask[q][i][j]);
          y[4 + q] = tapFma<Masked>(b, x, y[4 + q], w.mask[q][i][j]);
        }
      }
}

/// The four window elements of channels \p o0 and \p o1 with the bias:
/// summed without masks when \p finite (every weight finite) and again
/// with them where that can differ (header comment).
template <int C>
void windowElements(const DirectConv &d, const WindowRows &w, int64_t o0, int64_t o1,
                    bool finite, __m256 y[8]) {
  if (!finite)
    windowSums<C, true>(d, w, o0, o1, y);
  else {
    windowSums<C, false>(d, w, o0, o1, y);
    if (zeroIn(y, 8, w.border))
      windowSums<C, true>(d, w, o0, o1, y);
  }
  if (d.bias) {
    float bias[8] = {d.bias[o0], d.bias[o0], d.bias[o0], d.bias[o0],
                     d.bias[o1], d.bias[o1], d.bias[o1], d.bias[o1]};
    addBias(y, 8, bias);
  }
}

/// Pools one output channel's four window elements into pooled (and codes).
void storeWindows(const __m256 y[4], int64_t lanes, float *pooled, uint8_t *codes) {
  __m256 max;
  __m256i code;
  pick2x2(y, max, code);
  storeLanes(pooled, max, lanes);
  if (!codes)
    return;
  __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(code), _mm256_extracti128_si256(code, 1));
  uint64_t bytes = uint64_t(_mm_cvtsi128_si64(_mm_packus_epi16(words, words)));
  if (lanes == kLanes) {
    _mm_storel_epi64(reinterpret_cast<__m128i *>(codes), _mm_cvtsi64_si128(int64_t(bytes)));
    return;
  }
  for (int width = 4; width >= 1; width /= 2) // the lanes' bits, 4 + 2 + 1
    if (lanes & width) {
      for (int b = 0; b < width; ++b)
        codes[b] = uint8_t(bytes >> (8 * b));
      codes += width;
      bytes >>= 8 * width;
    }
}

/// The codes of \p lanes pooled columns, one per 32-bit lane (0 past them).
__m256i loadCodes(const uint8_t *codes, int64_t lanes) {
  uint64_t bytes = 0;
  if (lanes == kLanes)
    bytes = uint64_t(_mm_cvtsi128_si64(_mm_loadl_epi64(reinterpret_cast<const __m128i *>(codes))));
  else
    for (int64_t l = lanes - 1; l >= 0; --l)
      bytes = bytes << 8 | codes[l];
  return _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(int64_t(bytes)));
}

//===-- One row of outputs -------------------------------------------------===//

/// The sums of eight output channels from \p o0 (the last repeated past O)
/// at the output columns from \p ox0 of one output row, whose input rows
/// (the t-th channel of the order, kernel row i) are rows[t * K + i], \p C
/// channels: +0, then each tap (\p Masked: the masks' lanes only).
template <int C, bool Masked>
void rowSums(const DirectConv &d, const float *const *rows, const __m256 mask[K][K],
             int64_t ox0, int64_t o0, __m256 sum[8]) {
  const ConvShape &s = d.s;
  const float *weights[8];
  for (int k = 0; k < 8; ++k)
    weights[k] = d.taps + (o0 + k < s.o ? o0 + k : s.o - 1) * K * K * C;
  for (int k = 0; k < 8; ++k)
    sum[k] = _mm256_setzero_ps();
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < K; ++j)
      for (int t = 0; t < C; ++t) {
        __m256 x = _mm256_loadu_ps(rows[t * K + i] + kRowLead + ox0 + j - s.padW);
        for (int k = 0; k < 8; ++k)
          sum[k] = tapFma<Masked>(_mm256_set1_ps(weights[k][(i * K + j) * C + t]), x, sum[k],
                                  mask[i][j]);
      }
}

/// Eight output channels from \p o0 of the output columns from \p ox0
/// (\p lanes of them) of one output row, with the bias, stored into \p y:
/// summed as windowElements sums (\p border: the lanes, as bits, that some
/// mask leaves out).
template <int C>
void outputRow(const DirectConv &d, const float *const *rows, const __m256 mask[K][K],
               int border, bool finite, int64_t ox0, int64_t o0, float *y, int64_t lanes) {
  const ConvShape &s = d.s;
  __m256 sum[8];
  if (!finite)
    rowSums<C, true>(d, rows, mask, ox0, o0, sum);
  else {
    rowSums<C, false>(d, rows, mask, ox0, o0, sum);
    if (zeroIn(sum, 8, border))
      rowSums<C, true>(d, rows, mask, ox0, o0, sum);
  }
  int count = s.o - o0 < 8 ? int(s.o - o0) : 8;
  if (d.bias)
    addBias(sum, count, d.bias + o0);
  for (int k = 0; k < count; ++k)
    storeLanes(y + (o0 + k) * s.oh * s.ow, sum[k], lanes);
}

/// The forward of \p C channels.
template <int C>
void forwardImages(const DirectConv &d, float *y, float *scratch, int64_t first,
                   int64_t count) {
  const ConvShape &s = d.s;
  const float *rows[C * K];
  bool finite = allFinite(d.taps, s.o * K * K * C);
  for (int64_t n = first; n < first + count; ++n)
    for (int64_t oy = 0; oy < s.oh; ++oy) {
      for (int t = 0; t < C; ++t)
        for (int i = 0; i < K; ++i) {
          float *row = scratch + (t * K + i) * rowFloats(s);
          copyRow(d, n, d.channelOrder[t], oy - s.padH + i, row);
          rows[t * K + i] = row;
        }
      for (int64_t ox0 = 0; ox0 < s.ow; ox0 += kLanes) {
        int64_t lanes = lanesAt(ox0, s.ow);
        __m256 mask[K][K];
        int border = 0;
        for (int i = 0; i < K; ++i)
          for (int j = 0; j < K; ++j) {
            mask[i][j] = insideRows(s, oy - s.padH + i)
                             ? insideColumns(s, ox0, 1, j - s.padW, lanes)
                             : _mm256_setzero_ps();
            border |= leftOut(mask[i][j], lanes);
          }
        float *out = y + n * s.o * s.oh * s.ow + oy * s.ow + ox0;
        for (int64_t o0 = 0; o0 < s.o; o0 += 8)
          outputRow<C>(d, rows, mask, border, finite, ox0, o0, out, lanes);
      }
    }
}

/// The forward with its 2x2 max pooling, \p C channels.
template <int C>
void forwardMaxPoolImages(const DirectConv &d, float *pooled, uint8_t *codes, float *scratch,
                          int64_t first, int64_t count) {
  const ConvShape &s = d.s;
  int64_t ph = s.oh / 2, pw = s.ow / 2;
  WindowRows w;
  bool finite = allFinite(d.taps, s.o * K * K * C);
  for (int64_t n = first; n < first + count; ++n)
    for (int64_t pw0 = 0; pw0 < pw; pw0 += kLanes) {
      int64_t lanes = lanesAt(pw0, pw);
      for (int64_t row = 0; row < ph; ++row) {
        splitWindowRows(d, n, row, pw0, lanes, scratch, w);
        for (int64_t o0 = 0; o0 < s.o; o0 += 2) {
          int64_t o1 = o0 + 1 < s.o ? o0 + 1 : o0;
          __m256 y[8];
          windowElements<C>(d, w, o0, o1, finite, y);
          int64_t at = ((n * s.o + o0) * ph + row) * pw + pw0, next = at + ph * pw;
          storeWindows(y, lanes, pooled + at, codes ? codes + at : nullptr);
          if (o1 != o0)
            storeWindows(y + 4, lanes, pooled + next, codes ? codes + next : nullptr);
        }
      }
    }
}

/// Calls \p f with the channel count of \p s as a template argument.
template <typename F> void withChannels(const ConvShape &s, const F &f) {
  switch (s.c) {
  case 1:
    return f(std::integral_constant<int, 1>());
  case 2:
    return f(std::integral_constant<int, 2>());
  case 3:
    return f(std::integral_constant<int, 3>());
  default:
    return f(std::integral_constant<int, 4>());
  }
}

//===-- The three loops ----------------------------------------------------===//

int64_t scratchFloats(const ConvShape &s) {
  int64_t rows = s.c * K * rowFloats(s);
  int64_t split = (s.oh / 2) * int64_t(sizeof(WindowRows) / sizeof(float)) + kDirectLanes;
  return (rows > split + rowFloats(s) ? rows : split + rowFloats(s));
}

void forward(const DirectConv &d, float *y, float *scratch, int64_t first, int64_t count) {
  withChannels(d.s, [&](auto c) { forwardImages<c()>(d, y, scratch, first, count); });
}

void forwardMaxPool(const DirectConv &d, float *pooled, uint8_t *codes, float *scratch,
                    int64_t first, int64_t count) {
  withChannels(d.s, [&](auto c) {
    forwardMaxPoolImages<c()>(d, pooled, codes, scratch, first, count);
  });
}

/// The nine sums of output channel \p o and the t-th channel of the order
/// over the split rows \p rows of one vector of pooled columns.
template <bool Masked>
void weightSums(const DirectConv &d, const WindowRows *rows, const float *pooledGrad,
                const uint8_t *codes, int64_t n, int64_t o, int64_t t, int64_t pw0,
                int64_t lanes, __m256 sum[K][K]) {
  const ConvShape &s = d.s;
  int64_t ph = s.oh / 2, pw = s.ow / 2;
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < K; ++j)
      sum[i][j] = _mm256_setzero_ps();
  for (int64_t row = 0; row < ph; ++row) {
    const WindowRows &w = rows[row];
    int64_t at = ((n * s.o + o) * ph + row) * pw + pw0;
    __m256 g = loadLanes(pooledGrad + at, lanes);
    __m256i element = loadCodes(codes + at, lanes);
    for (int q = 0; q < 4; ++q) {
      __m256 gq = _mm256_and_ps(
          _mm256_castsi256_ps(_mm256_cmpeq_epi32(element, _mm256_set1_epi32(q))), g);
      for (int i = 0; i < K; ++i)
        for (int j = 0; j < K; ++j)
          sum[i][j] = tapFma<Masked>(gq, w.split[t][(q >> 1) + i][(q & 1) + j], sum[i][j],
                                     w.mask[q][i][j]);
    }
  }
}

void weightsFromMaxPool(const DirectConv &d, const float *pooledGrad, const uint8_t *codes,
                        float *sums, float *scratch, int64_t first, int64_t count) {
  const ConvShape &s = d.s;
  int64_t ph = s.oh / 2, pw = s.ow / 2;
  // The split rows of every row of windows, after the one scratch row (at
  // the next 64-byte boundary).
  uintptr_t after = reinterpret_cast<uintptr_t>(scratch + rowFloats(s));
  WindowRows *rows = reinterpret_cast<WindowRows *>((after + 63) & ~uintptr_t(63));
  int64_t image = s.c * s.h * s.w, pooledImage = s.o * ph * pw;
  bool masked = !allFinite(d.x + first * image, count * image) ||
                !allFinite(pooledGrad + first * pooledImage, count * pooledImage);
  for (int64_t n = first; n < first + count; ++n)
    for (int64_t pw0 = 0; pw0 < pw; pw0 += kLanes) {
      int64_t lanes = lanesAt(pw0, pw);
      for (int64_t row = 0; row < ph; ++row)
        splitWindowRows(d, n, row, pw0, lanes, scratch, rows[row]);
      for (int64_t o = 0; o < s.o; ++o)
        for (int64_t t = 0; t < s.c; ++t) {
          __m256 sum[K][K];
          if (masked)
            weightSums<true>(d, rows, pooledGrad, codes, n, o, t, pw0, lanes, sum);
          else
            weightSums<false>(d, rows, pooledGrad, codes, n, o, t, pw0, lanes, sum);
          float *into = sums + (o * s.c + d.channelOrder[t]) * K * K * kDirectLanes +
                        pw0 % kDirectLanes;
          for (int i = 0; i < K; ++i)
            for (int j = 0; j < K; ++j) {
              float *lanesOf = into + (i * K + j) * kDirectLanes;
              _mm256_storeu_ps(lanesOf, _mm256_add_ps(_mm256_loadu_ps(lanesOf), sum[i][j]));
            }
        }
    }
}

} // namespace

const DirectLoops kDirectLoopsAvx2 = {"avx2", scratchFloats, forward, forwardMaxPool,
                                      weightsFromMaxPool};

} // namespace modelrt
