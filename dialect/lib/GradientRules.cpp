//===- GradientRules.cpp - The gradient rule of every mdl op --------------===//
//
// One short function per differentiable mdl op: given the adjoints of its
// results (`e.grad(i)`), it builds the adjoints of its float operands
// (`e.set` / `e.setReduced`, which sums broadcast dimensions back). Forward
// operands and results are used directly. Rules hold only their maths: the
// GradientBuilder reports the first helper that fails and turns the rest
// into no-ops. `attachGradientRules` at the end is the table attaching each
// rule to its op through GradientOpInterface.
// The rule table is documented in docs/autodiff.md.
//
//===----------------------------------------------------------------------===//

#include "GradientBuilder.h"
#include "mdl/GradientInterface.h"

#include "mlir/IR/MLIRContext.h"

using namespace mlir;
using namespace mlir::mdl;

#include "mdl/MDLInterfaces.cpp.inc"

using GB = GradientBuilder;

//===----------------------------------------------------------------------===//
// Elementwise (binary results are reduced back to each operand's shape)
//===----------------------------------------------------------------------===//

static void rule(AddOp op, GB &e) {
  e.setReduced(0, e.grad());
  e.setReduced(1, e.grad());
}
static void rule(SubOp op, GB &e) {
  e.setReduced(0, e.grad());
  e.setReduced(1, e.neg(e.grad()));
}
static void rule(MulOp op, GB &e) {
  e.setReduced(0, e.mul(e.grad(), op.getRhs()));
  e.setReduced(1, e.mul(e.grad(), op.getLhs()));
}
// d(l/r) = g/r, -g*l/r^2 = -(g/r)*y.
static void rule(DivOp op, GB &e) {
  Value dl = e.div(e.grad(), op.getRhs());
  e.setReduced(0, dl);
  e.setReduced(1, e.neg(e.mul(dl, op.getResult())));
}
// d(l^r) = g*r*l^(r-1), g*y*log(l) (0 where l == 0, as PyTorch).
static void rule(PowOp op, GB &e) {
  Value l = op.getLhs(), r = op.getRhs(), g = e.grad();
  Value rm1 = e.sub(r, e.scalar(1.0, r));
  Value dl = e.mul(g, e.mul(r, e.create<PowOp>(l, rm1)));
  Value logL = e.mul(op.getResult(), e.create<LogOp>(l));
  Value isZero = e.cmp(CmpPredicate::eq, l, e.scalar(0.0, l));
  Value dr = e.select(isZero, e.scalar(0.0, l), e.mul(g, logL));
  e.setReduced(0, dl);
  e.setReduced(1, dr);
}
// Ties send the whole gradient to lhs.
static void minMaxRule(Operation *op, CmpPredicate pred, GB &e) {
  Value l = op->getOperand(0), r = op->getOperand(1), g = e.grad();
  Value lhsWins = e.cmp(pred, l, r);
  Value zero = e.scalar(0.0, g);
  e.setReduced(0, e.select(lhsWins, g, zero));
  e.setReduced(1, e.select(lhsWins, zero, g));
}
static void rule(MaxOp op, GB &e) { minMaxRule(op, CmpPredicate::ge, e); }
static void rule(MinOp op, GB &e) { minMaxRule(op, CmpPredicate::le, e); }
static void rule(NegOp op, GB &e) {
  e.set(0, e.neg(e.grad()));
}
// d|x| = g*sign(x), sign(0) = 0.
static void rule(AbsOp op, GB &e) {
  Value x = op.getOperand(), g = e.grad(), zero = e.scalar(0.0, x);
  Value negative = e.maskOrZero(e.cmp(CmpPredicate::lt, x, zero), e.neg(g));
  e.set(0, e.select(e.cmp(CmpPredicate::gt, x, zero), g, negative));
}
static void rule(ExpOp op, GB &e) {
  e.set(0, e.mul(e.grad(), op.getResult()));
}
static void rule(LogOp op, GB &e) {
  e.set(0, e.div(e.grad(), op.getOperand()));
}
static void rule(SqrtOp op, GB &e) {
  Value y = op.getResult();
  e.set(0, e.div(e.mul(e.grad(), e.scalar(0.5, y)), y));
}
// On y = relu(x) rather than x (y > 0 exactly when x > 0, NaN and -0
// included): x then has no other use and fuses into its producer (a
// convolution's bias add, a product's epilogue).
static void rule(ReluOp op, GB &e) {
  Value y = op.getResult();
  e.set(0, e.maskOrZero(e.cmp(CmpPredicate::gt, y, e.scalar(0.0, y)),
                        e.grad()));
}
static void rule(GeluOp op, GB &e) {
  e.set(0, e.create<GeluGradOp>(op.getOperand(), e.grad()));
}
// d tanh = g*(1 - y^2).
static void rule(TanhOp op, GB &e) {
  Value y = op.getResult();
  e.set(0, e.mul(e.grad(), e.sub(e.scalar(1.0, y), e.mul(y, y))));
}
// d sigmoid = g*y*(1 - y).
static void rule(SigmoidOp op, GB &e) {
  Value y = op.getResult();
  e.set(0, e.mul(e.mul(e.grad(), y), e.sub(e.scalar(1.0, y), y)));
}
static void rule(SelectOp op, GB &e) {
  Value c = op.getCondition(), g = e.grad(), zero = e.scalar(0.0, g);
  e.setReduced(1, e.select(c, g, zero));
  e.setReduced(2, e.select(c, zero, g));
}
// Only float -> float casts carry a gradient (integer operands never need).
static void rule(CastOp op, GB &e) {
  Type element = getTensorType(op.getInput()).getElementType();
  if (e.needs(0))
    e.set(0, e.create<CastOp>(e.grad(), element));
}

