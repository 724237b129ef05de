//===- Losses.cpp - mdl losses -> linalg ----------------------------------===//
//
// cross_entropy: per-sample `max + log(sum exp(x - max)) - x[label]`
// (logSumExpParts of Common.h; the labelled logit read with tensor.extract),
// cross_entropy_grad: softmax from the same parts, minus the one-hot label;
// mse / l1 / bce_with_logits: the per-element loss as one generic. All then
// reduce to a 0-d tensor and divide by the count for `mean`. Cross-entropy
// over `[..., C]` logits collapses the leading dimensions into rows first
// (its gradient is expanded back). Cross-entropy with class weights, label
// smoothing or an ignore_index takes a second path (per-row weighted and
// masked terms, and a `mean`'s divisor as a reduction of its own); without
// them, the first.
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

/// The options of a cross_entropy (or its gradient): the class weights
/// (null: all ones), the label smoothing and the ignored label.
struct CEOptions {
  Value weight;
  double smoothing;
  std::optional<int64_t> ignore;
  bool plain() const { return !weight && smoothing == 0.0 && !ignore; }
};

/// Whether row label `label` counts (it is not the ignore index), as an i1.
Value labelCounts(OpBuilder &b, Location l, const CEOptions &o, Value label) {
  if (!o.ignore)
    return arith::ConstantIntOp::create(b, l, 1, 1);
  Value ignored = arith::ConstantIntOp::create(b, l, label.getType(), *o.ignore);
  return arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, label, ignored);
}

/// `label` where it counts, else class 0 (an ignored label is never read
/// as a class: it may lie outside the table).
Value safeLabel(OpBuilder &b, Location l, Value counts, Value label) {
  Value zero = arith::ConstantIntOp::create(b, l, label.getType(), 0);
  return arith::SelectOp::create(b, l, counts, label, zero);
}

/// `value` where the row counts, else 0.
Value maskRow(OpBuilder &b, Location l, Value counts, Value value) {
  return arith::SelectOp::create(b, l, counts, value,
                                 scalarConstant(b, l, value.getType(), 0));
}

/// Groups that collapse all dimensions of a rank-`rank` tensor but the last
/// `keep` into one (`keep` is 0 or 1).
SmallVector<ReassociationIndices> leadingGroups(int64_t rank, int64_t keep) {
  SmallVector<ReassociationIndices> groups(1);
  for (int64_t d = 0; d < rank - keep; ++d)
    groups[0].push_back(d);
  if (keep)
    groups.push_back({rank - 1});
  return groups;
}

/// `v` ([..., C] logits with keep = 1, [...] labels with keep = 0) with its
/// leading dimensions collapsed into one: [N, C] or [N].
Value collapseRows(OpBuilder &b, Location loc, Value v, int64_t keep) {
  int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
  if (rank == 1 + keep)
    return v;
  return tensor::CollapseShapeOp::create(b, loc, v, leadingGroups(rank, keep));
}

/// A gradient of rows `rows` ([N, C]) back in the shape of `logits`.
Value expandRows(OpBuilder &b, Location loc, Value rows, Value logits) {
  auto type = cast<RankedTensorType>(logits.getType());
  if (type.getRank() == 2)
    return rows;
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(tensor::getMixedSize(b, loc, logits, d));
  return tensor::ExpandShapeOp::create(b, loc, type, rows,
                                       leadingGroups(type.getRank(), 1), sizes);
}

/// The options of cross_entropy (or its gradient) `op`.
template <typename Op>
CEOptions optionsOf(Op op, Value weight) {
  std::optional<int64_t> ignore;
  if (auto a = op.getIgnoreIndexAttr())
    ignore = a.getInt();
  return {weight, op.getLabelSmoothing().convertToDouble(), ignore};
}

