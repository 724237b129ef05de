//===- OnnxOps.cpp - ONNX nodes for each mdl op ----------------------------===//
//
// One small emitter per family of mdl ops of an evaluation graph: the
// elementwise ops (one ONNX op each; gelu through Erf, which opset 17 has
// where Gelu is newer), comparisons, products (MatMul, Conv), pooling,
// normalisation, reductions and shape ops. An op with no mapping here is an
// OnnxExportError at the op's location naming it.
//
//===----------------------------------------------------------------------===//
#include "OnnxBuilder.h"

#include "modelc/Export/OnnxExport.h"

#include "mdl/MDLOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>

using namespace modelc;
namespace mdl = mlir::mdl;

/// The ONNX op type of an mdl elementwise op with a one-to-one form.
static llvm::StringRef elementwiseOnnxType(mlir::Operation *op) {
  return llvm::TypeSwitch<mlir::Operation *, llvm::StringRef>(op)
      .Case<mdl::AddOp>([](auto) { return "Add"; })
      .Case<mdl::SubOp>([](auto) { return "Sub"; })
      .Case<mdl::MulOp>([](auto) { return "Mul"; })
      .Case<mdl::DivOp>([](auto) { return "Div"; })
      .Case<mdl::PowOp>([](auto) { return "Pow"; })
      .Case<mdl::MaxOp>([](auto) { return "Max"; })
      .Case<mdl::MinOp>([](auto) { return "Min"; })
      .Case<mdl::NegOp>([](auto) { return "Neg"; })
      .Case<mdl::AbsOp>([](auto) { return "Abs"; })
      .Case<mdl::ExpOp>([](auto) { return "Exp"; })
      .Case<mdl::LogOp>([](auto) { return "Log"; })
      .Case<mdl::SqrtOp>([](auto) { return "Sqrt"; })
      .Case<mdl::ReluOp>([](auto) { return "Relu"; })
      .Case<mdl::TanhOp>([](auto) { return "Tanh"; })
      .Case<mdl::SigmoidOp>([](auto) { return "Sigmoid"; })
      .Case<mdl::SelectOp>([](auto) { return "Where"; })
      .Case<mdl::MatmulOp, mdl::BatchMatmulOp>([](auto) { return "MatMul"; })
      .Default([](auto) { return ""; });
}

/// The names of \p op's operands.
static std::vector<std::string> operandNames(OnnxBuilder &b,
                                             mlir::Operation *op) {
  std::vector<std::string> names;
  for (mlir::Value v : op->getOperands())
    names.push_back(b.name(v));
  return names;
}

/// Binds \p op's only result to the output of an \p opType node over its
/// operands, and returns the node for attributes.
static onnx::NodeProto &direct(OnnxBuilder &b, mlir::Operation *op,
                               llvm::StringRef opType) {
  std::string out = b.fresh();
  b.bind(op->getResult(0), out);
  return b.node(opType, operandNames(b, op), {out});
}

/// gelu(x) = x * 0.5 * (1 + erf(x / sqrt(2))).
static void emitGelu(OnnxBuilder &b, mdl::GeluOp op) {
  std::string x = b.name(op.getOperand());
  std::string half = b.constF32({0.5f}, {}), one = b.constF32({1.0f}, {});
  std::string root2 = b.constF32({float(std::sqrt(2.0))}, {});
  std::string erf = b.unary("Erf", {b.unary("Div", {x, root2})});
  std::string out = b.fresh();
  b.node("Mul", {b.unary("Mul", {x, half}), b.unary("Add", {erf, one})},
         {out});
  b.bind(op.getResult(), out);
}

static void emitCmp(OnnxBuilder &b, mdl::CmpOp op) {
  std::string lhs = b.name(op.getLhs()), rhs = b.name(op.getRhs());
  std::string out;
  switch (op.getPredicate()) {
  case mdl::CmpPredicate::eq: out = b.unary("Equal", {lhs, rhs}); break;
  case mdl::CmpPredicate::ne:
    out = b.unary("Not", {b.unary("Equal", {lhs, rhs})});
    break;
  case mdl::CmpPredicate::lt: out = b.unary("Less", {lhs, rhs}); break;
  case mdl::CmpPredicate::le: out = b.unary("LessOrEqual", {lhs, rhs}); break;
  case mdl::CmpPredicate::gt: out = b.unary("Greater", {lhs, rhs}); break;
  case mdl::CmpPredicate::ge:
    out = b.unary("GreaterOrEqual", {lhs, rhs});
    break;
  }
  b.bind(op.getResult(), out);
}

