//===- Pooling.cpp - mdl max_pool2d / avg_pool2d -> linalg ----------------===//
//
// max_pool2d: tensor.pad with -inf, linalg.pooling_nchw_max into a -inf
// accumulator; without padding and with at most 16 window positions, one
// all-parallel generic reading each window position through its own map
// (windowGeneric: no reduction loop) and keeping the first maximum (a NaN
// wins), as PyTorch does. avg_pool2d: tensor.pad with 0, linalg.pooling_nchw_sum, then
// a division by the full kernel area (count_include_pad).
//
//===----------------------------------------------------------------------===//
#include "Common.h"

using namespace mlir;
using namespace mlir::mdl;
using namespace modelc::lowering;

namespace {

/// Runs the pooling op `PoolOp` over the padded input.
template <typename PoolOp, typename OpTy>
Value pool(OpBuilder &b, OpTy op, Value input, Value padValue, Value init) {
  Location loc = op.getLoc();
  auto resultType = cast<RankedTensorType>(op.getType());
  Value padded = padSpatial(b, loc, input, op.getPadding(), padValue);
  Value acc = filledTensor(b, loc, resultType,
                           dynamicSizesFrom(b, loc, resultType, input), init);
  Value window = tensor::EmptyOp::create(b, loc, op.getKernel(),
                                         resultType.getElementType());
  return PoolOp::create(b, loc, TypeRange{resultType},
                        ValueRange{padded, window}, ValueRange{acc},
                        i64Elements(b, op.getStride()),
                        i64Elements(b, {1, 1}))
      .getResult(0);
}

FailureOr<Value> lowerMaxPool(MaxPool2DOp op, MaxPool2DOp::Adaptor adaptor,
                              ConversionPatternRewriter &rewriter) {
  Type elem = elementTypeOf(adaptor.getInput());
  if (canUnrollWindow(op.getKernel(), op.getPadding()) && isa<FloatType>(elem)) {
    // The scan of PyTorch's kernel and of the arg-max in PoolGradients.cpp,
    // over the window in row-major order: take v when v > max or v is NaN.
    // The values are pooling_nchw_max's except that of +0 and -0 the first
    // wins; as compares and selects it vectorises, where maximumf (a NaN-
    // propagating max, ~8 scalar x86 instructions) does not.
    auto type = cast<RankedTensorType>(op.getType());
    return windowGeneric(
        rewriter, op.getLoc(), adaptor.getInput(), type,
        dynamicSizesFrom(rewriter, op.getLoc(), type, adaptor.getInput()),
        op.getKernel(), op.getStride(),
        [](OpBuilder &b, Location l, ValueRange window) {
          Value m = window[0];
          for (Value v : window.drop_front()) {
            Value greater = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, v, m);
            Value nan = arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, v, v);
            Value take = arith::OrIOp::create(b, l, greater, nan);
            m = arith::SelectOp::create(b, l, take, v, m);
          }
          return m;
        });
  }
  Value lowest = lowestValue(rewriter, op.getLoc(), elem);
  return pool<linalg::PoolingNchwMaxOp>(rewriter, op, adaptor.getInput(),
                                        lowest, lowest);
}

FailureOr<Value> lowerAvgPool(AvgPool2DOp op, AvgPool2DOp::Adaptor adaptor,
                              ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Type elem = elementTypeOf(adaptor.getInput());
  Value zero = scalarConstant(rewriter, loc, elem, 0);
  Value sum = pool<linalg::PoolingNchwSumOp>(rewriter, op, adaptor.getInput(),
                                             zero, zero);
  ArrayRef<int64_t> k = op.getKernel();
  double area = static_cast<double>(k[0] * k[1]);
  return broadcastGeneric(rewriter, loc, cast<RankedTensorType>(op.getType()),
                          {sum},
                          [area](OpBuilder &b, Location l, ValueRange args) {
                            Value d = scalarConstant(b, l, args[0].getType(),
                                                     area);
                            return Value(arith::DivFOp::create(b, l, args[0], d));
                          });
}

} // namespace

void modelc::populateMDLPoolingToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<FnPattern<MaxPool2DOp, lowerMaxPool>,
               FnPattern<AvgPool2DOp, lowerAvgPool>>(patterns.getContext());
}