/// `weight[label]` for an integer `label` (1 without weights).
Value classWeight(OpBuilder &b, Location l, Value weight, Value label,
                  Type elem) {
  if (!weight)
    return scalarConstant(b, l, elem, 1.0);
  Value at = arith::IndexCastOp::create(b, l, b.getIndexType(), label);
  return tensor::ExtractOp::create(b, l, weight, ValueRange{at});
}

/// The 0-d sum of `v`'s elements, accumulated as reduceLoss does.
Value sumAll(OpBuilder &b, Location loc, Value v) {
  return reduceLoss(b, loc, v, Reduction::sum);
}

/// sum(weight) as a 0-d tensor (C without weights).
Value weightTotal(OpBuilder &b, Location loc, Value x, Value weight) {
  Type elem = elementTypeOf(x);
  if (weight)
    return sumAll(b, loc, weight);
  auto scalar = RankedTensorType::get({}, elem);
  double classes = double(cast<RankedTensorType>(x.getType()).getDimSize(1));
  return filledTensor(b, loc, scalar, {}, scalarConstant(b, loc, elem, classes));
}

/// Per sample, sum_c weight[c] * x[n, c] (weight all ones when null).
Value weightedRowSums(OpBuilder &b, Location loc, Value x, Value weight) {
  Type elem = elementTypeOf(x);
  MLIRContext *ctx = b.getContext();
  Value terms = x;
  if (weight)
    terms = mapGeneric(b, loc, x, elem, {x, weight},
                       {AffineMap::getMultiDimIdentityMap(2, ctx),
                        selectDims(2, {1}, ctx)},
                       [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                         return arith::MulFOp::create(nb, l, a[0], a[1]);
                       });
  return reduceDims(b, loc, terms, {false, true}, scalarConstant(b, loc, elem, 0),
                    addFloats);
}

/// The 0-d divisor of a `mean`: the sum of weight[labels[n]] over the rows
/// that count (1 each without weights: N without an ignore index); 1 when
/// no row counts, so that an all-ignored batch gives 0, not NaN.
Value meanDivisor(OpBuilder &b, Location loc, Value x, Value labels,
                  const CEOptions &o) {
  Type elem = elementTypeOf(x);
  if (!o.weight && !o.ignore) {
    auto scalar = RankedTensorType::get({}, elem);
    return filledTensor(b, loc, scalar, {},
                        countAsFloat(b, loc, x, {true, false}, elem));
  }
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, b.getContext());
  Value perRow = mapGeneric(
      b, loc, labels, elem, {labels}, {id},
      [&o, elem](OpBuilder &nb, Location l, ValueRange a) -> Value {
        Value counts = labelCounts(nb, l, o, a[0]);
        Value w = classWeight(nb, l, o.weight, safeLabel(nb, l, counts, a[0]), elem);
        return maskRow(nb, l, counts, w);
      });
  Value total = sumAll(b, loc, perRow);
  if (!o.ignore)
    return total;
  return broadcastGeneric(b, loc, cast<RankedTensorType>(total.getType()), {total},
                          [elem](OpBuilder &nb, Location l, ValueRange a) -> Value {
                            Value zero = scalarConstant(nb, l, elem, 0);
                            Value none = arith::CmpFOp::create(
                                nb, l, arith::CmpFPredicate::OEQ, a[0], zero);
                            return arith::SelectOp::create(
                                nb, l, none, scalarConstant(nb, l, elem, 1), a[0]);
                          });
}

