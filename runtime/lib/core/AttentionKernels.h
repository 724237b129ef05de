//===- AttentionKernels.h - Attention's loops, one build per x86 level ----===//
//
// Declares, for Attention.cpp and the tests, the loops behind the two
// attention functions of Attention.h (modelrt/core/Attention.h says what
// they compute): the loop over a range of work items in three builds of
// AttentionKernels.cpp (the scalar baseline, AVX2 + FMA and AVX-512), the
// per-thread scratch they work in, and runAttention(), which runs one call
// with a given build on one or two threads.
//
// A forward work item is one query block of one (batch, head); a backward
// one is a whole (batch, head), whose key gradients every query block adds
// to. Threads claim items one at a time from a shared counter (a thread
// the system deschedules then delays nothing: the other takes more items),
// and each item is computed whole, in one fixed order, by the thread that
// claims it, from nothing its scratch held before; so neither the thread
// count, nor which thread takes which item, nor the run changes the bits.
// The builds differ in their bits (vector width, fused multiply-adds), not
// in their maths.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_CORE_ATTENTIONKERNELS_H
#define MODELRT_LIB_CORE_ATTENTIONKERNELS_H

#include "modelrt/core/CpuFeatures.h"

#include <cstdint>

namespace modelrt {

/// Which of the two functions.
enum class AttentionKind { Forward, Backward };

/// Queries per block: the lanes of the transposed score blocks (a multiple
/// of every build's vector width).
constexpr int64_t kAttentionQueryBlock = 64;
/// Keys per block: the rows of the transposed score blocks.
constexpr int64_t kAttentionKeyBlock = 64;

/// One call's operands. q [B, H, Tq, W], k and v [B, H, Tk, W]; the
/// backward's inputs out and dout [B, H, Tq, W]; dest the destination: out
/// forwards, dqkv (dq, then dk, then dv) backwards. When `packed`
/// (self-attention, Tq = Tk = T): q, k and v point into one [B, T, 3, H, W]
/// tensor (k = q + H W, v = q + 2 H W), out, dout and the forward's
/// destination are [B, T, H, W], and the backward's destination is one
/// [B, T, 3, H, W] tensor laid out as the input.
struct AttentionArgs {
  int64_t batch = 0, heads = 0, queries = 0, keys = 0, width = 0;
  bool causal = false, packed = false;
  const float *q = nullptr, *k = nullptr, *v = nullptr, *out = nullptr, *dout = nullptr;
  float *dest = nullptr;
};

/// One thread's scratch, every buffer sized by the blocks and the width:
/// the query block transposed (W x kAttentionQueryBlock) and the output
/// gradient's (backward), two transposed score blocks ((kAttentionKeyBlock
/// + 16) x kAttentionQueryBlock, the extra rows read and never used by the
/// last row tile), an accumulator per query row (kAttentionQueryBlock x the
/// width rounded up to 16), and six statistics per query.
struct AttentionScratch {
  float *queriesT = nullptr, *gradT = nullptr, *scores = nullptr, *gradScores = nullptr;
  float *acc = nullptr, *stats = nullptr;
};

/// Runs \p kind over work items claimed one at a time from \p next (an
/// atomic increment) until it reaches \p end, with \p scratch.
using AttentionRangeFn = void (*)(AttentionKind kind, const AttentionArgs &a, int64_t *next,
                                  int64_t end, const AttentionScratch &scratch);

/// The three builds (the wider ones exist only on x86-64).
void attentionRangeBaseline(AttentionKind, const AttentionArgs &, int64_t *, int64_t,
                            const AttentionScratch &);
void attentionRangeAvx2(AttentionKind, const AttentionArgs &, int64_t *, int64_t,
                        const AttentionScratch &);
void attentionRangeAvx512(AttentionKind, const AttentionArgs &, int64_t *, int64_t,
                          const AttentionScratch &);

/// The build for \p level (the baseline where the wider ones are not built).
AttentionRangeFn attentionRangeFor(CpuLevel level);

/// The work items of one call: (batch, head, query block)s forwards,
/// (batch, head)s backwards.
int64_t attentionItems(AttentionKind kind, const AttentionArgs &a);

/// The multiply-adds of one call's score and value products, the work
/// compared with kParallelLoopWork (Parallel.h).
int64_t attentionWork(const AttentionArgs &a);

/// Runs one call with the build for \p level on \p threads threads (1, or 2
/// on runInTwoParts' team, sharing the work items).
void runAttention(CpuLevel level, int threads, AttentionKind kind, const AttentionArgs &a);

} // namespace modelrt

#endif // MODELRT_LIB_CORE_ATTENTIONKERNELS_H
