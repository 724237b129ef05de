//===- GradientBuilder.cpp - Building blocks of mdl gradient rules --------===//
//
// Implements GradientBuilder: the arithmetic, mask, reduction, reshape and
// unbroadcast helpers that the per-op gradient rules are written with, and
// its first-failure-wins error state (every helper is a no-op returning a
// null Value after a failure).
//
//===----------------------------------------------------------------------===//

#include "GradientBuilder.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::mdl;

GradientBuilder::GradientBuilder(Operation *op, OpBuilder &builder,
                                 ArrayRef<Value> resultGrads,
                                 ArrayRef<bool> needed,
                                 SmallVectorImpl<Value> &operandGrads)
    : op(op), b(builder), loc(op->getLoc()), resultGrads(resultGrads),
      needed(needed), operandGrads(operandGrads) {
  operandGrads.assign(op->getNumOperands(), Value());
}

void GradientBuilder::set(unsigned i, Value value) {
  if (needed[i] && !hasFailed)
    operandGrads[i] = value;
}

void GradientBuilder::fail(const Twine &message) {
  if (!hasFailed)
    emitProgramError(op, "cannot be differentiated: ") << message;
  hasFailed = true;
}

/// Sums `value` over the dimensions that broadcasting added or stretched to
/// reach its shape from `target`: leading extra dimensions are dropped,
/// stretched size-1 dimensions kept as 1.
void GradientBuilder::setReduced(unsigned i, Value value) {
  if (!needed[i] || hasFailed)
    return;
  auto target = cast<RankedTensorType>(op->getOperand(i).getType());
  auto shape = cast<RankedTensorType>(value.getType()).getShape();
  int64_t lead = shape.size() - target.getRank();
  SmallVector<int64_t> ones;
  for (auto [d, size] : llvm::enumerate(target.getShape()))
    if (size == 1 && shape[lead + d] != 1)
      ones.push_back(d + lead);
  if (!ones.empty())
    value = sumKeep(value, ones);
  if (lead > 0)
    value = sum(value, allAxes(lead));
  if (value.getType() != target)
    return fail(Twine("operand #") + Twine(i) +
                " was broadcast through a dynamic dimension; its gradient "
                "cannot be summed back to its shape");
  operandGrads[i] = value;
}

Value GradientBuilder::add(Value a, Value c) { return create<AddOp>(a, c); }
Value GradientBuilder::sub(Value a, Value c) { return create<SubOp>(a, c); }
Value GradientBuilder::mul(Value a, Value c) { return create<MulOp>(a, c); }
Value GradientBuilder::div(Value a, Value c) { return create<DivOp>(a, c); }
Value GradientBuilder::neg(Value a) { return create<NegOp>(a); }

Value GradientBuilder::scalar(double value, Value like) {
  if (hasFailed)
    return Value();
  Type element = cast<RankedTensorType>(like.getType()).getElementType();
  auto type = RankedTensorType::get({}, element);
  return create<ConstantOp>(
      DenseElementsAttr::get(type, b.getFloatAttr(element, value)));
}

Value GradientBuilder::select(Value condition, Value a, Value c) {
  return create<SelectOp>(condition, a, c);
}

Value GradientBuilder::cmp(CmpPredicate predicate, Value a, Value c) {
  return create<CmpOp>(predicate, a, c);
}

Value GradientBuilder::maskOrZero(Value condition, Value a) {
  return select(condition, a, scalar(0.0, a));
}

Value GradientBuilder::sumKeep(Value value, ArrayRef<int64_t> axes) {
  return create<ReduceSumOp>(value, axes, /*keepdims=*/true);
}

Value GradientBuilder::meanKeep(Value value, ArrayRef<int64_t> axes) {
  return create<ReduceMeanOp>(value, axes, /*keepdims=*/true);
}

Value GradientBuilder::sum(Value value, ArrayRef<int64_t> axes) {
  return create<ReduceSumOp>(value, axes, /*keepdims=*/false);
}

Value GradientBuilder::reshape(Value value, ArrayRef<int64_t> shape) {
  if (hasFailed)
    return Value();
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  SmallVector<int64_t> sizes(shape);
  for (auto [d, size] : llvm::enumerate(sizes)) {
    if (!ShapedType::isDynamic(size))
      continue;
    if (d != 0 || !type.isDynamicDim(0)) {
      fail("it would need a reshape to " + formatShape(shape) +
           ", which may only have a dynamic leading dimension");
      return Value();
    }
    size = -1;
  }
  if (!sizes.empty() && sizes[0] != -1 && type.getRank() > 0 &&
      type.isDynamicDim(0)) {
    fail("it would need a reshape of a dynamic batch to the static shape " +
         formatShape(shape));
    return Value();
  }
  return create<ReshapeOp>(value, sizes);
}

Value GradientBuilder::expandLike(Value reduced, Value input,
                                  ArrayRef<int64_t> axes) {
  auto inputType = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> keep(inputType.getShape());
  for (int64_t axis : axes)
    keep[axis] = 1;
  return create<BroadcastToOp>(reshape(reduced, keep), input, nullptr);
}

