//===- Builtins.cpp - The builtin function table --------------------------===//
//
// The builtins every module sees (unless a declaration shadows them), with
// their signatures: elementwise math, softmax, reductions, shape operations,
// cast; the layer primitives and losses are in BuiltinsNN.cpp. Each handler
// is its op's shape rule: it checks the operands, infers the result type and
// adds one node of the op (of Ops.def) its table row names.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "Fold.h"

#include "modelsupport/ShapeArith.h"

#include <cmath>
#include <numeric>

using namespace modelc;
using namespace modelc::sema;

bool sema::requireTensor(Elaborator &el, const Value &v, llvm::StringRef fn,
                         llvm::StringRef arg, Frame &frame, bool needFloat) {
  if (v.kind == Value::Kind::Tensor &&
      (!needFloat || isFloat(el.typeOf(v).dtype)))
    return true;
  el.error(v.range.Start,
           fn + " expects " + (needFloat ? "a float tensor" : "a tensor") +
               " as '" + arg + "', got " + v.describe(el.graph),
           frame);
  return false;
}

std::optional<int64_t> sema::intArg(Elaborator &el, const Value &v,
                                    llvm::StringRef fn, llvm::StringRef arg,
                                    int64_t dflt, int64_t min, llvm::SMLoc loc,
                                    Frame &frame) {
  if (v.kind == Value::Kind::None)
    return dflt;
  if (v.kind == Value::Kind::Int && v.i >= min)
    return v.i;
  std::string bound = min == INT64_MIN ? "" : " >= " + std::to_string(min);
  el.error(v.startOr(loc),
           fn + " expects '" + arg + "' to be an integer" + bound + ", got " +
               v.describe(el.graph),
           frame);
  return std::nullopt;
}

std::optional<double> sema::numberArg(Elaborator &el, const Value &v,
                                      llvm::StringRef fn, llvm::StringRef arg,
                                      double dflt, llvm::SMLoc loc,
                                      Frame &frame) {
  if (v.kind == Value::Kind::None)
    return dflt;
  if (v.isNumber())
    return v.asDouble();
  el.error(v.startOr(loc),
           fn + " expects '" + arg + "' to be a number, got " +
               v.describe(el.graph),
           frame);
  return std::nullopt;
}

/// The spelling of a unary op kind's builtin.
static const char *unaryName(OpKind k) {
  return getOpKindName(k).data();
}

/// relu, gelu, tanh, sigmoid, exp, log, sqrt, abs (numbers fold).
template <OpKind K>
static Value handleUnary(Elaborator &el, llvm::ArrayRef<Value> args,
                         llvm::SMLoc loc, Frame &frame) {
  const Value &x = args[0];
  if (K == OpKind::Abs && x.isNumber()) {
    Value r;
    if (std::string why = foldAbs(x, r); !why.empty()) {
      el.error(loc, why, frame);
      return Value::error();
    }
    return r;
  }
  if (x.isNumber() &&
      (K == OpKind::Exp || K == OpKind::Log || K == OpKind::Sqrt)) {
    double v = x.asDouble();
    Value r;
    r.kind = Value::Kind::Float;
    r.f = K == OpKind::Exp   ? std::exp(v)
          : K == OpKind::Log ? std::log(v)
                             : std::sqrt(v);
    if (std::isnan(r.f)) {
      el.error(loc, llvm::Twine(unaryName(K)) + " of " + formatNumber(v) +
                        " is not a number", frame);
      return Value::error();
    }
    return r;
  }
  if (!requireTensor(el, x, unaryName(K), "x", frame, K != OpKind::Abs))
    return Value::error();
  return el.addNode(K, {x.node}, el.typeOf(x), loc, frame,
                    std::string(unaryName(K)) + " at " + el.where(loc));
}

template <OpKind K>
static Value handleMaxMin(Elaborator &el, llvm::ArrayRef<Value> args,
                          llvm::SMLoc loc, Frame &frame) {
  const char *name = K == OpKind::Max ? "maximum" : "minimum";
  if (args[0].isNumber() && args[1].isNumber()) {
    Value r = args[0].kind == Value::Kind::Float ? args[0] : args[1];
    double a = args[0].asDouble(), b = args[1].asDouble();
    r.f = K == OpKind::Max ? std::max(a, b) : std::min(a, b);
    r.i = int64_t(r.f);
    return r;
  }
  for (const Value &v : args)
    if (v.kind != Value::Kind::Tensor && !v.isNumber()) {
      el.error(v.range.Start, llvm::Twine(name) +
                                  " expects tensors or numbers, got " +
                                  v.describe(el.graph), frame);
      return Value::error();
    }
  return el.binaryOp(K, name, args[0], args[1], loc, frame);
}

