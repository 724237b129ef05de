//===- Reductions.cpp - mdl reductions, argmax, softmax -> linalg ---------===//
//
// reduce_sum / reduce_max: one reduction linalg.generic (keepdims through
// tensor.expand_shape); reduce_mean divides the sum by the element count.
// argmax: one generic with a (value, index) accumulator pair, strict `>` so
// the first maximum wins. softmax / log_softmax: max-subtracted, from the
// log-sum-exp reductions (logSumExpParts of Common.h) and one elementwise
// generic. all_reduce: mdl.lib_sum_ranks on the input converted to f64,
// converted back.
//
//===----------------------------------------------------------------------===//
#include "Common.h"

using namespace mlir;
using namespace mlir::mdl;
using namespace modelc::lowering;

namespace {

/// Marks the (normalised) `axes` of a rank-`rank` tensor.
SmallVector<bool> reducedMask(ArrayRef<int64_t> axes, int64_t rank) {
  SmallVector<bool> reduced(rank, false);
  for (int64_t axis : axes)
    reduced[*normalizeAxis(axis, rank)] = true;
  return reduced;
}

Value addScalar(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::AddFOp::create(b, loc, x, y);
  return arith::AddIOp::create(b, loc, x, y);
}

Value maxScalar(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::MaximumFOp::create(b, loc, x, y);
  return arith::MaxSIOp::create(b, loc, x, y);
}

template <typename OpTy>
FailureOr<Value> lowerReduce(OpTy op, typename OpTy::Adaptor adaptor,
                             ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value input = adaptor.getInput();
  auto type = cast<RankedTensorType>(input.getType());
  Type resultElem = type.getElementType();
  SmallVector<bool> reduced = reducedMask(op.getAxes(), type.getRank());
  constexpr bool isMax = std::is_same_v<OpTy, ReduceMaxOp>;
  // Sums accumulate in sumAccumulatorType (f64 for f32), converted back.
  Type elem = isMax ? resultElem : sumAccumulatorType(resultElem);
  input = convertFloats(rewriter, loc, input, elem);
  Value init = isMax ? lowestValue(rewriter, loc, elem)
                     : scalarConstant(rewriter, loc, elem, 0);
  Value result = reduceDims(rewriter, loc, input, reduced, init,
                            [](OpBuilder &b, Location l, ValueRange args) {
                              return isMax ? maxScalar(b, l, args[0], args[1])
                                           : addScalar(b, l, args[0], args[1]);
                            });
  if constexpr (std::is_same_v<OpTy, ReduceMeanOp>) {
    Value count = countAsFloat(rewriter, loc, input, reduced, elem);
    result = broadcastGeneric(
        rewriter, loc, cast<RankedTensorType>(result.getType()), {result},
        [count](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::DivFOp::create(b, l, args[0], count);
        });
  }
  result = convertFloats(rewriter, loc, result, resultElem);
  return expandKeptDims(rewriter, loc, result,
                        cast<RankedTensorType>(op.getType()), reduced);
}

FailureOr<Value> lowerArgmax(ArgmaxOp op, ArgmaxOp::Adaptor adaptor,
                             ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value input = adaptor.getInput();
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  int64_t axis = *normalizeAxis(op.getAxis(), rank);
  SmallVector<bool> reduced(rank, false);
  reduced[axis] = true;
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<int64_t> shape;
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iterators = parallelIterators(rank);
  iterators[axis] = utils::IteratorType::reduction;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis) {
      shape.push_back(type.getDimSize(d));
      outExprs.push_back(getAffineDimExpr(d, ctx));
    }
  auto valType = RankedTensorType::get(shape, type.getElementType());
  auto idxType = RankedTensorType::get(shape, rewriter.getI64Type());
  SmallVector<Value> dyn;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && type.isDynamicDim(d))
      dyn.push_back(tensor::DimOp::create(rewriter, loc, input, d));
  Value vals = filledTensor(rewriter, loc, valType, dyn,
                            lowestValue(rewriter, loc, type.getElementType()));
  Value idxs = filledTensor(rewriter, loc, idxType, dyn,
                            scalarConstant(rewriter, loc, rewriter.getI64Type(), 0));
  AffineMap outMap = AffineMap::get(rank, 0, outExprs, ctx);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{valType, idxType}, ValueRange{input},
      ValueRange{vals, idxs},
      {AffineMap::getMultiDimIdentityMap(rank, ctx), outMap, outMap}, iterators,
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value x = args[0], best = args[1], bestIdx = args[2];
        Value take = isa<FloatType>(x.getType())
                         ? Value(arith::CmpFOp::create(
                               b, l, arith::CmpFPredicate::OGT, x, best))
                         : Value(arith::CmpIOp::create(
                               b, l, arith::CmpIPredicate::sgt, x, best));
        Value idx = arith::IndexCastOp::create(
            b, l, b.getI64Type(), linalg::IndexOp::create(b, l, axis));
        linalg::YieldOp::create(
            b, l,
            ValueRange{arith::SelectOp::create(b, l, take, x, best),
                       arith::SelectOp::create(b, l, take, idx, bestIdx)});
      });
  return expandKeptDims(rewriter, loc, generic.getResult(1),
                        cast<RankedTensorType>(op.getType()), reduced);
}

