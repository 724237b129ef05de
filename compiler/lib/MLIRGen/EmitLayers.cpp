//===- EmitLayers.cpp - mdl ops for layers, shapes and losses -------------===//
//
// The non-elementwise half of the function emitter: products, pooling,
// softmax, reductions, shape ops, dropout (train: mdl.dropout with a derived
// seed; eval: identity), batch norm (train: batch statistics plus the
// running-statistics update through mdl.state_read / mdl.state_write;
// eval: the running statistics), layer norm, embedding and the losses.
//
//===----------------------------------------------------------------------===//

#include "FunctionEmitter.h"

#include "mdl/MDLOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace modelc;
using namespace modelc::sema;
namespace mdl = mlir::mdl;

/// The golden-ratio increment that separates the seeds of dropout layers.
static constexpr uint64_t kSeedStride = 0x9E3779B97F4A7C15ull;

mlir::Value FunctionEmitter::batchNorm(const Node &n,
                                       llvm::ArrayRef<mlir::Value> ops,
                                       mlir::Location l) {
  mlir::MLIRContext *ctx = b.getContext();
  auto cType = toType(b, TensorType{n.type.dtype, {n.type.shape[1]}});
  auto sym = [&](llvm::StringRef key) {
    return mlir::FlatSymbolRefAttr::get(ctx, n.getText(key));
  };
  mlir::Value rm = mdl::StateReadOp::create(b, l, cType, sym("running_mean"));
  mlir::Value rv = mdl::StateReadOp::create(b, l, cType, sym("running_var"));
  double eps = n.getNumber("epsilon"), mom = n.getNumber("momentum");
  if (role == Role::ForwardEval || role == Role::EvalMetrics)
    return mdl::BatchNormEvalOp::create(b, l, ops[0], ops[1], ops[2], rm, rv,
                                        b.getF64FloatAttr(eps));
  auto bn = mdl::BatchNormTrainOp::create(b, l, ops[0], ops[1], ops[2],
                                          b.getF64FloatAttr(eps),
                                          b.getF64FloatAttr(mom));
  // running = (1 - momentum) * running + momentum * batch statistic, with
  // the unbiased variance n/(n-1) * v (n = elements per channel).
  mlir::Type elt = cType.getElementType();
  mlir::Value keep = scalar(1 - mom, elt, l), take = scalar(mom, elt, l);
  auto blend = [&](mlir::Value run, mlir::Value stat) {
    mlir::Value a = mdl::MulOp::create(b, l, run, keep);
    mlir::Value c = mdl::MulOp::create(b, l, stat, take);
    return mdl::AddOp::create(b, l, a, c).getResult();
  };
  int64_t perSample = 1;
  for (size_t i = 2; i < n.type.shape.size(); ++i)
    perSample *= n.type.shape[i].size;
  mlir::Value count;
  if (!n.type.shape[0].isSymbolic()) {
    count = scalar(double(perSample * n.type.shape[0].size), elt, l);
  } else {
    mlir::Value dim = mlir::tensor::DimOp::create(b, l, ops[0], 0);
    mlir::Value i64 =
        mlir::arith::IndexCastOp::create(b, l, b.getI64Type(), dim);
    mlir::Value f = mlir::arith::SIToFPOp::create(b, l, elt, i64);
    mlir::Value t = mlir::tensor::FromElementsOp::create(
        b, l, mlir::RankedTensorType::get({}, elt), mlir::ValueRange{f});
    count = mdl::MulOp::create(b, l, t, scalar(double(perSample), elt, l));
  }
  mlir::Value countM1 = mdl::SubOp::create(b, l, count, scalar(1, elt, l));
  mlir::Value factor = mdl::DivOp::create(b, l, count, countM1);
  mlir::Value unbiased = mdl::MulOp::create(b, l, bn.getBatchVar(), factor);
  mdl::StateWriteOp::create(b, l, sym("running_mean"),
                            blend(rm, bn.getBatchMean()));
  mdl::StateWriteOp::create(b, l, sym("running_var"), blend(rv, unbiased));
  return bn.getOutput();
}

/// The loss reduction: the node's own, or `sum` in @eval_metrics.
static mdl::ReductionAttr reduction(mlir::OpBuilder &b, const Node &n,
                                    bool forceSum) {
  auto r = forceSum ? mdl::Reduction::sum
                    : *mdl::symbolizeReduction(n.getText("reduction"));
  return mdl::ReductionAttr::get(b.getContext(), r);
}

