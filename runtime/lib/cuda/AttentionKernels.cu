//===- AttentionKernels.cu - Fused attention on the GPU, flash-style -------===//
//
// The kernels of modelrt/cuda/AttentionKernels.h. Each thread owns one row
// (a query, or a key in the key-side backward) and keeps it, its
// accumulators and one tile's scores in registers; the block streams the
// other side's rows through shared memory kAttentionGpuTile at a time.
//  * forward: the online softmax (running maximum m and sum l, the
//    accumulator rescaled when the maximum grows), out = acc / l;
//  * backward (flash-attention 2): the query side recomputes each row's
//    lse = m + log l and delta = dout . out, then dq = scale sum_j dS_ij k_j
//    with P = exp(s - lse), dS = P (dout . v_j - delta); the key side reads
//    lse and delta and sums dv = P^T dout and dk = scale dS^T q.
// Nothing is accumulated atomically: results do not depend on scheduling.
// Built once per width class W (the arrays' length; columns past the width
// are zeros). Compiled at build time to PTX (runtime/cuda-kernels.cmake) and
// embedded in libmodelrt.
//
//===----------------------------------------------------------------------===//
#include "modelrt/cuda/AttentionKernels.h"

using namespace modelrt;

namespace {

constexpr int kRows = kAttentionGpuRows;
constexpr int kTile = kAttentionGpuTile;

/// Element pointer of row \p r of head (b, h) of \p view.
__device__ float *rowOf(const AttentionGpuView &view, int64_t b, int64_t h, int64_t r) {
  return view.base + b * view.batch + h * view.head + r * view.row;
}

/// The last key row query \p i sees, plus one (0: none).
__device__ int64_t keyLimit(const AttentionGpuArgs &a, int64_t i) {
  if (!a.causal)
    return a.keys;
  int64_t end = i + a.keys - a.queries + 1;
  return end < 0 ? 0 : (end > a.keys ? a.keys : end);
}

/// Copies rows r0 .. r0 + kTile of head (b, h) of \p view into \p tile
/// (zeros past \p rows and past the width). Every thread of the block calls
/// it.
template <int W>
__device__ void loadTile(float (*tile)[W], const AttentionGpuView &view, int64_t b, int64_t h,
                         int64_t r0, int64_t rows, int64_t width) {
  for (int e = threadIdx.x; e < kTile * W; e += kRows) {
    int r = e / W, w = e % W;
    tile[r][w] = r0 + r < rows && w < width ? rowOf(view, b, h, r0 + r)[w] : 0.0f;
  }
}

/// Reads a row of \p width floats into \p row (zeros past the width).
template <int W> __device__ void loadRow(float *row, const float *src, int64_t width) {
#pragma unroll
  for (int w = 0; w < W; ++w)
    row[w] = w < width ? src[w] : 0.0f;
}

template <int W> __device__ void storeRow(float *dst, const float *row, float factor, int64_t width) {
#pragma unroll
  for (int w = 0; w < W; ++w)
    if (w < width)
      dst[w] = row[w] * factor;
}

template <int W> __device__ float dot(const float *x, const float *y) {
  float s = 0.0f;
#pragma unroll
  for (int w = 0; w < W; ++w)
    s = fmaf(x[w], y[w], s);
  return s;
}

/// The head (b, h) and the first row of this block.
struct Place {
  int64_t b, h, first;
};

__device__ Place placeOf(const AttentionGpuArgs &a) {
  int64_t bh = blockIdx.x;
  return {bh / a.heads, bh % a.heads, int64_t(blockIdx.y) * kRows};
}

template <int W> __device__ void forward(const AttentionGpuArgs &a) {
  __shared__ float ks[kTile][W], vs[kTile][W];
  Place p = placeOf(a);
  int64_t i = p.first + threadIdx.x;
  bool active = i < a.queries;
  float q[W], acc[W];
  loadRow<W>(q, active ? rowOf(a.q, p.b, p.h, i) : nullptr, active ? a.width : 0);
#pragma unroll
  for (int w = 0; w < W; ++w)
    acc[w] = 0.0f;
  float m = -__int_as_float(0x7f800000), l = 0.0f;
  int64_t last = p.first + kRows < a.queries ? p.first + kRows : a.queries;
  int64_t blockEnd = keyLimit(a, last - 1), mine = active ? keyLimit(a, i) : 0;
  for (int64_t k0 = 0; k0 < blockEnd; k0 += kTile) {
    __syncthreads();
    loadTile<W>(ks, a.k, p.b, p.h, k0, a.keys, a.width);
    loadTile<W>(vs, a.v, p.b, p.h, k0, a.keys, a.width);
    __syncthreads();
    int64_t n = mine - k0 < kTile ? mine - k0 : kTile;
#pragma unroll 1
    for (int r = 0; r < n; ++r) {
      float s = a.scale * dot<W>(q, ks[r]);
      if (s > m) { // a new maximum: rescale what was summed so far
        float alpha = expf(m - s);
        l *= alpha;
#pragma unroll
        for (int w = 0; w < W; ++w)
          acc[w] *= alpha;
        m = s;
      }
      float e = expf(s - m);
      l += e;
#pragma unroll
      for (int w = 0; w < W; ++w)
        acc[w] = fmaf(e, vs[r][w], acc[w]);
    }
  }
  if (active)
    storeRow<W>(rowOf(a.out, p.b, p.h, i), acc, l > 0.0f ? 1.0f / l : 0.0f, a.width);
}

template <int W> __device__ void backwardQuery(const AttentionGpuArgs &a) {
  __shared__ float ks[kTile][W], vs[kTile][W];
  Place p = placeOf(a);
  int64_t i = p.first + threadIdx.x;
  bool active = i < a.queries;
  float q[W], dout[W], dq[W];
  loadRow<W>(q, active ? rowOf(a.q, p.b, p.h, i) : nullptr, active ? a.width : 0);
  loadRow<W>(dout, active ? rowOf(a.dout, p.b, p.h, i) : nullptr, active ? a.width : 0);
  loadRow<W>(dq, active ? rowOf(a.out, p.b, p.h, i) : nullptr, active ? a.width : 0);
  float delta = dot<W>(dout, dq); // dq holds the output row until here
#pragma unroll
  for (int w = 0; w < W; ++w)
    dq[w] = 0.0f;
  int64_t last = p.first + kRows < a.queries ? p.first + kRows : a.queries;
  int64_t blockEnd = keyLimit(a, last - 1), mine = active ? keyLimit(a, i) : 0;
  // The row's maximum and sum: the forward's statistics, recomputed.
  float m = -__int_as_float(0x7f800000), l = 0.0f;
  for (int64_t k0 = 0; k0 < blockEnd; k0 += kTile) {
    __syncthreads();
    loadTile<W>(ks, a.k, p.b, p.h, k0, a.keys, a.width);
    __syncthreads();
#pragma unroll 1
    for (int r = 0; r < kTile && k0 + r < mine; ++r) {
      float s = a.scale * dot<W>(q, ks[r]);
      float mNew = fmaxf(m, s);
      l = l * expf(m - mNew) + expf(s - mNew);
      m = mNew;
    }
  }
  float lse = l > 0.0f ? m + logf(l) : __int_as_float(0x7f800000);
  for (int64_t k0 = 0; k0 < blockEnd; k0 += kTile) {
    __syncthreads();
    loadTile<W>(ks, a.k, p.b, p.h, k0, a.keys, a.width);
    loadTile<W>(vs, a.v, p.b, p.h, k0, a.keys, a.width);
    __syncthreads();
#pragma unroll 1
    for (int r = 0; r < kTile && k0 + r < mine; ++r) {
      float prob = expf(a.scale * dot<W>(q, ks[r]) - lse);
      float ds = prob * (dot<W>(dout, vs[r]) - delta);
#pragma unroll
      for (int w = 0; w < W; ++w)
        dq[w] = fmaf(ds, ks[r][w], dq[w]);
    }
  }
  if (!active)
    return;
  storeRow<W>(rowOf(a.dq, p.b, p.h, i), dq, a.scale, a.width);
  int64_t cell = (p.b * a.heads + p.h) * a.queries + i;
  a.lse[cell] = lse;
  a.delta[cell] = delta;
}

template <int W> __device__ void backwardKey(const AttentionGpuArgs &a) {
  __shared__ float qs[kTile][W], dos[kTile][W];
  __shared__ float lses[kTile], deltas[kTile];
  Place p = placeOf(a);
  int64_t j = p.first + threadIdx.x;
  bool active = j < a.keys;
  float k[W], v[W], dk[W], dv[W];
  loadRow<W>(k, active ? rowOf(a.k, p.b, p.h, j) : nullptr, active ? a.width : 0);
  loadRow<W>(v, active ? rowOf(a.v, p.b, p.h, j) : nullptr, active ? a.width : 0);
#pragma unroll
  for (int w = 0; w < W; ++w)
    dk[w] = dv[w] = 0.0f;
  // The first query that sees this block's first key.
  int64_t offset = a.keys - a.queries;
  int64_t start = a.causal && p.first - offset > 0 ? p.first - offset : 0;
  int64_t cells = (p.b * a.heads + p.h) * a.queries;
  for (int64_t q0 = start; q0 < a.queries; q0 += kTile) {
    __syncthreads();
    loadTile<W>(qs, a.q, p.b, p.h, q0, a.queries, a.width);
    loadTile<W>(dos, a.dout, p.b, p.h, q0, a.queries, a.width);
    if (threadIdx.x < kTile) {
      bool in = q0 + threadIdx.x < a.queries;
      lses[threadIdx.x] = in ? a.lse[cells + q0 + threadIdx.x] : 0.0f;
      deltas[threadIdx.x] = in ? a.delta[cells + q0 + threadIdx.x] : 0.0f;
    }
    __syncthreads();
    if (!active)
      continue;
#pragma unroll 1
    for (int r = 0; r < kTile; ++r) {
      int64_t i = q0 + r;
      if (i >= a.queries)
        break;
      if (a.causal && j > i + offset)
        continue;
      float prob = expf(a.scale * dot<W>(qs[r], k) - lses[r]);
      float ds = prob * (dot<W>(dos[r], v) - deltas[r]);
#pragma unroll
      for (int w = 0; w < W; ++w) {
        dv[w] = fmaf(prob, dos[r][w], dv[w]);
        dk[w] = fmaf(ds, qs[r][w], dk[w]);
      }
    }
  }
  if (!active)
    return;
  storeRow<W>(rowOf(a.dk, p.b, p.h, j), dk, a.scale, a.width);
  storeRow<W>(rowOf(a.dv, p.b, p.h, j), dv, 1.0f, a.width);
}

} // namespace

#define MODELRT_ATTENTION_KERNELS(W)                                                     \
  extern "C" __global__ void __launch_bounds__(kRows)                                    \
      modelrt_attention_gpu_forward_w##W(AttentionGpuArgs a) {                           \
    forward<W>(a);                                                                       \
  }                                                                                      \
  extern "C" __global__ void __launch_bounds__(kRows)                                    \
      modelrt_attention_gpu_backward_query_w##W(AttentionGpuArgs a) {                    \
    backwardQuery<W>(a);                                                                 \
  }                                                                                      \
  extern "C" __global__ void __launch_bounds__(kRows)                                    \
      modelrt_attention_gpu_backward_key_w##W(AttentionGpuArgs a) {                      \
    backwardKey<W>(a);                                                                   \
  }

MODELRT_ATTENTION_KERNELS(32)
MODELRT_ATTENTION_KERNELS(64)
MODELRT_ATTENTION_KERNELS(128)
