//===- AttentionKernels.cpp - One build of the attention loops ------------===//
//
// Compiled once per x86 level (runtime/CMakeLists.txt defines
// MODELRT_ATTENTION_RANGE_NAME and the -m flags of each build), with the
// vectors of AttentionSimd.h. Flash attention in the transposed layout:
// a block of up to 64 queries is transposed once (Q^T, W x 64), and each
// block of up to 64 keys gives a block of scores S^T = K Q^T with one query
// per lane, so the softmax's running maximum and sum per query are lane-wise
// (no horizontal reductions):
//   - forward, per query block: for each key block, S^T, its maximum m'
//     per query, alpha = 2^(m - m'), P^T = 2^(c S^T - m'), l = alpha l +
//     sum P, O = alpha O + P V; then out = O / l (c = log2(e) / sqrt(W));
//   - backward, per (batch, head), per query block: dO^T is transposed too
//     and D = rowsum(dO * O); a first sweep over the key blocks gives each
//     query's log-sum-exp (base 2), a second recomputes P^T = 2^(c S^T -
//     lse) and adds dV += P^T dO, computes dP^T = V dO^T, dS^T = P^T (dP^T
//     - D), dK += dS^T Q and dQ += dS K; dq = scale dQ, and dk = scale dK
//     once every query block has added to it.
// Every product runs on register-blocked micro-tiles: up to 4 vectors of
// columns by kAccumulators / vectors rows, each step of the depth one
// broadcast of A per row, one load of B per vector and a fused
// multiply-add per accumulator. The left operand is read in place: a
// tensor's rows, a score block's rows, or a score block's columns (its
// transpose). With a causal mask, key blocks wholly above the diagonal are
// never visited, and each micro-tile of a block on the diagonal limits its
// columns or its depth to the part the mask leaves; the softmax sweeps
// write exact zeros wherever the mask hides a score.
//
// The file calls nothing inline from the C++ library: its definitions would
// be emitted in each build, and the linker would keep one of them.
//
//===----------------------------------------------------------------------===//
#include "AttentionKernels.h"
#include "AttentionSimd.h"

#ifndef MODELRT_ATTENTION_RANGE_NAME
#error "MODELRT_ATTENTION_RANGE_NAME names this build's function"
#endif

