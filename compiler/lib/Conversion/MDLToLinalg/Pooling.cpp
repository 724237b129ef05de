//===- Pooling.cpp - mdl max_pool2d / avg_pool2d -> linalg ----------------===//
//
// max_pool2d: tensor.pad with -inf, linalg.pooling_nchw_max into a -inf
// accumulator; without padding and with at most 16 window positions, one
// all-parallel generic reading each window position through its own map
// (windowGeneric: no reduction loop) and keeping the first maximum (a NaN
// wins), as PyTorch does. avg_pool2d: tensor.pad with 0,
// linalg.pooling_nchw_sum, then a division by the full kernel area
// (count_include_pad). An f32 pooling with static sizes (but the batch) is
// instead the library op mdl.lib_max_pool2d / mdl.lib_avg_pool2d
// (LibraryOps.h), which the expansion turns into the forms above.
//
//===----------------------------------------------------------------------===//
#include "LibraryOps.h"
#include "PoolBuilders.h"

using namespace mlir;
using namespace mlir::mdl;
using namespace modelc::lowering;

namespace {

/// Runs the pooling op `PoolOp` over the padded input.
template <typename PoolOp>
Value pool(OpBuilder &b, Location loc, Value input, RankedTensorType type,
           const PoolWindow &w, Value padValue, Value init) {
  Value padded = padSpatial(b, loc, input, w.padding, padValue);
  Value acc =
      filledTensor(b, loc, type, dynamicSizesFrom(b, loc, type, input), init);
  Value window =
      tensor::EmptyOp::create(b, loc, w.kernel, type.getElementType());
  return PoolOp::create(b, loc, TypeRange{type}, ValueRange{padded, window},
                        ValueRange{acc}, i64Elements(b, w.stride),
                        i64Elements(b, {1, 1}))
      .getResult(0);
}

/// The pooling window of the mdl pooling op (or adjoint) `op`.
template <typename OpTy>
PoolWindow windowOf(OpTy op) {
  return {op.getKernel(), op.getStride(), op.getPadding()};
}

FailureOr<Value> lowerMaxPool(MaxPool2DOp op, MaxPool2DOp::Adaptor adaptor,
                              ConversionPatternRewriter &rewriter) {
  auto type = cast<RankedTensorType>(op.getType());
  Value input = adaptor.getInput();
  if (libraryPoolApplies(cast<RankedTensorType>(input.getType()), type))
    return buildLibraryPool<LibMaxPool2DOp>(rewriter, op.getLoc(), type,
                                            op.getKernel(), op.getStride(),
                                            op.getPadding(), input);
  return buildMaxPool(rewriter, op.getLoc(), input, type, windowOf(op));
}

FailureOr<Value> lowerAvgPool(AvgPool2DOp op, AvgPool2DOp::Adaptor adaptor,
                              ConversionPatternRewriter &rewriter) {
  auto type = cast<RankedTensorType>(op.getType());
  Value input = adaptor.getInput();
  if (libraryPoolApplies(cast<RankedTensorType>(input.getType()), type))
    return buildLibraryPool<LibAvgPool2DOp>(rewriter, op.getLoc(), type,
                                            op.getKernel(), op.getStride(),
                                            op.getPadding(), input);
  return buildAvgPool(rewriter, op.getLoc(), input, type, windowOf(op));
}

} // namespace

Value modelc::lowering::buildMaxPool(OpBuilder &b, Location loc, Value input,
                                     RankedTensorType type,
                                     const PoolWindow &w) {
  Type elem = elementTypeOf(input);
  if (canUnrollWindow(w.kernel, w.padding) && isa<FloatType>(elem)) {
    // The scan of PyTorch's kernel and of the arg-max in PoolGradients.cpp,
    // over the window in row-major order: take v when v > max or v is NaN.
    // The values are pooling_nchw_max's except that of +0 and -0 the first
    // wins; as compares and selects it vectorises, where maximumf (a NaN-
    // propagating max, ~8 scalar x86 instructions) does not.
    return windowGeneric(
        b, loc, input, type, dynamicSizesFrom(b, loc, type, input), w.kernel,
        w.stride, [](OpBuilder &nb, Location l, ValueRange window) {
          Value m = window[0];
          for (Value v : window.drop_front()) {
            Value greater = arith::CmpFOp::create(
                nb, l, arith::CmpFPredicate::OGT, v, m);
            Value nan =
                arith::CmpFOp::create(nb, l, arith::CmpFPredicate::UNO, v, v);
            Value take = arith::OrIOp::create(nb, l, greater, nan);
            m = arith::SelectOp::create(nb, l, take, v, m);
          }
          return m;
        });
  }
  Value lowest = lowestValue(b, loc, elem);
  return pool<linalg::PoolingNchwMaxOp>(b, loc, input, type, w, lowest,
                                        lowest);
}

Value modelc::lowering::buildAvgPool(OpBuilder &b, Location loc, Value input,
                                     RankedTensorType type,
                                     const PoolWindow &w) {
  Value zero = scalarConstant(b, loc, elementTypeOf(input), 0);
  Value sum =
      pool<linalg::PoolingNchwSumOp>(b, loc, input, type, w, zero, zero);
  double area = static_cast<double>(w.kernel[0] * w.kernel[1]);
  return broadcastGeneric(b, loc, type, {sum},
                          [area](OpBuilder &nb, Location l, ValueRange args) {
                            Value d = scalarConstant(nb, l, args[0].getType(),
                                                     area);
                            return Value(
                                arith::DivFOp::create(nb, l, args[0], d));
                          });
}

void modelc::populateMDLPoolingToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<FnPattern<MaxPool2DOp, lowerMaxPool>,
               FnPattern<AvgPool2DOp, lowerAvgPool>>(patterns.getContext());
}
