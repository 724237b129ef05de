//===- OpEmitters.cpp - One mdl emitter per op of the registry ------------===//
//
// How each op of Ops.def becomes `mdl`: a table of emitters indexed by
// OpKind, which a static_assert keeps complete and in the order of Ops.def.
// The emitters read a node's attributes through its typed OpAttrs. Most are
// one op; dropout (train: mdl.dropout with a derived seed; eval: identity)
// and batch norm (train: batch statistics plus the running-statistics update
// through mdl.state_read / mdl.state_write; eval: the running statistics)
// depend on the function's role, and the losses are summed in @eval_metrics.
// The decoding form's attention_decode reads and updates the step's caches.
//
// Walking the graph, types and locations are FunctionEmitter.cpp's; the
// shape rules that decide the nodes' types are Sema's, checked again by the
// mdl ops' result-type inference.
//
//===----------------------------------------------------------------------===//

#include "FunctionEmitter.h"

#include "mdl/MDLOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <iterator>

using namespace modelc;
using namespace modelc::sema;
namespace mdl = mlir::mdl;
using llvm::ArrayRef;
using mlir::Location;

static mlir::Value emitInput(FunctionEmitter &fe, const Node &,
                             ArrayRef<mlir::Value>, Location) {
  return fe.input;
}

static mlir::Value emitLabel(FunctionEmitter &fe, const Node &,
                             ArrayRef<mlir::Value>, Location) {
  return fe.labels;
}

static mlir::Value emitParam(FunctionEmitter &fe, const Node &n,
                             ArrayRef<mlir::Value>, Location l) {
  mlir::OpBuilder &b = fe.builder();
  mlir::RankedTensorType type = FunctionEmitter::toType(b, n.type);
  mlir::Value stored = mdl::ParamOp::create(
      b, l, FunctionEmitter::storageType(b, n.type),
      mlir::FlatSymbolRefAttr::get(b.getContext(),
                                   attrsOf<OpKind::Param>(n).symbol));
  // A bf16 or f16 parameter is an f32 master weight, rounded where it is read.
  if (stored.getType() == type)
    return stored;
  return mdl::CastOp::create(b, l, stored, type.getElementType());
}

static mlir::Value emitConstant(FunctionEmitter &fe, const Node &n,
                                ArrayRef<mlir::Value>, Location l) {
  mlir::Type elt =
      FunctionEmitter::toType(fe.builder(), n.type).getElementType();
  return fe.scalar(attrsOf<OpKind::Constant>(n).value, elt, l);
}

/// An op of one operand alone (the unary elementwise ops).
template <typename Op>
static mlir::Value emitUnary(FunctionEmitter &fe, const Node &,
                             ArrayRef<mlir::Value> ops, Location l) {
  return Op::create(fe.builder(), l, ops[0]).getResult();
}

/// An op of two operands alone (binary elementwise ops, matmul, embedding).
template <typename Op>
static mlir::Value emitBinary(FunctionEmitter &fe, const Node &,
                              ArrayRef<mlir::Value> ops, Location l) {
  return Op::create(fe.builder(), l, ops[0], ops[1]).getResult();
}

static mlir::Value emitCmp(FunctionEmitter &fe, const Node &n,
                           ArrayRef<mlir::Value> ops, Location l) {
  mlir::OpBuilder &b = fe.builder();
  auto pred = mdl::symbolizeCmpPredicate(attrsOf<OpKind::Cmp>(n).predicate);
  return mdl::CmpOp::create(
      b, l, mdl::CmpPredicateAttr::get(b.getContext(), *pred), ops[0], ops[1]);
}

static mlir::Value emitCast(FunctionEmitter &fe, const Node &n,
                            ArrayRef<mlir::Value> ops, Location l) {
  mlir::OpBuilder &b = fe.builder();
  return mdl::CastOp::create(
      b, l, ops[0], FunctionEmitter::toType(b, n.type).getElementType());
}

