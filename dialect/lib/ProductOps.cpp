//===- ProductOps.cpp - matmul, batch_matmul, conv2d, pooling -------------===//
//
// Result-type inference (and with it, verification) of the product and
// pooling ops, and of their adjoints (conv2d_grad_*, *_pool2d_grad).
//
//===----------------------------------------------------------------------===//

#include "mdl/MDLOps.h"
#include "mdl/ShapeUtils.h"

#include "modelsupport/ShapeArith.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::mdl;

static bool isDyn(int64_t size) { return ShapedType::isDynamic(size); }

/// Checks that a static contracting pair agrees.
static LogicalResult checkContracting(std::optional<Location> loc,
                                      StringRef name, int64_t lhsK,
                                      int64_t rhsK) {
  if (!isDyn(lhsK) && !isDyn(rhsK) && lhsK != rhsK)
    return emitInferError(loc, name, "contracting dimensions differ: lhs has ",
                       lhsK, ", rhs has ", rhsK);
  return success();
}

/// Checks that two operands share an element type.
static LogicalResult checkSameElementType(std::optional<Location> loc,
                                          StringRef name, StringRef what,
                                          RankedTensorType a,
                                          RankedTensorType b) {
  if (a.getElementType() != b.getElementType())
    return emitInferError(loc, name, "element types differ: ", what, " has ",
                       a.getElementType(), " and ", b.getElementType());
  return success();
}

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto lhs = getTensorType(adaptor.getLhs());
  auto rhs = getTensorType(adaptor.getRhs());
  if (!lhs || !rhs)
    return emitInferError(loc, name, "operands must be ranked tensors");
  if (lhs.getRank() < 2)
    return emitInferError(loc, name, "lhs must have rank >= 2, got ", lhs);
  if (rhs.getRank() != 2)
    return emitInferError(loc, name, "rhs must be 2-D, got ", rhs);
  if (failed(checkSameElementType(loc, name, "lhs and rhs", lhs, rhs)) ||
      failed(checkContracting(loc, name, lhs.getShape().back(),
                              rhs.getDimSize(0))))
    return failure();
  SmallVector<int64_t> shape(lhs.getShape().drop_back());
  shape.push_back(rhs.getDimSize(1));
  types.push_back(RankedTensorType::get(shape, lhs.getElementType()));
  return success();
}

LogicalResult BatchMatmulOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto lhs = getTensorType(adaptor.getLhs());
  auto rhs = getTensorType(adaptor.getRhs());
  if (!lhs || !rhs)
    return emitInferError(loc, name, "operands must be ranked tensors");
  if (lhs.getRank() < 2 || rhs.getRank() < 2 ||
      std::max(lhs.getRank(), rhs.getRank()) < 3)
    return emitInferError(loc, name,
                          "operands must be [..., M, K] and [..., K, N] with "
                          "rank >= 2, one of rank >= 3, got ",
                          lhs, " and ", rhs);
  if (failed(checkSameElementType(loc, name, "lhs and rhs", lhs, rhs)) ||
      failed(checkContracting(loc, name, lhs.getShape().back(),
                              rhs.getDimSize(rhs.getRank() - 2))))
    return failure();
  ArrayRef<int64_t> lb = lhs.getShape().drop_back(2);
  ArrayRef<int64_t> rb = rhs.getShape().drop_back(2);
  std::optional<SmallVector<int64_t>> batch = broadcastShapes(lb, rb);
  if (!batch)
    return emitInferError(loc, name, "batch dimensions do not broadcast: lhs "
                          "has ", formatShape(lb), ", rhs has ",
                          formatShape(rb));
  batch->push_back(lhs.getDimSize(lhs.getRank() - 2));
  batch->push_back(rhs.getShape().back());
  types.push_back(RankedTensorType::get(*batch, lhs.getElementType()));
  return success();
}

/// Checks that a 2-entry window attribute has entries >= `min`.
static LogicalResult checkWindowAttr(std::optional<Location> loc,
                                     StringRef name, StringRef attr,
                                     ArrayRef<int64_t> values, int64_t min) {
  if (values.size() != 2)
    return emitInferError(loc, name, "'", attr,
                       "' must have 2 entries (H, W), got ", values.size());
  for (int64_t v : values)
    if (v < min)
      return emitInferError(loc, name, "'", attr, "' entries must be >= ", min,
                         ", got ", v);
  return success();
}