/// ONNX pads of a symmetric 2-D padding: [top, left, bottom, right].
static std::vector<int64_t> pads2d(llvm::ArrayRef<int64_t> padding) {
  return {padding[0], padding[1], padding[0], padding[1]};
}

static void emitConv(OnnxBuilder &b, mdl::Conv2DOp op) {
  onnx::NodeProto &n = direct(b, op, "Conv");
  OnnxBuilder::attr(n, "strides", op.getStride());
  OnnxBuilder::attr(n, "pads", pads2d(op.getPadding()));
  OnnxBuilder::attr(n, "dilations", op.getDilation());
  OnnxBuilder::attr(n, "group", int64_t(op.getGroups()));
  auto weight = mlir::cast<mlir::RankedTensorType>(op.getWeight().getType());
  OnnxBuilder::attr(n, "kernel_shape", weight.getShape().drop_front(2));
}

/// Max pooling pads with -inf and average pooling divides by the whole
/// kernel (count_include_pad), as mdl defines them.
template <typename PoolOp>
static void emitPool(OnnxBuilder &b, PoolOp op, llvm::StringRef opType) {
  onnx::NodeProto &n = direct(b, op, opType);
  OnnxBuilder::attr(n, "kernel_shape", op.getKernel());
  OnnxBuilder::attr(n, "strides", op.getStride());
  OnnxBuilder::attr(n, "pads", pads2d(op.getPadding()));
  if (opType == "AveragePool")
    OnnxBuilder::attr(n, "count_include_pad", int64_t(1));
}

static void emitLayerNorm(OnnxBuilder &b, mdl::LayerNormOp op) {
  onnx::NodeProto &n = direct(b, op, "LayerNormalization");
  auto in = mlir::cast<mlir::RankedTensorType>(op.getInput().getType());
  auto g = mlir::cast<mlir::RankedTensorType>(op.getGamma().getType());
  OnnxBuilder::attr(n, "axis", int64_t(in.getRank() - g.getRank()));
  OnnxBuilder::attr(n, "epsilon", float(op.getEpsilon().convertToDouble()));
}

static void emitEmbedding(OnnxBuilder &b, mdl::EmbeddingOp op) {
  std::string out = b.fresh();
  b.node("Gather", {b.name(op.getTable()), b.name(op.getIndices())}, {out});
  b.bind(op.getResult(), out);
}

/// ReduceSum takes its axes as an input since opset 13; ReduceMean and
/// ReduceMax as an attribute until opset 18.
template <typename ReduceOp>
static void emitReduce(OnnxBuilder &b, ReduceOp op, llvm::StringRef opType) {
  std::string out = b.fresh();
  b.bind(op.getResult(), out);
  std::vector<std::string> inputs{b.name(op.getInput())};
  if (opType == "ReduceSum")
    inputs.push_back(b.constI64(op.getAxes()));
  onnx::NodeProto &n = b.node(opType, inputs, {out});
  if (opType != "ReduceSum")
    OnnxBuilder::attr(n, "axes", op.getAxes());
  OnnxBuilder::attr(n, "keepdims", int64_t(op.getKeepdims()));
}

/// The shape operand of an ONNX Reshape to \p result: static sizes, 0 (copy
/// the input's) for a dynamic dimension 0 that \p keepsBatch says is the
/// input's, -1 for any other dynamic dimension (there is at most one).
static std::string reshapeTarget(OnnxBuilder &b, mlir::Type result,
                                 bool keepsBatch) {
  auto type = mlir::cast<mlir::RankedTensorType>(result);
  std::vector<int64_t> shape;
  for (auto [i, d] : llvm::enumerate(type.getShape()))
    shape.push_back(!mlir::ShapedType::isDynamic(d) ? d
                    : i == 0 && keepsBatch          ? 0
                                                    : -1);
  return b.constI64(shape);
}

static void emitReshapeLike(OnnxBuilder &b, mlir::Operation *op,
                            bool keepsBatch) {
  std::string out = b.fresh();
  b.node("Reshape",
         {b.name(op->getOperand(0)),
          reshapeTarget(b, op->getResult(0).getType(), keepsBatch)},
         {out});
  b.bind(op->getResult(0), out);
}

