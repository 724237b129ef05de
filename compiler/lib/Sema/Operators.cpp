//===- Operators.cpp - Operators, constants and diagnostics helpers -------===//
//
// Binary operators on compile-time numbers (folded, with Python semantics:
// `/` always yields a float) and on tensors (broadcasting, dtype rules,
// literals adapting to the tensor's dtype), the matrix product `@`, and the
// helpers every check uses to create nodes and explain where shapes came
// from.
//
//===----------------------------------------------------------------------===//

#include "Elaborator.h"
#include "Fold.h"

#include "llvm/Support/Path.h"

#include <cassert>
#include <cmath>

using namespace modelc;
using namespace modelc::sema;

std::string sema::formatLoc(const llvm::SourceMgr &sm, llvm::SMLoc loc) {
  unsigned buf = sm.FindBufferContainingLoc(loc);
  if (!buf)
    return "<unknown>";
  auto lc = sm.getLineAndColumn(loc, buf);
  return (llvm::sys::path::filename(
              sm.getMemoryBuffer(buf)->getBufferIdentifier()) +
          ":" + llvm::Twine(lc.first) + ":" + llvm::Twine(lc.second))
      .str();
}

std::string Elaborator::where(llvm::SMLoc loc) const {
  return formatLoc(diags.getSourceMgr(), loc);
}

std::string Value::describe(const Graph &graph) const {
  switch (kind) {
  case Kind::Tensor:
    return "tensor " + graph.nodes[node].type.str();
  case Kind::Int:
    return "integer " + std::to_string(i);
  case Kind::Float: {
    // A whole float keeps its ".0", so that it reads as the literal written.
    std::string n = formatNumber(f);
    if (n.find_first_of(".eEn") == std::string::npos)
      n += ".0";
    return "number " + n;
  }
  case Kind::Bool:
    return i ? "boolean true" : "boolean false";
  case Kind::String:
    return "string \"" + s + "\"";
  case Kind::List:
    return "a list";
  case Kind::SymDim:
    return "the symbolic dimension '" + s + "'";
  case Kind::DTypeName:
    return "element type " + getDTypeName(dtype).str();
  case Kind::Func:
    return "function '" + fn->getName().str() + "'";
  case Kind::Builtin:
    return "builtin '" + std::string(builtin->name) + "'";
  case Kind::Module:
    return "module '" + module->name + "'";
  case Kind::None:
    return "nothing";
  case Kind::Error:
    break;
  }
  return "an invalid value";
}

void Elaborator::noteCallStack(const Frame &frame) {
  for (int i = frame.instance; i >= 0; i = graph.instances[i].parent)
    diags.note(graph.instances[i].callSite,
               "in '" + graph.instances[i].callee + "' (instance " +
                   graph.instances[i].name + ") called from here");
}

void Elaborator::noteOrigin(const Value &v, llvm::StringRef what) {
  if (v.kind != Value::Kind::Tensor)
    return;
  const Node &n = graph.nodes[v.node];
  diags.note(n.locs.front(), what + " " + n.type.str() + " comes from " +
                                 n.origin);
}

void Elaborator::error(llvm::SMLoc loc, const llvm::Twine &msg,
                       const Frame &frame) {
  diags.error(loc, msg);
  noteCallStack(frame);
}

Value Elaborator::addNode(OpKind kind, std::vector<unsigned> operands,
                          TensorType type, llvm::SMLoc loc, Frame &frame,
                          std::string origin) {
  assert(getOpAttrNames(kind).empty() && "this op has attributes");
  return addNodeWithAttrs(kind, std::move(operands), std::move(type), {}, loc,
                          frame, std::move(origin));
}

Value Elaborator::addNodeWithAttrs(OpKind kind, std::vector<unsigned> operands,
                                   TensorType type,
                                   std::vector<NodeAttr> attrs,
                                   llvm::SMLoc loc, Frame &frame,
                                   std::string origin) {
  if (!checkSize(loc, type.shape, frame)) // e.g. a reshape's wrapped product
    return Value::error();
  Node n;
  n.kind = kind;
  n.operands = std::move(operands);
  n.type = std::move(type);
  n.attrs = std::move(attrs);
  n.locs.push_back(loc);
  n.locs.insert(n.locs.end(), frame.callStack.begin(), frame.callStack.end());
  n.instance = frame.instance;
  n.origin = std::move(origin);
  graph.nodes.push_back(std::move(n));
  Value v;
  v.kind = Value::Kind::Tensor;
  v.node = graph.nodes.size() - 1;
  return v;
}

bool Elaborator::numberFits(const Value &v, DType dtype, Frame &frame) {
  bool isInt = v.kind == Value::Kind::Int;
  std::optional<std::string> why =
      isInt ? overflowOf(v.i, dtype) : overflowOf(v.f, dtype);
  if (!why)
    return true;
  error(v.range.Start,
        "the number " + (isInt ? std::to_string(v.i) : formatNumber(v.f)) +
            " does not fit the " + getDTypeName(dtype) + " tensor it meets: " +
            *why + "; use a number in range, or cast the tensor first",
        frame);
  return false;
}

