//===- CudaAttention.cpp - modelrt_cuda_attention_*: fused GPU attention ---===//
//
// Implements the modelrt_cuda_attention_* entry points of GpuAbi.h: each
// describes its operands' layout as AttentionGpuViews (the [batch, heads,
// rows, width] tensors, or the packed [batch, length, 3, heads, width]
// projection and its [batch, length, heads, width] output) and launches the
// kernels of AttentionKernels.cu on the compute stream. The backward's row
// statistics (lse, delta) live in a block of the device pool for the span
// of the call (stream order makes the reuse safe, graphs keep it).
//
//===----------------------------------------------------------------------===//
#include "CudaDriver.h"
#include "modelrt/cuda/AttentionKernels.h"
#include "modelrt/cuda/GpuAbi.h"

#include <cmath>
#include <string>

namespace modelrt {
namespace cuda {
namespace {

/// The attention kernels' module, loaded (lazily, by the mgpu shim) once.
void *attentionModule() {
  static void *module = embeddedModule(modelrt_attention_ptx);
  return module;
}

/// A [batch, heads, rows, width] tensor at \p base.
AttentionGpuView headMajor(const float *base, int64_t heads, int64_t rows, int64_t width) {
  return {const_cast<float *>(base), heads * rows * width, rows * width, width};
}

/// Part \p part (0 q, 1 k, 2 v) of a packed [batch, length, 3, heads,
/// width] projection at \p base.
AttentionGpuView packedPart(const float *base, int part, int64_t heads, int64_t length,
                            int64_t width) {
  int64_t row = 3 * heads * width;
  return {const_cast<float *>(base) + part * heads * width, length * row, width, row};
}

/// A [batch, length, heads, width] tensor at \p base.
AttentionGpuView rowMajor(const float *base, int64_t heads, int64_t length, int64_t width) {
  return {const_cast<float *>(base), length * heads * width, width, heads * width};
}

/// The sizes shared by every launch, with the views still to fill.
AttentionGpuArgs sizes(int64_t batch, int64_t heads, int64_t queries, int64_t keys,
                       int64_t width, int64_t causal) {
  AttentionGpuArgs a{};
  a.batch = batch;
  a.heads = heads;
  a.queries = queries;
  a.keys = keys;
  a.width = width;
  a.causal = causal != 0;
  a.scale = float(1.0 / std::sqrt(double(width)));
  return a;
}

/// The forward's operands, head-major: q [batch, heads, queries, width],
/// k and v [batch, heads, keys, width], out like q.
void viewHeadMajor(AttentionGpuArgs &a, const float *q, const float *k, const float *v,
                   const float *out) {
  a.q = headMajor(q, a.heads, a.queries, a.width);
  a.k = headMajor(k, a.heads, a.keys, a.width);
  a.v = headMajor(v, a.heads, a.keys, a.width);
  a.out = headMajor(out, a.heads, a.queries, a.width);
}

/// The forward's operands, packed: q, k and v in qkv [batch, length, 3,
/// heads, width], out [batch, length, heads, width].
void viewPacked(AttentionGpuArgs &a, const float *qkv, const float *out) {
  a.q = packedPart(qkv, 0, a.heads, a.queries, a.width);
  a.k = packedPart(qkv, 1, a.heads, a.queries, a.width);
  a.v = packedPart(qkv, 2, a.heads, a.queries, a.width);
  a.out = rowMajor(out, a.heads, a.queries, a.width);
}

/// Checks what the kernels take; records a sticky error naming \p caller
/// otherwise. False also when there is nothing to compute.
bool launchable(const char *caller, const AttentionGpuArgs &a) {
  if (a.width > kAttentionGpuMaxWidth) {
    setStickyError(-1, std::string(caller) + ": heads of width " + std::to_string(a.width) +
                           " exceed the GPU kernels' " +
                           std::to_string(kAttentionGpuMaxWidth));
    return false;
  }
  if (a.batch * a.heads > 0x7fffffff || (a.queries > a.keys ? a.queries : a.keys) >
                                          int64_t(kAttentionGpuRows) * 65535) {
    setStickyError(-1, std::string(caller) + ": too many heads or rows for one launch");
    return false;
  }
  return a.batch > 0 && a.heads > 0 && a.width > 0 && a.queries > 0;
}

/// Launches \p kernel over \p rows rows of every head on the compute stream.
void launch(CudaState &s, AttentionGpuKernel kernel, int64_t rows, AttentionGpuArgs &a) {
  const char *name = attentionKernelName(kernel, attentionWidthClass(a.width));
  auto fn = static_cast<CUfunction>(mgpuModuleGetFunction(attentionModule(), name));
  if (!fn) {
    setStickyError(-1, std::string("cannot load the attention kernel ") + name);
    return;
  }
  void *params[] = {&a};
  unsigned blocks = unsigned((rows + kAttentionGpuRows - 1) / kAttentionGpuRows);
  if (blocks == 0)
    return;
  checkCu(driverApi()->cuLaunchKernel(fn, unsigned(a.batch * a.heads), blocks, 1,
                                      kAttentionGpuRows, 1, 1, 0, s.compute, params, nullptr),
          name);
}

/// 2 x the multiply-adds of the score and value products (x 2 more for the
/// backward), for --profile.
double attentionFlops(const AttentionGpuArgs &a, int products) {
  return 2.0 * products * double(a.batch * a.heads) * double(a.queries) * double(a.keys) *
         double(a.width) / (a.causal ? 2.0 : 1.0);
}

void forward(const char *caller, AttentionGpuArgs &a) {
  if (hasStickyError() || !launchable(caller, a))
    return;
  CudaState *s = requireCuda(caller);
  if (!s)
    return;
  bool timed = profileStart(s->compute);
  launch(*s, AttentionGpuKernel::Forward, a.queries, a);
  if (timed)
    profileEnd(s->compute, "attention (flash, forward)", attentionFlops(a, 2));
}

void backward(const char *caller, AttentionGpuArgs &a) {
  if (hasStickyError() || !launchable(caller, a))
    return;
  CudaState *s = requireCuda(caller);
  if (!s)
    return;
  uint64_t cells = uint64_t(a.batch * a.heads * a.queries);
  auto *stats = static_cast<float *>(mgpuMemAlloc(2 * cells * sizeof(float), s->compute, false));
  if (!stats)
    return; // the allocation recorded why
  a.lse = stats;
  a.delta = stats + cells;
  bool timed = profileStart(s->compute);
  launch(*s, AttentionGpuKernel::BackwardQuery, a.queries, a);
  launch(*s, AttentionGpuKernel::BackwardKey, a.keys, a);
  if (timed)
    profileEnd(s->compute, "attention (flash, backward)", attentionFlops(a, 5));
  mgpuMemFree(stats, s->compute);
}

} // namespace
} // namespace cuda
} // namespace modelrt