/// Normalises an axis against `rank` (negative counts from the end).
static std::optional<int64_t> axisArg(Elaborator &el, const Value &v,
                                      llvm::StringRef fn, unsigned rank,
                                      int64_t dflt, llvm::SMLoc loc,
                                      Frame &frame) {
  std::optional<int64_t> a = intArg(el, v, fn, "axis", dflt, INT64_MIN, loc,
                                    frame);
  if (!a)
    return std::nullopt;
  std::optional<int64_t> r = modelsupport::normalizeAxis(*a, rank);
  if (!r) {
    el.error(v.startOr(loc),
             fn + ": axis " + llvm::Twine(*a) + " is out of range for rank " +
                 llvm::Twine(rank),
             frame);
    return std::nullopt;
  }
  return r;
}

template <OpKind K>
static Value handleSoftmax(Elaborator &el, llvm::ArrayRef<Value> args,
                           llvm::SMLoc loc, Frame &frame) {
  const char *name = K == OpKind::Softmax ? "softmax" : "log_softmax";
  if (!requireTensor(el, args[0], name, "x", frame))
    return Value::error();
  const TensorType &t = el.typeOf(args[0]);
  std::optional<int64_t> axis = axisArg(el, args[1], name, t.rank(), -1, loc,
                                        frame);
  if (!axis)
    return Value::error();
  return el.addNode({args[0].node}, t, OpAttrs<K>{*axis}, loc, frame,
                    std::string(name) + " at " + el.where(loc));
}

/// sum / mean / amax(x, axis=all, keepdims=false).
template <OpKind K>
static Value handleReduce(Elaborator &el, llvm::ArrayRef<Value> args,
                          llvm::SMLoc loc, Frame &frame) {
  const char *name = K == OpKind::ReduceSum    ? "sum"
                     : K == OpKind::ReduceMean ? "mean"
                                               : "amax";
  if (!requireTensor(el, args[0], name, "x", frame, K == OpKind::ReduceMean))
    return Value::error();
  const TensorType &t = el.typeOf(args[0]);
  std::vector<int64_t> axes;
  if (args[1].kind == Value::Kind::None) {
    axes.resize(t.rank());
    std::iota(axes.begin(), axes.end(), 0);
  } else {
    std::vector<Value> items = args[1].kind == Value::Kind::List
                                   ? args[1].list
                                   : std::vector<Value>{args[1]};
    if (items.empty()) {
      el.error(args[1].range.Start,
               llvm::Twine(name) + ": 'axis' is an empty list; leave it out "
                                   "to reduce over every axis",
               frame);
      return Value::error();
    }
    for (const Value &a : items) {
      std::optional<int64_t> ax = axisArg(el, a, name, t.rank(), 0, loc, frame);
      if (!ax)
        return Value::error();
      if (llvm::is_contained(axes, *ax)) {
        el.error(a.range.Start, llvm::Twine(name) + ": axis " +
                                    llvm::Twine(*ax) + " is repeated", frame);
        return Value::error();
      }
      axes.push_back(*ax);
    }
    llvm::sort(axes);
  }
  bool keep = args[2].kind == Value::Kind::Bool && args[2].i;
  Shape shape;
  for (unsigned i = 0; i < t.rank(); ++i)
    if (!llvm::is_contained(axes, int64_t(i)))
      shape.push_back(t.shape[i]);
    else if (keep)
      shape.push_back(SDim::fixed(1));
  return el.addNode({args[0].node}, TensorType{t.dtype, shape},
                    OpAttrs<K>{axes, keep}, loc, frame, std::string(name) + " at " + el.where(loc));
}

