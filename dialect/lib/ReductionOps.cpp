//===- ReductionOps.cpp - softmax, reductions, argmax ---------------------===//
//
// Axis verification of softmax / log_softmax and result-type inference of
// reduce_sum / reduce_mean / reduce_max and argmax.
//
//===----------------------------------------------------------------------===//

#include "mdl/MDLOps.h"
#include "mdl/ShapeUtils.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::mdl;

/// Verifies that `axis` lies in [-rank, rank) of `type`.
static LogicalResult verifyAxis(Operation *op, int64_t axis, Type type) {
  int64_t rank = llvm::cast<RankedTensorType>(type).getRank();
  if (!normalizeAxis(axis, rank))
    return op->emitOpError("axis ")
           << axis << " is out of range for a tensor of rank " << rank;
  return success();
}

LogicalResult SoftmaxOp::verify() {
  return verifyAxis(*this, getAxis(), getInput().getType());
}

LogicalResult LogSoftmaxOp::verify() {
  return verifyAxis(*this, getAxis(), getInput().getType());
}

/// The shape left after reducing `axes` (normalised, distinct) of `shape`.
static SmallVector<int64_t> reducedShape(ArrayRef<int64_t> shape,
                                         const llvm::SmallBitVector &reduced,
                                         bool keepdims) {
  SmallVector<int64_t> result;
  for (auto [i, size] : llvm::enumerate(shape)) {
    if (!reduced.test(i))
      result.push_back(size);
    else if (keepdims)
      result.push_back(1);
  }
  return result;
}

/// Shared inference of the reduce_* ops.
template <typename Adaptor>
static LogicalResult inferReduce(std::optional<Location> loc, StringRef name,
                                 Adaptor adaptor,
                                 SmallVectorImpl<Type> &types) {
  auto input = getTensorType(adaptor.getInput());
  if (!input)
    return emitInferError(loc, name, "input must be a ranked tensor");
  ArrayRef<int64_t> axes = adaptor.getAxes();
  if (axes.empty())
    return emitInferError(loc, name, "axes must not be empty");
  int64_t rank = input.getRank();
  llvm::SmallBitVector reduced(rank);
  for (int64_t axis : axes) {
    std::optional<int64_t> norm = normalizeAxis(axis, rank);
    if (!norm)
      return emitInferError(loc, name, "axis ", axis,
                         " is out of range for a tensor of rank ", rank);
    if (reduced.test(*norm))
      return emitInferError(loc, name, "axis ", axis, " is repeated");
    reduced.set(*norm);
  }
  types.push_back(RankedTensorType::get(
      reducedShape(input.getShape(), reduced, adaptor.getKeepdims()),
      input.getElementType()));
  return success();
}

#define MDL_DEFINE_REDUCE_INFERENCE(OpClass)                                   \
  LogicalResult OpClass::inferReturnTypes(MLIRContext *,                       \
                                          std::optional<Location> loc,         \
                                          Adaptor adaptor,                     \
                                          SmallVectorImpl<Type> &types) {      \
    return inferReduce(loc, getOperationName(), adaptor, types);               \
  }
MDL_DEFINE_REDUCE_INFERENCE(ReduceSumOp)
MDL_DEFINE_REDUCE_INFERENCE(ReduceMeanOp)
MDL_DEFINE_REDUCE_INFERENCE(ReduceMaxOp)
#undef MDL_DEFINE_REDUCE_INFERENCE

LogicalResult ArgmaxOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = getTensorType(adaptor.getInput());
  if (!input || input.getRank() == 0)
    return emitInferError(loc, name, "input must be a tensor of rank >= 1");
  std::optional<int64_t> axis =
      normalizeAxis(adaptor.getAxis(), input.getRank());
  if (!axis)
    return emitInferError(loc, name, "axis ",
                       static_cast<int64_t>(adaptor.getAxis()),
                       " is out of range for a tensor of rank ",
                       input.getRank());
  llvm::SmallBitVector reduced(input.getRank());
  reduced.set(*axis);
  types.push_back(RankedTensorType::get(
      reducedShape(input.getShape(), reduced, adaptor.getKeepdims()),
      IntegerType::get(context, 64)));
  return success();
}