/// One spatial output size of a window op; dynamic in, dynamic out.
static FailureOr<int64_t> windowOutput(std::optional<Location> loc,
                                       StringRef name, int64_t in,
                                       int64_t kernel, int64_t stride,
                                       int64_t pad, int64_t dilation) {
  std::optional<int64_t> out =
      modelsupport::windowOutputSize(in, kernel, stride, pad, dilation);
  if (!out)
    return emitInferError(loc, name, "window of size ",
                          modelsupport::windowSpan(kernel, dilation),
                          " does not fit the padded input of size ",
                          in + 2 * pad);
  return *out;
}

/// Spatial output sizes (H, W) of a window op over an NCHW input.
static FailureOr<SmallVector<int64_t>>
windowOutputs(std::optional<Location> loc, StringRef name,
              RankedTensorType input, ArrayRef<int64_t> kernel,
              ArrayRef<int64_t> stride, ArrayRef<int64_t> pad,
              ArrayRef<int64_t> dilation) {
  SmallVector<int64_t> shape{input.getDimSize(0), input.getDimSize(1)};
  for (int i = 0; i < 2; ++i) {
    FailureOr<int64_t> out = windowOutput(loc, name, input.getDimSize(2 + i),
                                          kernel[i], stride[i], pad[i],
                                          dilation[i]);
    if (failed(out))
      return failure();
    shape.push_back(*out);
  }
  return shape;
}

/// Checks the channel/group structure of conv2d's weight and bias.
static LogicalResult checkConvChannels(std::optional<Location> loc,
                                       StringRef name, RankedTensorType input,
                                       RankedTensorType weight,
                                       RankedTensorType bias, int64_t groups) {
  int64_t channels = input.getDimSize(1), outChannels = weight.getDimSize(0);
  if (isDyn(channels) || !weight.hasStaticShape())
    return emitInferError(loc, name,
                       "input channels and the weight shape must be static");
  if (groups < 1 || channels % groups || outChannels % groups)
    return emitInferError(loc, name, "groups (", groups,
                       ") must divide input channels (", channels,
                       ") and output channels (", outChannels, ")");
  if (weight.getDimSize(1) != channels / groups)
    return emitInferError(loc, name, "weight has ", weight.getDimSize(1),
                       " input channels per group, expected ",
                       channels / groups);
  if (bias && (bias.getRank() != 1 || bias.getDimSize(0) != outChannels))
    return emitInferError(loc, name, "bias must have shape ", outChannels,
                       ", got ", bias);
  return success();
}

/// The forward conv2d result type for `input`, `weight`, optional `bias` and
/// the window attributes (shared by conv2d and its two adjoints).
static FailureOr<RankedTensorType>
inferConv(std::optional<Location> loc, StringRef name, Value inputValue,
          Value weightValue, Value biasValue, ArrayRef<int64_t> stride,
          ArrayRef<int64_t> padding, ArrayRef<int64_t> dilation,
          int64_t groups) {
  auto input = getTensorType(inputValue);
  auto weight = getTensorType(weightValue);
  RankedTensorType bias = biasValue ? getTensorType(biasValue) : nullptr;
  if (!input || !weight || (biasValue && !bias))
    return emitInferError(loc, name, "operands must be ranked tensors");
  if (input.getRank() != 4 || weight.getRank() != 4)
    return emitInferError(loc, name,
                       "input (NCHW) and weight (OIHW) must be 4-D, got ",
                       input, " and ", weight);
  if (failed(checkSameElementType(loc, name, "input and weight", input,
                                  weight)) ||
      (bias && failed(checkSameElementType(loc, name, "input and bias",
                                           input, bias))) ||
      failed(checkWindowAttr(loc, name, "stride", stride, 1)) ||
      failed(checkWindowAttr(loc, name, "padding", padding, 0)) ||
      failed(checkWindowAttr(loc, name, "dilation", dilation, 1)) ||
      failed(checkConvChannels(loc, name, input, weight, bias, groups)))
    return failure();
  ArrayRef<int64_t> kernel = weight.getShape().drop_front(2);
  auto shape =
      windowOutputs(loc, name, input, kernel, stride, padding, dilation);
  if (failed(shape))
    return failure();
  (*shape)[1] = weight.getDimSize(0);
  return RankedTensorType::get(*shape, input.getElementType());
}

LogicalResult Conv2DOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  FailureOr<RankedTensorType> type =
      inferConv(loc, getOperationName(), adaptor.getInput(),
                adaptor.getWeight(), adaptor.getBias(), adaptor.getStride(),
                adaptor.getPadding(), adaptor.getDilation(),
                static_cast<int64_t>(adaptor.getGroups()));
  if (failed(type))
    return failure();
  types.push_back(*type);
  return success();
}