static void emitSlice(OnnxBuilder &b, mdl::SliceOp op) {
  std::vector<int64_t> starts, ends, axes, steps;
  for (size_t d = 0; d < op.getStart().size(); ++d) {
    int64_t start = op.getStart()[d], size = op.getSize()[d];
    int64_t stride = op.getStride()[d];
    starts.push_back(start);
    ends.push_back(size < 0 ? std::numeric_limits<int64_t>::max()
                            : start + (size - 1) * stride + 1);
    axes.push_back(int64_t(d));
    steps.push_back(stride);
  }
  std::string out = b.fresh();
  b.node("Slice",
         {b.name(op.getInput()), b.constI64(starts), b.constI64(ends),
          b.constI64(axes), b.constI64(steps)},
         {out});
  b.bind(op.getResult(), out);
}

static void emitBroadcast(OnnxBuilder &b, mdl::BroadcastToOp op) {
  std::string shape = op.getLike() ? b.unary("Shape", {b.name(op.getLike())})
                                   : b.constI64(*op.getShape());
  std::string out = b.fresh();
  b.node("Expand", {b.name(op.getInput()), shape}, {out});
  b.bind(op.getResult(), out);
}

/// softmax(q @ k^T / sqrt(D) + mask) @ v; the causal mask (query i sees
/// keys j <= i + Tk - Tq) is an additive constant of 0 and -inf.
static void emitAttention(OnnxBuilder &b, mdl::AttentionOp op) {
  auto q = mlir::cast<mlir::RankedTensorType>(op.getQuery().getType());
  auto k = mlir::cast<mlir::RankedTensorType>(op.getKey().getType());
  int64_t tq = q.getDimSize(2), tk = k.getDimSize(2), d = q.getDimSize(3);
  std::string kt = b.fresh();
  OnnxBuilder::attr(b.node("Transpose", {b.name(op.getKey())}, {kt}), "perm",
                    llvm::ArrayRef<int64_t>{0, 1, 3, 2});
  std::string scores = b.unary(
      "Mul", {b.unary("MatMul", {b.name(op.getQuery()), kt}),
              b.constF32({float(1.0 / std::sqrt(double(d)))}, {})});
  if (op.getCausal()) {
    std::vector<float> mask(size_t(tq * tk), 0.0f);
    for (int64_t i = 0; i < tq; ++i)
      for (int64_t j = i + tk - tq + 1; j < tk; ++j)
        mask[size_t(i * tk + j)] = -std::numeric_limits<float>::infinity();
    scores = b.unary("Add", {scores, b.constF32(mask, {tq, tk})});
  }
  std::string probs = b.fresh();
  OnnxBuilder::attr(b.node("Softmax", {scores}, {probs}), "axis", int64_t(-1));
  std::string out = b.fresh();
  b.node("MatMul", {probs, b.name(op.getValue())}, {out});
  b.bind(op.getResult(), out);
}

/// A constant's elements as raw little-endian bytes (i1: one byte each,
/// where MLIR packs bits).
static llvm::Error emitConstant(OnnxBuilder &b, mdl::ConstantOp op) {
  auto dense = mlir::dyn_cast<mlir::DenseElementsAttr>(op.getValue());
  auto type = mlir::cast<mlir::RankedTensorType>(op.getType());
  int dataType = onnxElementType(type.getElementType());
  if (!dense || !dataType)
    return llvm::make_error<OnnxExportError>(
        op.getLoc(), "this constant has no ONNX form in modelc's exporter");
  std::string bytes;
  if (type.getElementType().isInteger(1)) {
    for (bool v : dense.getValues<bool>())
      bytes.push_back(char(v));
  } else {
    unsigned width = type.getElementTypeBitWidth() / 8;
    llvm::ArrayRef<char> raw = dense.getRawData();
    for (int64_t i = 0; i < type.getNumElements(); ++i)
      bytes.append(raw.data() + (dense.isSplat() ? 0 : i * width), width);
  }
  std::string out = b.fresh();
  b.initializer(out, dataType, type.getShape(), bytes);
  b.bind(op.getResult(), out);
  return llvm::Error::success();
}

static bool emitShapeOp(OnnxBuilder &b, mlir::Operation *op);