/// The node of where(cond, x, y) on tensors: same element types, and the
/// three shapes broadcast (a located error names the pair that does not).
static Value whereNode(Elaborator &el, const Value &cond, const Value &x,
                       const Value &y, llvm::SMLoc loc, Frame &frame) {
  const TensorType &a = el.typeOf(x), &b = el.typeOf(y);
  if (a.dtype != b.dtype) {
    el.error(loc,
             "where mixes " + a.str() + " and " + b.str() +
                 ": there is no implicit conversion; " +
                 conversionHint(a.dtype, b.dtype, "x", "y"),
             frame);
    el.noteOrigin(x, "x");
    el.noteOrigin(y, "y");
    return Value::error();
  }
  std::optional<Shape> values = broadcastShapes(a.shape, b.shape);
  if (!values) {
    el.error(y.range.Start, "where: x " + a.str() + " and y " + b.str() +
                                " do not broadcast (sizes must be equal or 1)",
             frame);
    return Value::error();
  }
  const TensorType &c = el.typeOf(cond);
  std::optional<Shape> shape = broadcastShapes(c.shape, *values);
  if (!shape) {
    el.error(cond.range.Start,
             "where: the condition " + c.str() + " does not broadcast with " +
                 TensorType{a.dtype, *values}.str() +
                 " (sizes must be equal or 1)", frame);
    el.noteOrigin(cond, "the condition");
    return Value::error();
  }
  return el.addNode(OpKind::Where, {cond.node, x.node, y.node},
                    TensorType{a.dtype, *shape}, loc, frame,
                    "where at " + el.where(loc));
}

/// where(condition, x, y): x where the bool condition holds, else y; the
/// three shapes broadcast together, a number takes the other value's
/// element type (PyTorch's torch.where).
static Value handleWhere(Elaborator &el, llvm::ArrayRef<Value> args,
                         llvm::SMLoc loc, Frame &frame) {
  const Value &cond = args[0];
  if (!requireTensor(el, cond, "where", "condition", frame, false))
    return Value::error();
  if (el.typeOf(cond).dtype != DType::Bool) {
    el.error(cond.range.Start,
             "where: the condition must be a bool tensor (a comparison such as "
             "x > 0), got " + el.typeOf(cond).str(), frame);
    return Value::error();
  }
  Value x = args[1], y = args[2];
  if (x.kind != Value::Kind::Tensor && y.kind != Value::Kind::Tensor) {
    el.error(x.range.Start, "where: x or y must be a tensor, got " +
                                x.describe(el.graph) + " and " +
                                y.describe(el.graph), frame);
    return Value::error();
  }
  if (x.kind != Value::Kind::Tensor)
    x = el.materialize(x, el.typeOf(y).dtype, frame);
  else if (y.kind != Value::Kind::Tensor)
    y = el.materialize(y, el.typeOf(x).dtype, frame);
  if (x.isError() || y.isError())
    return Value::error();
  return whereNode(el, cond, x, y, loc, frame);
}

/// The largest causal_mask: its n x n bools are a constant of the program.
constexpr int64_t kMaxCausalMask = 8192;

/// causal_mask(n): bool [n, n], true where a position may attend to another
/// (column j <= row i: itself and the ones before), as torch.tril of ones.
static Value handleCausalMask(Elaborator &el, llvm::ArrayRef<Value> args,
                              llvm::SMLoc loc, Frame &frame) {
  std::optional<int64_t> n =
      intArg(el, args[0], "causal_mask", "size", 0, 1, loc, frame);
  if (!n)
    return Value::error();
  if (*n > kMaxCausalMask) {
    el.error(args[0].range.Start,
             "causal_mask: size " + llvm::Twine(*n) + " is larger than " +
                 llvm::Twine(kMaxCausalMask) +
                 " (the mask is a constant of n x n bools)", frame);
    return Value::error();
  }
  return el.addNode({}, TensorType{DType::Bool, {SDim::fixed(*n), SDim::fixed(*n)}},
                    OpAttrs<OpKind::CausalMask>{*n}, loc, frame,
                    "causal_mask at " + el.where(loc));
}

static Value handleArgmax(Elaborator &el, llvm::ArrayRef<Value> args,
                          llvm::SMLoc loc, Frame &frame) {
  if (!requireTensor(el, args[0], "argmax", "x", frame, false))
    return Value::error();
  const TensorType &t = el.typeOf(args[0]);
  std::optional<int64_t> axis =
      axisArg(el, args[1], "argmax", t.rank(), -1, loc, frame);
  if (!axis)
    return Value::error();
  Shape shape = t.shape;
  shape.erase(shape.begin() + *axis);
  return el.addNode({args[0].node}, TensorType{DType::I64, shape},
                    OpAttrs<OpKind::Argmax>{*axis}, loc, frame, "argmax at " + el.where(loc));
}

