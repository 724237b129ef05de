//===- PoolKernels.cpp - One build of the pooling loops -------------------===//
//
// Compiled once per x86 level (runtime/CMakeLists.txt defines
// MODELRT_POOL_PLANES_NAME and the -m flags of each build), with the
// vectors of PoolSimd.h. Each call takes one of five paths, the same for
// every plane:
//   - 2x2 windows, stride 2, no padding (max_pool(2)): per output row, the
//     two input rows are loaded whole, split into even and odd columns, and
//     combined lane by lane; the gradient is written back zipped;
//   - the same over narrow planes (even H and W, OW <= half a vector): the
//     planes as one tall image, several rows of windows in each vector;
//   - 3x3 windows, stride 2, padding 1 (ResNet): per input row, its even
//     columns, its odd ones and the odd ones shifted by one lane are each a
//     column of the windows; the gradient is gathered per input row from
//     the one or two rows of windows that contain it;
//   - other windows that tile the plane (kernel = stride, no padding): loops
//     over each row of windows, with no sums in the gradient;
//   - anything else: loops per window, the gradient scattered into zeros.
// Rows and columns of the input outside every window get a zero gradient.
// Max pooling with codes (a byte per window naming its maximum's place)
// takes the two 2x2 paths, and the general loops for any other window.
// 2x2 / 2 max pooling (with or without codes) also reads oneDNN's
// 16-channel blocks (nChw16c) of a convolution's result: each window's four
// pixels are vectors of channels, and a row of windows is transposed into
// the NCHW planes of y through a tile. Its gradient from codes also writes
// a convolution's dy in those blocks: a row of windows of dy and codes is
// transposed into a tile of channel vectors, then each window's pixels
// written as the NCHW path writes them.
//
// Max pooling scans each window's real elements in row-major order and
// takes v when v > m or v is NaN. That step is associative on contiguous
// pieces of the scan (the result is the last NaN, else the first maximum),
// so the vector paths scan each row of a window, then combine the rows in
// order; starting from -inf, or treating padding as -inf, gives the same
// value, and the arg-max starts at the window's first real element. Every
// path and build therefore picks the same element.
//
// Sums keep one order in every path and build: a window's sum is +0 plus
// its real elements in row-major order, then divided by KH*KW (padding adds
// +0, which changes nothing: the sum is never -0); an input element's
// gradient is +0 plus each window's share (dy, or dy / (KH*KW)) in the
// windows' row-major order. No contraction (-ffp-contract=off).
//
// The file calls nothing inline from the C++ library: its definitions would
// be emitted in each build, and the linker would keep one of them.
//
//===----------------------------------------------------------------------===//
#include "PoolKernels.h"
#include "PoolSimd.h"

#ifndef MODELRT_POOL_PLANES_NAME
#error "MODELRT_POOL_PLANES_NAME names this build's function"
#endif