static mlir::Value emitWhere(FunctionEmitter &fe, const Node &,
                             ArrayRef<mlir::Value> ops, Location l) {
  return mdl::SelectOp::create(fe.builder(), l, ops[0], ops[1], ops[2]);
}

/// causal_mask(n): the constant bool [n, n] with [i, j] = (j <= i).
static mlir::Value emitCausalMask(FunctionEmitter &fe, const Node &n,
                                  ArrayRef<mlir::Value>, Location l) {
  int64_t size = attrsOf<OpKind::CausalMask>(n).size;
  std::vector<bool> keep(size_t(size * size));
  for (int64_t i = 0; i < size; ++i)
    for (int64_t j = 0; j <= i; ++j)
      keep[size_t(i * size + j)] = true;
  llvm::SmallVector<bool> values(keep.begin(), keep.end());
  auto type =
      mlir::RankedTensorType::get({size, size}, fe.builder().getI1Type());
  return mdl::ConstantOp::create(fe.builder(), l,
                                 mlir::DenseElementsAttr::get(type, values));
}

static mlir::Value emitConv2D(FunctionEmitter &fe, const Node &n,
                              ArrayRef<mlir::Value> ops, Location l) {
  mlir::OpBuilder &b = fe.builder();
  OpAttrs<OpKind::Conv2D> a = attrsOf<OpKind::Conv2D>(n);
  return mdl::Conv2DOp::create(
      b, l, ops[0], ops[1], ops.size() > 2 ? ops[2] : mlir::Value(),
      b.getDenseI64ArrayAttr(a.stride), b.getDenseI64ArrayAttr(a.padding),
      b.getDenseI64ArrayAttr(a.dilation), b.getI64IntegerAttr(a.groups));
}

/// max_pool2d and avg_pool2d.
template <OpKind K, typename Op>
static mlir::Value emitPool(FunctionEmitter &fe, const Node &n,
                            ArrayRef<mlir::Value> ops, Location l) {
  mlir::OpBuilder &b = fe.builder();
  OpAttrs<K> a = attrsOf<K>(n);
  return Op::create(b, l, ops[0], b.getDenseI64ArrayAttr(a.kernel),
                    b.getDenseI64ArrayAttr(a.stride),
                    b.getDenseI64ArrayAttr(a.padding));
}

/// attention(query, key, value, causal).
static mlir::Value emitAttention(FunctionEmitter &fe, const Node &n,
                                 ArrayRef<mlir::Value> ops, Location l) {
  return mdl::AttentionOp::create(fe.builder(), l, ops[0], ops[1], ops[2],
                                  attrsOf<OpKind::Attention>(n).causal != 0);
}

/// softmax and log_softmax.
template <OpKind K, typename Op>
static mlir::Value emitSoftmax(FunctionEmitter &fe, const Node &n,
                               ArrayRef<mlir::Value> ops, Location l) {
  mlir::OpBuilder &b = fe.builder();
  return Op::create(b, l, ops[0], b.getI64IntegerAttr(attrsOf<K>(n).axis));
}

/// reduce_sum, reduce_mean and reduce_max.
template <OpKind K, typename Op>
static mlir::Value emitReduce(FunctionEmitter &fe, const Node &n,
                              ArrayRef<mlir::Value> ops, Location l) {
  mlir::OpBuilder &b = fe.builder();
  OpAttrs<K> a = attrsOf<K>(n);
  return Op::create(b, l, ops[0], b.getDenseI64ArrayAttr(a.axes),
                    b.getBoolAttr(a.keepdims));
}

static mlir::Value emitArgmax(FunctionEmitter &fe, const Node &n,
                              ArrayRef<mlir::Value> ops, Location l) {
  mlir::OpBuilder &b = fe.builder();
  return mdl::ArgmaxOp::create(
      b, l, ops[0], b.getI64IntegerAttr(attrsOf<OpKind::Argmax>(n).axis),
      b.getBoolAttr(false));
}