/// Cross-entropy with class weights, label smoothing or an ignore index
/// (see mdl.cross_entropy) over [N, C] rows: per row `(1 - e) * w[y] *
/// (lse - x[y]) + e / C * (lse * sum(w) - sum_c w[c] * x[c])` (0 for an
/// ignored row), summed, and for `mean` divided by meanDivisor.
Value lowerCrossEntropyWithOptions(OpBuilder &b, Location loc, Value x,
                                   Value labels, Reduction reduction,
                                   const CEOptions &o) {
  Type elem = elementTypeOf(x);
  auto [max, sum] = logSumExpParts(b, loc, x, {false, true});
  Value rowSums = weightedRowSums(b, loc, x, o.weight);
  Value total = weightTotal(b, loc, x, o.weight);
  MLIRContext *ctx = b.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
  AffineMap none = AffineMap::get(1, 0, {}, ctx);
  double e = o.smoothing;
  double c = double(cast<RankedTensorType>(x.getType()).getDimSize(1));
  Value perSample = mapGeneric(
      b, loc, max, elem, {labels, max, sum, rowSums, total},
      {id, id, id, id, none},
      [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
        Value counts = labelCounts(nb, l, o, a[0]);
        Value y = safeLabel(nb, l, counts, a[0]);
        Value row = linalg::IndexOp::create(nb, l, 0);
        Value col = arith::IndexCastOp::create(nb, l, nb.getIndexType(), y);
        Value picked = tensor::ExtractOp::create(nb, l, x, ValueRange{row, col});
        Value lse = arith::AddFOp::create(nb, l, a[1], math::LogOp::create(nb, l, a[2]));
        Value nll = arith::MulFOp::create(
            nb, l, classWeight(nb, l, o.weight, y, elem),
            arith::SubFOp::create(nb, l, lse, picked));
        Value smooth = arith::SubFOp::create(
            nb, l, arith::MulFOp::create(nb, l, lse, a[4]), a[3]);
        Value loss = arith::AddFOp::create(
            nb, l,
            arith::MulFOp::create(nb, l, nll, scalarConstant(nb, l, elem, 1 - e)),
            arith::MulFOp::create(nb, l, smooth, scalarConstant(nb, l, elem, e / c)));
        return maskRow(nb, l, counts, loss);
      });
  Value loss = sumAll(b, loc, perSample);
  if (reduction == Reduction::sum)
    return loss;
  Value divisor = meanDivisor(b, loc, x, labels, o);
  return broadcastGeneric(b, loc, cast<RankedTensorType>(loss.getType()),
                          {loss, divisor},
                          [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                            return arith::DivFOp::create(nb, l, a[0], a[1]);
                          });
}

FailureOr<Value> lowerCrossEntropy(CrossEntropyOp op,
                                   CrossEntropyOp::Adaptor adaptor,
                                   ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value x = collapseRows(rewriter, loc, adaptor.getLogits(), 1);
  Value labels = collapseRows(rewriter, loc, adaptor.getLabels(), 0);
  CEOptions o = optionsOf(op, adaptor.getWeight());
  if (!o.plain())
    return lowerCrossEntropyWithOptions(rewriter, loc, x, labels,
                                        op.getReduction(), o);
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

/// The gradient with class weights, label smoothing or an ignore index (see
/// mdl.cross_entropy_grad) over [N, C] rows: `((1 - e) * w[y] * (p[c] -
/// (c == y)) + e / C * (p[c] * sum(w) - w[c])) * grad / D` (0 in an
/// ignored row).
Value lowerCrossEntropyGradWithOptions(OpBuilder &b, Location loc, Value x,
                                       Value labels, Value grad,
                                       Reduction reduction, const CEOptions &o) {
  Type elem = elementTypeOf(x);
  auto [max, sum] = logSumExpParts(b, loc, x, {false, true});
  Value total = weightTotal(b, loc, x, o.weight);
  auto scalar = RankedTensorType::get({}, elem);
  Value divisor =
      reduction == Reduction::mean
          ? meanDivisor(b, loc, x, labels, o)
          : filledTensor(b, loc, scalar, {}, scalarConstant(b, loc, elem, 1.0));
  MLIRContext *ctx = b.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(2, ctx);
  AffineMap row = selectDims(2, {0}, ctx), none = AffineMap::get(2, 0, {}, ctx);
  double e = o.smoothing;
  double classes = double(cast<RankedTensorType>(x.getType()).getDimSize(1));
  return mapGeneric(
      b, loc, x, elem, {x, max, sum, labels, grad, total, divisor},
      {id, row, row, row, none, none, none},
      [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
        Value counts = labelCounts(nb, l, o, a[3]);
        Value y = safeLabel(nb, l, counts, a[3]);
        Value p = arith::DivFOp::create(
            nb, l, math::ExpOp::create(nb, l, arith::SubFOp::create(nb, l, a[0], a[1])),
            a[2]);
        Value cIdx = linalg::IndexOp::create(nb, l, 1);
        Value c = arith::IndexCastOp::create(nb, l, y.getType(), cIdx);
        Value hit = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, c, y);
        Value diff = arith::SubFOp::create(
            nb, l, p, arith::UIToFPOp::create(nb, l, elem, hit));
        Value nll = arith::MulFOp::create(
            nb, l, classWeight(nb, l, o.weight, y, elem), diff);
        Value wc = classWeight(nb, l, o.weight, c, elem);
        Value smooth = arith::SubFOp::create(
            nb, l, arith::MulFOp::create(nb, l, p, a[5]), wc);
        Value d = arith::AddFOp::create(
            nb, l,
            arith::MulFOp::create(nb, l, nll, scalarConstant(nb, l, elem, 1 - e)),
            arith::MulFOp::create(nb, l, smooth,
                                  scalarConstant(nb, l, elem, e / classes)));
        d = arith::DivFOp::create(nb, l, arith::MulFOp::create(nb, l, d, a[4]), a[6]);
        return maskRow(nb, l, counts, d);
      });
}

