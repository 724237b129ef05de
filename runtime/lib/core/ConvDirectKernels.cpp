//===- ConvDirectKernels.cpp - The direct convolution loops (AVX-512) -----===//
//
// Implements kDirectLoopsAvx512 (ConvDirectKernels.h), compiled with
// AVX-512 (runtime/CMakeLists.txt) and called only on hosts of that level
// (ConvDirectKernelsAvx2.cpp holds the same loops for AVX2). Each loop copies
// the input rows it reads into scratch rows with zeros around them, so that
// every vector load stays inside memory of its own.
//   - Forwards, a vector holds 16 consecutive output columns of one row:
//     tap (c, i, j) reads input row i of the window from column j on, and
//     eight output channels are eight chains of fused multiply-adds.
//   - With the 2x2 pooling, a vector holds 16 pooled columns: each input
//     row is split into its columns 2 pw + s (s = 0..3) once per row of
//     windows, the four window elements of two output channels are eight
//     chains of multiply-adds over those vectors, and the four are
//     combined as the pooling functions combine a window (pick2x2).
//   - The weights' gradient splits the rows of every row of windows of an
//     image once; then, per output channel and input channel, nine sums in
//     registers take the pooled gradient of each window, kept in the lanes
//     of the element its code names and zero in the others, times the
//     split rows.
// A tap whose input element lies in the padding is masked off (the sum is
// left as it is), so a non-finite operand there changes nothing, as when
// the tap is skipped. A group of channels past O computes on the last
// channel and stores nothing. No floating-point contraction beyond the
// explicit fused multiply-adds; nothing inline from the C++ library.
//
//===----------------------------------------------------------------------===//
#include "ConvDirectKernels.h"

#include <immintrin.h>
#include <type_traits>