Value Elaborator::materialize(const Value &v, DType dtype, Frame &frame) {
  if (v.kind == Value::Kind::Float && !isFloat(dtype) &&
      v.f != std::floor(v.f)) {
    error(v.range.Start,
          "the number " + formatNumber(v.f) + " cannot be used with an " +
              getDTypeName(dtype) +
              " tensor without changing its value; cast the tensor first",
          frame);
    return Value::error();
  }
  if (v.kind == Value::Kind::Bool && dtype != DType::Bool) {
    error(v.range.Start, "a boolean cannot be used with an " +
                             getDTypeName(dtype) + " tensor", frame);
    return Value::error();
  }
  if (v.isNumber() && !numberFits(v, dtype, frame))
    return Value::error();
  return addNode({}, TensorType{dtype, {}},
                 OpAttrs<OpKind::Constant>{v.asDouble()}, v.range.Start, frame,
                 "a literal");
}

Value Elaborator::binaryOp(OpKind kind, llvm::StringRef spelling, Value lhs,
                           Value rhs, llvm::SMLoc loc, Frame &frame,
                           llvm::StringRef pred) {
  if (kind == OpKind::Div && rhs.isNumber() && rhs.asDouble() == 0 &&
      lhs.kind == Value::Kind::Tensor && isInteger(typeOf(lhs).dtype)) {
    error(rhs.startOr(loc),
          "integer division by zero: '" + spelling + "' divides " +
              typeOf(lhs).str() + " by " + rhs.describe(graph),
          frame);
    return Value::error();
  }
  if (lhs.kind != Value::Kind::Tensor)
    lhs = materialize(lhs, typeOf(rhs).dtype, frame);
  else if (rhs.kind != Value::Kind::Tensor)
    rhs = materialize(rhs, typeOf(lhs).dtype, frame);
  if (lhs.isError() || rhs.isError())
    return Value::error();
  const TensorType &a = typeOf(lhs), &b = typeOf(rhs);
  if (a.dtype != b.dtype) {
    error(loc,
          "'" + spelling + "' mixes " + a.str() + " and " + b.str() +
              ": there is no implicit conversion; " +
              conversionHint(a.dtype, b.dtype),
          frame);
    noteOrigin(lhs, "the left operand");
    noteOrigin(rhs, "the right operand");
    return Value::error();
  }
  if (kind != OpKind::Cmp &&
      (a.dtype == DType::Bool || (kind == OpKind::Pow && !isFloat(a.dtype)))) {
    error(loc, "'" + spelling + "' is not defined on " + a.str() +
                   " operands",
          frame);
    return Value::error();
  }
  unsigned bad = 0;
  std::optional<Shape> shape = broadcastShapes(a.shape, b.shape, &bad);
  if (!shape) {
    const SDim &da = a.shape[a.rank() - 1 - bad];
    const SDim &db = b.shape[b.rank() - 1 - bad];
    error(loc, "cannot broadcast " + a.str() + " with " + b.str() + " in '" +
                   spelling + "': dimension " + llvm::Twine(-int(bad) - 1) +
                   " is " + da.str() + " on the left and " + db.str() +
                   " on the right (sizes must be equal or 1)",
          frame);
    noteOrigin(lhs, "the left operand");
    noteOrigin(rhs, "the right operand");
    return Value::error();
  }
  std::string origin = ("'" + spelling + "' at " + where(loc)).str();
  if (kind == OpKind::Cmp)
    return addNode({lhs.node, rhs.node}, TensorType{DType::Bool, *shape},
                   OpAttrs<OpKind::Cmp>{pred.str()}, loc, frame, origin);
  return addNode(kind, {lhs.node, rhs.node}, TensorType{a.dtype, *shape}, loc,
                 frame, origin);
}