/// (softmax(x)[n, c] - (c == label[n])) * grad / D, D = N (mean) or 1, over
/// [N, C] rows.
Value lowerPlainCrossEntropyGrad(OpBuilder &b, Location loc, Value x,
                                 Value labels, Value grad, Reduction reduction) {
  Type elem = elementTypeOf(x);
  auto [max, sum] = logSumExpParts(b, loc, x, {false, true});
  Value divisor = reduction == Reduction::mean
                      ? countAsFloat(b, loc, x, {true, false}, elem)
                      : scalarConstant(b, loc, elem, 1.0);
  MLIRContext *ctx = b.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(2, ctx);
  AffineMap row = selectDims(2, {0}, ctx);
  return mapGeneric(
      b, loc, x, elem, {x, max, sum, labels, grad},
      {id, row, row, row, AffineMap::get(2, 0, {}, ctx)},
      [divisor](OpBuilder &nb, Location l, ValueRange a) -> Value {
        Value p = arith::DivFOp::create(
            nb, l, math::ExpOp::create(nb, l, arith::SubFOp::create(nb, l, a[0], a[1])),
            a[2]);
        Value c = arith::IndexCastOp::create(nb, l, a[3].getType(),
                                             linalg::IndexOp::create(nb, l, 1));
        Value hit = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, c, a[3]);
        Value onehot = arith::UIToFPOp::create(nb, l, p.getType(), hit);
        Value diff = arith::SubFOp::create(nb, l, p, onehot);
        return arith::DivFOp::create(nb, l, arith::MulFOp::create(nb, l, diff, a[4]),
                                     divisor);
      });
}

/// The gradient over [N, C] rows, expanded back to the logits' shape.
FailureOr<Value> lowerCrossEntropyGrad(CrossEntropyGradOp op,
                                       CrossEntropyGradOp::Adaptor adaptor,
                                       ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value x = collapseRows(rewriter, loc, adaptor.getLogits(), 1);
  Value labels = collapseRows(rewriter, loc, adaptor.getLabels(), 0);
  CEOptions o = optionsOf(op, adaptor.getWeight());
  Value rows = o.plain()
                   ? lowerPlainCrossEntropyGrad(rewriter, loc, x, labels,
                                                adaptor.getGrad(), op.getReduction())
                   : lowerCrossEntropyGradWithOptions(rewriter, loc, x, labels,
                                                      adaptor.getGrad(),
                                                      op.getReduction(), o);
  return expandRows(rewriter, loc, rows, adaptor.getLogits());
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