static mlir::Value emitReshape(FunctionEmitter &fe, const Node &n,
                               ArrayRef<mlir::Value> ops, Location l) {
  mlir::OpBuilder &b = fe.builder();
  return mdl::ReshapeOp::create(
      b, l, ops[0], b.getDenseI64ArrayAttr(attrsOf<OpKind::Reshape>(n).shape));
}

static mlir::Value emitFlatten(FunctionEmitter &fe, const Node &n,
                               ArrayRef<mlir::Value> ops, Location l) {
  mlir::OpBuilder &b = fe.builder();
  return mdl::FlattenOp::create(
      b, l, ops[0], b.getI64IntegerAttr(attrsOf<OpKind::Flatten>(n).start_dim),
      b.getI64IntegerAttr(-1));
}

static mlir::Value emitTranspose(FunctionEmitter &fe, const Node &n,
                                 ArrayRef<mlir::Value> ops, Location l) {
  mlir::OpBuilder &b = fe.builder();
  return mdl::TransposeOp::create(
      b, l, ops[0],
      b.getDenseI64ArrayAttr(attrsOf<OpKind::Transpose>(n).permutation));
}

/// mdl.slice, then an mdl.reshape to the node's type when integer indices
/// dropped dimensions (their size-1 dimensions removed).
static mlir::Value emitSlice(FunctionEmitter &fe, const Node &n,
                             ArrayRef<mlir::Value> ops, Location l) {
  mlir::OpBuilder &b = fe.builder();
  OpAttrs<OpKind::Slice> a = attrsOf<OpKind::Slice>(n);
  mlir::Value window = mdl::SliceOp::create(
      b, l, ops[0], b.getDenseI64ArrayAttr(a.start),
      b.getDenseI64ArrayAttr(a.size), b.getDenseI64ArrayAttr(a.stride));
  if (a.drop.empty())
    return window;
  std::vector<int64_t> shape;
  for (const SDim &d : n.type.shape)
    shape.push_back(d.isSymbolic() ? -1 : d.size);
  return mdl::ReshapeOp::create(b, l, window, b.getDenseI64ArrayAttr(shape));
}

/// The first `length` rows of a [rows, D] table: one mdl.slice.
static mlir::Value emitPositions(FunctionEmitter &fe, const Node &n,
                                 ArrayRef<mlir::Value> ops, Location l) {
  mlir::OpBuilder &b = fe.builder();
  int64_t width = n.type.shape[1].size;
  int64_t length = attrsOf<OpKind::Positions>(n).length;
  return mdl::SliceOp::create(b, l, ops[0], b.getDenseI64ArrayAttr({0, 0}),
                              b.getDenseI64ArrayAttr({length, width}),
                              b.getDenseI64ArrayAttr({1, 1}));
}

static mlir::Value emitConcat(FunctionEmitter &fe, const Node &n,
                              ArrayRef<mlir::Value> ops, Location l) {
  mlir::OpBuilder &b = fe.builder();
  return mdl::ConcatOp::create(
      b, l, ops, b.getI64IntegerAttr(attrsOf<OpKind::Concat>(n).axis));
}

/// Training-mode dropout; the identity in evaluation and at rate 0 (no mask
/// is drawn).
static mlir::Value emitDropout(FunctionEmitter &fe, const Node &n,
                               ArrayRef<mlir::Value> ops, Location l) {
  if (fe.isEval() || attrsOf<OpKind::Dropout>(n).rate == 0)
    return ops[0];
  mlir::Value seed = fe.nextDropoutSeed(l);
  mlir::OpBuilder &b = fe.builder();
  auto attrs = attrsOf<OpKind::Dropout>(n);
  return mdl::DropoutOp::create(b, l, ops[0], seed,
                                b.getF64FloatAttr(attrs.rate),
                                b.getBoolAttr(attrs.per_channel != 0))
      .getOutput();
}

