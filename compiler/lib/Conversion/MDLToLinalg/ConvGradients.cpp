//===- ConvGradients.cpp - mdl conv2d adjoints -> linalg ------------------===//
//
// f32, groups == 1, static sizes: the library ops mdl.lib_conv2d_grad_input
// and mdl.lib_conv2d_grad_weight (LibraryOps.h; a library call on the CPU,
// im2col / col2im + GEMM elsewhere). Otherwise the direct forms below.
// conv2d_grad_input: a transposed convolution. The incoming gradient is
// zero-stuffed by the stride and padded by (K-1)*dilation - padding (cropped
// where that is negative) with one tensor.insert_slice into zeros, then
// convolved (stride 1, same dilation) with the flipped, channel-transposed
// weight: linalg.conv_2d_nchw_fchw (groups = 1) or conv_2d_ngchw_gfchw.
// conv2d_grad_weight: one reduction linalg.generic over (n, oh, ow) reading
// the zero-padded input at (oh*s + kh*d, ow*s + kw*d), in grouped form
// (G x O/G x C/G x KH x KW) collapsed back to O x C/G x KH x KW.
// Channel and spatial sizes must be static (only the batch is dynamic).
//
//===----------------------------------------------------------------------===//
#include "Common.h"
#include "LibraryOps.h"

using namespace mlir;
using namespace mlir::mdl;
using namespace modelc::lowering;

namespace {

/// Where the gradient's rows land, along one spatial dimension, in the
/// zero-stuffed and padded buffer that the transposed convolution reads.
struct StuffedDim {
  int64_t padded; ///< size of the buffer: in + (K-1)*dilation
  int64_t first;  ///< first gradient row kept (rows cropped by padding)
  int64_t count;  ///< number of gradient rows kept
  int64_t offset; ///< buffer position of the first kept row
};

StuffedDim stuffedDim(int64_t in, int64_t out, int64_t k, int64_t s,
                      int64_t p, int64_t d) {
  int64_t span = (k - 1) * d;
  int64_t low = span - p; // buffer position of gradient row 0
  StuffedDim r;
  r.padded = in + span;
  r.first = low < 0 ? (-low + s - 1) / s : 0;
  int64_t end = std::min(out, (r.padded - low + s - 1) / s);
  r.count = std::max<int64_t>(end - r.first, 0);
  r.offset = low + r.first * s;
  return r;
}

/// Reports (at the op) a channel or spatial size that is not static.
LogicalResult requireStaticSizes(Operation *op, ValueRange values) {
  for (Value v : values) {
    auto type = cast<RankedTensorType>(v.getType());
    for (int64_t d = 1; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        return op->emitError("cannot lower '")
               << op->getName()
               << "' with a dynamic channel or spatial size (only the batch "
                  "dimension may be dynamic)";
  }
  return success();
}

/// Splits dimension `dim` of `v` into (groups, size/groups).
Value splitGroups(OpBuilder &b, Location loc, Value v, int64_t dim,
                  int64_t groups) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] /= groups;
  shape.insert(shape.begin() + dim, groups);
  SmallVector<ReassociationIndices> reassoc;
  for (int64_t d = 0; d < type.getRank(); ++d)
    reassoc.push_back(d < dim    ? ReassociationIndices{d}
                      : d == dim ? ReassociationIndices{d, d + 1}
                                 : ReassociationIndices{d + 1});
  SmallVector<OpFoldResult> outShape;
  for (int64_t d = 0; d < (int64_t)shape.size(); ++d)
    outShape.push_back(b.getIndexAttr(shape[d]));
  if (type.isDynamicDim(0))
    outShape[0] = tensor::getMixedSize(b, loc, v, 0);
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), v, reassoc,
      outShape);
}

/// Merges dimensions `dim` and `dim + 1` of `v`.
Value mergeGroups(OpBuilder &b, Location loc, Value v, int64_t dim) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<ReassociationIndices> reassoc;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (d == dim + 1)
      continue;
    reassoc.push_back(d == dim ? ReassociationIndices{d, d + 1}
                               : ReassociationIndices{d});
  }
  return tensor::CollapseShapeOp::create(b, loc, v, reassoc);
}

/// The flipped weight in grouped form: G x C/G x O/G x KH x KW with
/// `wt[g, ci, oi, kh, kw] = w[g * O/G + oi, ci, KH-1-kh, KW-1-kw]`.
Value flippedWeight(OpBuilder &b, Location loc, Value weight, int64_t groups) {
  auto wType = cast<RankedTensorType>(weight.getType());
  int64_t o = wType.getDimSize(0), cg = wType.getDimSize(1);
  int64_t kh = wType.getDimSize(2), kw = wType.getDimSize(3);
  int64_t og = o / groups;
  MLIRContext *ctx = b.getContext();
  auto dim = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  AffineMap read = AffineMap::get(
      5, 0, {dim(0) * og + dim(2), dim(1), kh - 1 - dim(3), kw - 1 - dim(4)},
      ctx);
  auto type = RankedTensorType::get({groups, cg, og, kh, kw},
                                    wType.getElementType());
  Value init = emptyTensor(b, loc, type, {});
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{weight}, ValueRange{init},
             {read, AffineMap::getMultiDimIdentityMap(5, ctx)},
             parallelIterators(5),
             [](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(nb, nl, args[0]);
             })
      .getResult(0);
}