static Value handleFlatten(Elaborator &el, llvm::ArrayRef<Value> args,
                           llvm::SMLoc loc, Frame &frame) {
  if (!requireTensor(el, args[0], "flatten", "x", frame, false))
    return Value::error();
  const TensorType &t = el.typeOf(args[0]);
  std::optional<int64_t> start =
      intArg(el, args[1], "flatten", "start_dim", 1, 0, loc, frame);
  if (!start)
    return Value::error();
  if (*start >= int64_t(t.rank())) {
    el.error(loc, "flatten: start_dim " + llvm::Twine(*start) +
                      " is out of range for " + t.str(), frame);
    return Value::error();
  }
  Shape shape(t.shape.begin(), t.shape.begin() + *start);
  std::optional<int64_t> n =
      numElements(llvm::ArrayRef<SDim>(t.shape).drop_front(*start));
  if (!n) {
    el.error(loc, "flatten cannot merge the symbolic dimension of " + t.str() +
                      "; flatten from start_dim=1 to keep the batch "
                      "dimension", frame);
    return Value::error();
  }
  shape.push_back(SDim::fixed(*n));
  return el.addNode({args[0].node}, TensorType{t.dtype, shape},
                    OpAttrs<OpKind::Flatten>{*start}, loc, frame,
                    "flatten at " + el.where(loc));
}

static Value handleReshape(Elaborator &el, llvm::ArrayRef<Value> args,
                           llvm::SMLoc loc, Frame &frame) {
  if (!requireTensor(el, args[0], "reshape", "x", frame, false))
    return Value::error();
  const TensorType &t = el.typeOf(args[0]);
  if (args[1].kind != Value::Kind::List) {
    el.error(args[1].range.Start, "reshape expects the new shape as a list "
                                  "such as [B, 64, 7, 7]", frame);
    return Value::error();
  }
  Shape shape;
  std::vector<int64_t> attr;
  for (const Value &d : args[1].list) {
    if (d.kind == Value::Kind::SymDim) {
      shape.push_back(SDim::sym(d.s));
      attr.push_back(-1);
    } else if (d.kind == Value::Kind::Int && d.i > 0) {
      shape.push_back(SDim::fixed(d.i));
      attr.push_back(d.i);
    } else {
      bool fraction = d.kind == Value::Kind::Float && std::isfinite(d.f) &&
                      d.f != std::floor(d.f);
      el.error(d.range.Start,
               "reshape: each dimension must be a positive integer or the "
               "batch dimension, got " + d.describe(el.graph) +
                   (fraction ? " (a quotient that is not a whole number: is "
                               "the width a multiple of the divisor?)"
                             : ""),
               frame);
      return Value::error();
    }
  }
  if (!el.checkSize(args[1].range.Start, shape, frame))
    return Value::error();
  // The batch dimension may only stay in front: [B, ...] -> [B, ...].
  for (size_t i = 1; i < shape.size(); ++i)
    if (shape[i].isSymbolic()) {
      el.error(args[1].list[i].range.Start,
               "reshape can keep the batch dimension only as the first "
               "dimension", frame);
      return Value::error();
    }
  bool inBatch = t.rank() && t.shape[0].isSymbolic();
  bool outBatch = !shape.empty() && shape[0].isSymbolic();
  auto count = [](llvm::ArrayRef<SDim> s, bool batched) {
    return *numElements(batched ? s.drop_front() : s);
  };
  if (inBatch != outBatch || (inBatch && t.shape[0] != shape[0]) ||
      (isStatic(llvm::ArrayRef<SDim>(t.shape).drop_front(inBatch)) &&
       count(t.shape, inBatch) != count(shape, outBatch))) {
    std::string per = inBatch ? " per " + t.shape[0].symbol : "";
    el.error(loc, "reshape cannot turn " + t.str() + " (" +
                      llvm::Twine(count(t.shape, inBatch)) + " values" + per +
                      ") into " + shapeStr(shape) +
                      (inBatch != outBatch
                           ? " (the batch dimension must stay first)"
                           : " (" + llvm::Twine(count(shape, outBatch)) +
                                 " values" + per + ")"),
             frame);
    el.noteOrigin(args[0], "the input");
    return Value::error();
  }
  return el.addNode({args[0].node}, TensorType{t.dtype, shape},
                    OpAttrs<OpKind::Reshape>{attr}, loc, frame, "reshape at " + el.where(loc));
}