namespace modelrt {
namespace {

constexpr int K = int(kDirectKernel);

/// Floats before column 0 of a scratch row (at least the padding), and the
/// floats of a row past column W - 1 that vector loads may read.
constexpr int64_t kRowLead = 16, kRowTail = 48;

int64_t rowFloats(const ConvShape &s) { return kRowLead + s.w + kRowTail; }

__mmask16 firstLanes(int64_t n) { return __mmask16((1u << n) - 1u); }

int64_t lanesAt(int64_t at, int64_t size) {
  return size - at < kDirectLanes ? size - at : kDirectLanes;
}

/// Copies input row \p iy of channel \p c of image \p n into \p row (from
/// row[kRowLead]), zeros around it; all zeros when the row is padding.
void copyRow(const DirectConv &d, int64_t n, int64_t c, int64_t iy, float *row) {
  const ConvShape &s = d.s;
  int64_t size = rowFloats(s);
  for (int64_t k = 0; k < size; k += kDirectLanes)
    _mm512_mask_storeu_ps(row + k, firstLanes(lanesAt(k, size)), _mm512_setzero_ps());
  if (iy < 0 || iy >= s.h)
    return;
  const float *in = d.x + ((n * s.c + c) * s.h + iy) * s.w;
  for (int64_t k = 0; k < s.w; k += kDirectLanes) {
    __mmask16 m = firstLanes(lanesAt(k, s.w));
    _mm512_mask_storeu_ps(row + kRowLead + k, m, _mm512_maskz_loadu_ps(m, in + k));
  }
}

/// The lanes l < \p lanes whose input column first + step * l + offset
/// lies in [0, W).
__mmask16 insideColumns(const ConvShape &s, int64_t first, int64_t step, int64_t offset,
                        int64_t lanes) {
  unsigned m = 0;
  for (int64_t l = 0; l < lanes; ++l) {
    int64_t col = first + step * l + offset;
    if (col >= 0 && col < s.w)
      m |= 1u << l;
  }
  return __mmask16(m);
}

bool insideRows(const ConvShape &s, int64_t iy) { return iy >= 0 && iy < s.h; }

/// A 2x2 window's maximum and code (0..3) from its elements in row-major
/// order, as Pool.h's max pooling scans it: v is taken over m when v > m
/// or v is NaN.
__mmask16 taken(__m512 m, __m512 v) {
  return __mmask16(_mm512_cmp_ps_mask(v, m, _CMP_GT_OQ) |
                   _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q));
}

void pick2x2(const __m512 y[4], __m512 &max, __m512i &code) {
  __mmask16 t1 = taken(y[0], y[1]), t2 = taken(y[2], y[3]);
  __m512 top = _mm512_mask_blend_ps(t1, y[0], y[1]);
  __m512 bottom = _mm512_mask_blend_ps(t2, y[2], y[3]);
  __mmask16 t3 = taken(top, bottom);
  max = _mm512_mask_blend_ps(t3, top, bottom);
  __m512i topCode = _mm512_mask_blend_epi32(t1, _mm512_set1_epi32(0), _mm512_set1_epi32(1));
  __m512i bottomCode = _mm512_mask_blend_epi32(t2, _mm512_set1_epi32(2), _mm512_set1_epi32(3));
  code = _mm512_mask_blend_epi32(t3, topCode, bottomCode);
}

//===-- A row of 2x2 windows -----------------------------------------------===//

/// The input of one row of windows and one vector of pooled columns.
struct WindowRows {
  /// split[c][r][k]: input row 2 ph - padH + r of channel c, its columns
  /// 2 pw + k - padW for the vector's pooled columns pw.
  __m512 split[kDirectMaxChannels][K + 1][K + 1];
  /// mask[q][i][j]: the lanes where tap (i, j) of window element q =
  /// (dy, dx) reads inside the image.
  __mmask16 mask[4][K][K];
};

/// Splits the rows of windows \p ph of image \p n for the pooled columns
/// from \p pw0 (\p lanes of them) into \p w.
void splitWindowRows(const DirectConv &d, int64_t n, int64_t ph, int64_t pw0, int64_t lanes,
                     float *row, WindowRows &w) {
  const ConvShape &s = d.s;
  const __m512i even =
      _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  int64_t top = 2 * ph - s.padH;
  for (int64_t t = 0; t < s.c; ++t)
    for (int r = 0; r <= K; ++r) {
      copyRow(d, n, d.channelOrder[t], top + r, row);
      for (int k = 0; k <= K; ++k) {
        const float *from = row + kRowLead + 2 * pw0 + k - s.padW;
        w.split[t][r][k] = _mm512_permutex2var_ps(_mm512_loadu_ps(from), even,
                                                  _mm512_loadu_ps(from + kDirectLanes));
      }
    }
  __mmask16 inside[K + 1];
  for (int k = 0; k <= K; ++k)
    inside[k] = insideColumns(s, 2 * pw0, 2, k - s.padW, lanes);
  for (int q = 0; q < 4; ++q)
    for (int i = 0; i < K; ++i)
      for (int j = 0; j < K; ++j)
        w.mask[q][i][j] = insideRows(s, top + (q >> 1) + i) ? inside[(q & 1) + j] : 0;
}

/// The four window elements of output channels \p o0 and \p o1 (y[0..3]
/// and y[4..7]) over the split rows of \p C channels: +0, each tap, then
/// the bias.
template <int C>
void windowElements(const DirectConv &d, const WindowRows &w, int64_t o0, int64_t o1,
                    __m512 y[8]) {
  const float *w0 = d.taps + o0 * K * K * C, *w1 = d.taps + o1 * K * K * C;
  for (int k = 0; k < 8; ++k)
    y[k] = _mm512_setzero_ps();
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < K; ++j)
      for (int t = 0; t < C; ++t) {
        __m512 a = _mm512_set1_ps(w0[(i * K + j) * C + t]);
        __m512 b = _mm512_set1_ps(w1[(i * K + j) * C + t]);
        for (int q = 0; q < 4; ++q) {
          __m512 x = w.split[t][(q >> 1) + i][(q & 1) + j];
          y[q] = _mm512_mask3_fmadd_ps(a, x, y[q], w.mask[q][i][j]);
          y[4 + q] = _mm512_mask3_fmadd_ps(b, x, y[4 + q], w.mask[q][i][j]);
        }
      }
  if (d.bias)
    for (int q = 0; q < 4; ++q) {
      y[q] = _mm512_add_ps(y[q], _mm512_set1_ps(d.bias[o0]));
      y[4 + q] = _mm512_add_ps(y[4 + q], _mm512_set1_ps(d.bias[o1]));
    }
}