using namespace modelrt;
using namespace modelrt::cuda;

extern "C" void modelrt_cuda_attention_forward(const float *q, const float *k, const float *v,
                                               float *out, int64_t batch, int64_t heads,
                                               int64_t queries, int64_t keys, int64_t width,
                                               int64_t causal) {
  AttentionGpuArgs a = sizes(batch, heads, queries, keys, width, causal);
  viewHeadMajor(a, q, k, v, out);
  forward("modelrt_cuda_attention_forward", a);
}

extern "C" void modelrt_cuda_attention_backward(const float *q, const float *k, const float *v,
                                                const float *out, const float *dout, float *dqkv,
                                                int64_t batch, int64_t heads, int64_t queries,
                                                int64_t keys, int64_t width, int64_t causal) {
  AttentionGpuArgs a = sizes(batch, heads, queries, keys, width, causal);
  viewHeadMajor(a, q, k, v, out);
  a.dout = headMajor(dout, heads, queries, width);
  int64_t queryFloats = batch * heads * queries * width, keyFloats = batch * heads * keys * width;
  a.dq = headMajor(dqkv, heads, queries, width);
  a.dk = headMajor(dqkv + queryFloats, heads, keys, width);
  a.dv = headMajor(dqkv + queryFloats + keyFloats, heads, keys, width);
  backward("modelrt_cuda_attention_backward", a);
}

extern "C" void modelrt_cuda_attention_packed_forward(const float *qkv, float *out,
                                                      int64_t batch, int64_t heads,
                                                      int64_t length, int64_t width,
                                                      int64_t causal) {
  AttentionGpuArgs a = sizes(batch, heads, length, length, width, causal);
  viewPacked(a, qkv, out);
  forward("modelrt_cuda_attention_packed_forward", a);
}

extern "C" void modelrt_cuda_attention_packed_backward(const float *qkv, const float *out,
                                                       const float *dout, float *dqkv,
                                                       int64_t batch, int64_t heads,
                                                       int64_t length, int64_t width,
                                                       int64_t causal) {
  AttentionGpuArgs a = sizes(batch, heads, length, length, width, causal);
  viewPacked(a, qkv, out);
  a.dout = rowMajor(dout, heads, length, width);
  a.dq = packedPart(dqkv, 0, heads, length, width);
  a.dk = packedPart(dqkv, 1, heads, length, width);
  a.dv = packedPart(dqkv, 2, heads, length, width);
  backward("modelrt_cuda_attention_packed_backward", a);
}
