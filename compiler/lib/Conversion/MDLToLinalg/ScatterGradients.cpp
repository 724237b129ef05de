//===- ScatterGradients.cpp - mdl slice_grad / embedding_grad -> linalg ---===//
//
// slice_grad: zeros of the input's shape, then one strided
// tensor.insert_slice of the gradient (the inverse of the forward
// extract_slice). embedding_grad: the library op mdl.lib_embedding_grad on
// the indices collapsed to S positions and the gradient to S x D rows: the
// CPU runs it as the runtime's scatter-add, O(S x D)
// (modelc-library-to-calls); other targets expand it into a masked
// reduction (modelc-expand-library-ops).
//
//===----------------------------------------------------------------------===//
#include "Common.h"


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

/// mdl.lib_embedding_grad on the positions' indices (collapsed to S) and
/// gradient rows (S x D), into a fresh table gradient.
FailureOr<Value> lowerEmbeddingGrad(EmbeddingGradOp op,
                                    EmbeddingGradOp::Adaptor adaptor,
                                    ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(op.getType());
  if (!type.hasStaticShape())
    return op.emitError("cannot lower 'mdl.embedding_grad' with a dynamic "
                        "table shape");
  Value indices = collapseLeading(rewriter, loc, adaptor.getIndices(), false);
  Value grad = collapseLeading(rewriter, loc, adaptor.getGrad(), true);
  if (!cast<RankedTensorType>(grad.getType()).getElementType().isF32())
    return op.emitError("cannot lower 'mdl.embedding_grad' of a non-f32 table");
  Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                       type.getElementType());
  return LibEmbeddingGradOp::create(rewriter, loc, type, indices, grad, init)
      .getResult();
}

} // namespace

void modelc::populateMDLScatterGradientsToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FnPattern<SliceGradOp, lowerSliceGrad>,
               FnPattern<EmbeddingGradOp, lowerEmbeddingGrad>>(
      patterns.getContext());
}
