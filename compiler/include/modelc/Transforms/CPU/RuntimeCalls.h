//===- RuntimeCalls.h - The runtime's entry points for library ops -*- C++ -*-===//
//
// The C functions that modelc-library-to-calls calls for the mdl library
// ops, as the runtime defines them (runtime/include/modelrt/core/Conv.h,
// Pool.h, Embedding.h and Attention.h; dist/Collective.h): pointers (the op's operands in order,
// the output last), then the sizes as i64 in the order of ConvCallSize,
// PoolCallSize, EmbeddingCallSize, AttentionCallSize,
// AttentionPackedCallSize or AttentionDecodeCallSize. The
// profiler's FLOP count (KernelProfile.cpp) reads the sizes by position.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_TRANSFORMS_CPU_RUNTIMECALLS_H
#define MODELC_TRANSFORMS_CPU_RUNTIMECALLS_H

#include "llvm/ADT/StringRef.h"

namespace modelc {

/// y = conv(x, w): (x, w, y, sizes...).
inline constexpr llvm::StringLiteral kConvForwardCall =
    "modelrt_conv2d_forward";
/// y = conv(x, w) + bias per output channel: (x, w, bias, y, sizes...).
inline constexpr llvm::StringLiteral kConvForwardBiasCall =
    "modelrt_conv2d_forward_bias";
/// dx from dy and w: (dy, w, dx, sizes...).
inline constexpr llvm::StringLiteral kConvBackwardDataCall =
    "modelrt_conv2d_backward_data";
/// dw from x and dy: (x, dy, dw, sizes...).
inline constexpr llvm::StringLiteral kConvBackwardWeightsCall =
    "modelrt_conv2d_backward_weights";
/// The convolutions' bf16 forms (same signatures: inputs rounded to bf16,
/// f32 accumulation), called in a module whose `mdl.precision` is bf16.
inline constexpr llvm::StringLiteral kConvForwardBf16Call =
    "modelrt_conv2d_forward_bf16";
/// kConvForwardBiasCall's bf16 form (the bias stays f32).
inline constexpr llvm::StringLiteral kConvForwardBiasBf16Call =
    "modelrt_conv2d_forward_bias_bf16";
/// A convolution with a bias whose result only a 2x2 / 2 max pooling reads,
/// and that pooling: (x, w, bias, y, pooled, codes or null, the
/// convolution's sizes...); y is scratch (ConvMaxPool.h).
inline constexpr llvm::StringLiteral kConvForwardBiasMaxPoolCall =
    "modelrt_conv2d_forward_bias_max_pool2d";
/// kConvForwardBiasMaxPoolCall's bf16 form (the bias stays f32).
inline constexpr llvm::StringLiteral kConvForwardBiasMaxPoolBf16Call =
    "modelrt_conv2d_forward_bias_max_pool2d_bf16";
inline constexpr llvm::StringLiteral kConvBackwardDataBf16Call =
    "modelrt_conv2d_backward_data_bf16";
inline constexpr llvm::StringLiteral kConvBackwardWeightsBf16Call =
    "modelrt_conv2d_backward_weights_bf16";
/// A convolution's two gradients on one dy, as kConvBackwardDataCall then
/// kConvBackwardWeightsCall: (dy, x, w, dx, dw, sizes...) (ConvBackward.h).
inline constexpr llvm::StringLiteral kConvBackwardCall = "modelrt_conv2d_backward";
/// kConvBackwardCall's bf16 form.
inline constexpr llvm::StringLiteral kConvBackwardBf16Call = "modelrt_conv2d_backward_bf16";
/// A 2x2 max pooling's gradient from its codes, which is the output gradient
/// of the convolution before the pooling, then that convolution's two f32
/// gradients: (pooled dy, codes, x, w, dy, dx, dw, sizes...); dy is scratch
/// (ConvFromMaxPool.h).
inline constexpr llvm::StringLiteral kConvBackwardFromMaxPoolCall =
    "modelrt_conv2d_backward_from_max_pool2d";
/// The same with the weights' gradient alone: (pooled dy, codes, x, dy, dw,
/// sizes...).
inline constexpr llvm::StringLiteral kConvBackwardWeightsFromMaxPoolCall =
    "modelrt_conv2d_backward_weights_from_max_pool2d";
/// The bf16 forms of the two above (the convolution's bf16 gradients).
inline constexpr llvm::StringLiteral kConvBackwardFromMaxPoolBf16Call =
    "modelrt_conv2d_backward_from_max_pool2d_bf16";
inline constexpr llvm::StringLiteral kConvBackwardWeightsFromMaxPoolBf16Call =
    "modelrt_conv2d_backward_weights_from_max_pool2d_bf16";
/// cblas_sgemm's bf16 form (same signature), MatmulToBlas's bf16 callee.
inline constexpr llvm::StringLiteral kGemmBf16Call = "modelrt_gemm_bf16";
/// y = maxpool(x): (x, y, sizes...).
inline constexpr llvm::StringLiteral kMaxPoolForwardCall =
    "modelrt_max_pool2d_forward";
/// dx from dy and x: (dy, x, dx, sizes...).
inline constexpr llvm::StringLiteral kMaxPoolBackwardCall =
    "modelrt_max_pool2d_backward";
/// y = maxpool(x) and each window's arg-max as a byte: (x, y, codes,
/// sizes...), when the training step's gradient of it follows.
inline constexpr llvm::StringLiteral kMaxPoolForwardCodesCall =
    "modelrt_max_pool2d_forward_codes";
/// dx from dy and those codes: (dy, codes, dx, sizes...).
inline constexpr llvm::StringLiteral kMaxPoolBackwardCodesCall =
    "modelrt_max_pool2d_backward_codes";
/// y = avgpool(x): (x, y, sizes...).
inline constexpr llvm::StringLiteral kAvgPoolForwardCall =
    "modelrt_avg_pool2d_forward";
/// dx from dy: (dy, dx, sizes...).
inline constexpr llvm::StringLiteral kAvgPoolBackwardCall =
    "modelrt_avg_pool2d_backward";

/// An embedding table's gradient, zeroed then scatter-added, with i64 or
/// i32 indices: (indices, grad, table, sizes...).
inline constexpr llvm::StringLiteral kEmbeddingBackwardI64Call =
    "modelrt_embedding_backward_i64";
inline constexpr llvm::StringLiteral kEmbeddingBackwardI32Call =
    "modelrt_embedding_backward_i32";

/// Scaled-dot-product attention: (q, k, v, out, sizes...).
inline constexpr llvm::StringLiteral kAttentionForwardCall =
    "modelrt_attention_forward";
/// Its adjoint into one buffer dQ, dK, dV: (q, k, v, out, dout, dqkv,
/// sizes...).
inline constexpr llvm::StringLiteral kAttentionBackwardCall =
    "modelrt_attention_backward";
/// Self-attention in the packed layout: (qkv, out, sizes...).
inline constexpr llvm::StringLiteral kAttentionPackedForwardCall =
    "modelrt_attention_packed_forward";
/// Its adjoint, laid out as qkv: (qkv, out, dout, dqkv, sizes...).
inline constexpr llvm::StringLiteral kAttentionPackedBackwardCall =
    "modelrt_attention_packed_backward";
/// One decoding step of attention over key/value caches: (q, kcache,
/// vcache, position, out, sizes...), the position by pointer (an int64_t).
inline constexpr llvm::StringLiteral kAttentionDecodeCall =
    "modelrt_attention_decode";
/// The sum of an f64 buffer over the ranks of a data-parallel run
/// (runtime/include/modelrt/dist/Collective.h): (input, sum, n).
inline constexpr llvm::StringLiteral kSumRanksCall = "modelrt_dist_sum_f64";
/// The same four attention calls on the GPU (device pointers, the same
/// arguments; runtime/include/modelrt/cuda/GpuAbi.h).
inline constexpr llvm::StringLiteral kCudaAttentionForwardCall =
    "modelrt_cuda_attention_forward";
inline constexpr llvm::StringLiteral kCudaAttentionBackwardCall =
    "modelrt_cuda_attention_backward";
inline constexpr llvm::StringLiteral kCudaAttentionPackedForwardCall =
    "modelrt_cuda_attention_packed_forward";
inline constexpr llvm::StringLiteral kCudaAttentionPackedBackwardCall =
    "modelrt_cuda_attention_packed_backward";
/// The three convolution calls on the GPU through cuDNN (device pointers,
/// the same arguments; GpuAbi.h), by the module's `mdl.precision`: f32,
/// TF32 and bf16.
inline constexpr llvm::StringLiteral kCudaConvForwardCall =
    "modelrt_cuda_conv2d_forward";
inline constexpr llvm::StringLiteral kCudaConvBackwardDataCall =
    "modelrt_cuda_conv2d_backward_data";
inline constexpr llvm::StringLiteral kCudaConvBackwardWeightsCall =
    "modelrt_cuda_conv2d_backward_weights";
inline constexpr llvm::StringLiteral kCudaConvForwardTf32Call =
    "modelrt_cuda_conv2d_forward_tf32";
inline constexpr llvm::StringLiteral kCudaConvBackwardDataTf32Call =
    "modelrt_cuda_conv2d_backward_data_tf32";
inline constexpr llvm::StringLiteral kCudaConvBackwardWeightsTf32Call =
    "modelrt_cuda_conv2d_backward_weights_tf32";
inline constexpr llvm::StringLiteral kCudaConvForwardBf16Call =
    "modelrt_cuda_conv2d_forward_bf16";
inline constexpr llvm::StringLiteral kCudaConvBackwardDataBf16Call =
    "modelrt_cuda_conv2d_backward_data_bf16";
inline constexpr llvm::StringLiteral kCudaConvBackwardWeightsBf16Call =
    "modelrt_cuda_conv2d_backward_weights_bf16";
/// Gradient `index` of the training step is final: (index as i64). Inserted
/// by modelc-grad-ready-calls (runtime/include/modelrt/dist/GradReduce.h).
inline constexpr llvm::StringLiteral kGradReadyCall = "modelrt_grad_ready";
/// The argument (result, before the out-param rewrite) attribute that marks
/// a buffer of the training step as the gradient of parameter N: an i64.
inline constexpr llvm::StringLiteral kGradAttrName = "modelc.grad";

/// The prefixes of the convolution and of the pooling entry points.
inline constexpr llvm::StringLiteral kConvCallPrefix = "modelrt_conv2d_";
inline constexpr llvm::StringLiteral kMaxPoolCallPrefix = "modelrt_max_pool2d_";
inline constexpr llvm::StringLiteral kAvgPoolCallPrefix = "modelrt_avg_pool2d_";
/// The prefixes of the attention and the embedding-gradient entry points.
inline constexpr llvm::StringLiteral kAttentionCallPrefix = "modelrt_attention_";
inline constexpr llvm::StringLiteral kEmbeddingCallPrefix = "modelrt_embedding_";

/// A convolution's sizes, after its pointers (three, four with a bias): input N x C x H x W,
/// weight O x C x KH x KW, output N x O x OH x OW, then the window.
enum ConvCallSize : unsigned {
  ConvN, ConvC, ConvH, ConvW, ConvO, ConvKH, ConvKW, ConvOH, ConvOW,
  ConvStrideH, ConvStrideW, ConvPadH, ConvPadW, ConvDilH, ConvDilW,
  ConvNumSizes
};

/// A pooling op's sizes, after its two or three pointers: input
/// N x C x H x W, output N x C x OH x OW, then the window.
enum PoolCallSize : unsigned {
  PoolN, PoolC, PoolH, PoolW, PoolOH, PoolOW, PoolKH, PoolKW,
  PoolStrideH, PoolStrideW, PoolPadH, PoolPadW,
  PoolNumSizes
};

/// The embedding gradient's sizes, after its three pointers: the
/// positions S, the row width D, the table's rows N.
enum EmbeddingCallSize : unsigned {
  EmbeddingPositions, EmbeddingWidth, EmbeddingRows, EmbeddingNumSizes
};

/// Attention's sizes, after its pointers: batch, heads, queries, keys,
/// width, then causal (0 or 1).
enum AttentionCallSize : unsigned {
  AttentionBatch, AttentionHeads, AttentionQueries, AttentionKeys,
  AttentionWidth, AttentionCausal, AttentionNumSizes
};

/// Packed attention's sizes, after its pointers: batch, heads, length,
/// width, then causal (0 or 1).
enum AttentionPackedCallSize : unsigned {
  PackedBatch, PackedHeads, PackedLength, PackedWidth, PackedCausal,
  PackedNumSizes
};

/// A decoding step's sizes, after its pointers: batch, heads, the caches'
/// rows (the decoded length), width.
enum AttentionDecodeCallSize : unsigned {
  DecodeBatch, DecodeHeads, DecodeLength, DecodeWidth, DecodeNumSizes
};

} // namespace modelc

#endif // MODELC_TRANSFORMS_CPU_RUNTIMECALLS_H
