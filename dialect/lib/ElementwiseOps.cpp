//===- ElementwiseOps.cpp - Broadcasting and elementwise ops --------------===//
//
// Result-type inference of the broadcasting binary ops, cmp and select; the
// verifier, builder and folder of cast; inference and folding of constant.
// (Unary ops are inferred by ODS from SameOperandsAndResultType.)
//
//===----------------------------------------------------------------------===//

#include "mdl/MDLOps.h"
#include "mdl/ShapeUtils.h"

using namespace mlir;
using namespace mlir::mdl;

/// The broadcast of two operand shapes, or an error naming both.
static FailureOr<SmallVector<int64_t>>
broadcastOrError(std::optional<Location> loc, StringRef name,
                 RankedTensorType lhs, RankedTensorType rhs) {
  std::optional<SmallVector<int64_t>> shape =
      broadcastShapes(lhs.getShape(), rhs.getShape());
  if (!shape)
    return emitInferError(loc, name,
                       "operands are not broadcast-compatible: lhs shape ",
                       formatShape(lhs.getShape()), ", rhs shape ",
                       formatShape(rhs.getShape()));
  return *shape;
}

/// Broadcast shape and common element type of a binary op's operands.
static FailureOr<SmallVector<int64_t>>
inferBinaryShape(std::optional<Location> loc, StringRef name, Value lhsValue,
                 Value rhsValue) {
  auto lhs = getTensorType(lhsValue), rhs = getTensorType(rhsValue);
  if (!lhs || !rhs)
    return emitInferError(loc, name, "operands must be ranked tensors");
  if (lhs.getElementType() != rhs.getElementType())
    return emitInferError(loc, name, "element types differ: lhs has ",
                       lhs.getElementType(), ", rhs has ",
                       rhs.getElementType());
  return broadcastOrError(loc, name, lhs, rhs);
}

/// Shared inference of add, sub, mul, div, pow, max, min.
static LogicalResult inferBinary(std::optional<Location> loc, StringRef name,
                                 Value lhs, Value rhs,
                                 SmallVectorImpl<Type> &types) {
  FailureOr<SmallVector<int64_t>> shape =
      inferBinaryShape(loc, name, lhs, rhs);
  if (failed(shape))
    return failure();
  types.push_back(
      RankedTensorType::get(*shape, getTensorType(lhs).getElementType()));
  return success();
}

#define MDL_DEFINE_BINARY_INFERENCE(OpClass)                                   \
  LogicalResult OpClass::inferReturnTypes(MLIRContext *,                       \
                                          std::optional<Location> loc,         \
                                          Adaptor adaptor,                     \
                                          SmallVectorImpl<Type> &types) {      \
    return inferBinary(loc, getOperationName(), adaptor.getLhs(),             \
                       adaptor.getRhs(), types);                               \
  }
MDL_DEFINE_BINARY_INFERENCE(AddOp)
MDL_DEFINE_BINARY_INFERENCE(SubOp)
MDL_DEFINE_BINARY_INFERENCE(MulOp)
MDL_DEFINE_BINARY_INFERENCE(DivOp)
MDL_DEFINE_BINARY_INFERENCE(PowOp)
MDL_DEFINE_BINARY_INFERENCE(MaxOp)
MDL_DEFINE_BINARY_INFERENCE(MinOp)
#undef MDL_DEFINE_BINARY_INFERENCE

LogicalResult CmpOp::inferReturnTypes(MLIRContext *context,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  FailureOr<SmallVector<int64_t>> shape = inferBinaryShape(
      loc, getOperationName(), adaptor.getLhs(), adaptor.getRhs());
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, IntegerType::get(context, 1)));
  return success();
}

LogicalResult SelectOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto cond = getTensorType(adaptor.getCondition());
  FailureOr<SmallVector<int64_t>> valueShape = inferBinaryShape(
      loc, name, adaptor.getTrueValue(), adaptor.getFalseValue());
  if (failed(valueShape))
    return failure();
  if (!cond || !cond.getElementType().isInteger(1))
    return emitInferError(loc, name, "condition must be an i1 tensor");
  std::optional<SmallVector<int64_t>> shape =
      broadcastShapes(cond.getShape(), *valueShape);
  if (!shape)
    return emitInferError(loc, name,
                       "condition shape ", formatShape(cond.getShape()),
                       " does not broadcast with the value shape ",
                       formatShape(*valueShape));
  Type element = getTensorType(adaptor.getTrueValue()).getElementType();
  types.push_back(RankedTensorType::get(*shape, element));
  return success();
}

void CastOp::build(OpBuilder &builder, OperationState &state, Value input,
                   Type elementType) {
  auto type = llvm::cast<RankedTensorType>(input.getType());
  build(builder, state, type.clone(elementType), input);
}

LogicalResult CastOp::verify() {
  auto in = llvm::cast<RankedTensorType>(getInput().getType());
  auto out = llvm::cast<RankedTensorType>(getType());
  if (in.getShape() != out.getShape())
    return emitOpError("result shape ")
           << formatShape(out.getShape()) << " differs from the input shape "
           << formatShape(in.getShape()) << "; cast only changes the element "
           << "type";
  return success();
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  auto value = llvm::dyn_cast_if_present<ElementsAttr>(adaptor.getValueAttr());
  auto type = value ? llvm::dyn_cast<RankedTensorType>(value.getType())
                    : RankedTensorType();
  if (!type || !type.hasStaticShape())
    return emitInferError(loc, getOperationName(),
                       "value must be a statically shaped tensor attribute");
  types.push_back(type);
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValueAttr(); }