/// The number of values per channel of batch norm's input, as a rank-0
/// tensor of `elt` (computed at run time when the batch is symbolic).
static mlir::Value perChannelCount(FunctionEmitter &fe, const Node &n,
                                   mlir::Value input, mlir::Type elt,
                                   Location l) {
  mlir::OpBuilder &b = fe.builder();
  int64_t perSample = 1;
  for (size_t i = 2; i < n.type.shape.size(); ++i)
    perSample *= n.type.shape[i].size;
  if (!n.type.shape[0].isSymbolic())
    return fe.scalar(double(perSample * n.type.shape[0].size), elt, l);
  mlir::Value dim = mlir::tensor::DimOp::create(b, l, input, 0);
  mlir::Value i64 = mlir::arith::IndexCastOp::create(b, l, b.getI64Type(), dim);
  mlir::Value f = mlir::arith::SIToFPOp::create(b, l, elt, i64);
  mlir::Value t = mlir::tensor::FromElementsOp::create(
      b, l, mlir::RankedTensorType::get({}, elt), mlir::ValueRange{f});
  return mdl::MulOp::create(b, l, t, fe.scalar(double(perSample), elt, l));
}

/// Whether the module's `mdl.config` asks for batch norm synchronised over
/// the ranks of a data-parallel run (`batch_norm = "sync"`).
static bool syncBatchNorm(mlir::OpBuilder &b) {
  auto module = b.getInsertionBlock()
                    ->getParentOp()
                    ->getParentOfType<mlir::ModuleOp>();
  auto config = module->getAttrOfType<mlir::DictionaryAttr>("mdl.config");
  auto mode = config ? config.getAs<mlir::StringAttr>("batch_norm") : nullptr;
  return mode && mode.getValue() == "sync";
}

/// The symbol reference to state \p name.
static mlir::FlatSymbolRefAttr stateRef(mlir::OpBuilder &b,
                                        llvm::StringRef name) {
  return mlir::FlatSymbolRefAttr::get(b.getContext(), name);
}

/// \p v converted to element type \p elt by mdl.cast (itself when it has it).
static mlir::Value castTo(mlir::OpBuilder &b, mlir::Value v, mlir::Type elt,
                          Location l) {
  if (mlir::cast<mlir::RankedTensorType>(v.getType()).getElementType() == elt)
    return v;
  return mdl::CastOp::create(b, l, v, elt);
}

/// Writes the running statistics after a training batch norm \p bn:
/// running = (1 - momentum) * running + momentum * batch statistic, with
/// the unbiased variance n/(n-1) * v (n = elements per channel; with n = 1
/// the running variance is kept), all in f32, the states' element type.
static void updateRunningStats(FunctionEmitter &fe, const Node &n,
                               mdl::BatchNormTrainOp bn, mlir::Value rm,
                               mlir::Value rv, bool sync, Location l) {
  mlir::OpBuilder &b = fe.builder();
  OpAttrs<OpKind::BatchNorm> a = attrsOf<OpKind::BatchNorm>(n);
  mlir::Type elt =
      mlir::cast<mlir::RankedTensorType>(rm.getType()).getElementType();
  mlir::Value keep = fe.scalar(1 - a.momentum, elt, l);
  mlir::Value take = fe.scalar(a.momentum, elt, l);
  auto blend = [&](mlir::Value run, mlir::Value stat) {
    mlir::Value x = mdl::MulOp::create(b, l, run, keep);
    mlir::Value y = mdl::MulOp::create(b, l, castTo(b, stat, elt, l), take);
    return mdl::AddOp::create(b, l, x, y).getResult();
  };
  // With sync, the statistics and so their element count are the global
  // batch's.
  mlir::Value count = perChannelCount(fe, n, bn.getInput(), elt, l);
  if (sync)
    count = mdl::AllReduceOp::create(b, l, count);
  // One value per channel (a batch of one sample with no spatial extent)
  // has no spread: the running variance is then kept as it is.
  mlir::Value one = fe.scalar(1, elt, l);
  mlir::Value countM1 = mdl::MaxOp::create(
      b, l, mdl::SubOp::create(b, l, count, one), one);
  mlir::Value factor = mdl::DivOp::create(b, l, count, countM1);
  mlir::Value unbiased =
      mdl::MulOp::create(b, l, castTo(b, bn.getBatchVar(), elt, l), factor);
  mlir::Value spread = mdl::CmpOp::create(
      b, l, mdl::CmpPredicateAttr::get(b.getContext(), mdl::CmpPredicate::gt),
      count, one);
  mdl::StateWriteOp::create(b, l, stateRef(b, a.running_mean),
                            blend(rm, bn.getBatchMean()));
  mdl::StateWriteOp::create(
      b, l, stateRef(b, a.running_var),
      mdl::SelectOp::create(b, l, spread, blend(rv, unbiased), rv));
}

