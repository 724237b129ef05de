//===- Losses.cpp - mdl losses -> linalg ----------------------------------===//
//
// cross_entropy: per-sample `max + log(sum exp(x - max)) - x[label]`
// (logSumExpParts of Common.h; the labelled logit read with tensor.extract),
// cross_entropy_grad: softmax from the same parts, minus the one-hot label;
// mse / l1 / bce_with_logits: the per-element loss as one generic. All then
// reduce to a 0-d tensor and divide by the count for `mean`.
//
//===----------------------------------------------------------------------===//
#include "Common.h"

using namespace mlir;
using namespace mlir::mdl;
using namespace modelc::lowering;

namespace {

/// Sums every element of `perItem` into a 0-d tensor; divides by the
/// element count for `mean`.
Value reduceLoss(OpBuilder &b, Location loc, Value perItem,
                 Reduction reduction) {
  Type resultElem = elementTypeOf(perItem);
  Type elem = sumAccumulatorType(resultElem);
  perItem = convertFloats(b, loc, perItem, elem);
  int64_t rank = cast<RankedTensorType>(perItem.getType()).getRank();
  SmallVector<bool> all(rank, true);
  Value total = reduceDims(b, loc, perItem, all, scalarConstant(b, loc, elem, 0),
                           [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                             return arith::AddFOp::create(nb, l, a[0], a[1]);
                           });
  if (reduction == Reduction::mean) {
    Value count = countAsFloat(b, loc, perItem, all, elem);
    total = broadcastGeneric(
        b, loc, cast<RankedTensorType>(total.getType()), {total},
        [count](OpBuilder &nb, Location l, ValueRange a) -> Value {
          return arith::DivFOp::create(nb, l, a[0], count);
        });
  }
  return convertFloats(b, loc, total, resultElem);
}

FailureOr<Value> lowerCrossEntropy(CrossEntropyOp op,
                                   CrossEntropyOp::Adaptor adaptor,
                                   ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value x = adaptor.getLogits(), labels = adaptor.getLabels();
  Type elem = elementTypeOf(x);
  auto [max, sum] = logSumExpParts(rewriter, loc, x, {false, true});
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, rewriter.getContext());
  Value perSample = mapGeneric(
      rewriter, loc, max, elem, {labels, max, sum}, {id, id, id},
      [x](OpBuilder &b, Location l, ValueRange a) -> Value {
        Value row = linalg::IndexOp::create(b, l, 0);
        Value col = arith::IndexCastOp::create(b, l, b.getIndexType(), a[0]);
        Value picked = tensor::ExtractOp::create(b, l, x, ValueRange{row, col});
        Value lse = arith::AddFOp::create(b, l, a[1], math::LogOp::create(b, l, a[2]));
        return arith::SubFOp::create(b, l, lse, picked);
      });
  return reduceLoss(rewriter, loc, perSample, op.getReduction());
}

/// (softmax(x)[n, c] - (c == label[n])) * grad / D, D = N (mean) or 1.
FailureOr<Value> lowerCrossEntropyGrad(CrossEntropyGradOp op,
                                       CrossEntropyGradOp::Adaptor adaptor,
                                       ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value x = adaptor.getLogits();
  Type elem = elementTypeOf(x);
  auto [max, sum] = logSumExpParts(rewriter, loc, x, {false, true});
  Value divisor = op.getReduction() == Reduction::mean
                      ? countAsFloat(rewriter, loc, x, {true, false}, elem)
                      : scalarConstant(rewriter, loc, elem, 1.0);
  MLIRContext *ctx = rewriter.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(2, ctx);
  AffineMap row = selectDims(2, {0}, ctx);
  return mapGeneric(
      rewriter, loc, x, elem,
      {x, max, sum, adaptor.getLabels(), adaptor.getGrad()},
      {id, row, row, row, AffineMap::get(2, 0, {}, ctx)},
      [divisor](OpBuilder &b, Location l, ValueRange a) -> Value {
        Value p = arith::DivFOp::create(
            b, l, math::ExpOp::create(b, l, arith::SubFOp::create(b, l, a[0], a[1])),
            a[2]);
        Value c = arith::IndexCastOp::create(b, l, a[3].getType(),
                                             linalg::IndexOp::create(b, l, 1));
        Value hit = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, c, a[3]);
        Value onehot = arith::UIToFPOp::create(b, l, p.getType(), hit);
        Value diff = arith::SubFOp::create(b, l, p, onehot);
        return arith::DivFOp::create(b, l, arith::MulFOp::create(b, l, diff, a[4]),
                                     divisor);
      });
}

/// The per-element loss of a pair loss op.
template <typename OpTy>
Value pairLossScalar(OpBuilder &b, Location loc, Value x, Value t) {
  if constexpr (std::is_same_v<OpTy, MSELossOp>) {
    Value d = arith::SubFOp::create(b, loc, x, t);
    return arith::MulFOp::create(b, loc, d, d);
  } else if constexpr (std::is_same_v<OpTy, L1LossOp>) {
    return math::AbsFOp::create(b, loc, arith::SubFOp::create(b, loc, x, t));
  } else {
    // max(x, 0) - x * t + log(1 + exp(-|x|))
    Type type = x.getType();
    Value relu = arith::MaximumFOp::create(b, loc, x, scalarConstant(b, loc, type, 0));
    Value xt = arith::MulFOp::create(b, loc, x, t);
    Value e = math::ExpOp::create(
        b, loc, arith::NegFOp::create(b, loc, math::AbsFOp::create(b, loc, x)));
    Value softplus = math::Log1pOp::create(b, loc, e);
    return arith::AddFOp::create(b, loc, arith::SubFOp::create(b, loc, relu, xt),
                                 softplus);
  }
}

template <typename OpTy>
FailureOr<Value> lowerPairLoss(OpTy op, typename OpTy::Adaptor adaptor,
                               ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value x = adaptor.getInput();
  Value perItem = broadcastGeneric(
      rewriter, loc, cast<RankedTensorType>(x.getType()),
      {x, adaptor.getTarget()},
      [](OpBuilder &b, Location l, ValueRange a) {
        return pairLossScalar<OpTy>(b, l, a[0], a[1]);
      });
  return reduceLoss(rewriter, loc, perItem, op.getReduction());
}

} // namespace

void modelc::populateMDLLossesToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<FnPattern<CrossEntropyOp, lowerCrossEntropy>,
               FnPattern<CrossEntropyGradOp, lowerCrossEntropyGrad>,
               FnPattern<MSELossOp, lowerPairLoss<MSELossOp>>,
               FnPattern<L1LossOp, lowerPairLoss<L1LossOp>>,
               FnPattern<BCEWithLogitsOp, lowerPairLoss<BCEWithLogitsOp>>>(
      patterns.getContext());
}
