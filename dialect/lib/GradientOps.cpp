//===- GradientOps.cpp - cross_entropy_grad, slice_grad, embedding_grad ---===//
//
// Result-type inference (and with it, verification) of the backward-pass
// helper ops that are not products (those live in ProductOps.cpp). gelu_grad
// needs none: it has SameOperandsAndResultType.
//
//===----------------------------------------------------------------------===//

#include "mdl/MDLOps.h"
#include "mdl/ShapeUtils.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::mdl;

LogicalResult CrossEntropyGradOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto logits = getTensorType(adaptor.getLogits());
  auto labels = getTensorType(adaptor.getLabels());
  auto grad = getTensorType(adaptor.getGrad());
  if (!logits || !labels || !grad)
    return emitInferError(loc, name, "operands must be ranked tensors");
  if (failed(verifyCrossEntropyShapes(loc, name, logits, labels)))
    return failure();
  if (grad.getElementType() != logits.getElementType())
    return emitInferError(loc, name, "grad must have the logits' element type");
  if (failed(verifyCrossEntropyOptions(
          loc, name, logits, adaptor.getWeight(),
          adaptor.getLabelSmoothing().convertToDouble())))
    return failure();
  types.push_back(logits);
  return success();
}

/// Checks one dimension of slice_grad: the window `start + i * stride`,
/// i < `size`, must lie inside an input dimension of size `dim`.
static LogicalResult checkSliceDim(std::optional<Location> loc, StringRef name,
                                   int64_t d, int64_t size, int64_t dim,
                                   int64_t start, int64_t stride) {
  if (start < 0 || stride < 1)
    return emitInferError(loc, name, "dimension ", d, ": start must be >= 0 "
                          "and stride >= 1, got ", start, " and ", stride);
  if (ShapedType::isDynamic(size)) {
    if (!ShapedType::isDynamic(dim) || start != 0 || stride != 1)
      return emitInferError(loc, name, "dimension ", d, ": a dynamic grad "
                            "dimension needs a dynamic input dimension, start "
                            "0 and stride 1");
    return success();
  }
  if (size > 0 && !ShapedType::isDynamic(dim) &&
      start + (size - 1) * stride >= dim)
    return emitInferError(loc, name, "dimension ", d, ": last index ",
                          start + (size - 1) * stride,
                          " is outside the input dimension of size ", dim);
  return success();
}

LogicalResult SliceGradOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto grad = getTensorType(adaptor.getGrad());
  auto input = getTensorType(adaptor.getInput());
  if (!grad || !input)
    return emitInferError(loc, name, "operands must be ranked tensors");
  ArrayRef<int64_t> start = adaptor.getStart(), stride = adaptor.getStride();
  int64_t rank = input.getRank();
  if (grad.getRank() != rank || grad.getElementType() != input.getElementType())
    return emitInferError(loc, name, "grad ", grad, " must have the rank and "
                          "element type of the input ", input);
  if (static_cast<int64_t>(start.size()) != rank ||
      static_cast<int64_t>(stride.size()) != rank)
    return emitInferError(loc, name, "start and stride must have ", rank,
                          " entries (one per dimension)");
  for (int64_t d = 0; d < rank; ++d)
    if (failed(checkSliceDim(loc, name, d, grad.getDimSize(d),
                             input.getDimSize(d), start[d], stride[d])))
      return failure();
  types.push_back(input);
  return success();
}

LogicalResult EmbeddingGradOp::inferReturnTypes(MLIRContext *,
                                                std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto grad = getTensorType(adaptor.getGrad());
  auto indices = getTensorType(adaptor.getIndices());
  auto table = getTensorType(adaptor.getTable());
  if (!grad || !indices || !table)
    return emitInferError(loc, name, "operands must be ranked tensors");
  Type element = indices.getElementType();
  if (!element.isInteger(32) && !element.isInteger(64))
    return emitInferError(loc, name, "indices must be i32 or i64, got ",
                          indices);
  if (table.getRank() != 2 || !table.hasStaticShape())
    return emitInferError(loc, name, "table must be a static 2-D NxD tensor, "
                          "got ", table);
  SmallVector<int64_t> shape(indices.getShape());
  shape.push_back(table.getDimSize(1));
  auto expected = RankedTensorType::get(shape, table.getElementType());
  if (failed(verifyCompatibleShape(grad, expected)) ||
      grad.getElementType() != table.getElementType())
    return emitInferError(loc, name, "grad must have the forward result type ",
                          expected, ", got ", grad);
  types.push_back(table);
  return success();
}
