//===- LibraryOps.h - Convolutions and pooling as mdl library ops -*- C++ -*-===//
//
// When convert-mdl-to-linalg emits the destination-style library ops
// (MDLLibraryOps.td), and their builders: an f32 groups == 1 convolution
// (with or without a bias) and its two adjoints, f32 max/average pooling and their adjoints, and
// f32 attention and its adjoint, each with every size but the batch static,
// and f32 attention's decoding step with every size static. The CPU
// pipeline calls the runtime for each; other targets expand them
// (modelc-expand-library-ops, ExpandLibraryOps.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_LIB_CONVERSION_MDLTOLINALG_LIBRARYOPS_H
#define MODELC_LIB_CONVERSION_MDLTOLINALG_LIBRARYOPS_H

#include "Common.h"

namespace modelc::lowering {

/// Whether a convolution with these NCHW `input`, OIHW `weight` and NCHW
/// `output` types and `groups` becomes a library op: f32, groups == 1, and
/// every size but the batch static.
bool libraryConvApplies(mlir::RankedTensorType input,
                        mlir::RankedTensorType weight,
                        mlir::RankedTensorType output, int64_t groups);

/// Whether a pooling op (or its gradient) over the NCHW `input` with the
/// NCHW `output` becomes a library op: f32 and every size but the batch
/// static.
bool libraryPoolApplies(mlir::RankedTensorType input,
                        mlir::RankedTensorType output);

/// Attention (mdl.attention's semantics) built unfused from mdl ops: the
/// products, the causal mask and the softmax (Attention.cpp). The ops are
/// left for the mdl-to-linalg patterns.
mlir::Value buildAttention(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value q, mlir::Value k, mlir::Value v,
                           bool causal);

/// mdl.attention_grad's dQ, dK and dV built unfused from mdl ops, likewise.
llvm::SmallVector<mlir::Value>
buildAttentionGrad(mlir::OpBuilder &b, mlir::Location loc, mlir::Value q,
                   mlir::Value k, mlir::Value v, mlir::Value out,
                   mlir::Value g, bool causal);

/// mdl.attention_packed built unfused from mdl ops: qkv (BxTx3xHxD) moved
/// and sliced into BxHxTxD query, key and value, buildAttention, and the
/// result moved to BxTxHxD.
mlir::Value buildAttentionPacked(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value qkv, bool causal);

/// mdl.attention_packed_grad built unfused likewise: buildAttentionGrad on
/// the moved operands, the three gradients joined into qkv's layout.
mlir::Value buildAttentionPackedGrad(mlir::OpBuilder &b, mlir::Location loc,
                                     mlir::Value qkv, mlir::Value out,
                                     mlir::Value g, bool causal);

/// One decoding step of attention built unfused from mdl ops, likewise: the
/// query's scores over every row of the caches (BxHxTxD, T static), the
/// rows after `position` (a tensor<i64>) masked, the softmax and the
/// product with the value cache.
mlir::Value buildAttentionDecode(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value q, mlir::Value keyCache,
                                 mlir::Value valueCache, mlir::Value position);

/// A fresh tensor of `type` to write into, its dynamic batch read from
/// `batchOf` (null when `type` is static).
mlir::Value libraryDestination(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::RankedTensorType type,
                               mlir::Value batchOf);

/// Copies `from`'s `mdl.precision` (mdl-assign-precision's choice for that
/// product) onto the library op defining `libResult`, where the CPU's and
/// cuDNN's calls read it before the module's.
void copyPrecision(mlir::Operation *from, mlir::Value libResult);

/// `LibOp lhs, rhs` into a fresh tensor of `type` (its dynamic batch read
/// from `batchOf`, null when `type` is static) with the window attributes.
template <typename LibOp>
mlir::Value buildLibraryConv(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::RankedTensorType type, mlir::Value lhs,
                             mlir::Value rhs, mlir::Value batchOf,
                             llvm::ArrayRef<int64_t> stride,
                             llvm::ArrayRef<int64_t> padding,
                             llvm::ArrayRef<int64_t> dilation) {
  mlir::Value init = libraryDestination(b, loc, type, batchOf);
  return LibOp::create(b, loc, type, lhs, rhs, init, stride, padding,
                       dilation)
      .getResult();
}

/// `LibOp inputs...` into a fresh tensor of `type` (its batch read from the
/// first input) with the pooling window `kernel`, `stride`, `padding`.
template <typename LibOp, typename... Inputs>
mlir::Value buildLibraryPool(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::RankedTensorType type,
                             llvm::ArrayRef<int64_t> kernel,
                             llvm::ArrayRef<int64_t> stride,
                             llvm::ArrayRef<int64_t> padding,
                             mlir::Value first, Inputs... rest) {
  mlir::Value init = libraryDestination(b, loc, type, first);
  return LibOp::create(b, loc, type, first, rest..., init, kernel, stride,
                       padding)
      .getResult();
}

} // namespace modelc::lowering

#endif // MODELC_LIB_CONVERSION_MDLTOLINALG_LIBRARYOPS_H