namespace modelrt {
namespace {

constexpr int64_t kQB = kAttentionQueryBlock, kKB = kAttentionKeyBlock;
static_assert(kQB % 16 == 0, "a query block is whole vectors at every level");

/// Vectors of columns in one micro-tile, at most.
constexpr int kMaxChunk = 4;
/// The diagonal when nothing is masked: every key row sees every lane.
constexpr int64_t kNoDiagonal = int64_t(1) << 40;

int64_t minOf(int64_t a, int64_t b) { return a < b ? a : b; }
int64_t clampTo(int64_t x, int64_t lo, int64_t hi) { return x < lo ? lo : (x > hi ? hi : x); }
int64_t vectorsFor(int64_t n) { return (n + kLanes - 1) / kLanes; }

/// The rows of a micro-tile whose columns are \p nv vectors.
constexpr int tileRows(int nv) { return kAccumulators / nv > 12 ? 12 : kAccumulators / nv; }

//===----------------------------------------------------------------------===//
// Products: C (rows x cols) = init(C) + A (rows x depth) B (depth x cols)
//===----------------------------------------------------------------------===//

/// Where A's element (i, k) is.
enum class Layout {
  Rows,      ///< a[i * lda + k]: a tensor's rows (lda at run time)
  RowsBlock, ///< a[i * kQB + k]: a score block's rows
  ColsBlock, ///< a[k * kQB + i]: a score block read transposed
};

/// What C starts from: zeros, its values, or its rows times rowScale.
enum class Init { Zero, Load, Scale };

/// The part of a product a causal mask leaves, for rows from i0: the
/// columns from i0 - diag, the depth from i0 - diag, or the depth below
/// i0 + rows + diag (the rest multiplies exact zeros, or is masked later).
enum class Limit { None, ColsFrom, DepthFrom, DepthTo };

/// One product. B's row k is at b + k * ldb, C's row i at c + i * ldc.
struct Product {
  int64_t rows = 0, cols = 0, depth = 0;
  const float *a = nullptr;
  int64_t lda = 0;
  const float *b = nullptr;
  int64_t ldb = 0;
  float *c = nullptr;
  int64_t ldc = 0;
  Init init = Init::Zero;
  const float *rowScale = nullptr;
  Limit limit = Limit::None;
  int64_t diag = kNoDiagonal;
};

/// One micro-tile: \p rows valid rows (of MR), depth [k0, k1); a, c and
/// rowScale at the tile's first row, b and c at its first column, the last
/// vector's lanes \p tail.
struct Tile {
  int rows = 0;
  int64_t k0 = 0, k1 = 0;
  const float *a = nullptr;
  int64_t lda = 0;
  const float *b = nullptr;
  int64_t ldb = 0;
  float *c = nullptr;
  int64_t ldc = 0;
  Init init = Init::Zero;
  const float *rowScale = nullptr;
  Mask tail;
};

template <int NV, bool Masked>
__attribute__((always_inline)) inline Vec loadCol(const float *p, int v, Mask tail) {
  return Masked && v == NV - 1 ? loadMasked(p + v * kLanes, tail) : load(p + v * kLanes);
}

/// The accumulators from C, as t.init says.
template <int MR, int NV, bool Masked>
__attribute__((always_inline)) inline void startTile(const Tile &t, Vec (&acc)[MR][NV]) {
  for (int i = 0; i < MR; ++i)
    for (int v = 0; v < NV; ++v)
      acc[i][v] = zero();
  if (t.init == Init::Zero)
    return;
  for (int i = 0; i < MR; ++i) {
    if (i >= t.rows)
      break;
    Vec s = splat(t.init == Init::Scale ? t.rowScale[i] : 1.0f);
    for (int v = 0; v < NV; ++v) {
      Vec x = loadCol<NV, Masked>(t.c + i * t.ldc, v, t.tail);
      acc[i][v] = t.init == Init::Scale ? mul(s, x) : x;
    }
  }
}

/// The valid rows of the accumulators to C.
template <int MR, int NV, bool Masked>
__attribute__((always_inline)) inline void finishTile(const Tile &t, Vec (&acc)[MR][NV]) {
  for (int i = 0; i < MR; ++i) {
    if (i >= t.rows)
      break;
    float *c = t.c + i * t.ldc;
    for (int v = 0; v < NV; ++v) {
      if (Masked && v == NV - 1)
        storeMasked(c + v * kLanes, t.tail, acc[i][v]);
      else
        store(c + v * kLanes, acc[i][v]);
    }
  }
}

/// One micro-tile of MR rows by NV vectors. Rows past t.rows compute on
/// the last valid row (Rows) or on the score block's next elements (the
/// blocks have room for them) and are not stored.
template <Layout L, int MR, int NV, bool Masked>
void tile(const Tile &t) {
  Vec acc[MR][NV];
  startTile<MR, NV, Masked>(t, acc);
  const float *rowOf[MR];
  for (int i = 0; i < MR; ++i)
    rowOf[i] = t.a + (i < t.rows ? i : t.rows - 1) * t.lda;
  const float *b = t.b + t.k0 * t.ldb;
  for (int64_t k = t.k0; k < t.k1; ++k, b += t.ldb) {
    Vec bv[NV];
    for (int v = 0; v < NV; ++v)
      bv[v] = loadCol<NV, Masked>(b, v, t.tail);
    for (int i = 0; i < MR; ++i) {
      float x = L == Layout::Rows        ? rowOf[i][k]
                : L == Layout::RowsBlock ? t.a[i * kQB + k]
                                         : t.a[k * kQB + i];
      Vec av = splat(x);
      for (int v = 0; v < NV; ++v)
        acc[i][v] = fma(av, bv[v], acc[i][v]);
    }
  }
  finishTile<MR, NV, Masked>(t, acc);
}

using TileFn = void (*)(const Tile &);

/// The tile of NV vectors (NV <= NvMax) with the rows of NvMax's tiles.
template <Layout L, int NvMax, int NV = NvMax>
TileFn pickTile(int nv, bool masked) {
  if constexpr (NV == 0) {
    return nullptr;
  } else {
    constexpr int MR = tileRows(NvMax);
    if (nv == NV)
      return masked ? tile<L, MR, NV, true> : tile<L, MR, NV, false>;
    return pickTile<L, NvMax, NV - 1>(nv, masked);
  }
}

/// The tile of \p nv vectors (the last one masked when \p masked) in a
/// product whose widest chunk is \p nvMax vectors (which sets the rows).
template <Layout L>
TileFn tileFor(int nvMax, int nv, bool masked) {
  switch (nvMax) {
  case 1:
    return pickTile<L, 1>(nv, masked);
  case 2:
    return pickTile<L, 2>(nv, masked);
  case 3:
    return pickTile<L, 3>(nv, masked);
  default:
    return pickTile<L, kMaxChunk>(nv, masked);
  }
}

/// The columns and depth of the row tile from \p i0 that p.limit leaves.
void limitTile(const Product &p, int64_t i0, Tile &t, int64_t &firstCol) {
  firstCol = 0;
  t.k0 = 0;
  t.k1 = p.depth;
  if (p.limit == Limit::ColsFrom)
    firstCol = clampTo(i0 - p.diag, 0, p.cols) / kLanes * kLanes;
  else if (p.limit == Limit::DepthFrom)
    t.k0 = clampTo(i0 - p.diag, 0, p.depth);
  else if (p.limit == Limit::DepthTo)
    t.k1 = clampTo(i0 + t.rows + p.diag, 0, p.depth);
}

/// Runs \p p tile by tile: rows in steps of the tile's height, columns in
/// chunks of up to kMaxChunk vectors (the last one masked).
template <Layout L>
void product(const Product &p) {
  int nvMax = int(minOf(vectorsFor(p.cols), kMaxChunk)), mr = tileRows(nvMax);
  for (int64_t i0 = 0; i0 < p.rows; i0 += mr) {
    Tile t;
    t.rows = int(minOf(mr, p.rows - i0));
    int64_t firstCol;
    limitTile(p, i0, t, firstCol);
    if (p.init == Init::Load && t.k0 >= t.k1)
      continue; // adds nothing
    t.a = L == Layout::ColsBlock ? p.a + i0 : p.a + i0 * (L == Layout::Rows ? p.lda : kQB);
    t.lda = p.lda;
    t.ldb = p.ldb;
    t.ldc = p.ldc;
    t.init = p.init;
    t.rowScale = p.rowScale ? p.rowScale + i0 : nullptr;
    for (int64_t col = firstCol; col < p.cols; col += kMaxChunk * kLanes) {
      int64_t n = minOf(kMaxChunk * kLanes, p.cols - col);
      int nv = int(vectorsFor(n)), tail = int(n - (nv - 1) * kLanes);
      t.tail = lanesIn(0, tail);
      t.b = p.b + col;
      t.c = p.c + i0 * p.ldc + col;
      tileFor<L>(nvMax, nv, tail < kLanes)(t);
    }
  }
}

//===----------------------------------------------------------------------===//
// Softmax sweeps over a transposed score block (row j: key j, lane i: query i)
//===----------------------------------------------------------------------===//

/// A (query block, key block) pair: nq queries, nk keys; key row j sees
/// query lane i when i >= j - diag (and i < nq).
struct Block {
  int64_t nq = 0, nk = 0, diag = kNoDiagonal;
};

/// The lanes of vector \p v of key row \p j that the mask leaves.
Mask seen(const Block &b, int64_t j, int64_t v) {
  int64_t first = v * kLanes;
  return lanesIn(j - b.diag - first, b.nq - first);
}

/// The per-query statistics of the scratch (kQB lanes each): the running
/// maximum m (scaled by c), the sum l, the last block's factor alpha, the
/// shift each exponent subtracts, 1 / l (0 for a query that sees no key),
/// and D = rowsum(dO * O).
struct Stats {
  float *m, *l, *alpha, *shift, *norm, *d;
};

Stats statsOf(const AttentionScratch &s) {
  float *x = s.stats;
  return {x, x + kQB, x + 2 * kQB, x + 3 * kQB, x + 4 * kQB, x + 5 * kQB};
}

/// m = -inf, l = 0 for every lane.
void resetStats(const Stats &st) {
  for (int64_t i = 0; i < kQB; i += kLanes) {
    store(st.m + i, splat(kNegInf));
    store(st.l + i, zero());
  }
}

/// shift = the block's maximum score per query (-inf where none is seen).
void blockMax(const float *scores, const Block &b, const Stats &st) {
  for (int64_t v = 0; v < vectorsFor(b.nq); ++v) {
    Vec m = splat(kNegInf);
    for (int64_t j = 0; j < b.nk; ++j) {
      if (j - b.diag >= (v + 1) * kLanes)
        break; // this row and the ones below see no lane of v
      Vec s = load(scores + j * kQB + v * kLanes);
      m = max(m, select(seen(b, j, v), s, splat(kNegInf)));
    }
    store(st.shift + v * kLanes, m);
  }
}

/// m' = max(m, c shift); alpha = 2^(m - m'); shift = m' (0 where m' is
/// -inf: nothing seen yet, and alpha = 0 multiplies zeros).
void updateMax(const Block &b, float c, const Stats &st) {
  for (int64_t i = 0; i < vectorsFor(b.nq) * kLanes; i += kLanes) {
    Vec m = load(st.m + i), next = max(m, mul(splat(c), load(st.shift + i)));
    Vec shift = select(isNegInf(next), zero(), next);
    store(st.alpha + i, exp2(sub(m, shift)));
    store(st.m + i, next);
    store(st.shift + i, shift);
  }
}

/// What exponentiate() does with p = 2^(c s - shift): adds it to l, also
/// writes it over the scores (forwards), or writes p / l over them (the
/// backward's probabilities: the shift is the final maximum).
enum class Exponents { Sum, StoreAndSum, Normalise };

/// p where the mask leaves s, else 0, used as \p E says; l = alpha l +
/// sum p unless normalising.
template <Exponents E>
void exponentiate(float *scores, const Block &b, float c, const Stats &st) {
  constexpr bool Store = E != Exponents::Sum, Sum = E != Exponents::Normalise;
  for (int64_t v = 0; v < vectorsFor(b.nq); ++v) {
    Vec negShift = sub(zero(), load(st.shift + v * kLanes)), sum = zero();
    Vec norm = Sum ? zero() : load(st.norm + v * kLanes);
    for (int64_t j = 0; j < b.nk; ++j) {
      float *s = scores + j * kQB + v * kLanes;
      Mask k = seen(b, j, v);
      if (!anyLane(k)) {
        if (!Store)
          break; // rows only see fewer lanes further down
        store(s, zero());
        continue;
      }
      Vec p = keep(k, exp2(fma(load(s), splat(c), negShift)));
      if (Store)
        store(s, Sum ? p : mul(p, norm));
      sum = add(sum, p);
    }
    if (Sum) {
      float *l = st.l + v * kLanes;
      store(l, fma(load(st.alpha + v * kLanes), load(l), sum));
    }
  }
}

/// dS^T = P^T (dP^T - D) where the mask leaves it, else 0, over P^T (whose
/// vectors the mask hides wholly are zeros already).
void gradScores(float *probs, const float *gradProbs, const Block &b, const Stats &st) {
  for (int64_t j = 0; j < b.nk; ++j)
    for (int64_t v = clampTo(j - b.diag, 0, b.nq) / kLanes; v < vectorsFor(b.nq); ++v) {
      int64_t at = j * kQB + v * kLanes;
      Vec ds = mul(load(probs + at), sub(load(gradProbs + at), load(st.d + v * kLanes)));
      store(probs + at, keep(seen(b, j, v), ds));
    }
}

//===----------------------------------------------------------------------===//
// Rows, blocks and items
//===----------------------------------------------------------------------===//

/// xt[d * kQB + i] = x[i * ld + d] for i < rows and d < width, 0 up to
/// kQB: whole kLanes x kLanes tiles in registers, the edges element by
/// element.
void packTransposed(const float *x, int64_t rows, int64_t width, int64_t ld, float *xt) {
  int64_t wholeRows = rows / kLanes * kLanes, wholeCols = width / kLanes * kLanes;
  for (int64_t i = 0; i < wholeRows; i += kLanes) {
    for (int64_t d = 0; d < wholeCols; d += kLanes)
      transposeTile(x + i * ld + d, ld, xt + d * kQB + i, kQB);
    for (int64_t d = wholeCols; d < width; ++d)
      for (int64_t r = i; r < i + kLanes; ++r)
        xt[d * kQB + r] = x[r * ld + d];
  }
  for (int64_t d = 0; d < width; ++d) {
    float *out = xt + d * kQB;
    for (int64_t i = wholeRows; i < rows; ++i)
      out[i] = x[i * ld + d];
    for (int64_t i = rows; i < kQB; ++i)
      out[i] = 0.0f;
  }
}

/// The dot product of a[0, width) and b[0, width).
float rowDot(const float *a, const float *b, int64_t width) {
  int64_t whole = width / kLanes * kLanes;
  Vec sum = zero();
  for (int64_t x = 0; x < whole; x += kLanes)
    sum = fma(load(a + x), load(b + x), sum);
  if (whole < width) {
    Mask tail = lanesIn(0, width - whole);
    sum = fma(loadMasked(a + whole, tail), loadMasked(b + whole, tail), sum);
  }
  return reduceAdd(sum);
}

/// dst[i, :width] = src[i, :width] * (factors ? factors[i] : factor).
void scaleRows(const float *src, int64_t lds, int64_t rows, int64_t width,
               const float *factors, float factor, float *dst, int64_t ldd) {
  int64_t whole = width / kLanes * kLanes;
  Mask tail = lanesIn(0, width - whole);
  for (int64_t i = 0; i < rows; ++i) {
    Vec f = splat(factors ? factors[i] : factor);
    const float *s = src + i * lds;
    float *d = dst + i * ldd;
    for (int64_t w = 0; w < whole; w += kLanes)
      store(d + w, mul(f, load(s + w)));
    if (whole < width)
      storeMasked(d + whole, tail, mul(f, loadMasked(s + whole, tail)));
  }
}

/// The width rounded up to whole vectors of every level: the accumulators'
/// row stride.
int64_t paddedWidth(int64_t width) { return (width + 15) / 16 * 16; }

/// log2(e) / sqrt(width): the factor of the scores in base-2 exponents.
float exponentScale(int64_t width) {
  return float(1.4426950408889634 / __builtin_sqrt(double(width)));
}

/// One past the last key some query of [q0, q0 + nq) sees.
int64_t keysSeen(const AttentionArgs &a, int64_t q0, int64_t nq) {
  return a.causal ? clampTo(q0 + nq + a.keys - a.queries, 0, a.keys) : a.keys;
}

/// The block of queries [q0, q0 + nq) and keys [k0, k0 + nk).
Block blockAt(const AttentionArgs &a, int64_t q0, int64_t nq, int64_t k0, int64_t kEnd) {
  Block b;
  b.nq = nq;
  b.nk = minOf(kKB, kEnd - k0);
  b.diag = a.causal ? q0 + (a.keys - a.queries) - k0 : kNoDiagonal;
  return b;
}

/// scores = K Q^T (one key block's rows, \p ld apart, by the query block's
/// lanes).
void scoreBlock(const float *keys, int64_t ld, const float *queriesT, const Block &b,
                int64_t width, float *scores) {
  Product p;
  p.rows = b.nk;
  p.cols = vectorsFor(b.nq) * kLanes;
  p.depth = width;
  p.a = keys;
  p.lda = ld;
  p.b = queriesT;
  p.ldb = kQB;
  p.c = scores;
  p.ldc = kQB;
  p.limit = Limit::ColsFrom;
  p.diag = b.diag;
  product<Layout::Rows>(p);
}

/// A product whose left operand is the score block at \p scores, in the
/// layout L: C (rows x width, ldc) += or = A B (B's rows of width, ldb
/// apart).
template <Layout L>
void blockProduct(const float *scores, int64_t rows, int64_t depth, const float *b,
                  int64_t ldb, int64_t width, float *c, int64_t ldc, Init init,
                  const float *rowScale, Limit limit, int64_t diag) {
  Product p;
  p.rows = rows;
  p.cols = width;
  p.depth = depth;
  p.a = scores;
  p.lda = kQB;
  p.b = b;
  p.ldb = ldb;
  p.c = c;
  p.ldc = ldc;
  p.init = init;
  p.rowScale = rowScale;
  p.limit = limit;
  p.diag = diag;
  product<L>(p);
}

/// The head's tensors, at (batch, head) \p bh: its inputs, and its rows of
/// the destination (o forwards; dq, dk and dv backwards), with the strides
/// of their rows: ldIn of q, k and v; ldOut of out, dout and o; ldGrad of
/// dq, dk and dv.
struct Head {
  const float *q, *k, *v, *out, *dout;
  float *o, *dq, *dk, *dv;
  int64_t ldIn, ldOut, ldGrad;
};

/// headAt for separate [B, H, T, W] tensors, each head's rows contiguous.
Head separateHeadAt(bool forward, const AttentionArgs &a, int64_t bh) {
  int64_t qs = a.queries * a.width, ks = a.keys * a.width, heads = a.batch * a.heads;
  Head h;
  h.q = a.q + bh * qs;
  h.k = a.k + bh * ks;
  h.v = a.v + bh * ks;
  h.out = forward ? nullptr : a.out + bh * qs;
  h.dout = forward ? nullptr : a.dout + bh * qs;
  h.o = forward ? a.dest + bh * qs : nullptr;
  h.dq = forward ? nullptr : a.dest + bh * qs;
  h.dk = forward ? nullptr : a.dest + heads * qs + bh * ks;
  h.dv = forward ? nullptr : a.dest + heads * (qs + ks) + bh * ks;
  h.ldIn = h.ldOut = h.ldGrad = a.width;
  return h;
}

/// headAt for the packed layout (AttentionArgs::packed): q, k and v
/// interleaved in one [B, T, 3, H, W] tensor, out, dout and o [B, T, H, W],
/// dq, dk and dv interleaved in one [B, T, 3, H, W] destination.
Head packedHeadAt(bool forward, const AttentionArgs &a, int64_t bh) {
  int64_t b = bh / a.heads, head = bh % a.heads, row = a.heads * a.width;
  int64_t in = b * a.queries * 3 * row + head * a.width, out = b * a.queries * row + head * a.width;
  Head h;
  h.q = a.q + in;
  h.k = h.q + row;
  h.v = h.q + 2 * row;
  h.out = forward ? nullptr : a.out + out;
  h.dout = forward ? nullptr : a.dout + out;
  h.o = forward ? a.dest + out : nullptr;
  h.dq = forward ? nullptr : a.dest + in;
  h.dk = forward ? nullptr : h.dq + row;
  h.dv = forward ? nullptr : h.dq + 2 * row;
  h.ldIn = h.ldGrad = 3 * row;
  h.ldOut = row;
  return h;
}

Head headAt(AttentionKind kind, const AttentionArgs &a, int64_t bh) {
  bool forward = kind == AttentionKind::Forward;
  return a.packed ? packedHeadAt(forward, a, bh) : separateHeadAt(forward, a, bh);
}

/// One key block of the running softmax over the query block whose
/// transpose is in s.queriesT: scores, m, alpha, shift, l, and P^T over the
/// scores when Store.
template <bool Store>
void softmaxBlock(const float *keys, int64_t ld, const Block &b, int64_t width, float c,
                  const AttentionScratch &s) {
  Stats st = statsOf(s);
  scoreBlock(keys, ld, s.queriesT, b, width, s.scores);
  blockMax(s.scores, b, st);
  updateMax(b, c, st);
  exponentiate<Store ? Exponents::StoreAndSum : Exponents::Sum>(s.scores, b, c, st);
}

/// Forward work item \p item: one query block of one (batch, head).
void forwardItem(const AttentionArgs &a, int64_t item, const AttentionScratch &s) {
  int64_t blocks = (a.queries + kQB - 1) / kQB, bh = item / blocks, q0 = item % blocks * kQB;
  int64_t nq = minOf(kQB, a.queries - q0), w = a.width, wPad = paddedWidth(w);
  Head h = headAt(AttentionKind::Forward, a, bh);
  Stats st = statsOf(s);
  float c = exponentScale(w);
  packTransposed(h.q + q0 * h.ldIn, nq, w, h.ldIn, s.queriesT);
  resetStats(st);
  __builtin_memset(s.acc, 0, sizeof(float) * size_t(nq * wPad));
  int64_t kEnd = keysSeen(a, q0, nq);
  for (int64_t k0 = 0; k0 < kEnd; k0 += kKB) {
    Block b = blockAt(a, q0, nq, k0, kEnd);
    softmaxBlock<true>(h.k + k0 * h.ldIn, h.ldIn, b, w, c, s);
    blockProduct<Layout::ColsBlock>(s.scores, nq, b.nk, h.v + k0 * h.ldIn, h.ldIn, w, s.acc,
                                    wPad, Init::Scale, st.alpha, Limit::DepthTo, b.diag);
  }
  for (int64_t i = 0; i < nq; ++i) // a query that sees no key gets zeros
    st.norm[i] = st.l[i] > 0.0f ? 1.0f / st.l[i] : 0.0f;
  scaleRows(s.acc, wPad, nq, w, st.norm, 0.0f, h.o + q0 * h.ldOut, h.ldOut);
}

/// st.shift = each query's maximum score times c and st.norm = 1 / the sum
/// of its exponents (0 for a query that sees no key), so that p = 2^(c s -
/// shift) norm (the shift kept apart from log2(l): a sum of the two would
/// round away the digits of c s - shift when the scores are large); and
/// st.d = rowsum(dO * O), for the query block from \p q0.
void queryStatistics(const AttentionArgs &a, const Head &h, int64_t q0, int64_t nq,
                     const AttentionScratch &s) {
  int64_t w = a.width, kEnd = keysSeen(a, q0, nq);
  Stats st = statsOf(s);
  float c = exponentScale(w);
  resetStats(st);
  for (int64_t k0 = 0; k0 < kEnd; k0 += kKB)
    softmaxBlock<false>(h.k + k0 * h.ldIn, h.ldIn, blockAt(a, q0, nq, k0, kEnd), w, c, s);
  for (int64_t i = 0; i < nq; ++i) {
    st.shift[i] = st.l[i] > 0.0f ? st.m[i] : 0.0f;
    st.norm[i] = st.l[i] > 0.0f ? 1.0f / st.l[i] : 0.0f;
    st.d[i] = rowDot(h.dout + (q0 + i) * h.ldOut, h.out + (q0 + i) * h.ldOut, w);
  }
}

/// One key block's share of the query block's gradients: dV and dK of the
/// block's keys, and dQ of its queries in s.acc.
void backwardBlock(const AttentionArgs &a, const Head &h, int64_t q0, const Block &b,
                   int64_t k0, const AttentionScratch &s) {
  int64_t w = a.width, in = h.ldIn, grad = h.ldGrad;
  Stats st = statsOf(s);
  scoreBlock(h.k + k0 * in, in, s.queriesT, b, w, s.scores);
  exponentiate<Exponents::Normalise>(s.scores, b, exponentScale(w), st);
  blockProduct<Layout::RowsBlock>(s.scores, b.nk, b.nq, h.dout + q0 * h.ldOut, h.ldOut, w,
                                  h.dv + k0 * grad, grad, Init::Load, nullptr, Limit::DepthFrom,
                                  b.diag);
  scoreBlock(h.v + k0 * in, in, s.gradT, b, w, s.gradScores); // dP^T = V dO^T
  gradScores(s.scores, s.gradScores, b, st);
  blockProduct<Layout::RowsBlock>(s.scores, b.nk, b.nq, h.q + q0 * in, in, w, h.dk + k0 * grad,
                                  grad, Init::Load, nullptr, Limit::DepthFrom, b.diag);
  blockProduct<Layout::ColsBlock>(s.scores, b.nq, b.nk, h.k + k0 * in, in, w, s.acc,
                                  paddedWidth(w), Init::Load, nullptr, Limit::DepthTo, b.diag);
}

/// Backward work item \p bh: the gradients of one (batch, head).
void backwardItem(const AttentionArgs &a, int64_t bh, const AttentionScratch &s) {
  int64_t w = a.width, wPad = paddedWidth(w);
  float scale = float(1.0 / __builtin_sqrt(double(w)));
  Head h = headAt(AttentionKind::Backward, a, bh);
  for (int64_t r = 0; r < a.keys; ++r) {
    __builtin_memset(h.dk + r * h.ldGrad, 0, sizeof(float) * size_t(w));
    __builtin_memset(h.dv + r * h.ldGrad, 0, sizeof(float) * size_t(w));
  }
  for (int64_t q0 = 0; q0 < a.queries; q0 += kQB) {
    int64_t nq = minOf(kQB, a.queries - q0), kEnd = keysSeen(a, q0, nq);
    packTransposed(h.q + q0 * h.ldIn, nq, w, h.ldIn, s.queriesT);
    packTransposed(h.dout + q0 * h.ldOut, nq, w, h.ldOut, s.gradT);
    queryStatistics(a, h, q0, nq, s);
    __builtin_memset(s.acc, 0, sizeof(float) * size_t(nq * wPad));
    for (int64_t k0 = 0; k0 < kEnd; k0 += kKB)
      backwardBlock(a, h, q0, blockAt(a, q0, nq, k0, kEnd), k0, s);
    scaleRows(s.acc, wPad, nq, w, nullptr, scale, h.dq + q0 * h.ldGrad, h.ldGrad);
  }
  scaleRows(h.dk, h.ldGrad, a.keys, w, nullptr, scale, h.dk, h.ldGrad);
}

} // namespace

void MODELRT_ATTENTION_RANGE_NAME(AttentionKind kind, const AttentionArgs &a, int64_t *next,
                                  int64_t end, const AttentionScratch &scratch) {
  for (int64_t item; (item = __atomic_fetch_add(next, 1, __ATOMIC_RELAXED)) < end;) {
    if (kind == AttentionKind::Forward)
      forwardItem(a, item, scratch);
    else
      backwardItem(a, item, scratch);
  }
}

} // namespace modelrt
