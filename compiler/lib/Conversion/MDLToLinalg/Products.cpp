//===- Products.cpp - mdl matmul / batch_matmul / conv2d -> linalg --------===//
//
// matmul -> linalg.matmul (leading lhs dims collapsed into M, expanded
// back), batch_matmul -> linalg.batch_matmul (batch dimensions broadcast
// by a copy where they differ, and merged into one), an f32 conv2d with groups == 1
// and static channel/spatial sizes -> mdl.lib_conv2d, or mdl.lib_conv2d_bias
// with a bias (a library call on the CPU, im2col + GEMM elsewhere;
// LibraryOps.h), otherwise
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

/// A zero-filled [M, N] accumulator for `lhs` ([M, K]) times `rhs` ([K, N]):
/// a dynamic M is read from `lhs`, a dynamic N from `rhs`.
Value productAccumulator(OpBuilder &b, Location loc, RankedTensorType type,
                         Value lhs, Value rhs) {
  SmallVector<Value> sizes;
  if (type.isDynamicDim(0))
    sizes.push_back(tensor::DimOp::create(b, loc, lhs, 0));
  if (type.isDynamicDim(1))
    sizes.push_back(tensor::DimOp::create(b, loc, rhs, 1));
  Value zero = scalarConstant(b, loc, type.getElementType(), 0);
  return filledTensor(b, loc, type, sizes, zero);
}

FailureOr<Value> lowerMatmul(MatmulOp op, MatmulOp::Adaptor adaptor,
                             ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto resultType = cast<RankedTensorType>(op.getType());
  int64_t rank = lhsType.getRank();
  if (rank == 2) {
    Value acc = productAccumulator(rewriter, loc, resultType, lhs, rhs);
    return linalg::MatmulOp::create(rewriter, loc, ValueRange{lhs, rhs},
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
  Value acc = productAccumulator(rewriter, loc, flatType, flat, rhs);
  Value product = linalg::MatmulOp::create(rewriter, loc, ValueRange{flat, rhs},
                                           ValueRange{acc})
                      .getResult(0);
  SmallVector<OpFoldResult> outShape;
  for (int64_t d = 0; d < rank - 1; ++d)
    outShape.push_back(tensor::getMixedSize(rewriter, loc, lhs, d));
  outShape.push_back(resultType.isDynamicDim(rank - 1)
                         ? tensor::getMixedSize(rewriter, loc, rhs, 1)
                         : OpFoldResult(rewriter.getIndexAttr(
                               resultType.getDimSize(rank - 1))));
  return Value(tensor::ExpandShapeOp::create(rewriter, loc, resultType, product,
                                             groups, outShape));
}

/// The batch sizes `c...` of a batch_matmul's result, each static or read
/// with tensor.dim from an operand that has it dynamic (the broadcast rule
/// makes a dynamic result size come from a dynamic operand size).
SmallVector<OpFoldResult> resultBatchSizes(OpBuilder &b, Location loc,
                                           RankedTensorType result,
                                           ValueRange operands) {
  int64_t c = result.getRank() - 2;
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < c; ++d) {
    OpFoldResult size = b.getIndexAttr(result.getDimSize(d));
    for (Value v : result.isDynamicDim(d) ? operands : ValueRange{}) {
      auto type = cast<RankedTensorType>(v.getType());
      int64_t j = d - (c - (type.getRank() - 2));
      if (j >= 0 && type.isDynamicDim(j)) {
        size = tensor::DimOp::create(b, loc, v, j).getResult();
        break;
      }
    }
    sizes.push_back(size);
  }
  return sizes;
}

/// `operand` ([a..., R, C]) with its batch dimensions broadcast to `batch`
/// (the result's c..., static sizes in `staticBatch`): itself when they are
/// already equal, else a broadcasting copy.
Value broadcastBatch(OpBuilder &b, Location loc, Value operand,
                     ArrayRef<OpFoldResult> batch,
                     ArrayRef<int64_t> staticBatch) {
  auto type = cast<RankedTensorType>(operand.getType());
  int64_t a = type.getRank() - 2, c = batch.size();
  if (a == c && type.getShape().drop_back(2) == staticBatch)
    return operand;
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineExpr> exprs;
  for (int64_t j = 0; j < type.getRank(); ++j) {
    int64_t d = j + c - a;
    bool stretched = j < a && type.getDimSize(j) == 1 && staticBatch[d] != 1;
    exprs.push_back(stretched ? getAffineConstantExpr(0, ctx)
                              : getAffineDimExpr(d, ctx));
  }
  SmallVector<OpFoldResult> sizes(batch);
  for (int64_t j = a; j < a + 2; ++j)
    sizes.push_back(tensor::getMixedSize(b, loc, operand, j));
  Value init = tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
  SmallVector<AffineMap> maps = {
      AffineMap::get(c + 2, 0, exprs, ctx),
      AffineMap::getMultiDimIdentityMap(c + 2, ctx)};
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{operand}, ValueRange{init},
             maps, parallelIterators(c + 2),
             [](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(nb, nloc, args[0]);
             })
      .getResult(0);
}