/// The permutation transpose(x, perm) or transpose(x, a, b) asks for, with
/// negative axes counted from the end; std::nullopt after an error.
static std::optional<std::vector<int64_t>>
transposePerm(Elaborator &el, llvm::ArrayRef<Value> args, unsigned rank,
              llvm::SMLoc loc, Frame &frame) {
  std::vector<int64_t> perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  if (args[2].kind != Value::Kind::None) {
    std::optional<int64_t> a =
        axisArg(el, args[1], "transpose", rank, 0, loc, frame);
    std::optional<int64_t> b =
        a ? axisArg(el, args[2], "transpose", rank, 0, loc, frame)
          : std::nullopt;
    if (!b)
      return std::nullopt;
    std::swap(perm[*a], perm[*b]);
    return perm;
  }
  perm.clear();
  if (args[1].kind == Value::Kind::List)
    for (const Value &v : args[1].list) {
      std::optional<int64_t> axis =
          v.kind == Value::Kind::Int ? modelsupport::normalizeAxis(v.i, rank)
                                     : std::nullopt;
      perm.push_back(axis ? *axis : -1);
    }
  std::vector<int64_t> sorted = perm;
  llvm::sort(sorted);
  std::vector<int64_t> iota(rank);
  std::iota(iota.begin(), iota.end(), 0);
  if (sorted == iota)
    return perm;
  el.error(args[1].range.Start,
           "transpose expects a permutation of 0.." + llvm::Twine(rank - 1) +
               " (or two axes to swap) for rank " + llvm::Twine(rank),
           frame);
  return std::nullopt;
}

/// transpose(x, perm) permutes all axes; transpose(x, a, b) swaps two.
static Value handleTranspose(Elaborator &el, llvm::ArrayRef<Value> args,
                             llvm::SMLoc loc, Frame &frame) {
  if (!requireTensor(el, args[0], "transpose", "x", frame, false))
    return Value::error();
  const TensorType &t = el.typeOf(args[0]);
  std::optional<std::vector<int64_t>> perm =
      transposePerm(el, args, t.rank(), loc, frame);
  if (!perm)
    return Value::error();
  Shape shape;
  for (int64_t p : *perm)
    shape.push_back(t.shape[p]);
  return el.addNode({args[0].node}, TensorType{t.dtype, shape},
                    OpAttrs<OpKind::Transpose>{*perm}, loc, frame,
                    "transpose at " + el.where(loc));
}

static Value handleCast(Elaborator &el, llvm::ArrayRef<Value> args,
                        llvm::SMLoc loc, Frame &frame) {
  if (!requireTensor(el, args[0], "cast", "x", frame, false))
    return Value::error();
  if (args[1].kind != Value::Kind::DTypeName) {
    el.error(args[1].range.Start, std::string("cast expects an element type (") +
                                      kDTypeList + "), got " +
                                      args[1].describe(el.graph), frame);
    return Value::error();
  }
  TensorType t = el.typeOf(args[0]);
  t.dtype = args[1].dtype;
  return el.addNode(OpKind::Cast, {args[0].node}, t, loc, frame,
                    "cast at " + el.where(loc));
}

/// Why `u` cannot be joined to `t` along `axis`, or "" when it can: the
/// element types and the other dimensions must match, and the joined sizes
/// must be known (a symbolic size such as the batch has no sum).
static std::string concatMismatch(const TensorType &t, const TensorType &u,
                                  int64_t axis) {
  if (u.dtype != t.dtype)
    return "the element types differ";
  if (u.rank() != t.rank())
    return "the ranks differ";
  for (unsigned i = 0; i < t.rank(); ++i)
    if (int64_t(i) != axis && u.shape[i] != t.shape[i])
      return "dimension " + std::to_string(i) + " differs (" +
             t.shape[i].str() + " and " + u.shape[i].str() +
             "; only the joined axis may)";
  for (const SDim &d : {t.shape[axis], u.shape[axis]})
    if (d.isSymbolic())
      return "the joined axis has the symbolic size " + d.str() +
             ", and concat joins axes of known size";
  return "";
}