Value Elaborator::matmul(Value lhs, Value rhs, llvm::SMLoc loc,
                         Frame &frame) {
  if (lhs.kind != Value::Kind::Tensor || rhs.kind != Value::Kind::Tensor) {
    error(loc, "'@' needs two tensors, got " + lhs.describe(graph) + " and " +
                   rhs.describe(graph),
          frame);
    return Value::error();
  }
  const TensorType &a = typeOf(lhs), &b = typeOf(rhs);
  if (a.dtype != b.dtype && isFloat(a.dtype) && isFloat(b.dtype)) {
    error(loc,
          "'@' mixes " + a.str() + " and " + b.str() +
              ": there is no implicit conversion; " +
              conversionHint(a.dtype, b.dtype),
          frame);
    noteOrigin(lhs, "the left operand");
    noteOrigin(rhs, "the right operand");
    return Value::error();
  }
  if (a.dtype != b.dtype || a.dtype == DType::Bool) {
    error(loc, "'@' needs operands of the same numeric element type, got " +
                   a.str() + " and " + b.str(),
          frame);
    return Value::error();
  }
  if (a.rank() < 2 || b.rank() < 2) {
    error(loc, "'@' multiplies matrices or stacks of them ([..., M, K] @ "
               "[..., K, N]), got " + a.str() + " @ " + b.str(),
          frame);
    noteOrigin(lhs, "the left operand");
    noteOrigin(rhs, "the right operand");
    return Value::error();
  }
  const SDim &k = b.shape[b.rank() - 2];
  if (a.shape.back() != k) {
    error(loc, "'@' contracting dimensions differ: the left operand " +
                   a.str() + " has " + a.shape.back().str() +
                   " columns but the right operand " + b.str() + " has " +
                   k.str() + " rows",
          frame);
    noteOrigin(lhs, "the left operand");
    noteOrigin(rhs, "the right operand");
    return Value::error();
  }
  if (b.rank() == 2) {
    Shape shape(a.shape.begin(), a.shape.end() - 1);
    shape.push_back(b.shape[1]);
    return addNode(OpKind::MatMul, {lhs.node, rhs.node},
                   TensorType{a.dtype, shape}, loc, frame,
                   "'@' at " + where(loc));
  }
  return batchMatmul(lhs, rhs, loc, frame);
}

Value Elaborator::batchMatmul(Value lhs, Value rhs, llvm::SMLoc loc,
                              Frame &frame) {
  const TensorType &a = typeOf(lhs), &b = typeOf(rhs);
  Shape la(a.shape.begin(), a.shape.end() - 2);
  Shape lb(b.shape.begin(), b.shape.end() - 2);
  unsigned bad = 0;
  std::optional<Shape> shape = broadcastShapes(la, lb, &bad);
  if (!shape) {
    error(loc, "'@' batch dimensions do not broadcast: " + a.str() + " @ " +
                   b.str() + " has " + la[la.size() - 1 - bad].str() +
                   " on the left and " + lb[lb.size() - 1 - bad].str() +
                   " on the right at dimension " +
                   llvm::Twine(-int(bad) - 3) +
                   " (sizes must be equal or 1)",
          frame);
    noteOrigin(lhs, "the left operand");
    noteOrigin(rhs, "the right operand");
    return Value::error();
  }
  shape->push_back(a.shape[a.rank() - 2]);
  shape->push_back(b.shape.back());
  return addNode(OpKind::BatchMatMul, {lhs.node, rhs.node},
                 TensorType{a.dtype, *shape}, loc, frame,
                 "'@' at " + where(loc));
}

Value Elaborator::evalBinary(const BinaryExpr &e, Frame &frame) {
  Value lhs = eval(e.getLHS(), frame);
  Value rhs = eval(e.getRHS(), frame);
  if (lhs.isError() || rhs.isError())
    return Value::error();
  llvm::StringRef spelling = getBinaryOpSpelling(e.getOp());
  if (lhs.isNumber() && rhs.isNumber() && e.getOp() != BinaryOp::MatMul) {
    Value r;
    std::string why = foldBinary(e.getOp(), lhs, rhs, r);
    if (!why.empty()) {
      error(e.getOpLoc(), why, frame);
      return Value::error();
    }
    r.range = e.getRange();
    return r;
  }
  bool lt = lhs.kind == Value::Kind::Tensor, rt = rhs.kind == Value::Kind::Tensor;
  if (e.getOp() == BinaryOp::MatMul)
    return matmul(lhs, rhs, e.getOpLoc(), frame);
  if (!(lt || rt) || !(lt || lhs.isNumber()) || !(rt || rhs.isNumber())) {
    const Value &bad = (lt || lhs.isNumber()) ? rhs : lhs;
    error(bad.range.Start,
          "operator '" + spelling + "' cannot be applied to " +
              bad.describe(graph) +
              (bad.kind == Value::Kind::SymDim
                   ? " (its size is only known at run time)"
                   : ""),
          frame);
    return Value::error();
  }
  static const std::pair<BinaryOp, OpKind> kinds[] = {
      {BinaryOp::Add, OpKind::Add}, {BinaryOp::Sub, OpKind::Sub},
      {BinaryOp::Mul, OpKind::Mul}, {BinaryOp::Div, OpKind::Div},
      {BinaryOp::Pow, OpKind::Pow}};
  for (auto &k : kinds)
    if (k.first == e.getOp())
      return binaryOp(k.second, spelling, lhs, rhs, e.getOpLoc(), frame);
  static const std::pair<BinaryOp, const char *> preds[] = {
      {BinaryOp::Eq, "eq"}, {BinaryOp::Ne, "ne"}, {BinaryOp::Lt, "lt"},
      {BinaryOp::Le, "le"}, {BinaryOp::Gt, "gt"}, {BinaryOp::Ge, "ge"}};
  for (auto &p : preds)
    if (p.first == e.getOp())
      return binaryOp(OpKind::Cmp, spelling, lhs, rhs, e.getOpLoc(), frame,
                      p.second);
  return Value::error();
}
