//===- LossOps.cpp - cross_entropy, mse, l1, bce_with_logits --------------===//
//
// Result-type inference (and with it, verification) of the loss ops: each
// yields a 0-d tensor of its input's float element type. cross_entropy's
// operand rules are shared with its gradient (GradientOps.cpp), and its
// accuracy count (buildCorrectCount) with MLIRGen and the entry points.
//
//===----------------------------------------------------------------------===//

#include "mdl/MDLOps.h"
#include "mdl/ShapeUtils.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::mdl;

/// Checks cross_entropy's optional class weights (C values of the logits'
/// element type) and its label smoothing (in [0, 1)).
LogicalResult mlir::mdl::verifyCrossEntropyOptions(std::optional<Location> loc,
                                                  StringRef name,
                                                  RankedTensorType logits,
                                                  Value weight,
                                                  double smoothing) {
  if (!(smoothing >= 0.0 && smoothing < 1.0))
    return emitInferError(loc, name, "label_smoothing must be in [0, 1), got ",
                          smoothing);
  if (!weight)
    return success();
  auto expected = RankedTensorType::get({logits.getShape().back()},
                                        logits.getElementType());
  if (weight.getType() != expected)
    return emitInferError(loc, name, "weight must be ", expected,
                          " (one value per class), got ", weight.getType());
  return success();
}

LogicalResult mlir::mdl::verifyCrossEntropyShapes(std::optional<Location> loc,
                                                 StringRef name,
                                                 RankedTensorType logits,
                                                 RankedTensorType labels) {
  if (logits.getRank() < 2 || logits.isDynamicDim(logits.getRank() - 1))
    return emitInferError(loc, name, "logits must be [..., C] (rank >= 2) "
                                     "with a static C, got ",
                          logits);
  Type label = labels.getElementType();
  if (!label.isInteger(32) && !label.isInteger(64))
    return emitInferError(loc, name, "labels must be integer class indices "
                                     "(i32 or i64), got element type ",
                          label);
  ArrayRef<int64_t> rows = logits.getShape().drop_back();
  if (labels.getRank() != int64_t(rows.size()) ||
      failed(verifyCompatibleShape(rows, labels.getShape())))
    return emitInferError(loc, name, "labels must have the logits' shape "
                                     "without the class dimension, ",
                          formatShape(rows), " for logits ", logits, ", got ",
                          labels);
  return success();
}

LogicalResult CrossEntropyOp::inferReturnTypes(MLIRContext *,
                                               std::optional<Location> loc,
                                               Adaptor adaptor,
                                               SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto logits = getTensorType(adaptor.getLogits());
  auto labels = getTensorType(adaptor.getLabels());
  if (!logits || !labels)
    return emitInferError(loc, name, "operands must be ranked tensors");
  if (failed(verifyCrossEntropyShapes(loc, name, logits, labels)) ||
      failed(verifyCrossEntropyOptions(
          loc, name, logits, adaptor.getWeight(),
          adaptor.getLabelSmoothing().convertToDouble())))
    return failure();
  types.push_back(RankedTensorType::get({}, logits.getElementType()));
  return success();
}

/// Shared inference of mse_loss, l1_loss and bce_with_logits.
template <typename Adaptor>
static LogicalResult inferPairLoss(std::optional<Location> loc, StringRef name,
                                   Adaptor adaptor,
                                   SmallVectorImpl<Type> &types) {
  auto input = getTensorType(adaptor.getInput());
  auto target = getTensorType(adaptor.getTarget());
  if (!input || !target)
    return emitInferError(loc, name, "operands must be ranked tensors");
  if (input != target)
    return emitInferError(loc, name, "input and target must have the same type, "
                                  "got ",
                       input, " and ", target);
  types.push_back(RankedTensorType::get({}, input.getElementType()));
  return success();
}

#define MDL_DEFINE_PAIR_LOSS_INFERENCE(OpClass)                                \
  LogicalResult OpClass::inferReturnTypes(MLIRContext *,                       \
                                          std::optional<Location> loc,         \
                                          Adaptor adaptor,                     \
                                          SmallVectorImpl<Type> &types) {      \
    return inferPairLoss(loc, getOperationName(), adaptor, types);             \
  }
MDL_DEFINE_PAIR_LOSS_INFERENCE(MSELossOp)
MDL_DEFINE_PAIR_LOSS_INFERENCE(L1LossOp)
MDL_DEFINE_PAIR_LOSS_INFERENCE(BCEWithLogitsOp)
#undef MDL_DEFINE_PAIR_LOSS_INFERENCE

Value mlir::mdl::buildCorrectCount(OpBuilder &b, Location loc, Value logits,
                                   Value labels,
                                   std::optional<int64_t> ignoreIndex) {
  int64_t rank = getTensorType(logits).getRank();
  Type i64 = b.getI64Type();
  auto cmp = [&](CmpPredicate p, Value lhs, Value rhs) -> Value {
    Value c = CmpOp::create(b, loc, CmpPredicateAttr::get(b.getContext(), p),
                            lhs, rhs);
    return CastOp::create(b, loc, c, i64);
  };
  Value pred = ArgmaxOp::create(b, loc, logits, b.getI64IntegerAttr(rank - 1),
                                b.getBoolAttr(false));
  if (!getTensorType(labels).getElementType().isInteger(64))
    labels = CastOp::create(b, loc, labels, i64);
  Value hit = cmp(CmpPredicate::eq, pred, labels);
  if (ignoreIndex) {
    auto scalar = RankedTensorType::get({}, i64);
    Value ignored = ConstantOp::create(
        b, loc, DenseElementsAttr::get(scalar, APInt(64, *ignoreIndex, true)));
    hit = MulOp::create(b, loc, hit, cmp(CmpPredicate::ne, labels, ignored));
  }
  SmallVector<int64_t> axes;
  for (int64_t d = 0; d < rank - 1; ++d)
    axes.push_back(d);
  return ReduceSumOp::create(b, loc, hit, b.getDenseI64ArrayAttr(axes),
                             b.getBoolAttr(false));
}