/// concat([a, b, ...], axis): joins tensors along one axis.
static Value handleConcat(Elaborator &el, llvm::ArrayRef<Value> args,
                          llvm::SMLoc loc, Frame &frame) {
  if (args[0].kind != Value::Kind::List || args[0].list.size() < 2) {
    el.error(args[0].range.Start, "concat expects a list of at least two "
                                  "tensors, got " + args[0].describe(el.graph),
             frame);
    return Value::error();
  }
  const Value &first = args[0].list[0];
  if (!requireTensor(el, first, "concat", "tensors", frame, false))
    return Value::error();
  TensorType t = el.typeOf(first);
  std::optional<int64_t> axis =
      axisArg(el, args[1], "concat", t.rank(), 0, loc, frame);
  if (!axis)
    return Value::error();
  std::vector<unsigned> operands{first.node};
  for (const Value &v : llvm::ArrayRef<Value>(args[0].list).drop_front()) {
    if (!requireTensor(el, v, "concat", "tensors", frame, false))
      return Value::error();
    const TensorType &u = el.typeOf(v);
    std::string why = concatMismatch(t, u, *axis);
    if (!why.empty()) {
      el.error(v.range.Start,
               "concat along axis " + llvm::Twine(*axis) + " cannot join " +
                   t.str() + " and " + u.str() + ": " + why,
               frame);
      el.noteOrigin(first, "the first tensor");
      el.noteOrigin(v, "this tensor");
      return Value::error();
    }
    t.shape[*axis] = SDim::fixed(t.shape[*axis].size + u.shape[*axis].size);
    operands.push_back(v.node);
  }
  return el.addNode(operands, t, OpAttrs<OpKind::Concat>{*axis}, loc, frame, "concat at " + el.where(loc));
}

