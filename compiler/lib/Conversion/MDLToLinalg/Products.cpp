//===- Products.cpp - mdl matmul / batch_matmul / conv2d -> linalg --------===//
//
// matmul -> linalg.matmul (leading lhs dims collapsed into M, expanded
// back), batch_matmul -> linalg.batch_matmul, an f32 conv2d with groups == 1
// and static channel/spatial sizes -> mdl.lib_conv2d (a library call on the
// CPU, im2col + GEMM elsewhere; LibraryOps.h) plus the bias, otherwise
// linalg.conv_2d_nchw_fchw or
// linalg.conv_2d_ngchw_gfchw (groups > 1, through expand/collapse_shape),
// with padding as tensor.pad and the bias broadcast into the accumulator.
//
//===----------------------------------------------------------------------===//
#include "Common.h"
#include "LibraryOps.h"

using namespace mlir;
using namespace mlir::mdl;
using namespace modelc::lowering;

namespace {

/// A zero-filled accumulator of `type` whose dynamic sizes come from `like`.
Value zeroAccumulator(OpBuilder &b, Location loc, RankedTensorType type,
                      Value like) {
  Value zero = scalarConstant(b, loc, type.getElementType(), 0);
  return filledTensor(b, loc, type, dynamicSizesFrom(b, loc, type, like), zero);
}

FailureOr<Value> lowerMatmul(MatmulOp op, MatmulOp::Adaptor adaptor,
                             ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value lhs = adaptor.getLhs();
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto resultType = cast<RankedTensorType>(op.getType());
  int64_t rank = lhsType.getRank();
  if (rank == 2) {
    Value acc = zeroAccumulator(rewriter, loc, resultType, lhs);
    return linalg::MatmulOp::create(rewriter, loc, ValueRange{lhs, adaptor.getRhs()},
                                    ValueRange{acc})
        .getResult(0);
  }
  // ...xMxK: collapse the leading dimensions into M.
  ReassociationIndices lead;
  for (int64_t d = 0; d < rank - 1; ++d)
    lead.push_back(d);
  SmallVector<ReassociationIndices> groups = {lead, {rank - 1}};
  Value flat = tensor::CollapseShapeOp::create(rewriter, loc, lhs, groups);
  auto flatType = RankedTensorType::get(
      {cast<RankedTensorType>(flat.getType()).getDimSize(0),
       resultType.getDimSize(rank - 1)},
      resultType.getElementType());
  Value acc = zeroAccumulator(rewriter, loc, flatType, flat);
  Value product = linalg::MatmulOp::create(rewriter, loc,
                                           ValueRange{flat, adaptor.getRhs()},
                                           ValueRange{acc})
                      .getResult(0);
  SmallVector<OpFoldResult> outShape;
  for (int64_t d = 0; d < rank - 1; ++d)
    outShape.push_back(tensor::getMixedSize(rewriter, loc, lhs, d));
  outShape.push_back(rewriter.getIndexAttr(resultType.getDimSize(rank - 1)));
  return Value(tensor::ExpandShapeOp::create(rewriter, loc, resultType, product,
                                             groups, outShape));
}

FailureOr<Value> lowerBatchMatmul(BatchMatmulOp op,
                                  BatchMatmulOp::Adaptor adaptor,
                                  ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  auto resultType = cast<RankedTensorType>(op.getType());
  Value acc = zeroAccumulator(rewriter, loc, resultType, adaptor.getLhs());
  return linalg::BatchMatmulOp::create(
             rewriter, loc, ValueRange{adaptor.getLhs(), adaptor.getRhs()},
             ValueRange{acc})
      .getResult(0);
}

/// The convolution accumulator: the bias broadcast along dimension 1, or 0.
Value convAccumulator(OpBuilder &b, Location loc, RankedTensorType type,
                      Value input, Value bias) {
  if (!bias)
    return zeroAccumulator(b, loc, type, input);
  MLIRContext *ctx = b.getContext();
  Value init = emptyTensor(b, loc, type, dynamicSizesFrom(b, loc, type, input));
  SmallVector<AffineMap> maps = {
      AffineMap::get(4, 0, {getAffineDimExpr(1, ctx)}, ctx),
      AffineMap::getMultiDimIdentityMap(4, ctx)};
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{bias}, ValueRange{init}, maps,
             parallelIterators(4),
             [](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(nb, nloc, args[0]);
             })
      .getResult(0);
}