namespace modelrt {
namespace {

constexpr float kNegInf = -__builtin_inff();

/// The most output columns whose state the fast paths keep (on the stack);
/// wider outputs take the general path.
constexpr int64_t kMaxColumns = 1024;

/// The real positions [begin, end) of a window of \p size from \p start in
/// [0, \p limit).
struct Span {
  int64_t begin, end;
};
Span clip(int64_t start, int64_t size, int64_t limit) {
  int64_t begin = start < 0 ? 0 : start, end = start + size < limit ? start + size : limit;
  return {begin, end > begin ? end : begin};
}

/// The scan's step: whether \p v replaces the maximum \p m so far.
inline bool takes(float m, float v) { return v > m || v != v; }

/// p[0..n) = +0.
void zeros(float *p, int64_t n) {
  for (int64_t i = 0; i < n; i += kLanes)
    storePart(p + i, splat(0.0f), int(n - i < kLanes ? n - i : kLanes));
}

/// The lanes of the vector starting at \p at before \p end.
inline int lanesAt(int64_t at, int64_t end) { return end - at < kLanes ? int(end - at) : kLanes; }

/// One plane: \p a is x or dy, \p b is x for the max gradient, \p out is y
/// or dx (PoolPlanesFn).
using PlaneFn = void (*)(const PoolShape &s, const float *a, const float *b, float *out);

//===-- The general path --------------------------------------------------===//

/// y = each window's maximum, by the scan from -inf.
void maxForwardGeneral(const PoolShape &s, const float *x, const float *, float *y) {
  for (int64_t oh = 0; oh < s.oh; ++oh) {
    Span rows = clip(oh * s.strideH - s.padH, s.kh, s.h);
    for (int64_t ow = 0; ow < s.ow; ++ow) {
      Span cols = clip(ow * s.strideW - s.padW, s.kw, s.w);
      float m = kNegInf;
      for (int64_t r = rows.begin; r < rows.end; ++r)
        for (int64_t c = cols.begin; c < cols.end; ++c)
          m = takes(m, x[r * s.w + c]) ? x[r * s.w + c] : m;
      y[oh * s.ow + ow] = m;
    }
  }
}

/// The position in the plane of the maximum of the (non-empty) window.
int64_t argMax(const PoolShape &s, const float *x, Span rows, Span cols) {
  float m = kNegInf;
  int64_t at = rows.begin * s.w + cols.begin;
  for (int64_t r = rows.begin; r < rows.end; ++r)
    for (int64_t c = cols.begin; c < cols.end; ++c)
      if (takes(m, x[r * s.w + c])) {
        m = x[r * s.w + c];
        at = r * s.w + c;
      }
  return at;
}

/// dx = zeros, then dy of each window added at its arg-max, in order.
void maxBackwardGeneral(const PoolShape &s, const float *dy, const float *x, float *dx) {
  zeros(dx, s.h * s.w);
  for (int64_t oh = 0; oh < s.oh; ++oh) {
    Span rows = clip(oh * s.strideH - s.padH, s.kh, s.h);
    for (int64_t ow = 0; ow < s.ow; ++ow) {
      Span cols = clip(ow * s.strideW - s.padW, s.kw, s.w);
      if (rows.begin < rows.end && cols.begin < cols.end)
        dx[argMax(s, x, rows, cols)] += dy[oh * s.ow + ow];
    }
  }
}

/// y = +0 plus the window's real elements in row-major order, / KH*KW.
void avgForwardGeneral(const PoolShape &s, const float *x, const float *, float *y) {
  float area = float(s.kh * s.kw);
  for (int64_t oh = 0; oh < s.oh; ++oh) {
    Span rows = clip(oh * s.strideH - s.padH, s.kh, s.h);
    for (int64_t ow = 0; ow < s.ow; ++ow) {
      Span cols = clip(ow * s.strideW - s.padW, s.kw, s.w);
      float sum = 0.0f;
      for (int64_t r = rows.begin; r < rows.end; ++r)
        for (int64_t c = cols.begin; c < cols.end; ++c)
          sum += x[r * s.w + c];
      y[oh * s.ow + ow] = sum / area;
    }
  }
}

/// dx = zeros, then each window's dy / (KH*KW) added to its real
/// elements, window after window.
void avgBackwardGeneral(const PoolShape &s, const float *dy, const float *, float *dx) {
  float area = float(s.kh * s.kw);
  zeros(dx, s.h * s.w);
  for (int64_t oh = 0; oh < s.oh; ++oh) {
    Span rows = clip(oh * s.strideH - s.padH, s.kh, s.h);
    for (int64_t ow = 0; ow < s.ow; ++ow) {
      Span cols = clip(ow * s.strideW - s.padW, s.kw, s.w);
      float share = dy[oh * s.ow + ow] / area;
      for (int64_t r = rows.begin; r < rows.end; ++r)
        for (int64_t c = cols.begin; c < cols.end; ++c)
          dx[r * s.w + c] += share;
    }
  }
}

//===-- Windows that tile the plane ---------------------------------------===//
// Window (oh, ow) holds rows oh*KH + i and columns ow*KW + j; rows from
// OH*KH and columns from OW*KW on are in no window. KW is a template
// argument for the usual widths (1 to 4: strides GCC vectorises), 0 for any
// other, read from the shape.

/// y = each window's maximum: its first element, then the scan.
template <int KW>
void maxForwardTiled(const PoolShape &s, const float *x, const float *, float *y) {
  const int64_t kw = KW ? KW : s.kw;
  for (int64_t oh = 0; oh < s.oh; ++oh) {
    const float *__restrict top = x + oh * s.kh * s.w;
    float *__restrict out = y + oh * s.ow;
    for (int64_t ow = 0; ow < s.ow; ++ow)
      out[ow] = top[ow * kw];
    for (int64_t i = 0; i < s.kh; ++i)
      for (int64_t j = i ? 0 : 1; j < kw; ++j) {
        const float *__restrict in = top + i * s.w + j;
        for (int64_t ow = 0; ow < s.ow; ++ow)
          out[ow] = takes(out[ow], in[ow * kw]) ? in[ow * kw] : out[ow];
      }
  }
}

/// where[ow] = i*KW + j of the maximum of window (oh, ow), whose top row is
/// \p top; \p best is scratch.
template <int KW>
void tiledArgMax(const PoolShape &s, const float *__restrict top, float *__restrict best,
                 float *__restrict where) {
  const int64_t kw = KW ? KW : s.kw;
  for (int64_t ow = 0; ow < s.ow; ++ow) {
    best[ow] = top[ow * kw];
    where[ow] = 0.0f;
  }
  for (int64_t i = 0; i < s.kh; ++i)
    for (int64_t j = i ? 0 : 1; j < kw; ++j) {
      const float *__restrict in = top + i * s.w + j;
      float code = float(i * kw + j);
      for (int64_t ow = 0; ow < s.ow; ++ow) {
        bool take = takes(best[ow], in[ow * kw]);
        best[ow] = take ? in[ow * kw] : best[ow];
        where[ow] = take ? code : where[ow];
      }
    }
}

/// Writes the KH rows of dx under one row of windows: dy + 0 at each
/// window's arg-max (where, as tiledArgMax), zeros elsewhere.
template <int KW>
void tiledScatter(const PoolShape &s, const float *__restrict dyRow, const float *__restrict where,
                  float *__restrict dxTop) {
  const int64_t kw = KW ? KW : s.kw;
  for (int64_t i = 0; i < s.kh; ++i) {
    float *__restrict row = dxTop + i * s.w;
    for (int64_t j = 0; j < kw; ++j) {
      float code = float(i * kw + j);
      for (int64_t ow = 0; ow < s.ow; ++ow)
        row[ow * kw + j] = where[ow] == code ? dyRow[ow] + 0.0f : 0.0f;
    }
    zeros(row + s.ow * kw, s.w - s.ow * kw);
  }
}

/// dx: each row of windows' KH rows, then zeros below.
template <int KW>
void maxBackwardTiled(const PoolShape &s, const float *dy, const float *x, float *dx) {
  float best[kMaxColumns], where[kMaxColumns];
  for (int64_t oh = 0; oh < s.oh; ++oh) {
    tiledArgMax<KW>(s, x + oh * s.kh * s.w, best, where);
    tiledScatter<KW>(s, dy + oh * s.ow, where, dx + oh * s.kh * s.w);
  }
  zeros(dx + s.oh * s.kh * s.w, (s.h - s.oh * s.kh) * s.w);
}

/// y = +0 plus the window's elements in row-major order, / KH*KW.
template <int KW>
void avgForwardTiled(const PoolShape &s, const float *x, const float *, float *y) {
  const int64_t kw = KW ? KW : s.kw;
  float area = float(s.kh * kw);
  for (int64_t oh = 0; oh < s.oh; ++oh) {
    const float *__restrict top = x + oh * s.kh * s.w;
    float *__restrict out = y + oh * s.ow;
    zeros(out, s.ow);
    for (int64_t i = 0; i < s.kh; ++i)
      for (int64_t j = 0; j < kw; ++j)
        for (int64_t ow = 0; ow < s.ow; ++ow)
          out[ow] += top[i * s.w + j + ow * kw];
    for (int64_t ow = 0; ow < s.ow; ++ow)
      out[ow] /= area;
  }
}

/// dx = dy / (KH*KW) + 0 of the window holding the element, zeros
/// outside every window.
template <int KW>
void avgBackwardTiled(const PoolShape &s, const float *dy, const float *, float *dx) {
  const int64_t kw = KW ? KW : s.kw;
  float area = float(s.kh * kw);
  for (int64_t r = 0; r < s.oh * s.kh; ++r) {
    const float *__restrict dyRow = dy + r / s.kh * s.ow;
    float *__restrict row = dx + r * s.w;
    for (int64_t j = 0; j < kw; ++j)
      for (int64_t ow = 0; ow < s.ow; ++ow)
        row[ow * kw + j] = dyRow[ow] / area + 0.0f;
    zeros(row + s.ow * kw, s.w - s.ow * kw);
  }
  zeros(dx + s.oh * s.kh * s.w, (s.h - s.oh * s.kh) * s.w);
}

/// The tiling path's functions by kind (PoolKind's order) and width (0:
/// any, read from the shape).
constexpr PlaneFn kTiledFns[4][5] = {{maxForwardTiled<0>, maxForwardTiled<1>, maxForwardTiled<2>,
                                      maxForwardTiled<3>, maxForwardTiled<4>},
                                     {maxBackwardTiled<0>, maxBackwardTiled<1>, maxBackwardTiled<2>,
                                      maxBackwardTiled<3>, maxBackwardTiled<4>},
                                     {avgForwardTiled<0>, avgForwardTiled<1>, avgForwardTiled<2>,
                                      avgForwardTiled<3>, avgForwardTiled<4>},
                                     {avgBackwardTiled<0>, avgBackwardTiled<1>, avgBackwardTiled<2>,
                                      avgBackwardTiled<3>, avgBackwardTiled<4>}};

//===-- 2x2 windows, stride 2, no padding ---------------------------------===//
// Output row oh reads input rows a = 2oh and b = 2oh + 1; lane l of a chunk
// is window ow + l, whose elements are a's even and odd columns (ae, ao)
// and b's (be, bo) in that lane.

/// y = (ae then ao) then (be then bo): the scan's order.
void maxForward2x2(const PoolShape &s, const float *x, const float *, float *y) {
  for (int64_t oh = 0; oh < s.oh; ++oh) {
    const float *a = x + 2 * oh * s.w, *b = a + s.w;
    for (int64_t ow = 0; ow < s.ow; ow += kLanes) {
      int n = lanesAt(ow, s.ow);
      Vec ae, ao, be, bo;
      loadUnzipped(a + 2 * ow, 2 * n, ae, ao);
      loadUnzipped(b + 2 * ow, 2 * n, be, bo);
      storePart(y + oh * s.ow + ow, pickMax(pickMax(ae, ao), pickMax(be, bo)), n);
    }
  }
}

/// Zeros the input's last column and row when W or H is odd (in no window).
void zeroOutside2x2(const PoolShape &s, float *dx) {
  if (s.w > 2 * s.ow)
    for (int64_t r = 0; r < 2 * s.oh; ++r)
      dx[r * s.w + s.w - 1] = 0.0f;
  zeros(dx + 2 * s.oh * s.w, (s.h - 2 * s.oh) * s.w);
}

/// dx = dy + 0 where the scan picks, zeros elsewhere.
void maxBackward2x2(const PoolShape &s, const float *dy, const float *x, float *dx) {
  const Vec zero = splat(0.0f);
  for (int64_t oh = 0; oh < s.oh; ++oh) {
    const float *a = x + 2 * oh * s.w, *b = a + s.w;
    float *da = dx + 2 * oh * s.w, *db = da + s.w;
    for (int64_t ow = 0; ow < s.ow; ow += kLanes) {
      int n = lanesAt(ow, s.ow);
      Vec ae, ao, be, bo;
      loadUnzipped(a + 2 * ow, 2 * n, ae, ao);
      loadUnzipped(b + 2 * ow, 2 * n, be, bo);
      // t1: ao over ae; t2: bo over be; t3: row b's maximum over row a's.
      Mask t1 = taken(ae, ao), t2 = taken(be, bo);
      Mask t3 = taken(select(t1, ao, ae), select(t2, bo, be));
      Vec g = add(loadPart(dy + oh * s.ow + ow, n), zero);
      storeZipped(da + 2 * ow, keepUnless(maskOr(t3, t1), g), keep(maskAndNot(t1, t3), g), 2 * n);
      storeZipped(db + 2 * ow, keep(maskAndNot(t3, t2), g), keep(maskAnd(t3, t2), g), 2 * n);
    }
  }
  zeroOutside2x2(s, dx);
}

/// y = ((((+0 + ae) + ao) + be) + bo) / 4.
void avgForward2x2(const PoolShape &s, const float *x, const float *, float *y) {
  const Vec zero = splat(0.0f), area = splat(4.0f);
  for (int64_t oh = 0; oh < s.oh; ++oh) {
    const float *a = x + 2 * oh * s.w, *b = a + s.w;
    for (int64_t ow = 0; ow < s.ow; ow += kLanes) {
      int n = lanesAt(ow, s.ow);
      Vec ae, ao, be, bo;
      loadUnzipped(a + 2 * ow, 2 * n, ae, ao);
      loadUnzipped(b + 2 * ow, 2 * n, be, bo);
      Vec sum = add(add(add(add(zero, ae), ao), be), bo);
      storePart(y + oh * s.ow + ow, divide(sum, area), n);
    }
  }
}

/// dx = dy / 4 + 0 at the window's four elements.
void avgBackward2x2(const PoolShape &s, const float *dy, const float *, float *dx) {
  const Vec zero = splat(0.0f), area = splat(4.0f);
  for (int64_t oh = 0; oh < s.oh; ++oh) {
    float *da = dx + 2 * oh * s.w, *db = da + s.w;
    for (int64_t ow = 0; ow < s.ow; ow += kLanes) {
      int n = lanesAt(ow, s.ow);
      Vec g = add(divide(loadPart(dy + oh * s.ow + ow, n), area), zero);
      storeZipped(da + 2 * ow, g, g, 2 * n);
      storeZipped(db + 2 * ow, g, g, 2 * n);
    }
  }
  zeroOutside2x2(s, dx);
}

//===-- 2x2 windows over narrow planes: rows of windows packed ------------===//
// When W and H are even and a row of windows fills at most half a vector
// (OW <= kLanes / 2), the planes are one tall image (no window crosses a
// plane) and each vector holds R = kLanes / OW rows of windows: a block of
// 2R input rows (contiguous) is split into its even and odd columns, two
// vectors each, whose lanes are the block's pairs (pair t: input row
// t / OW, columns 2 (t % OW) and 2 (t % OW) + 1); one two-source permute
// then takes the top or the bottom pair of each window.

/// The permutes of the packed path: lane k = r OW + ow of a vector of
/// windows takes pair 2r OW + ow (top) and (2r + 1) OW + ow (bottom);
/// back[h] gives pairs h kLanes.. of the block from the (top, bottom)
/// vectors of windows.
struct Packing {
  int64_t rows;
  Lanes top, bottom, back[2];
};
Packing makePacking(int64_t ow) {
  int64_t rows = kLanes / ow;
  int32_t top[kLanes], bottom[kLanes], back[2 * kLanes];
  for (int64_t k = 0; k < kLanes; ++k) {
    bool used = k < rows * ow;
    top[k] = used ? int32_t(2 * (k / ow) * ow + k % ow) : 0;
    bottom[k] = used ? int32_t(top[k] + ow) : 0;
  }
  for (int64_t t = 0; t < 2 * kLanes; ++t) {
    int64_t k = t / ow / 2 * ow + t % ow;
    back[t] = t < 2 * rows * ow ? int32_t(t / ow % 2 ? kLanes + k : k) : 0;
  }
  return {rows, lanes(top), lanes(bottom), {lanes(back), lanes(back + kLanes)}};
}

/// The pairs of a block of \p count input floats (at most 4 kLanes): the
/// even and the odd columns, two vectors each.
struct Pairs {
  Vec even[2], odd[2];
};
Pairs loadPairs(const float *block, int count) {
  Pairs p;
  loadUnzipped(block, count < 2 * kLanes ? count : 2 * kLanes, p.even[0], p.odd[0]);
  p.even[1] = p.odd[1] = splat(0.0f);
  if (count > 2 * kLanes)
    loadUnzipped(block + 2 * kLanes, count - 2 * kLanes, p.even[1], p.odd[1]);
  return p;
}

/// Each window's four elements (ae, ao: top row; be, bo: bottom row), one
/// lane per window.
struct Quads {
  Vec ae, ao, be, bo;
};
Quads loadQuads(const Packing &pk, const float *block, int count) {
  Pairs p = loadPairs(block, count);
  return {permute2(p.even[0], p.even[1], pk.top), permute2(p.odd[0], p.odd[1], pk.top),
          permute2(p.even[0], p.even[1], pk.bottom), permute2(p.odd[0], p.odd[1], pk.bottom)};
}

/// Stores \p count floats of a block from each window's four gradients.
void storeQuads(const Packing &pk, const Quads &q, float *block, int count) {
  int first = count < 2 * kLanes ? count : 2 * kLanes;
  storeZipped(block, permute2(q.ae, q.be, pk.back[0]), permute2(q.ao, q.bo, pk.back[0]), first);
  if (count > 2 * kLanes)
    storeZipped(block + 2 * kLanes, permute2(q.ae, q.be, pk.back[1]),
                permute2(q.ao, q.bo, pk.back[1]), count - 2 * kLanes);
}

/// maxForward2x2, rows of windows packed.
void maxForwardPacked(const PoolShape &s, const float *x, const float *, float *y) {
  const Packing pk = makePacking(s.ow);
  for (int64_t oh = 0; oh < s.oh; oh += pk.rows) {
    int rows = int(s.oh - oh < pk.rows ? s.oh - oh : pk.rows);
    Pairs p = loadPairs(x + 2 * oh * s.w, int(2 * rows * s.w));
    // Each pair's maximum, then the top pair's over the bottom one's.
    Vec q0 = pickMax(p.even[0], p.odd[0]), q1 = pickMax(p.even[1], p.odd[1]);
    storePart(y + oh * s.ow, pickMax(permute2(q0, q1, pk.top), permute2(q0, q1, pk.bottom)),
              int(rows * s.ow));
  }
}

/// maxBackward2x2, rows of windows packed.
void maxBackwardPacked(const PoolShape &s, const float *dy, const float *x, float *dx) {
  const Packing pk = makePacking(s.ow);
  for (int64_t oh = 0; oh < s.oh; oh += pk.rows) {
    int rows = int(s.oh - oh < pk.rows ? s.oh - oh : pk.rows);
    Quads q = loadQuads(pk, x + 2 * oh * s.w, int(2 * rows * s.w));
    Mask t1 = taken(q.ae, q.ao), t2 = taken(q.be, q.bo); // as maxBackward2x2
    Mask t3 = taken(select(t1, q.ao, q.ae), select(t2, q.bo, q.be));
    Vec g = add(loadPart(dy + oh * s.ow, int(rows * s.ow)), splat(0.0f));
    Quads grad = {keepUnless(maskOr(t3, t1), g), keep(maskAndNot(t1, t3), g),
                  keep(maskAndNot(t3, t2), g), keep(maskAnd(t3, t2), g)};
    storeQuads(pk, grad, dx + 2 * oh * s.w, int(2 * rows * s.w));
  }
}

/// avgForward2x2, rows of windows packed.
void avgForwardPacked(const PoolShape &s, const float *x, const float *, float *y) {
  const Packing pk = makePacking(s.ow);
  for (int64_t oh = 0; oh < s.oh; oh += pk.rows) {
    int rows = int(s.oh - oh < pk.rows ? s.oh - oh : pk.rows);
    Quads q = loadQuads(pk, x + 2 * oh * s.w, int(2 * rows * s.w));
    Vec sum = add(add(add(add(splat(0.0f), q.ae), q.ao), q.be), q.bo);
    storePart(y + oh * s.ow, divide(sum, splat(4.0f)), int(rows * s.ow));
  }
}

/// avgBackward2x2, rows of windows packed.
void avgBackwardPacked(const PoolShape &s, const float *dy, const float *, float *dx) {
  const Packing pk = makePacking(s.ow);
  for (int64_t oh = 0; oh < s.oh; oh += pk.rows) {
    int rows = int(s.oh - oh < pk.rows ? s.oh - oh : pk.rows);
    Vec g = add(divide(loadPart(dy + oh * s.ow, int(rows * s.ow)), splat(4.0f)), splat(0.0f));
    storeQuads(pk, {g, g, g, g}, dx + 2 * oh * s.w, int(2 * rows * s.w));
  }
}

//===-- 3x3 windows, stride 2, padding 1 ----------------------------------===//
// Window (oh, ow) holds rows 2oh - 1 + i and columns 2ow - 1 + j; W is
// 2 OW or 2 OW - 1 (then column 2 OW - 1 is padding), H likewise.

/// Columns 2ow - 1 (left), 2ow (mid) and 2ow + 1 (right) of one input row
/// for the \p n windows from \p ow, \p pad where the column is padding.
struct Columns {
  Vec left, mid, right;
};
Columns loadColumns(const float *row, int64_t w, int64_t ow, int n, float pad) {
  int count = w - 2 * ow < 2 * n ? int(w - 2 * ow) : 2 * n;
  Columns c;
  loadUnzipped(row + 2 * ow, count, c.mid, c.right);
  if (count < 2 * n)
    c.right = select(firstLanes(count / 2), c.right, splat(pad));
  c.left = shiftIn(c.right, ow == 0 ? pad : row[2 * ow - 1]);
  return c;
}

/// y = the scan of each real row of the window (left, mid, right), the
/// rows' maxima combined in order.
void maxForward3x3s2(const PoolShape &s, const float *x, const float *, float *y) {
  for (int64_t oh = 0; oh < s.oh; ++oh) {
    Span rows = clip(2 * oh - 1, 3, s.h);
    for (int64_t ow = 0; ow < s.ow; ow += kLanes) {
      int n = lanesAt(ow, s.ow);
      Vec m = splat(kNegInf);
      for (int64_t r = rows.begin; r < rows.end; ++r) {
        Columns c = loadColumns(x + r * s.w, s.w, ow, n, kNegInf);
        m = pickMax(m, pickMax(pickMax(c.left, c.mid), c.right));
      }
      storePart(y + oh * s.ow + ow, m, n);
    }
  }
}

/// y = +0 plus left, mid and right of each real row, in order, / 9.
void avgForward3x3s2(const PoolShape &s, const float *x, const float *, float *y) {
  const Vec area = splat(9.0f);
  for (int64_t oh = 0; oh < s.oh; ++oh) {
    Span rows = clip(2 * oh - 1, 3, s.h);
    for (int64_t ow = 0; ow < s.ow; ow += kLanes) {
      int n = lanesAt(ow, s.ow);
      Vec sum = splat(0.0f);
      for (int64_t r = rows.begin; r < rows.end; ++r) {
        Columns c = loadColumns(x + r * s.w, s.w, ow, n, 0.0f);
        sum = add(add(add(sum, c.left), c.mid), c.right);
      }
      storePart(y + oh * s.ow + ow, divide(sum, area), n);
    }
  }
}

/// One row of windows for the gradient: each window's arg-max as 3i + j
/// (max pooling) and its share of the gradient (dy, or dy / 9), with one
/// entry past the last window (code -1, share 0) for the odd columns.
struct WindowRow {
  float code[kMaxColumns + 1], share[kMaxColumns + 1];
};

/// The codes of the n windows from \p ow of output row \p oh.
Vec argMaxCodes(const PoolShape &s, const float *x, int64_t oh, int64_t ow, int n) {
  Span rows = clip(2 * oh - 1, 3, s.h);
  Vec m = splat(kNegInf), code = splat(0.0f);
  for (int64_t r = rows.begin; r < rows.end; ++r) {
    Columns c = loadColumns(x + r * s.w, s.w, ow, n, kNegInf);
    // The row's scan starts at its first real column: 1 for window 0.
    Vec h = c.left, j = shiftIn(splat(0.0f), ow == 0 ? 1.0f : 0.0f);
    Mask t = taken(h, c.mid);
    h = select(t, c.mid, h);
    j = select(t, splat(1.0f), j);
    t = taken(h, c.right);
    h = select(t, c.right, h);
    j = select(t, splat(2.0f), j);
    Vec rowCode = add(j, splat(float(3 * (r - (2 * oh - 1)))));
    t = r == rows.begin ? firstLanes(kLanes) : taken(m, h);
    m = select(t, h, m);
    code = select(t, rowCode, code);
  }
  return code;
}

/// Fills \p row for output row \p oh.
template <bool Max>
void fillWindowRow(const PoolShape &s, const float *x, const float *dyRow, int64_t oh,
                   WindowRow &row) {
  for (int64_t ow = 0; ow < s.ow; ow += kLanes) {
    int n = lanesAt(ow, s.ow);
    Vec g = loadPart(dyRow + ow, n);
    storePart(row.share + ow, Max ? g : divide(g, splat(9.0f)), n);
    if (Max)
      storePart(row.code + ow, argMaxCodes(s, x, oh, ow, n), n);
  }
  row.code[s.ow] = -1.0f;
  row.share[s.ow] = 0.0f;
}

/// A row of windows containing an input row, as their row i.
struct Containing {
  const WindowRow *windows;
  int64_t i;
};

/// dxRow = +0 plus the shares of the windows of \p from (in order) that
/// contain each element (and, for max pooling, pick it): even column 2ow
/// is column 1 of window ow; odd column 2ow + 1 is column 2 of window ow,
/// then column 0 of window ow + 1.
template <bool Max>
void gatherRow(const PoolShape &s, const Containing *from, int count, float *dxRow) {
  for (int64_t ow = 0; ow < s.ow; ow += kLanes) {
    int n = lanesAt(ow, s.ow);
    Vec even = splat(0.0f), odd = splat(0.0f);
    for (int k = 0; k < count; ++k) {
      const WindowRow &row = *from[k].windows;
      Vec g = loadPart(row.share + ow, n), next = loadPart(row.share + ow + 1, n);
      Vec mid = g, right = g; // column 1 and column 2 of window ow
      if (Max) {
        float i3 = float(3 * from[k].i);
        Vec code = loadPart(row.code + ow, n), codeNext = loadPart(row.code + ow + 1, n);
        mid = keep(equal(code, splat(i3 + 1.0f)), g);
        right = keep(equal(code, splat(i3 + 2.0f)), g);
        next = keep(equal(codeNext, splat(i3)), next);
      }
      even = add(even, mid);
      odd = add(add(odd, right), next);
    }
    int count2 = s.w - 2 * ow < 2 * n ? int(s.w - 2 * ow) : 2 * n;
    storeZipped(dxRow + 2 * ow, even, odd, count2);
  }
}

/// Both gradients: input row 2oh is row 1 of window row oh; input row
/// 2oh + 1 is row 2 of window row oh, then row 0 of window row oh + 1.
template <bool Max>
void backward3x3s2(const PoolShape &s, const float *dy, const float *x, float *dx) {
  WindowRow rows[2];
  WindowRow *prev = &rows[0], *cur = &rows[1];
  for (int64_t oh = 0; oh < s.oh; ++oh) {
    fillWindowRow<Max>(s, x, dy + oh * s.ow, oh, *cur);
    if (oh > 0) {
      Containing two[2] = {{prev, 2}, {cur, 0}};
      gatherRow<Max>(s, two, 2, dx + (2 * oh - 1) * s.w);
    }
    Containing one[1] = {{cur, 1}};
    gatherRow<Max>(s, one, 1, dx + 2 * oh * s.w);
    WindowRow *t = prev;
    prev = cur;
    cur = t;
  }
  if (2 * s.oh - 1 < s.h) {
    Containing last[1] = {{prev, 2}};
    gatherRow<Max>(s, last, 1, dx + (2 * s.oh - 1) * s.w);
  }
}

//===-- Max pooling with codes --------------------------------------------===//
// Forwards, each window's maximum and its code: the position of the scan's
// arg-max in the window, i * KW + j from the window's first row and column
// (padding counted). Backwards, dx from dy and the codes alone: zeros, then
// dy + 0 added at each window's coded element in the windows' row-major
// order, the bits of the paths above on the x the codes came from.

/// One plane with codes: \p a is x or dy, \p out is y or dx.
using CodesPlaneFn = void (*)(const PoolShape &s, const float *a, uint8_t *codes, float *out);

/// The general forward: each window's arg-max (argMax) and its value.
void maxForwardCodesGeneral(const PoolShape &s, const float *x, uint8_t *codes, float *y) {
  for (int64_t oh = 0; oh < s.oh; ++oh) {
    int64_t top = oh * s.strideH - s.padH;
    Span rows = clip(top, s.kh, s.h);
    for (int64_t ow = 0; ow < s.ow; ++ow) {
      int64_t left = ow * s.strideW - s.padW;
      int64_t at = argMax(s, x, rows, clip(left, s.kw, s.w));
      y[oh * s.ow + ow] = x[at];
      codes[oh * s.ow + ow] = uint8_t((at / s.w - top) * s.kw + (at % s.w - left));
    }
  }
}

/// The general gradient: dy of each window added at its coded element.
void maxBackwardCodesGeneral(const PoolShape &s, const float *dy, uint8_t *codes, float *dx) {
  zeros(dx, s.h * s.w);
  for (int64_t oh = 0; oh < s.oh; ++oh)
    for (int64_t ow = 0; ow < s.ow; ++ow) {
      int64_t code = codes[oh * s.ow + ow];
      int64_t r = oh * s.strideH - s.padH + code / s.kw, c = ow * s.strideW - s.padW + code % s.kw;
      dx[r * s.w + c] += dy[oh * s.ow + ow];
    }
}

/// A 2x2 window's maximum and code from its four elements: the masks of
/// maxBackward2x2 (t1: ao over ae, t2: bo over be, t3: the bottom row's
/// maximum over the top's), codes 0 (ae), 1 (ao), 2 (be), 3 (bo).
void pick2x2(Vec ae, Vec ao, Vec be, Vec bo, Vec &max, Vec &code) {
  Mask t1 = taken(ae, ao), t2 = taken(be, bo);
  Vec top = select(t1, ao, ae), bottom = select(t2, bo, be);
  Mask t3 = taken(top, bottom);
  max = select(t3, bottom, top);
  code = select(t3, select(t2, splat(3.0f), splat(2.0f)), select(t1, splat(1.0f), splat(0.0f)));
}

/// 2x2 windows, stride 2, no padding, forwards: per output row.
void maxForwardCodes2x2(const PoolShape &s, const float *x, uint8_t *codes, float *y) {
  for (int64_t oh = 0; oh < s.oh; ++oh) {
    const float *a = x + 2 * oh * s.w, *b = a + s.w;
    for (int64_t ow = 0; ow < s.ow; ow += kLanes) {
      int n = lanesAt(ow, s.ow);
      Vec ae, ao, be, bo, max, code;
      loadUnzipped(a + 2 * ow, 2 * n, ae, ao);
      loadUnzipped(b + 2 * ow, 2 * n, be, bo);
      pick2x2(ae, ao, be, bo, max, code);
      storePart(y + oh * s.ow + ow, max, n);
      storeBytes(codes + oh * s.ow + ow, code, n);
    }
  }
}

/// The same, backwards: dy + 0 at the coded element, zeros elsewhere.
void maxBackwardCodes2x2(const PoolShape &s, const float *dy, uint8_t *codes, float *dx) {
  for (int64_t oh = 0; oh < s.oh; ++oh) {
    float *da = dx + 2 * oh * s.w, *db = da + s.w;
    for (int64_t ow = 0; ow < s.ow; ow += kLanes) {
      int n = lanesAt(ow, s.ow);
      Vec code = loadBytes(codes + oh * s.ow + ow, n, codes + s.oh * s.ow);
      Vec g = add(loadPart(dy + oh * s.ow + ow, n), splat(0.0f));
      storeZipped(da + 2 * ow, keep(equal(code, splat(0.0f)), g),
                  keep(equal(code, splat(1.0f)), g), 2 * n);
      storeZipped(db + 2 * ow, keep(equal(code, splat(2.0f)), g),
                  keep(equal(code, splat(3.0f)), g), 2 * n);
    }
  }
  zeroOutside2x2(s, dx);
}

/// maxForwardCodes2x2, rows of windows packed.
void maxForwardCodesPacked(const PoolShape &s, const float *x, uint8_t *codes, float *y) {
  const Packing pk = makePacking(s.ow);
  for (int64_t oh = 0; oh < s.oh; oh += pk.rows) {
    int rows = int(s.oh - oh < pk.rows ? s.oh - oh : pk.rows);
    Quads q = loadQuads(pk, x + 2 * oh * s.w, int(2 * rows * s.w));
    Vec max, code;
    pick2x2(q.ae, q.ao, q.be, q.bo, max, code);
    storePart(y + oh * s.ow, max, int(rows * s.ow));
    storeBytes(codes + oh * s.ow, code, int(rows * s.ow));
  }
}

/// maxBackwardCodes2x2, rows of windows packed.
void maxBackwardCodesPacked(const PoolShape &s, const float *dy, uint8_t *codes, float *dx) {
  const Packing pk = makePacking(s.ow);
  for (int64_t oh = 0; oh < s.oh; oh += pk.rows) {
    int rows = int(s.oh - oh < pk.rows ? s.oh - oh : pk.rows);
    Vec code = loadBytes(codes + oh * s.ow, int(rows * s.ow), codes + s.oh * s.ow);
    Vec g = add(loadPart(dy + oh * s.ow, int(rows * s.ow)), splat(0.0f));
    Quads grad = {keep(equal(code, splat(0.0f)), g), keep(equal(code, splat(1.0f)), g),
                  keep(equal(code, splat(2.0f)), g), keep(equal(code, splat(3.0f)), g)};
    storeQuads(pk, grad, dx + 2 * oh * s.w, int(2 * rows * s.w));
  }
}

//===-- Choosing the path -------------------------------------------------===//

/// The five paths of the file's comment.
enum Path { General, Tiled, Tiled2x2, Packed2x2, Window3Stride2 };

/// The path of \p s: a fast one only for the output size the formula gives.
Path pathFor(const PoolShape &s) {
  if (s.strideH < 1 || s.strideW < 1 || s.ow > kMaxColumns || s.h + 2 * s.padH < s.kh ||
      s.w + 2 * s.padW < s.kw || s.oh != (s.h + 2 * s.padH - s.kh) / s.strideH + 1 ||
      s.ow != (s.w + 2 * s.padW - s.kw) / s.strideW + 1)
    return General;
  bool tiles = s.kh == s.strideH && s.kw == s.strideW && s.padH == 0 && s.padW == 0;
  if (tiles && s.kh == 2 && s.kw == 2)
    return s.h % 2 == 0 && s.w % 2 == 0 && 2 * s.ow <= kLanes ? Packed2x2 : Tiled2x2;
  if (tiles)
    return Tiled;
  if (s.kh == 3 && s.kw == 3 && s.strideH == 2 && s.strideW == 2 && s.padH == 1 && s.padW == 1)
    return Window3Stride2;
  return General;
}

/// The plane functions of the paths but Tiled, in PoolKind's order.
constexpr PlaneFn kPlaneFns[][4] = {
    {maxForwardGeneral, maxBackwardGeneral, avgForwardGeneral, avgBackwardGeneral},
    {nullptr, nullptr, nullptr, nullptr},
    {maxForward2x2, maxBackward2x2, avgForward2x2, avgBackward2x2},
    {maxForwardPacked, maxBackwardPacked, avgForwardPacked, avgBackwardPacked},
    {maxForward3x3s2, backward3x3s2<true>, avgForward3x3s2, backward3x3s2<false>}};

} // namespace

void MODELRT_POOL_PLANES_NAME(PoolKind kind, const PoolShape &s, const float *a, const float *b,
                              float *out, int64_t planes) {
  Path path = pathFor(s);
  if (path == Packed2x2) { // the planes as one tall image
    PoolShape tall = s;
    tall.h *= planes;
    tall.oh *= planes;
    kPlaneFns[path][int(kind)](tall, a, b, out);
    return;
  }
  PlaneFn fn =
      path == Tiled ? kTiledFns[int(kind)][s.kw <= 4 ? s.kw : 0] : kPlaneFns[path][int(kind)];
  int64_t in = s.h * s.w, outSize = s.oh * s.ow;
  bool forward = kind == PoolKind::MaxForward || kind == PoolKind::AvgForward;
  int64_t aStep = forward ? in : outSize, outStep = forward ? outSize : in;
  for (int64_t p = 0; p < planes; ++p)
    fn(s, a + p * aStep, b ? b + p * in : nullptr, out + p * outStep);
}

#define MODELRT_POOL_CAT2(a, b) a##b
#define MODELRT_POOL_CAT(a, b) MODELRT_POOL_CAT2(a, b)

/// This build's PoolCodesFn (poolPlanes<Level>Codes): the two 2x2 paths,
/// the loops per window for any other window.
void MODELRT_POOL_CAT(MODELRT_POOL_PLANES_NAME, Codes)(bool backward, const PoolShape &s,
                                                       const float *a, uint8_t *codes,
                                                       float *out, int64_t planes) {
  Path path = pathFor(s);
  CodesPlaneFn fn = backward ? maxBackwardCodesGeneral : maxForwardCodesGeneral;
  if (path == Tiled2x2)
    fn = backward ? maxBackwardCodes2x2 : maxForwardCodes2x2;
  if (path == Packed2x2) { // the planes as one tall image
    PoolShape tall = s;
    tall.h *= planes;
    tall.oh *= planes;
    (backward ? maxBackwardCodesPacked : maxForwardCodesPacked)(tall, a, codes, out);
    return;
  }
  int64_t in = s.h * s.w, outSize = s.oh * s.ow;
  for (int64_t p = 0; p < planes; ++p)
    fn(s, a + p * (backward ? outSize : in), codes + p * outSize,
       out + p * (backward ? in : outSize));
}

/// The windows of one row that the blocked loops transpose at a time.
constexpr int64_t kBlockedTile = 64;

/// This build's PoolBlockedFn (poolPlanes<Level>Blocked16): per block and
/// output row, pick2x2 on vectors of channels into a tile of kBlockedTile
/// windows x 16 channels, then each channel's row of the tile into y (and
/// codes).
void MODELRT_POOL_CAT(MODELRT_POOL_PLANES_NAME, Blocked16)(const PoolShape &s, const float *x,
                                                           float *y, uint8_t *codes,
                                                           int64_t first, int64_t count) {
  float tileY[kBlockedTile * 16];
  uint8_t tileCodes[kBlockedTile * 16];
  int64_t blocks = (s.c + 15) / 16;
  for (int64_t b = first; b < first + count; ++b) {
    int64_t n = b / blocks, c0 = (b % blocks) * 16;
    int channels = int(s.c - c0 < 16 ? s.c - c0 : 16);
    for (int64_t oh = 0; oh < s.oh; ++oh) {
      const float *top = x + (b * s.h + 2 * oh) * s.w * 16, *bottom = top + s.w * 16;
      for (int64_t ow0 = 0; ow0 < s.ow; ow0 += kBlockedTile) {
        int64_t cols = s.ow - ow0 < kBlockedTile ? s.ow - ow0 : kBlockedTile;
        for (int64_t j = 0; j < cols; ++j) {
          const float *a = top + 2 * (ow0 + j) * 16, *d = bottom + 2 * (ow0 + j) * 16;
          for (int l = 0; l < 16; l += kLanes) {
            Vec max, code;
            pick2x2(loadPart(a + l, kLanes), loadPart(a + 16 + l, kLanes), loadPart(d + l, kLanes),
                    loadPart(d + 16 + l, kLanes), max, code);
            storePart(tileY + j * 16 + l, max, kLanes);
            storeBytes(tileCodes + j * 16 + l, code, kLanes);
          }
        }
        for (int l = 0; l < channels; ++l) {
          int64_t at = ((n * s.c + c0 + l) * s.oh + oh) * s.ow + ow0;
          for (int64_t j = 0; j < cols; ++j)
            y[at + j] = tileY[j * 16 + l];
          if (codes)
            for (int64_t j = 0; j < cols; ++j)
              codes[at + j] = tileCodes[j * 16 + l];
        }
      }
    }
  }
}

namespace {
/// Rows of dy and codes, channels [c0, c0 + 16) of image \p n from output
/// row \p oh and column \p ow0, \p cols windows, as a tile of windows x 16
/// channels (dy +0 and code 0 for the channels past C).
void gatherTile(const PoolShape &s, const float *dy, const uint8_t *codes, int64_t n, int64_t c0,
                int64_t oh, int64_t ow0, int64_t cols, float *tileG, uint8_t *tileCodes) {
  for (int64_t l = 0; l < 16; ++l) {
    bool real = c0 + l < s.c;
    int64_t at = ((n * s.c + c0 + l) * s.oh + oh) * s.ow + ow0;
    for (int64_t j = 0; j < cols; ++j) {
      tileG[j * 16 + l] = real ? dy[at + j] : 0.0f;
      tileCodes[j * 16 + l] = real ? codes[at + j] : 0;
    }
  }
}
} // namespace

namespace {

/// zeros() for bf16 bits (used by the AVX-512 build only).
[[maybe_unused]] void zeros(uint16_t *p, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    p[i] = 0;
}

/// The loops of the blocked gradients into \p dx (f32 or bf16 elements):
/// per block and output row, each channel's row of dy and of the codes into
/// a tile of kBlockedTile windows x 16 channels (zeros past C), then
/// window(pixels, g, codes) for each window, whose four pixels of 16
/// channels (top left, top right, bottom left, bottom right) are to be
/// written from the tile's 16 gradients and codes; the columns and the row
/// that no window covers are zeros.
template <typename Element, typename Window>
void blockedGradLoops(const PoolShape &s, const float *dy, const uint8_t *codes, Element *dx,
                      int64_t first, int64_t count, const Window &window) {
  float tileG[kBlockedTile * 16];
  uint8_t tileCodes[kBlockedTile * 16];
  int64_t blocks = (s.c + 15) / 16, row = s.w * 16;
  for (int64_t b = first; b < first + count; ++b) {
    Element *plane = dx + b * s.h * row;
    for (int64_t oh = 0; oh < s.oh; ++oh) {
      Element *top = plane + 2 * oh * row, *bottom = top + row;
      for (int64_t ow0 = 0; ow0 < s.ow; ow0 += kBlockedTile) {
        int64_t cols = s.ow - ow0 < kBlockedTile ? s.ow - ow0 : kBlockedTile;
        gatherTile(s, dy, codes, b / blocks, (b % blocks) * 16, oh, ow0, cols, tileG, tileCodes);
        for (int64_t j = 0; j < cols; ++j) {
          int64_t left = 2 * (ow0 + j) * 16;
          Element *pixels[4] = {top + left, top + left + 16, bottom + left, bottom + left + 16};
          window(pixels, tileG + j * 16, tileCodes + j * 16, tileCodes + cols * 16);
        }
      }
      zeros(top + 2 * s.ow * 16, row - 2 * s.ow * 16);
      zeros(bottom + 2 * s.ow * 16, row - 2 * s.ow * 16);
    }
    zeros(plane + 2 * s.oh * row, (s.h - 2 * s.oh) * row);
  }
}

} // namespace

/// This build's PoolBlockedGradFn (poolPlanes<Level>Blocked16Grad): the
/// blocked loops, each window's 2x2 pixels as maxBackwardCodes2x2 writes
/// them.
void MODELRT_POOL_CAT(MODELRT_POOL_PLANES_NAME, Blocked16Grad)(const PoolShape &s,
                                                               const float *dy,
                                                               const uint8_t *codes, float *dx,
                                                               int64_t first, int64_t count) {
  blockedGradLoops(s, dy, codes, dx, first, count,
                   [](float *const pixels[4], const float *g16, const uint8_t *codes16,
                      const uint8_t *end) {
                     for (int l = 0; l < 16; l += kLanes) {
                       Vec g = add(loadPart(g16 + l, kLanes), splat(0.0f));
                       Vec code = loadBytes(codes16 + l, kLanes, end);
                       for (int q = 0; q < 4; ++q)
                         storePart(pixels[q] + l, keep(equal(code, splat(float(q))), g), kLanes);
                     }
                   });
}

#if defined(__AVX512F__)
namespace {

/// The bf16 bits of each lane as vcvtneps2bf16 (and so oneDNN's reorder
/// into bf16) rounds it: zeros and subnormals to a zero of their sign,
/// infinities kept, NaN made quiet, anything else to nearest, ties to even.
__m256i bf16Bits(Vec v) {
  const __m512i u = _mm512_castps_si512(v);
  const __m512i magnitude = _mm512_and_si512(u, _mm512_set1_epi32(0x7fffffff));
  __mmask16 nan = _mm512_cmpgt_epu32_mask(magnitude, _mm512_set1_epi32(0x7f800000));
  __mmask16 tiny = _mm512_cmplt_epu32_mask(magnitude, _mm512_set1_epi32(0x00800000));
  __m512i odd = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
  __m512i r = _mm512_add_epi32(u, _mm512_add_epi32(_mm512_set1_epi32(0x7fff), odd));
  r = _mm512_mask_mov_epi32(r, nan, _mm512_or_si512(u, _mm512_set1_epi32(0x00400000)));
  r = _mm512_mask_mov_epi32(r, tiny, _mm512_and_si512(u, _mm512_set1_epi32(int(0x80000000u))));
  return _mm512_cvtepi32_epi16(_mm512_srli_epi32(r, 16));
}

} // namespace

/// This build's PoolBlockedGradBf16Fn (AVX-512 only): the blocked loops,
/// each window's 2x2 pixels of 16 channels written as bf16 (bf16Bits).
void MODELRT_POOL_CAT(MODELRT_POOL_PLANES_NAME, Blocked16GradBf16)(const PoolShape &s,
                                                                   const float *dy,
                                                                   const uint8_t *codes,
                                                                   uint16_t *dx, int64_t first,
                                                                   int64_t count) {
  static_assert(kLanes == 16, "a window's 16 channels are one vector");
  blockedGradLoops(s, dy, codes, dx, first, count,
                   [](uint16_t *const pixels[4], const float *g16, const uint8_t *codes16,
                      const uint8_t *end) {
                     Vec g = add(loadPart(g16, kLanes), splat(0.0f));
                     Vec code = loadBytes(codes16, kLanes, end);
                     for (int q = 0; q < 4; ++q)
                       _mm256_storeu_si256(reinterpret_cast<__m256i *>(pixels[q]),
                                           bf16Bits(keep(equal(code, splat(float(q))), g)));
                   });
}
#endif

#undef MODELRT_POOL_CAT
#undef MODELRT_POOL_CAT2

} // namespace modelrt
