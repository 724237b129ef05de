//===- Shape.cpp - mdl shape ops and embedding -> tensor / linalg ---------===//
//
// reshape / flatten -> tensor.collapse_shape / expand_shape (the dynamic
// batch is preserved), transpose -> linalg.transpose, broadcast_to -> a
// broadcasting linalg.generic, concat -> tensor.insert_slice into one
// tensor.empty, slice -> tensor.extract_slice, position_row -> a
// tensor.extract_slice at the run-time row, embedding -> a generic that
// gathers table rows with tensor.extract.
//
//===----------------------------------------------------------------------===//
#include "Common.h"

using namespace mlir;
using namespace mlir::mdl;
using namespace modelc::lowering;

namespace {

/// Indices 0..n-1 as one reassociation group.
ReassociationIndices allDims(int64_t n) {
  ReassociationIndices group;
  for (int64_t d = 0; d < n; ++d)
    group.push_back(d);
  return group;
}

FailureOr<Value> lowerReshape(ReshapeOp op, ReshapeOp::Adaptor adaptor,
                              ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value input = adaptor.getInput();
  auto inType = cast<RankedTensorType>(input.getType());
  auto outType = cast<RankedTensorType>(op.getType());
  if (inType == outType)
    return input;
  if (outType.getRank() == 0)
    return Value(tensor::CollapseShapeOp::create(
        rewriter, loc, outType, input, SmallVector<ReassociationIndices>{}));
  // A rank-0 input is expanded directly; any other is flattened first.
  Value flat = input;
  if (inType.getRank() > 1)
    flat = tensor::CollapseShapeOp::create(
        rewriter, loc, input,
        SmallVector<ReassociationIndices>{allDims(inType.getRank())});
  if (outType.getRank() == 1 && inType.getRank() > 0)
    return Value(tensor::CastOp::create(rewriter, loc, outType, flat));
  SmallVector<OpFoldResult> outShape;
  for (int64_t d = 0; d < outType.getRank(); ++d)
    outShape.push_back(outType.isDynamicDim(d)
                           ? tensor::getMixedSize(rewriter, loc, input, 0)
                           : rewriter.getIndexAttr(outType.getDimSize(d)));
  SmallVector<ReassociationIndices> groups;
  if (cast<RankedTensorType>(flat.getType()).getRank() > 0)
    groups.push_back(allDims(outType.getRank()));
  return Value(tensor::ExpandShapeOp::create(rewriter, loc, outType, flat,
                                             groups, outShape));
}

FailureOr<Value> lowerFlatten(FlattenOp op, FlattenOp::Adaptor adaptor,
                              ConversionPatternRewriter &rewriter) {
  auto inType = cast<RankedTensorType>(adaptor.getInput().getType());
  int64_t rank = inType.getRank();
  int64_t start = *normalizeAxis(op.getStartDim(), rank);
  int64_t end = *normalizeAxis(op.getEndDim(), rank);
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < rank; ++d) {
    if (d > start && d <= end)
      groups.back().push_back(d);
    else
      groups.push_back({d});
  }
  return Value(tensor::CollapseShapeOp::create(
      rewriter, op.getLoc(), op.getType(), adaptor.getInput(), groups));
}

FailureOr<Value> lowerTranspose(TransposeOp op, TransposeOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  auto outType = cast<RankedTensorType>(op.getType());
  ArrayRef<int64_t> perm = op.getPermutation();
  SmallVector<Value> dyn;
  for (int64_t d = 0; d < outType.getRank(); ++d)
    if (outType.isDynamicDim(d))
      dyn.push_back(tensor::DimOp::create(rewriter, loc, adaptor.getInput(),
                                          perm[d]));
  Value init = emptyTensor(rewriter, loc, outType, dyn);
  return linalg::TransposeOp::create(rewriter, loc, adaptor.getInput(), init,
                                     perm)
      .getResult()[0];
}

FailureOr<Value> lowerBroadcastTo(BroadcastToOp op,
                                  BroadcastToOp::Adaptor adaptor,
                                  ConversionPatternRewriter &rewriter) {
  SmallVector<Value> inputs = {adaptor.getInput()};
  // `like` only provides dynamic sizes; its elements are never read.
  if (adaptor.getLike())
    inputs.push_back(adaptor.getLike());
  return broadcastGeneric(rewriter, op.getLoc(),
                          cast<RankedTensorType>(op.getType()), inputs,
                          [](OpBuilder &, Location, ValueRange args) {
                            return args[0];
                          });
}