/// Batch normalization; in training also the update of its running
/// statistics, f32 states whatever x's type (Sema's handleBatchNorm): the
/// update runs in f32, and the normalization reads them converted to x's
/// type (rounded for bf16 and f16).
static mlir::Value emitBatchNorm(FunctionEmitter &fe, const Node &n,
                                 ArrayRef<mlir::Value> ops, Location l) {
  mlir::OpBuilder &b = fe.builder();
  OpAttrs<OpKind::BatchNorm> a = attrsOf<OpKind::BatchNorm>(n);
  mlir::Type elt =
      FunctionEmitter::toType(b, TensorType{n.type.dtype, {}}).getElementType();
  auto statType =
      mlir::RankedTensorType::get({n.type.shape[1].size}, b.getF32Type());
  mlir::Value rm =
      mdl::StateReadOp::create(b, l, statType, stateRef(b, a.running_mean));
  mlir::Value rv =
      mdl::StateReadOp::create(b, l, statType, stateRef(b, a.running_var));
  if (fe.isEval()) {
    mlir::Value mean = castTo(b, rm, elt, l);
    mlir::Value var = castTo(b, rv, elt, l);
    return mdl::BatchNormEvalOp::create(b, l, ops[0], ops[1], ops[2], mean, var,
                                        b.getF64FloatAttr(a.epsilon));
  }
  bool sync = syncBatchNorm(b);
  auto bn = mdl::BatchNormTrainOp::create(
      b, l, ops[0], ops[1], ops[2], b.getF64FloatAttr(a.epsilon),
      b.getF64FloatAttr(a.momentum), b.getBoolAttr(sync));
  updateRunningStats(fe, n, bn, rm, rv, sync, l);
  return bn.getOutput();
}

static mlir::Value emitLayerNorm(FunctionEmitter &fe, const Node &n,
                                 ArrayRef<mlir::Value> ops, Location l) {
  mlir::OpBuilder &b = fe.builder();
  return mdl::LayerNormOp::create(
      b, l, ops[0], ops[1], ops[2],
      b.getF64FloatAttr(attrsOf<OpKind::LayerNorm>(n).epsilon));
}

/// mdl.cross_entropy with reduction `r`, the node's label smoothing and
/// ignore index, and its class weights as a constant of the logits'
/// element type.
static mlir::Value emitCrossEntropy(FunctionEmitter &fe,
                                    const OpAttrs<OpKind::CrossEntropy> &a,
                                    mdl::Reduction r, ArrayRef<mlir::Value> ops,
                                    Location l) {
  mlir::OpBuilder &b = fe.builder();
  mlir::Value weight;
  if (!a.weight.empty()) {
    mlir::Type elem =
        mlir::cast<mlir::RankedTensorType>(ops[0].getType()).getElementType();
    auto type = mlir::RankedTensorType::get({int64_t(a.weight.size())}, elem);
    llvm::SmallVector<mlir::Attribute> values;
    for (double w : a.weight)
      values.push_back(b.getFloatAttr(elem, w));
    weight = mdl::ConstantOp::create(
        b, l, mlir::DenseElementsAttr::get(type, values));
  }
  mlir::IntegerAttr ignore;
  if (!a.ignore_index.empty())
    ignore = b.getI64IntegerAttr(a.ignore_index[0]);
  return mdl::CrossEntropyOp::create(
      b, l, mdl::ReductionAttr::get(b.getContext(), r), ops[0], ops[1], weight,
      b.getF64FloatAttr(a.label_smoothing), ignore);
}

