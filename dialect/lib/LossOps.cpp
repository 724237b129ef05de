//===- LossOps.cpp - cross_entropy, mse, l1, bce_with_logits --------------===//
//
// Result-type inference (and with it, verification) of the loss ops: each
// yields a 0-d tensor of its input's float element type.
//
//===----------------------------------------------------------------------===//

#include "mdl/MDLOps.h"
#include "mdl/ShapeUtils.h"

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
  auto expected = RankedTensorType::get({logits.getDimSize(1)},
                                        logits.getElementType());
  if (weight.getType() != expected)
    return emitInferError(loc, name, "weight must be ", expected,
                          " (one value per class), got ", weight.getType());
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
  if (logits.getRank() != 2 || logits.isDynamicDim(1))
    return emitInferError(loc, name, "logits must be NxC with static C, got ",
                       logits);
  Type label = labels.getElementType();
  if (!label.isInteger(32) && !label.isInteger(64))
    return emitInferError(loc, name, "labels must be integer class indices (i32 "
                                  "or i64), got element type ",
                       label);
  if (labels.getRank() != 1)
    return emitInferError(loc, name, "labels must be 1-D (one class index per "
                                  "sample), got ",
                       labels);
  int64_t n = logits.getDimSize(0), m = labels.getDimSize(0);
  if (n != m && !ShapedType::isDynamic(n) && !ShapedType::isDynamic(m))
    return emitInferError(loc, name, "logits have ", n, " samples, labels have ",
                       m);
  if (failed(verifyCrossEntropyOptions(
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