/// Pools one output channel's four window elements into pooled (and codes).
void storeWindows(const __m512 y[4], int64_t lanes, float *pooled, uint8_t *codes) {
  __m512 max;
  __m512i code;
  pick2x2(y, max, code);
  _mm512_mask_storeu_ps(pooled, firstLanes(lanes), max);
  if (codes)
    _mm512_mask_cvtepi32_storeu_epi8(codes, firstLanes(lanes), code);
}

//===-- One row of outputs -------------------------------------------------===//

/// Eight output channels from \p o0 (the last repeated past O) of the
/// output columns from \p ox0 (\p lanes of them) of one output row, whose
/// input rows (the t-th channel of the order, kernel row i) are
/// rows[t * K + i], \p C channels.
template <int C>
void outputRow(const DirectConv &d, const float *const *rows, const __mmask16 mask[K][K],
               int64_t ox0, int64_t o0, float *y, int64_t lanes) {
  const ConvShape &s = d.s;
  const float *weights[8];
  for (int k = 0; k < 8; ++k)
    weights[k] = d.taps + (o0 + k < s.o ? o0 + k : s.o - 1) * K * K * C;
  __m512 sum[8];
  for (int k = 0; k < 8; ++k)
    sum[k] = _mm512_setzero_ps();
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < K; ++j)
      for (int t = 0; t < C; ++t) {
        __m512 x = _mm512_loadu_ps(rows[t * K + i] + kRowLead + ox0 + j - s.padW);
        for (int k = 0; k < 8; ++k)
          sum[k] = _mm512_mask3_fmadd_ps(_mm512_set1_ps(weights[k][(i * K + j) * C + t]), x,
                                         sum[k], mask[i][j]);
      }
  for (int k = 0; k < 8 && o0 + k < s.o; ++k) {
    __m512 v = d.bias ? _mm512_add_ps(sum[k], _mm512_set1_ps(d.bias[o0 + k])) : sum[k];
    _mm512_mask_storeu_ps(y + (o0 + k) * s.oh * s.ow, firstLanes(lanes), v);
  }
}

/// directForwardImages for \p C channels.
template <int C>
void forwardImages(const DirectConv &d, float *y, float *scratch, int64_t first,
                   int64_t count) {
  const ConvShape &s = d.s;
  const float *rows[C * K];
  for (int64_t n = first; n < first + count; ++n)
    for (int64_t oy = 0; oy < s.oh; ++oy) {
      for (int t = 0; t < C; ++t)
        for (int i = 0; i < K; ++i) {
          float *row = scratch + (t * K + i) * rowFloats(s);
          copyRow(d, n, d.channelOrder[t], oy - s.padH + i, row);
          rows[t * K + i] = row;
        }
      for (int64_t ox0 = 0; ox0 < s.ow; ox0 += kDirectLanes) {
        int64_t lanes = lanesAt(ox0, s.ow);
        __mmask16 mask[K][K];
        for (int i = 0; i < K; ++i)
          for (int j = 0; j < K; ++j)
            mask[i][j] = insideRows(s, oy - s.padH + i)
                             ? insideColumns(s, ox0, 1, j - s.padW, lanes)
                             : __mmask16(0);
        float *out = y + n * s.o * s.oh * s.ow + oy * s.ow + ox0;
        for (int64_t o0 = 0; o0 < s.o; o0 += 8)
          outputRow<C>(d, rows, mask, ox0, o0, out, lanes);
      }
    }
}