/// A loss with its reduction: the node's own, or in @eval_metrics the sum
/// over samples of each sample's loss. The runtime divides that sum by the
/// sample count, so a `mean` loss over several elements per sample (an
/// autoencoder's [B, 784]) is summed and scaled by 1/elements-per-sample:
/// the evaluation loss then means what the training loss means.
template <OpKind K, typename Op>
static mlir::Value emitLoss(FunctionEmitter &fe, const Node &n,
                            ArrayRef<mlir::Value> ops, Location l) {
  mlir::OpBuilder &b = fe.builder();
  auto own = *mdl::symbolizeReduction(attrsOf<K>(n).reduction);
  auto r = fe.sumsLosses() ? mdl::Reduction::sum : own;
  mlir::Value loss;
  if constexpr (K == OpKind::CrossEntropy)
    loss = emitCrossEntropy(fe, attrsOf<K>(n), r, ops, l);
  else
    loss = Op::create(b, l, mdl::ReductionAttr::get(b.getContext(), r), ops[0],
                      ops[1]);
  if (!fe.sumsLosses() || own != mdl::Reduction::mean ||
      K == OpKind::CrossEntropy)
    return loss;
  int64_t perSample = 1;
  for (int64_t d : llvm::drop_begin(
           mlir::cast<mlir::RankedTensorType>(ops[0].getType()).getShape()))
    perSample *= mlir::ShapedType::isDynamic(d) ? 1 : d;
  if (perSample == 1)
    return loss;
  mlir::Value scale = fe.scalar(1.0 / double(perSample),
                                b.getF32Type(), l);
  return mdl::MulOp::create(b, l, loss, scale).getResult();
}

static mlir::Value emitPosition(FunctionEmitter &fe, const Node &,
                                ArrayRef<mlir::Value>, Location) {
  return fe.position;
}

/// attention_decode c: the position's query over caches 2c and 2c + 1,
/// which it updates.
static mlir::Value emitAttentionDecode(FunctionEmitter &fe, const Node &n,
                                       ArrayRef<mlir::Value> ops, Location l) {
  unsigned c = 2 * unsigned(attrsOf<OpKind::AttentionDecode>(n).cache);
  auto op = mdl::AttentionDecodeOp::create(fe.builder(), l, ops[0], ops[1],
                                           ops[2], fe.caches[c],
                                           fe.caches[c + 1], ops[3]);
  fe.caches[c] = op.getNewKeyCache();
  fe.caches[c + 1] = op.getNewValueCache();
  return op.getResult();
}

namespace {
/// One row of the emitter table.
struct EmitterEntry {
  OpKind kind;
  OpEmitter emit;
};
} // namespace