/// Ops that take one axis.
static bool emitAxisOp(OnnxBuilder &b, mlir::Operation *op) {
  return llvm::TypeSwitch<mlir::Operation *, bool>(op)
      .Case([&](mdl::SoftmaxOp o) {
        return OnnxBuilder::attr(direct(b, o, "Softmax"), "axis",
                                 int64_t(o.getAxis())),
               true;
      })
      .Case([&](mdl::LogSoftmaxOp o) {
        return OnnxBuilder::attr(direct(b, o, "LogSoftmax"), "axis",
                                 int64_t(o.getAxis())),
               true;
      })
      .Case([&](mdl::ArgmaxOp o) {
        onnx::NodeProto &n = direct(b, o, "ArgMax");
        OnnxBuilder::attr(n, "axis", int64_t(o.getAxis()));
        return OnnxBuilder::attr(n, "keepdims", int64_t(o.getKeepdims())), true;
      })
      .Default([&](mlir::Operation *) { return emitShapeOp(b, op); });
}

/// Ops that reorder, reshape or convert elements.
static bool emitShapeOp(OnnxBuilder &b, mlir::Operation *op) {
  return llvm::TypeSwitch<mlir::Operation *, bool>(op)
      .Case([&](mdl::ConcatOp o) {
        return OnnxBuilder::attr(direct(b, o, "Concat"), "axis",
                                 int64_t(o.getAxis())),
               true;
      })
      .Case([&](mdl::TransposeOp o) {
        return OnnxBuilder::attr(direct(b, o, "Transpose"), "perm",
                                 o.getPermutation()),
               true;
      })
      .Case([&](mdl::CastOp o) {
        return OnnxBuilder::attr(
                   direct(b, o, "Cast"), "to",
                   int64_t(onnxElementType(o.getType().getElementType()))),
               true;
      })
      .Case([&](mdl::ReshapeOp o) {
        auto in = mlir::cast<mlir::RankedTensorType>(o.getInput().getType());
        return emitReshapeLike(b, o, in.isDynamicDim(0)), true;
      })
      .Case([&](mdl::FlattenOp o) {
        return emitReshapeLike(b, o, o.getStartDim() != 0), true;
      })
      .Case([&](mdl::SliceOp o) { return emitSlice(b, o), true; })
      .Case([&](mdl::BroadcastToOp o) { return emitBroadcast(b, o), true; })
      .Default([](mlir::Operation *) { return false; });
}

/// Ops whose ONNX form takes attributes or several nodes.
static bool emitStructured(OnnxBuilder &b, mlir::Operation *op) {
  return llvm::TypeSwitch<mlir::Operation *, bool>(op)
      .Case([&](mdl::GeluOp o) { return emitGelu(b, o), true; })
      .Case([&](mdl::CmpOp o) { return emitCmp(b, o), true; })
      .Case([&](mdl::Conv2DOp o) { return emitConv(b, o), true; })
      .Case([&](mdl::MaxPool2DOp o) { return emitPool(b, o, "MaxPool"), true; })
      .Case([&](mdl::AvgPool2DOp o) {
        return emitPool(b, o, "AveragePool"), true;
      })
      .Case([&](mdl::BatchNormEvalOp o) {
        OnnxBuilder::attr(direct(b, o, "BatchNormalization"), "epsilon",
                          float(o.getEpsilon().convertToDouble()));
        return true;
      })
      .Case([&](mdl::LayerNormOp o) { return emitLayerNorm(b, o), true; })
      .Case([&](mdl::AttentionOp o) { return emitAttention(b, o), true; })
      .Case([&](mdl::EmbeddingOp o) { return emitEmbedding(b, o), true; })
      .Case([&](mdl::ReduceSumOp o) { return emitReduce(b, o, "ReduceSum"), true; })
      .Case([&](mdl::ReduceMeanOp o) { return emitReduce(b, o, "ReduceMean"), true; })
      .Case([&](mdl::ReduceMaxOp o) { return emitReduce(b, o, "ReduceMax"), true; })
      .Default([&](mlir::Operation *) { return emitAxisOp(b, op); });
}

llvm::Error modelc::emitOnnxOp(OnnxBuilder &b, mlir::Operation *op) {
  if (auto constant = mlir::dyn_cast<mdl::ConstantOp>(op))
    return emitConstant(b, constant);
  llvm::StringRef opType = elementwiseOnnxType(op);
  if (!opType.empty()) {
    direct(b, op, opType);
    return llvm::Error::success();
  }
  if (emitStructured(b, op))
    return llvm::Error::success();
  return llvm::make_error<OnnxExportError>(
      op->getLoc(), "'" + op->getName().stripDialect().str() +
                        "' has no ONNX form in modelc's exporter (opset " +
                        std::to_string(kOnnxOpset) + ")");
}