FailureOr<Value> lowerConcat(ConcatOp op, ConcatOp::Adaptor adaptor,
                             ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  auto outType = cast<RankedTensorType>(op.getType());
  int64_t rank = outType.getRank();
  int64_t axis = *normalizeAxis(op.getAxis(), rank);
  ValueRange inputs = adaptor.getInputs();
  SmallVector<Value> dyn;
  for (int64_t d = 0; d < rank; ++d) {
    if (!outType.isDynamicDim(d))
      continue;
    if (d != axis) {
      dyn.push_back(tensor::DimOp::create(rewriter, loc, inputs[0], d));
      continue;
    }
    Value total = arith::ConstantIndexOp::create(rewriter, loc, 0);
    for (Value in : inputs)
      total = arith::AddIOp::create(rewriter, loc, total,
                                    tensor::DimOp::create(rewriter, loc, in, d));
    dyn.push_back(total);
  }
  Value result = emptyTensor(rewriter, loc, outType, dyn);
  Value offset = arith::ConstantIndexOp::create(rewriter, loc, 0);
  for (Value in : inputs) {
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    offsets[axis] = offset;
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, in);
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    result = tensor::InsertSliceOp::create(rewriter, loc, in, result, offsets,
                                           sizes, strides);
    offset = arith::AddIOp::create(rewriter, loc, offset,
                                   tensor::DimOp::create(rewriter, loc, in, axis));
  }
  return result;
}

FailureOr<Value> lowerSlice(SliceOp op, SliceOp::Adaptor adaptor,
                            ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  SmallVector<OpFoldResult> offsets, sizes, strides;
  for (auto [d, start, size, stride] :
       llvm::enumerate(op.getStart(), op.getSize(), op.getStride())) {
    offsets.push_back(rewriter.getIndexAttr(start));
    strides.push_back(rewriter.getIndexAttr(stride));
    sizes.push_back(size < 0 ? tensor::getMixedSize(rewriter, loc,
                                                    adaptor.getInput(), d)
                             : rewriter.getIndexAttr(size));
  }
  return Value(tensor::ExtractSliceOp::create(
      rewriter, loc, cast<RankedTensorType>(op.getType()), adaptor.getInput(),
      offsets, sizes, strides));
}

/// Row `position` of the table: tensor.extract_slice at a run-time offset.
FailureOr<Value> lowerPositionRow(PositionRowOp op,
                                  PositionRowOp::Adaptor adaptor,
                                  ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value row = indexOfScalar(rewriter, loc, adaptor.getPosition());
  auto type = cast<RankedTensorType>(op.getType());
  return Value(tensor::ExtractSliceOp::create(
      rewriter, loc, type, adaptor.getTable(),
      ArrayRef<OpFoldResult>{row, rewriter.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1),
                             rewriter.getIndexAttr(type.getDimSize(1))},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1),
                             rewriter.getIndexAttr(1)}));
}

FailureOr<Value> lowerEmbedding(EmbeddingOp op, EmbeddingOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value indices = adaptor.getIndices(), table = adaptor.getTable();
  auto outType = cast<RankedTensorType>(op.getType());
  int64_t rank = outType.getRank();
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<AffineExpr> idxExprs;
  for (int64_t d = 0; d + 1 < rank; ++d)
    idxExprs.push_back(getAffineDimExpr(d, ctx));
  Value init = emptyTensor(rewriter, loc, outType,
                           dynamicSizesFrom(rewriter, loc, outType, indices));
  SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, idxExprs, ctx),
                                 AffineMap::getMultiDimIdentityMap(rank, ctx)};
  return linalg::GenericOp::create(
             rewriter, loc, TypeRange{outType}, ValueRange{indices},
             ValueRange{init}, maps, parallelIterators(rank),
             [&](OpBuilder &b, Location l, ValueRange args) {
               Value row = arith::IndexCastOp::create(b, l, b.getIndexType(),
                                                      args[0]);
               Value col = linalg::IndexOp::create(b, l, rank - 1);
               linalg::YieldOp::create(
                   b, l,
                   Value(tensor::ExtractOp::create(b, l, table,
                                                   ValueRange{row, col})));
             })
      .getResult(0);
}

} // namespace

void modelc::populateMDLShapeToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<FnPattern<ReshapeOp, lowerReshape>,
               FnPattern<FlattenOp, lowerFlatten>,
               FnPattern<TransposeOp, lowerTranspose>,
               FnPattern<BroadcastToOp, lowerBroadcastTo>,
               FnPattern<ConcatOp, lowerConcat>, FnPattern<SliceOp, lowerSlice>,
               FnPattern<PositionRowOp, lowerPositionRow>,
               FnPattern<EmbeddingOp, lowerEmbedding>>(patterns.getContext());
}