Value GradientBuilder::count(Value value, ArrayRef<int64_t> axes) {
  if (hasFailed)
    return Value();
  auto type = cast<RankedTensorType>(value.getType());
  int64_t reducedStatic = 1, keptStatic = 1;
  bool reducedDynamic = false;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    int64_t size = type.getDimSize(d);
    bool reduced = llvm::is_contained(axes, d);
    if (reduced && ShapedType::isDynamic(size))
      reducedDynamic = true;
    else if (reduced)
      reducedStatic *= size;
    else if (ShapedType::isDynamic(size))
      keptStatic = -1;
    else
      keptStatic *= size;
  }
  if (!reducedDynamic)
    return scalar(static_cast<double>(reducedStatic), value);
  if (keptStatic < 0) {
    fail("a mean over a dynamic dimension next to another dynamic "
         "dimension is not supported");
    return Value();
  }
  // Count the dynamic extent at run time: the sum of a broadcast 1.
  Value ones = create<BroadcastToOp>(scalar(1.0, value), value, nullptr);
  Value total = sum(ones, allAxes(type.getRank()));
  if (keptStatic == 1)
    return total;
  return div(total, scalar(static_cast<double>(keptStatic), value));
}

Value GradientBuilder::perChannel(Value vector, int64_t rank) {
  auto type = cast<RankedTensorType>(vector.getType());
  SmallVector<int64_t> shape{type.getDimSize(0)};
  shape.append(rank - 2, 1);
  return reshape(vector, shape);
}

Value GradientBuilder::lossScale(Reduction reduction, Value value) {
  if (reduction == Reduction::sum)
    return scalar(1.0, value);
  int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
  return div(scalar(1.0, value), count(value, allAxes(rank)));
}

SmallVector<int64_t> mlir::mdl::allAxes(int64_t rank) {
  return llvm::to_vector(llvm::seq<int64_t>(0, rank));
}

SmallVector<int64_t> mlir::mdl::normalizedAxes(ArrayRef<int64_t> axes,
                                               int64_t rank) {
  SmallVector<int64_t> result;
  for (int64_t axis : axes)
    result.push_back(axis < 0 ? axis + rank : axis);
  llvm::sort(result);
  return result;
}

/// The mean and variance a normalisation used, shaped to broadcast against
/// its input.
static std::pair<Value, Value> normStatistics(GradientBuilder &e, Value x,
                                              ArrayRef<int64_t> statAxes,
                                              NormKind kind) {
  int64_t rank = getTensorType(x).getRank();
  if (kind == NormKind::Layer) {
    Value mean = e.meanKeep(x, statAxes);
    Value centered = e.sub(x, mean);
    return std::make_pair(mean, e.meanKeep(e.mul(centered, centered),
                                           statAxes));
  }
  bool batch = kind != NormKind::Eval;
  Value mean = batch ? e.op->getResult(1) : e.op->getOperand(3);
  Value var = batch ? e.op->getResult(2) : e.op->getOperand(4);
  Value m = e.perChannel(mean, rank);
  return std::make_pair(m, e.perChannel(var, rank));
}

/// `dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)` of synchronised batch
/// norm, divided by this rank's weight. The runtime weights rank r's
/// gradient by a_r = n_r / M (its share of the M samples' elements) and
/// sums, so the adjoint this rank receives is a_r times the global one: the
/// global means are (1/M) sum_s a_s T_s over the ranks' per-channel sums
/// T_s, and dividing the result by a_r gives
/// `dxhat - (U1 + xhat * U2) / (M * n_r)` with U = all_reduce(n_r * T_r).
static Value syncNormInner(GradientBuilder &e, Value x, Value dxhat,
                           Value xhat, ArrayRef<int64_t> statAxes) {
  Value n = e.count(x, statAxes);
  Value total = e.create<AllReduceOp>(n);
  Value u1 = e.create<AllReduceOp>(e.mul(e.sumKeep(dxhat, statAxes), n));
  Value u2 =
      e.create<AllReduceOp>(e.mul(e.sumKeep(e.mul(dxhat, xhat), statAxes), n));
  Value scale = e.div(e.scalar(1.0, x), e.mul(total, n));
  return e.sub(dxhat, e.mul(e.add(u1, e.mul(xhat, u2)), scale));
}

void mlir::mdl::buildNormGradient(GradientBuilder &e, Value x, Value gamma,
                                  APFloat epsilon, NormKind kind) {
  int64_t rank = getTensorType(x).getRank();
  int64_t split = rank - getTensorType(gamma).getRank();
  SmallVector<int64_t> statAxes, paramAxes;
  for (int64_t d = 0; d < rank; ++d) {
    bool stat = kind == NormKind::Layer ? d >= split : d != 1;
    (stat ? statAxes : paramAxes).push_back(d);
  }
  if (kind != NormKind::Layer)
    paramAxes = statAxes;
  auto [mean, var] = normStatistics(e, x, statAxes, kind);
  Value gammaB = kind == NormKind::Layer ? gamma : e.perChannel(gamma, rank);
  Value g = e.grad(0);
  Value eps = e.scalar(epsilon.convertToDouble(), x);
  Value rstd =
      e.div(e.scalar(1.0, x), e.create<SqrtOp>(e.add(var, eps)));
  Value xhat = e.mul(e.sub(x, mean), rstd);
  e.set(2, e.sum(g, paramAxes));
  e.set(1, e.sum(e.mul(g, xhat), paramAxes));
  Value dxhat = e.mul(g, gammaB);
  if (kind == NormKind::Eval)
    return e.set(0, e.mul(dxhat, rstd));
  if (kind == NormKind::SyncBatch)
    return e.set(0, e.mul(rstd, syncNormInner(e, x, dxhat, xhat, statAxes)));
  Value inner = e.sub(e.sub(dxhat, e.meanKeep(dxhat, statAxes)),
                      e.mul(xhat, e.meanKeep(e.mul(dxhat, xhat), statAxes)));
  e.set(0, e.mul(rstd, inner));
}