mlir::Value FunctionEmitter::emitLayer(const Node &n,
                                       llvm::ArrayRef<mlir::Value> ops,
                                       mlir::Location l) {
  bool sum = role == Role::EvalMetrics;
  switch (n.kind) {
  case OpKind::Conv2D:
    return mdl::Conv2DOp::create(
        b, l, ops[0], ops[1], ops.size() > 2 ? ops[2] : mlir::Value(),
        b.getDenseI64ArrayAttr(n.getInts("stride")),
        b.getDenseI64ArrayAttr(n.getInts("padding")),
        b.getDenseI64ArrayAttr(n.getInts("dilation")),
        b.getI64IntegerAttr(n.getInts("groups")[0]));
  case OpKind::MaxPool2D:
  case OpKind::AvgPool2D: {
    auto k = b.getDenseI64ArrayAttr(n.getInts("kernel"));
    auto s = b.getDenseI64ArrayAttr(n.getInts("stride"));
    auto p = b.getDenseI64ArrayAttr(n.getInts("padding"));
    if (n.kind == OpKind::MaxPool2D)
      return mdl::MaxPool2DOp::create(b, l, ops[0], k, s, p);
    return mdl::AvgPool2DOp::create(b, l, ops[0], k, s, p);
  }
  case OpKind::Softmax:
    return mdl::SoftmaxOp::create(b, l, ops[0],
                                  b.getI64IntegerAttr(n.getInts("axis")[0]));
  case OpKind::LogSoftmax:
    return mdl::LogSoftmaxOp::create(
        b, l, ops[0], b.getI64IntegerAttr(n.getInts("axis")[0]));
  case OpKind::ReduceSum:
  case OpKind::ReduceMean:
  case OpKind::ReduceMax: {
    auto axes = b.getDenseI64ArrayAttr(n.getInts("axes"));
    auto keep = b.getBoolAttr(n.getInts("keepdims")[0]);
    if (n.kind == OpKind::ReduceSum)
      return mdl::ReduceSumOp::create(b, l, ops[0], axes, keep);
    if (n.kind == OpKind::ReduceMean)
      return mdl::ReduceMeanOp::create(b, l, ops[0], axes, keep);
    return mdl::ReduceMaxOp::create(b, l, ops[0], axes, keep);
  }
  case OpKind::Argmax:
    return mdl::ArgmaxOp::create(b, l, ops[0],
                                 b.getI64IntegerAttr(n.getInts("axis")[0]),
                                 b.getBoolAttr(false));
  case OpKind::Reshape:
    return mdl::ReshapeOp::create(b, l, ops[0],
                                  b.getDenseI64ArrayAttr(n.getInts("shape")));
  case OpKind::Flatten:
    return mdl::FlattenOp::create(
        b, l, ops[0], b.getI64IntegerAttr(n.getInts("start_dim")[0]),
        b.getI64IntegerAttr(-1));
  case OpKind::Transpose:
    return mdl::TransposeOp::create(
        b, l, ops[0], b.getDenseI64ArrayAttr(n.getInts("permutation")));
  case OpKind::Concat:
    return mdl::ConcatOp::create(b, l, ops,
                                 b.getI64IntegerAttr(n.getInts("axis")[0]));
  case OpKind::Dropout: {
    if (role == Role::ForwardEval || role == Role::EvalMetrics)
      return ops[0];
    mlir::Value s = seed;
    if (unsigned k = dropouts++) {
      auto type = mlir::RankedTensorType::get({}, b.getI64Type());
      auto offset = mlir::DenseElementsAttr::get(
          type, b.getI64IntegerAttr(int64_t(k * kSeedStride)).getValue());
      s = mdl::AddOp::create(b, l, seed,
                             mdl::ConstantOp::create(b, l, offset));
    }
    return mdl::DropoutOp::create(b, l, ops[0], s,
                                  b.getF64FloatAttr(n.getNumber("rate")))
        .getOutput();
  }
  case OpKind::BatchNorm:
    return batchNorm(n, ops, l);
  case OpKind::LayerNorm:
    return mdl::LayerNormOp::create(b, l, ops[0], ops[1], ops[2],
                                    b.getF64FloatAttr(n.getNumber("epsilon")));
  case OpKind::Embedding:
    return mdl::EmbeddingOp::create(b, l, ops[0], ops[1]);
  case OpKind::CrossEntropy:
    return mdl::CrossEntropyOp::create(b, l, reduction(b, n, sum), ops[0],
                                       ops[1]);
  case OpKind::MSELoss:
    return mdl::MSELossOp::create(b, l, reduction(b, n, sum), ops[0], ops[1]);
  case OpKind::L1Loss:
    return mdl::L1LossOp::create(b, l, reduction(b, n, sum), ops[0], ops[1]);
  case OpKind::BCEWithLogits:
    return mdl::BCEWithLogitsOp::create(b, l, reduction(b, n, sum), ops[0],
                                        ops[1]);
  default:
    llvm_unreachable("node kind handled by emitNode or never produced");
  }
}
