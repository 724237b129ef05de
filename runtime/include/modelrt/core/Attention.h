//===- Attention.h - Scaled dot-product attention for compiled models -----===//
//
// Declares the C functions compiled models call for scaled dot-product
// attention on the CPU, its gradient and one decoding step over caches. q is [batch, heads, queries,
// width], k and v are [batch, heads, keys, width], out and dout are like q;
// dense row-major f32. With scale = 1 / sqrt(width) (PyTorch's
// scaled_dot_product_attention default), per (batch, head) and query i:
//   out[i, :] = sum_j softmax_j(scale q[i, :] . k[j, :] + mask) v[j, :].
// causal != 0 lets query i see key j only when j <= i + (keys - queries):
// the mask is aligned at the bottom right, so queries == keys is causal
// self-attention and queries == 1, keys == p + 1 one decoding step over a
// cache. A query that sees no key (causal with keys < queries, its first
// keys - queries rows; or keys == 0) gets zeros, and its gradients are 0.
//
// Each function writes its destination whole and never reads it. The
// kernels (lib/core/AttentionKernels.cpp) are flash attention: keys in
// blocks, a running maximum and sum per query, the scores never stored
// beyond one 64 x 64 block per thread, the backward recomputing them
// (flash-attention-2). They are built for each x86 level and chosen by the
// runtime's level (CpuFeatures.h, capped by MODELRT_CPU_ISA). A call of at
// least kParallelLoopWork multiply-adds (Parallel.h) shares its work items
// between two threads: forwards, the (batch, head, block of 64 queries)s;
// backwards, the (batch, head)s; each item is computed whole by one thread,
// so the same inputs give the same bits on every run and with one or two
// threads. The levels
// agree to rounding, not bit for bit. Nothing here fails or aborts.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CORE_ATTENTION_H
#define MODELRT_CORE_ATTENTION_H

#include <cstdint>

extern "C" {
/// out[b,h,i,:] = sum_j softmax_j(scale * q[b,h,i,:]·k[b,h,j,:] + mask) v[b,h,j,:]
void modelrt_attention_forward(const float *q, const float *k, const float *v,
                               float *out, int64_t batch, int64_t heads,
                               int64_t queries, int64_t keys, int64_t width,
                               int64_t causal);
/// The gradients of the forward above with respect to q, k and v, given the
/// forward's output `out` and its gradient `dout`; they are written into ONE
/// buffer `dqkv`: dq [batch, heads, queries, width], then dk [batch, heads, keys, width],
/// then dv [batch, heads, keys, width], contiguous one after the other.
void modelrt_attention_backward(const float *q, const float *k, const float *v,
                                const float *out, const float *dout, float *dqkv,
                                int64_t batch, int64_t heads, int64_t queries,
                                int64_t keys, int64_t width, int64_t causal);
/// Causal or full self-attention in the packed layout of a transformer's
/// fused projection: qkv [batch, length, 3, heads, width] holds each
/// position's query, key and value (all heads), out [batch, length, heads,
/// width] receives each position's heads side by side. The same results as
/// modelrt_attention_forward on the [batch, heads, length, width] slices,
/// with no transposed copies.
void modelrt_attention_packed_forward(const float *qkv, float *out, int64_t batch,
                                      int64_t heads, int64_t length, int64_t width,
                                      int64_t causal);
/// The gradient of the packed forward with respect to qkv, given its output
/// `out` and the output's gradient `dout` ([batch, length, heads, width]),
/// written into dqkv laid out as qkv.
void modelrt_attention_packed_backward(const float *qkv, const float *out, const float *dout,
                                       float *dqkv, int64_t batch, int64_t heads,
                                       int64_t length, int64_t width, int64_t causal);
/// One decoding step over key/value caches kcache and vcache [batch, heads,
/// max_len, width]: for each (b, h), the query q[b,h,0,:] (q and out are
/// [batch, heads, 1, width]) over the cache rows 0..*pos, which is the
/// forward above with queries = 1 and keys = *pos + 1 on those rows (the
/// last query of causal self-attention over positions 0..*pos). Rows after
/// *pos are not read. The position comes through a pointer, as compiled
/// code passes it; outside [0, max_len) the output is zeros.
void modelrt_attention_decode(const float *q, const float *kcache, const float *vcache,
                              const int64_t *pos, float *out, int64_t batch, int64_t heads,
                              int64_t max_len, int64_t width);
}

#endif // MODELRT_CORE_ATTENTION_H
