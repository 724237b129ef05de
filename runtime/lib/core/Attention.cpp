//===- Attention.cpp - The attention functions: the build and the threads -===//
//
// Implements Attention.h and the dispatch of AttentionKernels.h: each C
// function (the decoding step: once per head, over its cache rows) runs
// the build of AttentionKernels.cpp for the runtime's level
// (hostKernels()) over its work items, on the calling thread, or, from
// kParallelLoopWork multiply-adds on, on runInTwoParts' team, each thread
// claiming the next item from a shared counter. Each thread works in its own part of one scratch
// buffer, sized by the blocks and the width, kept by the calling thread
// between calls (it only grows).
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Attention.h"
#include "AttentionKernels.h"
#include "modelrt/core/CpuFeatures.h"
#include "modelrt/core/Parallel.h"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace modelrt {
namespace {

/// \p n floats rounded up to whole 64-byte lines.
int64_t lines(int64_t n) { return (n + 15) / 16 * 16; }

/// The floats of one thread's scratch (AttentionScratch's buffers).
int64_t scratchFloats(int64_t width) {
  int64_t wPad = lines(width), scores = (kAttentionKeyBlock + 16) * kAttentionQueryBlock;
  return 2 * lines(width * kAttentionQueryBlock) + 2 * scores +
         kAttentionQueryBlock * wPad + 6 * kAttentionQueryBlock;
}

/// The buffers of one thread's scratch from \p base (64-byte aligned).
AttentionScratch carveScratch(float *base, int64_t width) {
  AttentionScratch s;
  int64_t transposed = lines(width * kAttentionQueryBlock),
          scores = (kAttentionKeyBlock + 16) * kAttentionQueryBlock;
  s.queriesT = base;
  s.gradT = s.queriesT + transposed;
  s.scores = s.gradT + transposed;
  s.gradScores = s.scores + scores;
  s.acc = s.gradScores + scores;
  s.stats = s.acc + kAttentionQueryBlock * lines(width);
  return s;
}

/// This thread's scratch for \p parts threads of width \p width, zeroed
/// when it grows (so that nothing reads uninitialised memory).
float *scratchFor(int parts, int64_t width) {
  thread_local std::vector<float> buffer;
  size_t need = size_t(parts * scratchFloats(width) + 16);
  if (buffer.size() < need)
    buffer.assign(need, 0.0f);
  uintptr_t at = reinterpret_cast<uintptr_t>(buffer.data());
  return buffer.data() + (((at + 63) & ~uintptr_t(63)) - at) / sizeof(float);
}

/// One call of the C functions: the host's build, on two threads when the
/// work is large enough and the process has two cores.
void attentionOnHost(AttentionKind kind, const AttentionArgs &a) {
  int threads = attentionWork(a) >= kParallelLoopWork && twoPartsInParallel() ? 2 : 1;
  runAttention(hostKernels().level, threads, kind, a);
}

} // namespace

AttentionRangeFn attentionRangeFor(CpuLevel level) {
#if defined(__x86_64__) && defined(MODELRT_HAVE_WIDE_LEVELS)
  switch (level) {
  case CpuLevel::Avx512:
    return attentionRangeAvx512;
  case CpuLevel::Avx2:
    return attentionRangeAvx2;
  case CpuLevel::Baseline:
    break;
  }
#endif
  return attentionRangeBaseline;
}

int64_t attentionItems(AttentionKind kind, const AttentionArgs &a) {
  int64_t heads = a.batch * a.heads;
  if (kind == AttentionKind::Backward)
    return heads;
  return heads * ((a.queries + kAttentionQueryBlock - 1) / kAttentionQueryBlock);
}

int64_t attentionWork(const AttentionArgs &a) {
  return 2 * a.batch * a.heads * a.queries * a.keys * a.width;
}

void runAttention(CpuLevel level, int threads, AttentionKind kind, const AttentionArgs &a) {
  if (a.width == 0 || a.batch * a.heads == 0)
    return; // nothing to write
  AttentionRangeFn range = attentionRangeFor(level);
  int64_t items = attentionItems(kind, a), next = 0;
  int parts = threads < 2 || items < 2 ? 1 : 2;
  float *scratch = scratchFor(parts, a.width);
  if (parts == 1) {
    range(kind, a, &next, items, carveScratch(scratch, a.width));
    return;
  }
  int64_t stride = scratchFloats(a.width);
  runInTwoParts([&](int part) {
    range(kind, a, &next, items, carveScratch(scratch + part * stride, a.width));
  });
}

} // namespace modelrt

using modelrt::AttentionArgs;
using modelrt::AttentionKind;

extern "C" void modelrt_attention_forward(const float *q, const float *k, const float *v,
                                          float *out, int64_t batch, int64_t heads,
                                          int64_t queries, int64_t keys, int64_t width,
                                          int64_t causal) {
  AttentionArgs a{batch, heads, queries, keys, width, causal != 0, false,
                  q,     k,     v,       nullptr, nullptr, out};
  modelrt::attentionOnHost(AttentionKind::Forward, a);
}

extern "C" void modelrt_attention_backward(const float *q, const float *k, const float *v,
                                           const float *out, const float *dout, float *dqkv,
                                           int64_t batch, int64_t heads, int64_t queries,
                                           int64_t keys, int64_t width, int64_t causal) {
  AttentionArgs a{batch, heads, queries, keys, width, causal != 0, false, q, k, v, out, dout, dqkv};
  modelrt::attentionOnHost(AttentionKind::Backward, a);
}

extern "C" void modelrt_attention_packed_forward(const float *qkv, float *out, int64_t batch,
                                                 int64_t heads, int64_t length, int64_t width,
                                                 int64_t causal) {
  int64_t row = heads * width;
  AttentionArgs a{batch, heads, length, length,  width,   causal != 0, true,
                  qkv,   qkv + row, qkv + 2 * row, nullptr, nullptr, out};
  modelrt::attentionOnHost(AttentionKind::Forward, a);
}

extern "C" void modelrt_attention_packed_backward(const float *qkv, const float *out,
                                                  const float *dout, float *dqkv, int64_t batch,
                                                  int64_t heads, int64_t length, int64_t width,
                                                  int64_t causal) {
  int64_t row = heads * width;
  AttentionArgs a{batch, heads, length, length, width, causal != 0, true,
                  qkv,   qkv + row, qkv + 2 * row, out, dout, dqkv};
  modelrt::attentionOnHost(AttentionKind::Backward, a);
}

extern "C" void modelrt_attention_decode(const float *q, const float *kcache,
                                         const float *vcache, const int64_t *pos, float *out,
                                         int64_t batch, int64_t heads, int64_t max_len,
                                         int64_t width) {
  int64_t p = *pos, rows = batch * heads;
  if (p < 0 || p >= max_len) {
    std::fill(out, out + rows * width, 0.0f);
    return;
  }
  for (int64_t i = 0; i < rows; ++i) { // each head's cache rows 0..p
    const float *k = kcache + i * max_len * width, *v = vcache + i * max_len * width;
    AttentionArgs a{1, 1, 1, p + 1, width, false, false, q + i * width, k, v, nullptr, nullptr,
                    out + i * width};
    modelrt::attentionOnHost(AttentionKind::Forward, a);
  }
}