/// Shared inference of max_pool2d and avg_pool2d.
template <typename Adaptor>
static LogicalResult inferPool(std::optional<Location> loc, StringRef name,
                               Adaptor adaptor, SmallVectorImpl<Type> &types) {
  auto input = getTensorType(adaptor.getInput());
  if (!input || input.getRank() != 4)
    return emitInferError(loc, name, "input must be a 4-D NCHW tensor");
  ArrayRef<int64_t> kernel = adaptor.getKernel(), pad = adaptor.getPadding();
  if (failed(checkWindowAttr(loc, name, "kernel", kernel, 1)) ||
      failed(checkWindowAttr(loc, name, "stride", adaptor.getStride(), 1)) ||
      failed(checkWindowAttr(loc, name, "padding", pad, 0)))
    return failure();
  for (int i = 0; i < 2; ++i)
    if (2 * pad[i] > kernel[i])
      return emitInferError(loc, name, "padding (", pad[i],
                         ") must be at most half the kernel size (",
                         kernel[i], ")");
  int64_t dilation[2] = {1, 1};
  auto shape = windowOutputs(loc, name, input, kernel, adaptor.getStride(),
                             pad, dilation);
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, input.getElementType()));
  return success();
}

LogicalResult MaxPool2DOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  return inferPool(loc, getOperationName(), adaptor, types);
}

LogicalResult AvgPool2DOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  return inferPool(loc, getOperationName(), adaptor, types);
}

//===----------------------------------------------------------------------===//
// Adjoints of conv2d and pooling (MDLGradientOps.td)
//===----------------------------------------------------------------------===//

/// Checks that `grad` has the forward result type `forward` (batch `?`
/// matching either way) and returns `target`'s type as the adjoint's type.
static LogicalResult checkForwardGrad(std::optional<Location> loc,
                                      StringRef name, Value grad,
                                      RankedTensorType forward, Value target,
                                      SmallVectorImpl<Type> &types) {
  auto gradType = getTensorType(grad);
  if (!gradType || failed(verifyCompatibleShape(gradType, forward)) ||
      gradType.getElementType() != forward.getElementType())
    return emitInferError(loc, name, "grad must have the forward result type ",
                          forward, ", got ", grad.getType());
  types.push_back(target.getType());
  return success();
}

/// Shared inference of conv2d_grad_input / conv2d_grad_weight.
template <typename Adaptor>
static LogicalResult inferConvGrad(std::optional<Location> loc, StringRef name,
                                   Adaptor adaptor, Value input, Value weight,
                                   SmallVectorImpl<Type> &types) {
  FailureOr<RankedTensorType> forward =
      inferConv(loc, name, input, weight, nullptr, adaptor.getStride(),
                adaptor.getPadding(), adaptor.getDilation(),
                static_cast<int64_t>(adaptor.getGroups()));
  if (failed(forward))
    return failure();
  return checkForwardGrad(loc, name, adaptor.getGrad(), *forward,
                          adaptor.getTargetOperand(), types);
}

LogicalResult Conv2DGradInputOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  return inferConvGrad(loc, getOperationName(), adaptor,
                       adaptor.getTargetOperand(), adaptor.getOtherOperand(),
                       types);
}

LogicalResult Conv2DGradWeightOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  return inferConvGrad(loc, getOperationName(), adaptor,
                       adaptor.getOtherOperand(), adaptor.getTargetOperand(),
                       types);
}

/// Shared inference of max_pool2d_grad / avg_pool2d_grad.
template <typename Adaptor>
static LogicalResult inferPoolGrad(std::optional<Location> loc, StringRef name,
                                   Adaptor adaptor,
                                   SmallVectorImpl<Type> &types) {
  SmallVector<Type, 1> forward;
  if (failed(inferPool(loc, name, adaptor, forward)))
    return failure();
  return checkForwardGrad(loc, name, adaptor.getGrad(),
                          cast<RankedTensorType>(forward[0]),
                          adaptor.getInput(), types);
}

LogicalResult MaxPool2DGradOp::inferReturnTypes(MLIRContext *,
                                                std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  return inferPoolGrad(loc, getOperationName(), adaptor, types);
}

LogicalResult AvgPool2DGradOp::inferReturnTypes(MLIRContext *,
                                                std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  return inferPoolGrad(loc, getOperationName(), adaptor, types);
}