/// The map of a tensor reduced over `axis` inside a rank-`rank` loop nest.
AffineMap withoutAxis(int64_t rank, int64_t axis, MLIRContext *ctx) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      exprs.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(rank, 0, exprs, ctx);
}

template <typename OpTy>
FailureOr<Value> lowerSoftmax(OpTy op, typename OpTy::Adaptor adaptor,
                              ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value x = adaptor.getInput();
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  int64_t axis = *normalizeAxis(op.getAxis(), rank);
  SmallVector<bool> reduced(rank, false);
  reduced[axis] = true;
  auto [max, sum] = logSumExpParts(rewriter, loc, x, reduced);
  MLIRContext *ctx = rewriter.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap red = withoutAxis(rank, axis, ctx);
  Value init = emptyTensor(rewriter, loc, type, dynamicSizesFrom(rewriter, loc, type, x));
  return linalg::GenericOp::create(
             rewriter, loc, TypeRange{type}, ValueRange{x, max, sum},
             ValueRange{init}, {id, red, red, id}, parallelIterators(rank),
             [](OpBuilder &b, Location l, ValueRange args) {
               Value shifted = arith::SubFOp::create(b, l, args[0], args[1]);
               Value y;
               if constexpr (std::is_same_v<OpTy, SoftmaxOp>)
                 y = arith::DivFOp::create(
                     b, l, math::ExpOp::create(b, l, shifted), args[2]);
               else
                 y = arith::SubFOp::create(b, l, shifted,
                                           math::LogOp::create(b, l, args[2]));
               linalg::YieldOp::create(b, l, y);
             })
      .getResult(0);
}

FailureOr<Value> lowerAllReduce(AllReduceOp op, AllReduceOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value wide = convertFloats(rewriter, loc, adaptor.getInput(),
                             rewriter.getF64Type());
  return convertFloats(rewriter, loc, sumOverRanks(rewriter, loc, wide),
                       elementTypeOf(adaptor.getInput()));
}

} // namespace

void modelc::populateMDLReductionsToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<FnPattern<ReduceSumOp, lowerReduce<ReduceSumOp>>,
               FnPattern<ReduceMeanOp, lowerReduce<ReduceMeanOp>>,
               FnPattern<ReduceMaxOp, lowerReduce<ReduceMaxOp>>,
               FnPattern<ArgmaxOp, lowerArgmax>,
               FnPattern<SoftmaxOp, lowerSoftmax<SoftmaxOp>>,
               FnPattern<LogSoftmaxOp, lowerSoftmax<LogSoftmaxOp>>,
               FnPattern<AllReduceOp, lowerAllReduce>>(
      patterns.getContext());
}