/// directForwardMaxPoolImages for \p C channels.
template <int C>
void forwardMaxPoolImages(const DirectConv &d, float *pooled, uint8_t *codes, float *scratch,
                          int64_t first, int64_t count) {
  const ConvShape &s = d.s;
  int64_t ph = s.oh / 2, pw = s.ow / 2;
  WindowRows w;
  for (int64_t n = first; n < first + count; ++n)
    for (int64_t pw0 = 0; pw0 < pw; pw0 += kDirectLanes) {
      int64_t lanes = lanesAt(pw0, pw);
      for (int64_t row = 0; row < ph; ++row) {
        splitWindowRows(d, n, row, pw0, lanes, scratch, w);
        for (int64_t o0 = 0; o0 < s.o; o0 += 2) {
          int64_t o1 = o0 + 1 < s.o ? o0 + 1 : o0;
          __m512 y[8];
          windowElements<C>(d, w, o0, o1, y);
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

int64_t scratchFloats(const ConvShape &s) {
  int64_t rows = s.c * K * rowFloats(s);
  int64_t split = (s.oh / 2) * int64_t(sizeof(WindowRows) / sizeof(float)) + kDirectLanes;
  return (rows > split + rowFloats(s) ? rows : split + rowFloats(s));
}

//===-- The three loops ----------------------------------------------------===//

void forward(const DirectConv &d, float *y, float *scratch, int64_t first, int64_t count) {
  withChannels(d.s, [&](auto c) { forwardImages<c()>(d, y, scratch, first, count); });
}

void forwardMaxPool(const DirectConv &d, float *pooled, uint8_t *codes, float *scratch,
                    int64_t first, int64_t count) {
  withChannels(d.s, [&](auto c) {
    forwardMaxPoolImages<c()>(d, pooled, codes, scratch, first, count);
  });
}

void weightsFromMaxPool(const DirectConv &d, const float *pooledGrad, const uint8_t *codes,
                        float *sums, float *scratch, int64_t first, int64_t count) {
  const ConvShape &s = d.s;
  int64_t ph = s.oh / 2, pw = s.ow / 2;
  // The split rows of every row of windows, after the one scratch row (at
  // the next 64-byte boundary).
  uintptr_t after = reinterpret_cast<uintptr_t>(scratch + rowFloats(s));
  WindowRows *rows = reinterpret_cast<WindowRows *>((after + 63) & ~uintptr_t(63));
  for (int64_t n = first; n < first + count; ++n)
    for (int64_t pw0 = 0; pw0 < pw; pw0 += kDirectLanes) {
      int64_t lanes = lanesAt(pw0, pw);
      for (int64_t row = 0; row < ph; ++row)
        splitWindowRows(d, n, row, pw0, lanes, scratch, rows[row]);
      for (int64_t o = 0; o < s.o; ++o)
        for (int64_t c = 0; c < s.c; ++c) {
          __m512 sum[K][K];
          for (int i = 0; i < K; ++i)
            for (int j = 0; j < K; ++j)
              sum[i][j] = _mm512_setzero_ps();
          for (int64_t row = 0; row < ph; ++row) {
            const WindowRows &w = rows[row];
            int64_t at = ((n * s.o + o) * ph + row) * pw + pw0;
            __m512 g = _mm512_maskz_loadu_ps(firstLanes(lanes), pooledGrad + at);
            __m512i element =
                _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(firstLanes(lanes), codes + at));
            for (int q = 0; q < 4; ++q) {
              __m512 gq = _mm512_maskz_mov_ps(
                  _mm512_cmpeq_epi32_mask(element, _mm512_set1_epi32(q)), g);
              for (int i = 0; i < K; ++i)
                for (int j = 0; j < K; ++j)
                  sum[i][j] = _mm512_mask3_fmadd_ps(gq, w.split[c][(q >> 1) + i][(q & 1) + j],
                                                    sum[i][j], w.mask[q][i][j]);
            }
          }
          float *into = sums + (o * s.c + d.channelOrder[c]) * K * K * kDirectLanes;
          for (int i = 0; i < K; ++i)
            for (int j = 0; j < K; ++j) {
              float *lanesOf = into + (i * K + j) * kDirectLanes;
              _mm512_storeu_ps(lanesOf, _mm512_add_ps(_mm512_loadu_ps(lanesOf), sum[i][j]));
            }
        }
    }
}

} // namespace

const DirectLoops kDirectLoopsAvx512 = {"avx512", scratchFloats, forward, forwardMaxPool,
                                        weightsFromMaxPool};

} // namespace modelrt
