//===- ScatterGradients.cpp - mdl slice_grad / embedding_grad -> linalg ---===//
//
// slice_grad: zeros of the input's shape, then one strided
// tensor.insert_slice of the gradient (the inverse of the forward
// extract_slice). embedding_grad: a scatter-add, written as an scf.for over
// the S index positions whose tensor iter_arg is the zero table; each step
// adds the gradient row into table row `indices[p]` (extract_slice, add
// generic, insert_slice at the same place: bufferizes in place), so the cost
// is O(S x D) instead of the O(N x S x D) of a dense masked reduction. An
// index outside [0, N) fails a cf.assert instead of writing out of bounds.
//
//===----------------------------------------------------------------------===//
#include "Common.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::mdl;
using namespace modelc::lowering;

namespace {

FailureOr<Value> lowerSliceGrad(SliceGradOp op, SliceGradOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value grad = adaptor.getGrad();
  auto type = cast<RankedTensorType>(op.getType());
  Value zero = scalarConstant(rewriter, loc, type.getElementType(), 0);
  Value zeros = filledTensor(
      rewriter, loc, type,
      dynamicSizesFrom(rewriter, loc, type, adaptor.getInput()), zero);
  SmallVector<OpFoldResult> offsets, sizes, strides;
  for (auto [d, start, stride] :
       llvm::enumerate(op.getStart(), op.getStride())) {
    offsets.push_back(rewriter.getIndexAttr(start));
    strides.push_back(rewriter.getIndexAttr(stride));
    sizes.push_back(tensor::getMixedSize(rewriter, loc, grad, d));
  }
  return Value(tensor::InsertSliceOp::create(rewriter, loc, grad, zeros,
                                             offsets, sizes, strides));
}

/// `value` (S1 x ... x Sk [x D]) collapsed to rank 1 (or 2 with `keepLast`).
Value collapseLeading(OpBuilder &b, Location loc, Value value, bool keepLast) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t rank = type.getRank();
  int64_t lead = keepLast ? rank - 1 : rank;
  if (lead == 1)
    return value;
  ReassociationIndices first;
  for (int64_t d = 0; d < lead; ++d)
    first.push_back(d);
  SmallVector<ReassociationIndices> groups = {first};
  if (keepLast)
    groups.push_back({rank - 1});
  if (lead == 0) // 0-d indices: a single position.
    return tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({1}, type.getElementType()), value,
        SmallVector<ReassociationIndices>{}, ArrayRef<OpFoldResult>{
                                                 b.getIndexAttr(1)});
  return tensor::CollapseShapeOp::create(b, loc, value, groups);
}

/// One step of the scatter-add: table[indices[p], :] += grad[p, :].
Value scatterRow(OpBuilder &b, Location loc, Value p, Value table,
                 Value indices, Value grad, int64_t rows, int64_t width) {
  Value raw = tensor::ExtractOp::create(b, loc, indices, ValueRange{p});
  Value row = arith::IndexCastOp::create(b, loc, b.getIndexType(), raw);
  using P = arith::CmpIPredicate;
  Value inside = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, P::sge, row,
                            arith::ConstantIndexOp::create(b, loc, 0)),
      arith::CmpIOp::create(b, loc, P::slt, row,
                            arith::ConstantIndexOp::create(b, loc, rows)));
  cf::AssertOp::create(b, loc, inside,
                       "mdl lowering: embedding_grad index out of range");
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  SmallVector<OpFoldResult> sizes = {one, b.getIndexAttr(width)};
  SmallVector<OpFoldResult> strides = {one, one};
  auto rowType = RankedTensorType::get({width}, elementTypeOf(table));
  Value gRow = tensor::ExtractSliceOp::create(
      b, loc, rowType, grad, SmallVector<OpFoldResult>{p, zero}, sizes,
      strides);
  SmallVector<OpFoldResult> at = {row, zero};
  Value tRow =
      tensor::ExtractSliceOp::create(b, loc, rowType, table, at, sizes, strides);
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, b.getContext());
  Value sum = linalg::GenericOp::create(
                  b, loc, TypeRange{rowType}, ValueRange{gRow}, ValueRange{tRow},
                  {id, id}, parallelIterators(1),
                  [](OpBuilder &nb, Location nl, ValueRange args) {
                    linalg::YieldOp::create(
                        nb, nl, Value(arith::AddFOp::create(nb, nl, args[0], args[1])));
                  })
                  .getResult(0);
  return tensor::InsertSliceOp::create(b, loc, sum, table, at, sizes, strides);
}

FailureOr<Value> lowerEmbeddingGrad(EmbeddingGradOp op,
                                    EmbeddingGradOp::Adaptor adaptor,
                                    ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(op.getType());
  if (!type.hasStaticShape())
    return op.emitError("cannot lower 'mdl.embedding_grad' with a dynamic "
                        "table shape");
  int64_t rows = type.getDimSize(0), width = type.getDimSize(1);
  Value zero = scalarConstant(rewriter, loc, type.getElementType(), 0);
  Value table = filledTensor(rewriter, loc, type, {}, zero);
  Value indices = collapseLeading(rewriter, loc, adaptor.getIndices(), false);
  Value grad = collapseLeading(rewriter, loc, adaptor.getGrad(), true);
  Value lb = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value ub = tensor::DimOp::create(rewriter, loc, indices, 0);
  Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto loop = scf::ForOp::create(
      rewriter, loc, lb, ub, step, ValueRange{table},
      [&](OpBuilder &b, Location l, Value p, ValueRange iter) {
        scf::YieldOp::create(
            b, l, scatterRow(b, l, p, iter[0], indices, grad, rows, width));
      });
  return loop.getResult(0);
}

} // namespace

void modelc::populateMDLScatterGradientsToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FnPattern<SliceGradOp, lowerSliceGrad>,
               FnPattern<EmbeddingGradOp, lowerEmbeddingGrad>>(
      patterns.getContext());
}