/// The gradient zero-stuffed by the stride and padded for the transposed
/// convolution (N x O x (H + span) x (W + span)), or null when no gradient
/// row reaches the input.
Value stuffedGradient(OpBuilder &b, Location loc, Conv2DGradInputOp op,
                      Value grad, RankedTensorType inType, int64_t kh,
                      int64_t kw) {
  auto gType = cast<RankedTensorType>(grad.getType());
  ArrayRef<int64_t> s = op.getStride(), p = op.getPadding(),
                    d = op.getDilation();
  StuffedDim rows = stuffedDim(inType.getDimSize(2), gType.getDimSize(2), kh,
                               s[0], p[0], d[0]);
  StuffedDim cols = stuffedDim(inType.getDimSize(3), gType.getDimSize(3), kw,
                               s[1], p[1], d[1]);
  if (rows.count == 0 || cols.count == 0)
    return Value();
  OpFoldResult batch = tensor::getMixedSize(b, loc, grad, 0);
  OpFoldResult channels = b.getIndexAttr(gType.getDimSize(1));
  SmallVector<OpFoldResult> sizes = {batch, channels,
                                     b.getIndexAttr(rows.count),
                                     b.getIndexAttr(cols.count)};
  if (rows.count != gType.getDimSize(2) || cols.count != gType.getDimSize(3)) {
    SmallVector<OpFoldResult> offsets = {
        b.getIndexAttr(0), b.getIndexAttr(0), b.getIndexAttr(rows.first),
        b.getIndexAttr(cols.first)};
    SmallVector<OpFoldResult> ones(4, b.getIndexAttr(1));
    grad = tensor::ExtractSliceOp::create(b, loc, grad, offsets, sizes, ones);
  }
  auto bufType = RankedTensorType::get(
      {gType.getDimSize(0), gType.getDimSize(1), rows.padded, cols.padded},
      gType.getElementType());
  Value zero = scalarConstant(b, loc, gType.getElementType(), 0);
  Value buf = filledTensor(b, loc, bufType,
                           dynamicSizesFrom(b, loc, bufType, grad), zero);
  SmallVector<OpFoldResult> offsets = {b.getIndexAttr(0), b.getIndexAttr(0),
                                       b.getIndexAttr(rows.offset),
                                       b.getIndexAttr(cols.offset)};
  SmallVector<OpFoldResult> strides = {b.getIndexAttr(1), b.getIndexAttr(1),
                                       b.getIndexAttr(s[0]),
                                       b.getIndexAttr(s[1])};
  return tensor::InsertSliceOp::create(b, loc, grad, buf, offsets, sizes,
                                       strides);
}

/// groups == 1, f32, static sizes: mdl.lib_conv2d_grad_input into a fresh
/// tensor (LibraryOps.h). Returns null otherwise.
Value libraryGradInput(OpBuilder &b, Location loc, Conv2DGradInputOp op,
                       Value grad, Value weight) {
  auto inType = cast<RankedTensorType>(op.getType());
  if (!libraryConvApplies(inType, cast<RankedTensorType>(weight.getType()),
                          cast<RankedTensorType>(grad.getType()),
                          op.getGroups()))
    return Value();
  Value dx = buildLibraryConv<LibConv2DGradInputOp>(
      b, loc, inType, grad, weight, grad, op.getStride(), op.getPadding(),
      op.getDilation());
  copyPrecision(op, dx);
  return dx;
}

/// groups == 1, f32, static sizes: mdl.lib_conv2d_grad_weight into a fresh
/// tensor (LibraryOps.h). Returns null otherwise.
Value libraryGradWeight(OpBuilder &b, Location loc, Conv2DGradWeightOp op,
                        Value grad, Value input) {
  auto wType = cast<RankedTensorType>(op.getType());
  if (!libraryConvApplies(cast<RankedTensorType>(input.getType()), wType,
                          cast<RankedTensorType>(grad.getType()),
                          op.getGroups()))
    return Value();
  Value dw = buildLibraryConv<LibConv2DGradWeightOp>(
      b, loc, wType, input, grad, Value(), op.getStride(), op.getPadding(),
      op.getDilation());
  copyPrecision(op, dw);
  return dw;
}

