//===- Im2Col.h - im2col / col2im + GEMM builders for conv2d -----*- C++ -*-===//
//
// Builders that express a groups == 1 convolution and its two adjoints as
// rank-2 contractions (which the CPU pipeline's modelc-matmul-to-blas pass
// turns into cblas_sgemm) around gather-style linalg.generic ops:
//   columns  [C*KH*KW, N*OH*OW]  (im2col of the padded input)
//   forward  Y[O, N*OH*OW]      = W[O, C*KH*KW] @ columns
//   dW       dW[O, C*KH*KW]     = dY[O, N*OH*OW] @ columns^T
//   dX       dCols[C*KH*KW, N*OH*OW] = W^T @ dY, then col2im (a gather over
//            kernel positions, cropping the padding).
// Channel and spatial sizes must be static; the batch may be dynamic.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_LIB_CONVERSION_MDLTOLINALG_IM2COL_H
#define MODELC_LIB_CONVERSION_MDLTOLINALG_IM2COL_H

#include "Common.h"

namespace modelc::lowering {

/// Static geometry of one 2-D convolution (NCHW input, OIHW weight).
struct ConvGeometry {
  int64_t channels, height, width; ///< unpadded input C, H, W
  int64_t outChannels, kh, kw;     ///< weight O, KH, KW
  int64_t oh, ow;                  ///< output spatial size
  int64_t stride[2], padding[2], dilation[2];
};

/// Fills `geom` from the input, weight and output types and the conv
/// attributes; fails when a non-batch size is dynamic.
mlir::LogicalResult
convGeometry(mlir::RankedTensorType input, mlir::RankedTensorType weight,
             mlir::RankedTensorType output, llvm::ArrayRef<int64_t> stride,
             llvm::ArrayRef<int64_t> padding, llvm::ArrayRef<int64_t> dilation,
             ConvGeometry &geom);

/// im2col of the (unpadded) NCHW `input`: [C*KH*KW, N*OH*OW] with
/// `cols[(c,kh,kw), (n,oh,ow)] = xpad[n, c, oh*s + kh*d, ow*s + kw*d]`
/// (a rank-6 generic, collapsed).
mlir::Value im2colColumns(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value input, const ConvGeometry &geom);

/// A rank-2 contraction generic acc[m, n] += opA(a)[m, k] * opB(b)[k, n],
/// where opX transposes when `transX` is set.
mlir::Value gemm(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                 bool transLhs, mlir::Value rhs, bool transRhs,
                 mlir::Value acc);

/// The OIHW weight viewed as the matrix [O, C*KH*KW] (a collapse_shape).
mlir::Value weightMatrix(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value weight);

/// The NCHW tensor `y` as the channel-major matrix [C, N*H*W] (a transposing
/// copy over C x N x H x W, collapsed).
mlir::Value channelMajor(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value y);

/// The inverse of channelMajor for the conv output: [O, N*OH*OW] read in
/// place (no reshape) into
/// `type` = N x O x OH x OW, adding `bias` (may be null) per channel; the
/// batch size is read from `batchOf` (dimension 0).
mlir::Value fromChannelMajor(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value matrix, mlir::RankedTensorType type,
                             mlir::Value batchOf, mlir::Value bias);

/// The matrix [O, C*KH*KW] viewed as the OIHW weight `type` (an
/// expand_shape).
mlir::Value weightFromMatrix(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value matrix, mlir::RankedTensorType type);

/// col2im: the input gradient `type` (N x C x H x W) where each element sums
/// the entries of `cols` ([C*KH*KW, N*OH*OW]) that read it in im2col.
mlir::Value col2im(mlir::OpBuilder &b, mlir::Location loc, mlir::Value cols,
                   mlir::RankedTensorType type, mlir::Value batchOf,
                   const ConvGeometry &geom);

} // namespace modelc::lowering

#endif // MODELC_LIB_CONVERSION_MDLTOLINALG_IM2COL_H