//===----------------------------------------------------------------------===//
// Products and pooling
//===----------------------------------------------------------------------===//

static Value transposeLast2(GB &e, Value v) {
  int64_t rank = getTensorType(v).getRank();
  SmallVector<int64_t> perm = allAxes(rank);
  std::swap(perm[rank - 2], perm[rank - 1]);
  return e.create<TransposeOp>(v, perm);
}
// y = l @ r: dl = g @ r^T; dr = l^T @ g over l's rows (leading dims merged).
static void rule(MatmulOp op, GB &e) {
  Value l = op.getLhs(), r = op.getRhs(), g = e.grad();
  e.set(0, e.create<MatmulOp>(g, transposeLast2(e, r)));
  if (getTensorType(l).getRank() > 2) {
    l = e.create<FlattenOp>(l, 0, -2);
    g = e.create<FlattenOp>(g, 0, -2);
  }
  e.set(1, e.create<MatmulOp>(transposeLast2(e, l), g));
}
// y = l @ r over broadcast batch dims: each side's product, summed over the
// batch dims it was broadcast along.
static void rule(BatchMatmulOp op, GB &e) {
  Value l = op.getLhs(), r = op.getRhs(), g = e.grad();
  if (e.needs(0))
    e.setReduced(0, e.create<BatchMatmulOp>(g, transposeLast2(e, r)));
  if (e.needs(1))
    e.setReduced(1, e.create<BatchMatmulOp>(transposeLast2(e, l), g));
}
// One adjoint op yields all three operand gradients (it recomputes the
// attention weights from the operands and the saved output).
static void rule(AttentionOp op, GB &e) {
  SmallVector<Value> grads = e.createResults<AttentionGradOp>(
      op.getQuery(), op.getKey(), op.getValue(), op.getResult(), e.grad(),
      op.getCausal());
  for (auto [i, g] : llvm::enumerate(grads))
    if (e.needs(i))
      e.set(i, g);
}
// The packed form: one adjoint op, the gradient laid out as qkv.
static void rule(AttentionPackedOp op, GB &e) {
  e.set(0, e.create<AttentionPackedGradOp>(op.getQkv(), op.getResult(),
                                           e.grad(), op.getCausal()));
}
static void rule(Conv2DOp op, GB &e) {
  Value g = e.grad(), x = op.getInput(), w = op.getWeight();
  if (e.needs(0))
    e.set(0, e.create<Conv2DGradInputOp>(g, w, x, op.getStride(),
                                         op.getPadding(), op.getDilation(),
                                         op.getGroups()));
  if (e.needs(1))
    e.set(1, e.create<Conv2DGradWeightOp>(g, x, w, op.getStride(),
                                          op.getPadding(), op.getDilation(),
                                          op.getGroups()));
  if (op.getBias())
    e.set(2, e.sum(g, {0, 2, 3}));
}
static void rule(MaxPool2DOp op, GB &e) {
  e.set(0, e.create<MaxPool2DGradOp>(e.grad(), op.getInput(), op.getKernel(),
                                     op.getStride(), op.getPadding()));
}
static void rule(AvgPool2DOp op, GB &e) {
  e.set(0, e.create<AvgPool2DGradOp>(e.grad(), op.getInput(), op.getKernel(),
                                     op.getStride(), op.getPadding()));
}

//===----------------------------------------------------------------------===//
// Softmax and reductions
//===----------------------------------------------------------------------===//