FailureOr<Value> lowerGradInput(Conv2DGradInputOp op,
                                Conv2DGradInputOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value grad = adaptor.getGrad(), weight = adaptor.getOtherOperand();
  if (failed(requireStaticSizes(op, {grad, weight, adaptor.getTargetOperand()})))
    return failure();
  auto inType = cast<RankedTensorType>(op.getType());
  auto wType = cast<RankedTensorType>(weight.getType());
  int64_t groups = op.getGroups();
  if (Value fast = libraryGradInput(rewriter, loc, op, grad, weight))
    return fast;
  Value zero = scalarConstant(rewriter, loc, inType.getElementType(), 0);
  Value acc = filledTensor(rewriter, loc, inType,
                           dynamicSizesFrom(rewriter, loc, inType, grad), zero);
  Value stuffed = stuffedGradient(rewriter, loc, op, grad, inType,
                                  wType.getDimSize(2), wType.getDimSize(3));
  if (!stuffed)
    return acc;
  Value flipped = flippedWeight(rewriter, loc, weight, groups);
  DenseIntElementsAttr ones = i64Elements(rewriter, {1, 1});
  DenseIntElementsAttr dil = i64Elements(rewriter, op.getDilation());
  if (groups == 1)
    return linalg::Conv2DNchwFchwOp::create(
               rewriter, loc, TypeRange{inType},
               ValueRange{stuffed, mergeGroups(rewriter, loc, flipped, 0)},
               ValueRange{acc}, ones, dil)
        .getResult(0);
  Value acc5 = splitGroups(rewriter, loc, acc, 1, groups);
  Value conv = linalg::Conv2DNgchwGfchwOp::create(
                   rewriter, loc, TypeRange{acc5.getType()},
                   ValueRange{splitGroups(rewriter, loc, stuffed, 1, groups),
                              flipped},
                   ValueRange{acc5}, ones, dil)
                   .getResult(0);
  return mergeGroups(rewriter, loc, conv, 1);
}

FailureOr<Value> lowerGradWeight(Conv2DGradWeightOp op,
                                 Conv2DGradWeightOp::Adaptor adaptor,
                                 ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value grad = adaptor.getGrad(), input = adaptor.getOtherOperand();
  if (failed(requireStaticSizes(op, {grad, input, adaptor.getTargetOperand()})))
    return failure();
  auto wType = cast<RankedTensorType>(op.getType());
  int64_t groups = op.getGroups();
  if (Value fast = libraryGradWeight(rewriter, loc, op, grad, input))
    return fast;
  Type elem = wType.getElementType();
  Value zero = scalarConstant(rewriter, loc, elem, 0);
  Value x = splitGroups(
      rewriter, loc, padSpatial(rewriter, loc, input, op.getPadding(), zero), 1,
      groups);
  Value g = splitGroups(rewriter, loc, grad, 1, groups);
  int64_t og = wType.getDimSize(0) / groups;
  auto accType =
      RankedTensorType::get({groups, og, wType.getDimSize(1),
                             wType.getDimSize(2), wType.getDimSize(3)},
                            elem);
  Value acc = filledTensor(rewriter, loc, accType, {}, zero);
  // Loops (g, oi, ci, kh, kw | n, oh, ow).
  MLIRContext *ctx = rewriter.getContext();
  auto dim = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  ArrayRef<int64_t> s = op.getStride(), d = op.getDilation();
  SmallVector<AffineMap> maps = {
      AffineMap::get(8, 0, {dim(5), dim(0), dim(1), dim(6), dim(7)}, ctx),
      AffineMap::get(8, 0,
                     {dim(5), dim(0), dim(2), dim(6) * s[0] + dim(3) * d[0],
                      dim(7) * s[1] + dim(4) * d[1]},
                     ctx),
      AffineMap::get(8, 0, {dim(0), dim(1), dim(2), dim(3), dim(4)}, ctx)};
  SmallVector<utils::IteratorType> iters = parallelIterators(5);
  iters.append(3, utils::IteratorType::reduction);
  Value sum = linalg::GenericOp::create(
                  rewriter, loc, TypeRange{accType}, ValueRange{g, x},
                  ValueRange{acc}, maps, iters,
                  [](OpBuilder &nb, Location nl, ValueRange args) {
                    Value prod = arith::MulFOp::create(nb, nl, args[0], args[1]);
                    linalg::YieldOp::create(
                        nb, nl, Value(arith::AddFOp::create(nb, nl, args[2], prod)));
                  })
                  .getResult(0);
  return mergeGroups(rewriter, loc, sum, 0);
}

} // namespace

void modelc::populateMDLConvGradientsToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FnPattern<Conv2DGradInputOp, lowerGradInput>,
               FnPattern<Conv2DGradWeightOp, lowerGradWeight>>(
      patterns.getContext());
}