/// Grouped convolution: NxCxHxW -> NxGx(C/G)xHxW, OxCgxKxK -> Gx(O/G)xCgxKxK,
/// linalg.conv_2d_ngchw_gfchw, then back to NxOxHoxWo.
Value groupedConv(OpBuilder &b, Location loc, Conv2DOp op, Value input,
                  Value weight, Value acc) {
  int64_t g = op.getGroups();
  auto inType = cast<RankedTensorType>(input.getType());
  auto wType = cast<RankedTensorType>(weight.getType());
  auto accType = cast<RankedTensorType>(acc.getType());
  Type elem = inType.getElementType();
  auto split = [&](Value v, RankedTensorType t, int64_t dim, bool batch) {
    SmallVector<int64_t> shape(t.getShape());
    shape[dim] /= g;
    shape.insert(shape.begin() + dim, g);
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < t.getRank(); ++d)
      groups.push_back(d < dim ? ReassociationIndices{d}
                       : d == dim ? ReassociationIndices{d, d + 1}
                                  : ReassociationIndices{d + 1});
    SmallVector<OpFoldResult> outShape;
    for (int64_t s : shape)
      outShape.push_back(b.getIndexAttr(s));
    if (batch)
      outShape[0] = tensor::getMixedSize(b, loc, v, 0);
    return tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get(shape, elem), v, groups, outShape);
  };
  Value in5 = split(input, inType, 1, true);
  Value w5 = split(weight, wType, 0, false);
  auto acc5 = split(acc, accType, 1, true);
  Value conv = linalg::Conv2DNgchwGfchwOp::create(
                   b, loc, TypeRange{acc5.getType()}, ValueRange{in5, w5},
                   ValueRange{acc5}, i64Elements(b, op.getStride()),
                   i64Elements(b, op.getDilation()))
                   .getResult(0);
  return tensor::CollapseShapeOp::create(b, loc, accType, conv,
                                         acc5.getReassociationIndices());
}

/// groups == 1, f32, static channel/spatial sizes: mdl.lib_conv2d into a
/// fresh tensor (LibraryOps.h), then the bias added per channel. Returns
/// null otherwise.
Value libraryConv(OpBuilder &b, Location loc, Conv2DOp op, Value input,
                  Value weight, Value bias) {
  auto resultType = cast<RankedTensorType>(op.getType());
  if (!libraryConvApplies(cast<RankedTensorType>(input.getType()),
                          cast<RankedTensorType>(weight.getType()),
                          resultType, op.getGroups()))
    return Value();
  Value conv = buildLibraryConv<LibConv2DOp>(
      b, loc, resultType, input, weight, input, op.getStride(),
      op.getPadding(), op.getDilation());
  if (!bias)
    return conv;
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(4),
                                 selectDims(4, {1}, ctx)};
  return mapGeneric(b, loc, conv, resultType.getElementType(),
                    ValueRange{conv, bias}, maps,
                    [](OpBuilder &nb, Location nl, ValueRange args) {
                      return addFloats(nb, nl, args);
                    });
}

FailureOr<Value> lowerConv2D(Conv2DOp op, Conv2DOp::Adaptor adaptor,
                             ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  auto resultType = cast<RankedTensorType>(op.getType());
  if (Value fast = libraryConv(rewriter, loc, op, adaptor.getInput(),
                               adaptor.getWeight(), adaptor.getBias()))
    return fast;
  Value zero = scalarConstant(rewriter, loc, resultType.getElementType(), 0);
  Value input =
      padSpatial(rewriter, loc, adaptor.getInput(), op.getPadding(), zero);
  Value acc = convAccumulator(rewriter, loc, resultType, adaptor.getInput(),
                              adaptor.getBias());
  if (op.getGroups() != 1)
    return groupedConv(rewriter, loc, op, input, adaptor.getWeight(), acc);
  return linalg::Conv2DNchwFchwOp::create(
             rewriter, loc, TypeRange{resultType},
             ValueRange{input, adaptor.getWeight()}, ValueRange{acc},
             i64Elements(rewriter, op.getStride()),
             i64Elements(rewriter, op.getDilation()))
      .getResult(0);
}

} // namespace

void modelc::populateMDLProductsToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<FnPattern<MatmulOp, lowerMatmul>,
               FnPattern<BatchMatmulOp, lowerBatchMatmul>,
               FnPattern<Conv2DOp, lowerConv2D>>(patterns.getContext());
}
