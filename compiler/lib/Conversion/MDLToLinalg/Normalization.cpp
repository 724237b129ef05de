//===- Normalization.cpp - mdl batch_norm / layer_norm -> linalg ----------===//
//
// Two-pass statistics (mean, then the biased variance around it, which is
// stable) as reduction generics, both staged in blocks (reduceDims of
// Common.h) so that sums over N*H*W elements stay accurate, then one elementwise generic
// `(x - m) / sqrt(v + eps) * gamma + beta`. batch_norm_* normalise over
// every dimension but 1; layer_norm over the trailing dims of gamma's rank.
// batch_norm_train {sync} sums the element count, the per-channel sums and
// then the centred squares over the ranks (mdl.lib_sum_ranks, in f64)
// before each division, so every rank gets the global batch's statistics.
//
//===----------------------------------------------------------------------===//
#include "Common.h"

using namespace mlir;
using namespace mlir::mdl;
using namespace modelc::lowering;

namespace {

/// Per-group mean and biased variance of `x` over the `reduced` dims,
/// accumulated in sumAccumulatorType (f64 for f32) and returned in x's
/// element type; with `sync`, of every rank's `x` together.
std::pair<Value, Value> meanAndVariance(OpBuilder &b, Location loc, Value x,
                                        ArrayRef<bool> reduced, bool sync) {
  Type resultElem = elementTypeOf(x);
  Type elem = sync ? b.getF64Type() : sumAccumulatorType(resultElem);
  x = convertFloats(b, loc, x, elem);
  Value zero = scalarConstant(b, loc, elem, 0);
  Value count = countAsFloat(b, loc, x, reduced, elem);
  auto overRanks = [&](Value sum) {
    return sync ? sumOverRanks(b, loc, sum) : sum;
  };
  if (sync)
    count = sumScalarOverRanks(b, loc, count);
  auto divide = [&](Value sum) {
    auto type = cast<RankedTensorType>(sum.getType());
    return broadcastGeneric(b, loc, type, {sum},
                            [count](OpBuilder &nb, Location l, ValueRange a) -> Value {
                              return arith::DivFOp::create(nb, l, a[0], count);
                            });
  };
  Value mean =
      divide(overRanks(reduceDims(b, loc, x, reduced, zero, addFloats)));
  Value sq = reduceDimsWith(
      b, loc, x, {mean}, reduced, zero,
      [](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value d = arith::SubFOp::create(nb, l, args[0], args[1]);
        return arith::AddFOp::create(nb, l, arith::MulFOp::create(nb, l, d, d),
                                     args[2]);
      },
      addFloats);
  return {convertFloats(b, loc, mean, resultElem),
          convertFloats(b, loc, divide(overRanks(sq)), resultElem)};
}

/// `(x - m) / sqrt(v + eps) * g + b` over x's shape; m/v read through
/// `statMap`, g/b through `affineMap`.
Value normalize(OpBuilder &b, Location loc, Value x, Value mean, Value var,
                Value gamma, Value beta, AffineMap statMap, AffineMap affineMap,
                double epsilon) {
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, b.getContext());
  return mapGeneric(
      b, loc, x, elementTypeOf(x), {x, mean, var, gamma, beta},
      {id, statMap, statMap, affineMap, affineMap},
      [epsilon](OpBuilder &nb, Location l, ValueRange a) -> Value {
        Value eps = scalarConstant(nb, l, a[0].getType(), epsilon);
        Value inv = math::RsqrtOp::create(nb, l,
                                          arith::AddFOp::create(nb, l, a[2], eps));
        Value centred = arith::SubFOp::create(nb, l, a[0], a[1]);
        Value scaled = arith::MulFOp::create(
            nb, l, arith::MulFOp::create(nb, l, centred, inv), a[3]);
        return arith::AddFOp::create(nb, l, scaled, a[4]);
      });
}

struct BatchNormTrainLowering : OpConversionPattern<BatchNormTrainOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BatchNormTrainOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getInput();
    int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
    SmallVector<bool> reduced(rank, true);
    reduced[1] = false;
    auto [mean, var] = meanAndVariance(rewriter, loc, x, reduced, op.getSync());
    AffineMap channel = selectDims(rank, {1}, rewriter.getContext());
    Value y = normalize(rewriter, loc, x, mean, var, adaptor.getGamma(),
                        adaptor.getBeta(), channel, channel,
                        op.getEpsilon().convertToDouble());
    rewriter.replaceOp(op, {y, mean, var});
    return success();
  }
};

FailureOr<Value> lowerBatchNormEval(BatchNormEvalOp op,
                                    BatchNormEvalOp::Adaptor adaptor,
                                    ConversionPatternRewriter &rewriter) {
  Value x = adaptor.getInput();
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  AffineMap channel = selectDims(rank, {1}, rewriter.getContext());
  return normalize(rewriter, op.getLoc(), x, adaptor.getRunningMean(),
                   adaptor.getRunningVar(), adaptor.getGamma(),
                   adaptor.getBeta(), channel, channel,
                   op.getEpsilon().convertToDouble());
}

FailureOr<Value> lowerLayerNorm(LayerNormOp op, LayerNormOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) {
  Value x = adaptor.getInput();
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  int64_t normRank = cast<RankedTensorType>(adaptor.getGamma().getType()).getRank();
  SmallVector<bool> reduced(rank, false);
  SmallVector<int64_t> lead, trail;
  for (int64_t d = 0; d < rank; ++d) {
    reduced[d] = d >= rank - normRank;
    (reduced[d] ? trail : lead).push_back(d);
  }
  auto [mean, var] =
      meanAndVariance(rewriter, op.getLoc(), x, reduced, /*sync=*/false);
  MLIRContext *ctx = rewriter.getContext();
  return normalize(rewriter, op.getLoc(), x, mean, var, adaptor.getGamma(),
                   adaptor.getBeta(), selectDims(rank, lead, ctx),
                   selectDims(rank, trail, ctx),
                   op.getEpsilon().convertToDouble());
}

} // namespace

void modelc::populateMDLNormalizationToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<BatchNormTrainLowering,
               FnPattern<BatchNormEvalOp, lowerBatchNormEval>,
               FnPattern<LayerNormOp, lowerLayerNorm>>(patterns.getContext());
}
