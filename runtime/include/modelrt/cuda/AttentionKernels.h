//===- AttentionKernels.h - The embedded PTX of the attention kernels -----===//
//
// Names, parameters and launch shapes of runtime/lib/cuda/AttentionKernels.cu
// (nvcc -arch=compute_90, checked with ptxas, embedded in modelrt): fused
// scaled-dot-product attention on the GPU, flash-style. Keys and values
// pass through shared memory a tile at a time; the scores live in registers
// (one thread per query row, or per key row in the key-side backward), so
// no score matrix is ever written to device memory. CudaAttention.cpp
// launches them for the modelrt_cuda_attention_* entry points.
//
// Conventions, for every kernel:
//  * one parameter, an AttentionGpuArgs passed by value;
//  * blockDim = (kAttentionGpuRows, 1, 1), no dynamic shared memory;
//  * gridDim = (batch * heads, ceil(rows / kAttentionGpuRows), 1), where
//    rows are the queries (forward, query-side backward) or the keys
//    (key-side backward);
//  * each kernel comes in one build per width class (32, 64, 128: the
//    per-thread arrays' length), named by attentionKernelName;
//  * the width is at most kAttentionGpuMaxWidth (wider heads are expanded
//    into products and a softmax by the compiler instead);
//  * the causal mask is PyTorch's, aligned at the bottom right: query i
//    sees key j when j <= i + keys - queries; a query that sees no key gets
//    zeros.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CUDA_ATTENTIONKERNELS_H
#define MODELRT_CUDA_ATTENTIONKERNELS_H

#include <cstddef>
#include <cstdint>

namespace modelrt {

/// Threads per block: the rows one block handles.
constexpr int kAttentionGpuRows = 64;
/// Rows of keys (or queries, key-side) per shared-memory tile.
constexpr int kAttentionGpuTile = 32;
/// The widest head the kernels take (their per-thread row arrays).
constexpr int64_t kAttentionGpuMaxWidth = 128;

/// The kernels, each built per width class.
enum class AttentionGpuKernel { Forward, BackwardQuery, BackwardKey };

/// Where one operand's rows are: element (b, h, r, w) of it is at
/// base[b * batch + h * head + r * row + w].
struct AttentionGpuView {
  float *base;
  int64_t batch, head, row;
};

/// Everything a kernel needs (passed by value: 8-byte aligned, host layout).
struct AttentionGpuArgs {
  AttentionGpuView q, k, v, out;
  AttentionGpuView dout, dq, dk, dv; ///< the backward's (unused forward)
  float *lse;   ///< [batch * heads * queries]: the rows' log-sum-exp
  float *delta; ///< [batch * heads * queries]: rowsum(dout * out)
  int64_t batch, heads, queries, keys, width;
  int64_t causal; ///< 0 or 1
  float scale;    ///< 1 / sqrt(width)
  float pad;
};

/// The width class of a head \p width (<= kAttentionGpuMaxWidth): 32, 64
/// or 128.
constexpr int attentionWidthClass(int64_t width) {
  return width <= 32 ? 32 : width <= 64 ? 64 : 128;
}

/// The kernel's name for width class \p widthClass:
///  * modelrt_attention_gpu_forward_wN: out = softmax(scale q k^T, masked) v,
///    one thread per query row;
///  * modelrt_attention_gpu_backward_query_wN: per query row, lse and delta
///    (written to args.lse / args.delta) and dq;
///  * modelrt_attention_gpu_backward_key_wN: per key row, dk and dv, from the
///    lse and delta the query-side kernel wrote.
inline const char *attentionKernelName(AttentionGpuKernel kernel, int widthClass) {
  static const char *const names[3][3] = {
      {"modelrt_attention_gpu_forward_w32", "modelrt_attention_gpu_forward_w64",
       "modelrt_attention_gpu_forward_w128"},
      {"modelrt_attention_gpu_backward_query_w32", "modelrt_attention_gpu_backward_query_w64",
       "modelrt_attention_gpu_backward_query_w128"},
      {"modelrt_attention_gpu_backward_key_w32", "modelrt_attention_gpu_backward_key_w64",
       "modelrt_attention_gpu_backward_key_w128"}};
  int column = widthClass <= 32 ? 0 : widthClass <= 64 ? 1 : 2;
  return names[static_cast<int>(kernel)][column];
}

} // namespace modelrt

/// The PTX text (NUL-terminated; *size = its length without the NUL) of the
/// kernels above, for cuModuleLoadData. Target sm_90, PTX ISA of CUDA 13.
extern "C" const char *modelrt_attention_ptx(size_t *size);

#endif // MODELRT_CUDA_ATTENTIONKERNELS_H