/// [c..., R, C] -> [prod(c), R, C]; rank-3 values are returned as they are.
Value collapseBatch(OpBuilder &b, Location loc, Value v) {
  int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
  if (rank == 3)
    return v;
  ReassociationIndices lead;
  for (int64_t d = 0; d < rank - 2; ++d)
    lead.push_back(d);
  SmallVector<ReassociationIndices> groups = {lead, {rank - 2}, {rank - 1}};
  return tensor::CollapseShapeOp::create(b, loc, v, groups);
}

/// batch_matmul: both operands broadcast to the result's batch dimensions,
/// those merged into one, one linalg.batch_matmul, and the merged dimension
/// expanded back.
FailureOr<Value> lowerBatchMatmul(BatchMatmulOp op,
                                  BatchMatmulOp::Adaptor adaptor,
                                  ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  auto resultType = cast<RankedTensorType>(op.getType());
  int64_t rank = resultType.getRank();
  ArrayRef<int64_t> staticBatch = resultType.getShape().drop_back(2);
  SmallVector<OpFoldResult> batch = resultBatchSizes(
      rewriter, loc, resultType, {adaptor.getLhs(), adaptor.getRhs()});
  Value lhs = collapseBatch(rewriter, loc,
                            broadcastBatch(rewriter, loc, adaptor.getLhs(),
                                           batch, staticBatch));
  Value rhs = collapseBatch(rewriter, loc,
                            broadcastBatch(rewriter, loc, adaptor.getRhs(),
                                           batch, staticBatch));
  SmallVector<OpFoldResult> flat = {
      tensor::getMixedSize(rewriter, loc, lhs, 0),
      tensor::getMixedSize(rewriter, loc, lhs, 1),
      tensor::getMixedSize(rewriter, loc, rhs, 2)};
  Value zero = scalarConstant(rewriter, loc, resultType.getElementType(), 0);
  Value init = tensor::EmptyOp::create(rewriter, loc, flat,
                                       resultType.getElementType());
  Value acc = linalg::FillOp::create(rewriter, loc, zero, init).getResult(0);
  Value product = linalg::BatchMatmulOp::create(rewriter, loc,
                                                ValueRange{lhs, rhs},
                                                ValueRange{acc})
                      .getResult(0);
  if (rank == 3)
    return product;
  SmallVector<ReassociationIndices> groups(1);
  for (int64_t d = 0; d < rank - 2; ++d)
    groups[0].push_back(d);
  groups.push_back({rank - 2});
  groups.push_back({rank - 1});
  batch.push_back(flat[1]);
  batch.push_back(flat[2]);
  return Value(tensor::ExpandShapeOp::create(rewriter, loc, resultType, product,
                                             groups, batch));
}

/// The convolution accumulator: the bias broadcast along dimension 1, or 0.
Value convAccumulator(OpBuilder &b, Location loc, RankedTensorType type,
                      Value input, Value bias) {
  if (!bias)
    return filledTensor(b, loc, type, dynamicSizesFrom(b, loc, type, input),
                        scalarConstant(b, loc, type.getElementType(), 0));
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

/// groups == 1, f32, static channel/spatial sizes: mdl.lib_conv2d (or,
/// with a bias, mdl.lib_conv2d_bias) into a fresh tensor (LibraryOps.h).
/// Returns null otherwise.
Value libraryConv(OpBuilder &b, Location loc, Conv2DOp op, Value input,
                  Value weight, Value bias) {
  auto resultType = cast<RankedTensorType>(op.getType());
  if (!libraryConvApplies(cast<RankedTensorType>(input.getType()),
                          cast<RankedTensorType>(weight.getType()),
                          resultType, op.getGroups()))
    return Value();
  Value y;
  if (!bias) {
    y = buildLibraryConv<LibConv2DOp>(b, loc, resultType, input, weight, input,
                                      op.getStride(), op.getPadding(),
                                      op.getDilation());
  } else {
    Value init = libraryDestination(b, loc, resultType, input);
    y = LibConv2DBiasOp::create(b, loc, resultType, input, weight, bias, init,
                                op.getStride(), op.getPadding(),
                                op.getDilation())
            .getResult();
  }
  copyPrecision(op, y);
  return y;
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