static const BuiltinInfo kBuiltins[] = {
    {"concat", {{"tensors", false}, {"axis", true}}, handleConcat,
     "concat([a, b, ...], axis=0)", OpKind::Concat},
    {"relu", {{"x", false}}, handleUnary<OpKind::Relu>, "relu(x)",
     OpKind::Relu},
    {"gelu", {{"x", false}}, handleUnary<OpKind::Gelu>, "gelu(x)",
     OpKind::Gelu},
    {"tanh", {{"x", false}}, handleUnary<OpKind::Tanh>, "tanh(x)",
     OpKind::Tanh},
    {"sigmoid", {{"x", false}}, handleUnary<OpKind::Sigmoid>, "sigmoid(x)",
     OpKind::Sigmoid},
    {"exp", {{"x", false}}, handleUnary<OpKind::Exp>, "exp(x)", OpKind::Exp},
    {"log", {{"x", false}}, handleUnary<OpKind::Log>, "log(x)", OpKind::Log},
    {"sqrt", {{"x", false}}, handleUnary<OpKind::Sqrt>, "sqrt(x)",
     OpKind::Sqrt},
    {"abs", {{"x", false}}, handleUnary<OpKind::Abs>, "abs(x)", OpKind::Abs},
    {"maximum", {{"a", false}, {"b", false}}, handleMaxMin<OpKind::Max>,
     "maximum(a, b)", OpKind::Max},
    {"minimum", {{"a", false}, {"b", false}}, handleMaxMin<OpKind::Min>,
     "minimum(a, b)", OpKind::Min},
    {"softmax", {{"x", false}, {"axis", true}}, handleSoftmax<OpKind::Softmax>,
     "softmax(x, axis=-1)", OpKind::Softmax},
    {"log_softmax", {{"x", false}, {"axis", true}},
     handleSoftmax<OpKind::LogSoftmax>, "log_softmax(x, axis=-1)",
     OpKind::LogSoftmax},
    {"sum", {{"x", false}, {"axis", true}, {"keepdims", true}},
     handleReduce<OpKind::ReduceSum>, "sum(x, axis=all, keepdims=false)",
     OpKind::ReduceSum},
    {"mean", {{"x", false}, {"axis", true}, {"keepdims", true}},
     handleReduce<OpKind::ReduceMean>, "mean(x, axis=all, keepdims=false)",
     OpKind::ReduceMean},
    {"amax", {{"x", false}, {"axis", true}, {"keepdims", true}},
     handleReduce<OpKind::ReduceMax>, "amax(x, axis=all, keepdims=false)",
     OpKind::ReduceMax},
    {"argmax", {{"x", false}, {"axis", true}}, handleArgmax,
     "argmax(x, axis=-1)", OpKind::Argmax},
    {"flatten", {{"x", false}, {"start_dim", true}}, handleFlatten,
     "flatten(x, start_dim=1)", OpKind::Flatten},
    {"reshape", {{"x", false}, {"shape", false}}, handleReshape,
     "reshape(x, shape)", OpKind::Reshape},
    {"transpose", {{"x", false}, {"perm", false}, {"b", true}},
     handleTranspose, "transpose(x, perm) or transpose(x, a, b)",
     OpKind::Transpose},
    {"cast", {{"x", false}, {"dtype", false}}, handleCast, "cast(x, dtype)",
     OpKind::Cast},
    {"where", {{"condition", false}, {"x", false}, {"y", false}}, handleWhere,
     "where(condition, x, y)", OpKind::Where},
    {"causal_mask", {{"size", false}}, handleCausalMask, "causal_mask(size)",
     OpKind::CausalMask},
    {"max_pool",
     {{"x", false}, {"kernel", false}, {"stride", true}, {"pad", true}},
     handleMaxPool, "max_pool(x, kernel, stride=kernel, pad=0)",
     OpKind::MaxPool2D},
    {"avg_pool",
     {{"x", false}, {"kernel", false}, {"stride", true}, {"pad", true}},
     handleAvgPool, "avg_pool(x, kernel, stride=kernel, pad=0)",
     OpKind::AvgPool2D},
    {"convolution",
     {{"x", false},
      {"weight", false},
      {"bias", true},
      {"stride", true},
      {"pad", true},
      {"dilation", true},
      {"groups", true}},
     handleConvolution,
     "convolution(x, weight, bias=none, stride=1, pad=0, dilation=1, "
     "groups=1)", OpKind::Conv2D},
    {"scaled_dot_product_attention",
     {{"query", false}, {"key", false}, {"value", false}, {"causal", true}},
     handleAttention,
     "scaled_dot_product_attention(query, key, value, causal=false)",
     OpKind::Attention},
    {"positions", {{"table", false}, {"length", false}}, handlePositions,
     "positions(table, length)", OpKind::Positions},
    {"dropout", {{"x", false}, {"rate", false}, {"per_channel", true}},
     handleDropout, "dropout(x, rate, per_channel=false)", OpKind::Dropout},
    {"batch_normalization",
     {{"x", false},
      {"gamma", false},
      {"beta", false},
      {"eps", true},
      {"momentum", true}},
     handleBatchNorm,
     "batch_normalization(x, gamma, beta, eps=1e-5, momentum=0.1)",
     OpKind::BatchNorm},
    {"layer_normalization",
     {{"x", false}, {"gamma", false}, {"beta", false}, {"eps", true}},
     handleLayerNorm, "layer_normalization(x, gamma, beta, eps=1e-5)",
     OpKind::LayerNorm},
    {"embedding_lookup", {{"indices", false}, {"table", false}},
     handleEmbedding, "embedding_lookup(indices, table)", OpKind::Embedding},
    {"cross_entropy",
     {{"logits", false},
      {"labels", false},
      {"reduction", true},
      {"label_smoothing", true},
      {"weight", true},
      {"ignore_index", true}},
     handleCrossEntropy,
     "cross_entropy(logits, labels, reduction=\"mean\", label_smoothing=0, "
     "weight=[w0, w1, ...], ignore_index=none)",
     OpKind::CrossEntropy},
    {"mse_loss", {{"input", false}, {"target", false}, {"reduction", true}},
     handleMSELoss, "mse_loss(input, target, reduction=\"mean\")",
     OpKind::MSELoss},
    {"l1_loss", {{"input", false}, {"target", false}, {"reduction", true}},
     handleL1Loss, "l1_loss(input, target, reduction=\"mean\")",
     OpKind::L1Loss},
    {"bce_with_logits",
     {{"input", false}, {"target", false}, {"reduction", true}},
     handleBCEWithLogits, "bce_with_logits(input, target, reduction=\"mean\")",
     OpKind::BCEWithLogits},
};

llvm::ArrayRef<BuiltinInfo> sema::getBuiltins() { return kBuiltins; }

const BuiltinInfo *sema::lookupBuiltin(llvm::StringRef name) {
  for (const BuiltinInfo &b : kBuiltins)
    if (name == b.name)
      return &b;
  return nullptr;
}

std::vector<llvm::StringRef> sema::getBuiltinNames() {
  std::vector<llvm::StringRef> names;
  for (const BuiltinInfo &b : kBuiltins)
    names.push_back(b.name);
  return names;
}