/// The emitter of every op, in the order of Ops.def.
static constexpr EmitterEntry kEmitters[] = {
    {OpKind::Input, emitInput},
    {OpKind::Label, emitLabel},
    {OpKind::Param, emitParam},
    {OpKind::Constant, emitConstant},
    {OpKind::Add, emitBinary<mdl::AddOp>},
    {OpKind::Sub, emitBinary<mdl::SubOp>},
    {OpKind::Mul, emitBinary<mdl::MulOp>},
    {OpKind::Div, emitBinary<mdl::DivOp>},
    {OpKind::Pow, emitBinary<mdl::PowOp>},
    {OpKind::Max, emitBinary<mdl::MaxOp>},
    {OpKind::Min, emitBinary<mdl::MinOp>},
    {OpKind::Cmp, emitCmp},
    {OpKind::Neg, emitUnary<mdl::NegOp>},
    {OpKind::Abs, emitUnary<mdl::AbsOp>},
    {OpKind::Exp, emitUnary<mdl::ExpOp>},
    {OpKind::Log, emitUnary<mdl::LogOp>},
    {OpKind::Sqrt, emitUnary<mdl::SqrtOp>},
    {OpKind::Relu, emitUnary<mdl::ReluOp>},
    {OpKind::Gelu, emitUnary<mdl::GeluOp>},
    {OpKind::Tanh, emitUnary<mdl::TanhOp>},
    {OpKind::Sigmoid, emitUnary<mdl::SigmoidOp>},
    {OpKind::Cast, emitCast},
    {OpKind::Where, emitWhere},
    {OpKind::CausalMask, emitCausalMask},
    {OpKind::MatMul, emitBinary<mdl::MatmulOp>},
    {OpKind::BatchMatMul, emitBinary<mdl::BatchMatmulOp>},
    {OpKind::Attention, emitAttention},
    {OpKind::Conv2D, emitConv2D},
    {OpKind::MaxPool2D, emitPool<OpKind::MaxPool2D, mdl::MaxPool2DOp>},
    {OpKind::AvgPool2D, emitPool<OpKind::AvgPool2D, mdl::AvgPool2DOp>},
    {OpKind::Softmax, emitSoftmax<OpKind::Softmax, mdl::SoftmaxOp>},
    {OpKind::LogSoftmax, emitSoftmax<OpKind::LogSoftmax, mdl::LogSoftmaxOp>},
    {OpKind::ReduceSum, emitReduce<OpKind::ReduceSum, mdl::ReduceSumOp>},
    {OpKind::ReduceMean, emitReduce<OpKind::ReduceMean, mdl::ReduceMeanOp>},
    {OpKind::ReduceMax, emitReduce<OpKind::ReduceMax, mdl::ReduceMaxOp>},
    {OpKind::Argmax, emitArgmax},
    {OpKind::Reshape, emitReshape},
    {OpKind::Flatten, emitFlatten},
    {OpKind::Transpose, emitTranspose},
    {OpKind::Concat, emitConcat},
    {OpKind::Slice, emitSlice},
    {OpKind::Positions, emitPositions},
    {OpKind::Dropout, emitDropout},
    {OpKind::BatchNorm, emitBatchNorm},
    {OpKind::LayerNorm, emitLayerNorm},
    {OpKind::Embedding, emitBinary<mdl::EmbeddingOp>},
    {OpKind::CrossEntropy, emitLoss<OpKind::CrossEntropy, mdl::CrossEntropyOp>},
    {OpKind::MSELoss, emitLoss<OpKind::MSELoss, mdl::MSELossOp>},
    {OpKind::L1Loss, emitLoss<OpKind::L1Loss, mdl::L1LossOp>},
    {OpKind::BCEWithLogits,
     emitLoss<OpKind::BCEWithLogits, mdl::BCEWithLogitsOp>},
    {OpKind::Position, emitPosition},
    {OpKind::PositionRow, emitBinary<mdl::PositionRowOp>},
    {OpKind::AttentionDecode, emitAttentionDecode},
};

/// True when row i of kEmitters is OpKind i and every OpKind has a row.
static constexpr bool coversEveryOpInOrder() {
  if (std::size(kEmitters) != kNumOpKinds)
    return false;
  for (unsigned i = 0; i < kNumOpKinds; ++i)
    if (kEmitters[i].kind != OpKind(i) || !kEmitters[i].emit)
      return false;
  return true;
}
static_assert(coversEveryOpInOrder(),
              "kEmitters needs one emitter per op of Ops.def, in its order");

OpEmitter modelc::getOpEmitter(OpKind kind) {
  return kEmitters[unsigned(kind)].emit;
}