static int64_t axisOf(Operation *op, int64_t axis) {
  return *normalizeAxis(axis, getTensorType(op->getOperand(0)).getRank());
}
// dx = y * (g - sum(g * y)).
static void rule(SoftmaxOp op, GB &e) {
  Value y = op.getResult(), g = e.grad();
  int64_t axis = axisOf(op, op.getAxis());
  e.set(0, e.mul(y, e.sub(g, e.sumKeep(e.mul(g, y), axis))));
}
// dx = g - softmax(x) * sum(g), softmax(x) = exp(y).
static void rule(LogSoftmaxOp op, GB &e) {
  Value y = op.getResult(), g = e.grad();
  int64_t axis = axisOf(op, op.getAxis());
  Value p = e.create<ExpOp>(y);
  e.set(0, e.sub(g, e.mul(p, e.sumKeep(g, axis))));
}
static SmallVector<int64_t> reducedAxes(Operation *op, ArrayRef<int64_t> axes) {
  return normalizedAxes(axes, getTensorType(op->getOperand(0)).getRank());
}
static void rule(ReduceSumOp op, GB &e) {
  e.set(0, e.expandLike(e.grad(), op.getInput(),
                        reducedAxes(op, op.getAxes())));
}
static void rule(ReduceMeanOp op, GB &e) {
  SmallVector<int64_t> axes = reducedAxes(op, op.getAxes());
  Value n = e.count(op.getInput(), axes);
  e.set(0, e.expandLike(e.div(e.grad(), n), op.getInput(), axes));
}
// The gradient is shared evenly by the maxima of each slice (torch.amax).
static void rule(ReduceMaxOp op, GB &e) {
  Value x = op.getInput();
  SmallVector<int64_t> axes = reducedAxes(op, op.getAxes());
  Value y = e.expandLike(op.getResult(), x, axes);
  Value isMax = e.cmp(CmpPredicate::eq, x, y);
  Value ties = e.sumKeep(e.maskOrZero(isMax, e.scalar(1.0, x)), axes);
  Value g = e.expandLike(e.grad(), x, axes);
  e.set(0, e.maskOrZero(isMax, e.div(g, ties)));
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

static void reshapeBack(Operation *op, GB &e) {
  e.set(0, e.reshape(e.grad(), getTensorType(op->getOperand(0)).getShape()));
}
static void rule(ReshapeOp op, GB &e) { reshapeBack(op, e); }
static void rule(FlattenOp op, GB &e) { reshapeBack(op, e); }
static void rule(TransposeOp op, GB &e) {
  ArrayRef<int64_t> perm = op.getPermutation();
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = i;
  e.set(0, e.create<TransposeOp>(e.grad(), inverse));
}
// The `like` operand only supplies a shape.
static void rule(BroadcastToOp op, GB &e) { e.setReduced(0, e.grad()); }
// Each input gets its window of the gradient along the axis.
static void rule(ConcatOp op, GB &e) {
  auto type = getTensorType(op.getResult());
  int64_t axis = *normalizeAxis(op.getAxis(), type.getRank()), offset = 0;
  for (auto [i, input] : llvm::enumerate(op.getInputs())) {
    auto inputType = getTensorType(input);
    if (inputType.isDynamicDim(axis))
      return e.fail("concatenation along a dynamic dimension");
    SmallVector<int64_t> start(type.getRank(), 0), size;
    SmallVector<int64_t> stride(type.getRank(), 1);
    for (int64_t dim : inputType.getShape())
      size.push_back(ShapedType::isDynamic(dim) ? -1 : dim);
    start[axis] = offset;
    offset += inputType.getDimSize(axis);
    if (e.needs(i))
      e.set(i, e.create<SliceOp>(e.grad(), start, size, stride));
  }
}
static void rule(SliceOp op, GB &e) {
  e.set(0, e.create<SliceGradOp>(e.grad(), op.getInput(), op.getStart(),
                                 op.getStride()));
}

//===----------------------------------------------------------------------===//
// nn layers
//===----------------------------------------------------------------------===//

// Reuses the forward mask: dx = mask ? g / (1 - rate) : 0.
static void rule(DropoutOp op, GB &e) {
  if (!e.grad(0))
    return;
  double scale = 1.0 / (1.0 - op.getRate().convertToDouble());
  Value scaled = e.mul(e.grad(0), e.scalar(scale, op.getInput()));
  e.set(0, e.maskOrZero(op.getMask(), scaled));
}
static void rule(BatchNormTrainOp op, GB &e) {
  if (e.grad(1) || e.grad(2))
    return e.fail("the loss depends on the batch statistics (results 1 and "
                  "2), which have no gradient rule");
  buildNormGradient(e, op.getInput(), op.getGamma(), op.getEpsilon(),
                    op.getSync() ? NormKind::SyncBatch : NormKind::Batch);
}
static void rule(LayerNormOp op, GB &e) {
  buildNormGradient(e, op.getInput(), op.getGamma(), op.getEpsilon(),
                           NormKind::Layer);
}
// Running statistics are not differentiated (they come from state).
static void rule(BatchNormEvalOp op, GB &e) {
  buildNormGradient(e, op.getInput(), op.getGamma(), op.getEpsilon(),
                           NormKind::Eval);
}
// Every rank's input adds to every rank's result: the adjoint of a sum over
// the ranks is the sum over the ranks of the adjoints.
static void rule(AllReduceOp op, GB &e) {
  e.set(0, e.create<AllReduceOp>(e.grad()));
}
static void rule(EmbeddingOp op, GB &e) {
  e.set(1, e.create<EmbeddingGradOp>(e.grad(), op.getIndices(),
                                     op.getTable()));
}

//===----------------------------------------------------------------------===//
// Losses (the incoming adjoint is 0-d; mean divides by the element count)
//===----------------------------------------------------------------------===//

// The stable form softmax(x) - onehot(labels); never log(softmax(x)).
static void rule(CrossEntropyOp op, GB &e) {
  e.set(0, e.create<CrossEntropyGradOp>(op.getReduction(), op.getLogits(),
                                        op.getLabels(), e.grad(),
                                        op.getWeight(),
                                        op.getLabelSmoothing(),
                                        op.getIgnoreIndexAttr()));
}
/// Records d/dinput = scaled and d/dtarget = `targetFactor` * ... for a pair
/// loss whose per-element derivative w.r.t. the input is `dInput` and
/// w.r.t. the target is `dTarget`, both multiplied by g (and 1/N for mean).
static void setPairLoss(Operation *op, Reduction reduction, GB &e,
                        Value dInput, Value dTarget) {
  Value scale = e.mul(e.grad(), e.lossScale(reduction, op->getOperand(0)));
  e.set(0, e.mul(dInput, scale));
  e.set(1, e.mul(dTarget, scale));
}
// (x - t)^2: 2(x - t), -2(x - t).
static void rule(MSELossOp op, GB &e) {
  Value d = e.mul(e.sub(op.getInput(), op.getTarget()),
                  e.scalar(2.0, op.getInput()));
  setPairLoss(op, op.getReduction(), e, d, e.neg(d));
}
// |x - t|: sign(x - t), -sign(x - t) (sign(0) = 0).
static void rule(L1LossOp op, GB &e) {
  Value d = e.sub(op.getInput(), op.getTarget());
  Value zero = e.scalar(0.0, d), one = e.scalar(1.0, d);
  Value sign = e.select(e.cmp(CmpPredicate::gt, d, zero), one,
                        e.maskOrZero(e.cmp(CmpPredicate::lt, d, zero),
                                     e.neg(one)));
  setPairLoss(op, op.getReduction(), e, sign, e.neg(sign));
}
// sigmoid(x) - t, -x.
static void rule(BCEWithLogitsOp op, GB &e) {
  Value x = op.getInput();
  Value dx = e.sub(e.create<SigmoidOp>(x), op.getTarget());
  setPairLoss(op, op.getReduction(), e, dx, e.neg(x));
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

namespace {
/// Attaches `rule(OpT, GB &)` to OpT through GradientOpInterface.
template <typename OpT>
struct GradientModel
    : public GradientOpInterface::ExternalModel<GradientModel<OpT>, OpT> {
  LogicalResult buildGradients(Operation *op, OpBuilder &builder,
                               ArrayRef<Value> resultGrads,
                               ArrayRef<bool> needed,
                               SmallVectorImpl<Value> &operandGrads) const {
    GradientBuilder e(op, builder, resultGrads, needed, operandGrads);
    rule(cast<OpT>(op), e);
    return e.status();
  }
};
} // namespace

template <typename... OpTs>
static void attach(MLIRContext &context) {
  (OpTs::template attachInterface<GradientModel<OpTs>>(context), ...);
}

void mlir::mdl::attachGradientRules(MLIRContext &context) {
  attach<AddOp, SubOp, MulOp, DivOp, PowOp, MaxOp, MinOp>(context);
  attach<NegOp, AbsOp, ExpOp, LogOp, SqrtOp, ReluOp, GeluOp, TanhOp,
         SigmoidOp, SelectOp, CastOp>(context);
  attach<MatmulOp, BatchMatmulOp, AttentionOp, AttentionPackedOp, Conv2DOp,
         MaxPool2DOp, AvgPool2DOp>(context);
  attach<SoftmaxOp, LogSoftmaxOp, ReduceSumOp, ReduceMeanOp, ReduceMaxOp>(
      context);
  attach<ReshapeOp, FlattenOp, TransposeOp, BroadcastToOp, ConcatOp, SliceOp>(
      context);
  attach<DropoutOp, BatchNormTrainOp, BatchNormEvalOp, LayerNormOp,
         EmbeddingOp, AllReduceOp>(context);
  attach<CrossEntropyOp, MSELossOp, L1LossOp, BCEWithLogitsOp>(context);
}
