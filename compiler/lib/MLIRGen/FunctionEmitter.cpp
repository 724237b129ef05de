//===- FunctionEmitter.cpp - Emits one mdl function -----------------------===//
//
// Types, locations (FileLineColLoc wrapped in CallSiteLoc for each inlined
// call site), constants, and the elementwise half of node emission.
//
//===----------------------------------------------------------------------===//

#include "FunctionEmitter.h"

#include "mdl/MDLOps.h"

using namespace modelc;
using namespace modelc::sema;

mlir::RankedTensorType FunctionEmitter::toType(mlir::Builder &b,
                                               const TensorType &t) {
  llvm::SmallVector<int64_t> shape;
  for (const SDim &d : t.shape)
    shape.push_back(d.isSymbolic() ? mlir::ShapedType::kDynamic : d.size);
  mlir::Type elt;
  switch (t.dtype) {
  case DType::F32:
    elt = b.getF32Type();
    break;
  case DType::F64:
    elt = b.getF64Type();
    break;
  case DType::I32:
    elt = b.getI32Type();
    break;
  case DType::I64:
    elt = b.getI64Type();
    break;
  case DType::Bool:
    elt = b.getI1Type();
    break;
  }
  return mlir::RankedTensorType::get(shape, elt);
}

/// FileLineColLoc of an SMLoc.
mlir::Location modelc::fileLoc(mlir::Builder &b, const llvm::SourceMgr &sm,
                              llvm::SMLoc l) {
  unsigned buf = sm.FindBufferContainingLoc(l);
  if (!buf)
    return b.getUnknownLoc();
  auto lc = sm.getLineAndColumn(l, buf);
  return mlir::FileLineColLoc::get(
      b.getStringAttr(sm.getMemoryBuffer(buf)->getBufferIdentifier()),
      lc.first, lc.second);
}

mlir::Location FunctionEmitter::loc(const Node &n) {
  mlir::Location l = fileLoc(b, sm, n.locs.back());
  for (size_t i = n.locs.size() - 1; i-- > 0;)
    l = mlir::CallSiteLoc::get(fileLoc(b, sm, n.locs[i]), l);
  return l;
}

mlir::Value FunctionEmitter::scalar(double v, mlir::Type elt,
                                    mlir::Location l) {
  auto type = mlir::RankedTensorType::get({}, elt);
  mlir::Attribute a;
  if (mlir::isa<mlir::FloatType>(elt))
    a = b.getFloatAttr(elt, v);
  else
    a = b.getIntegerAttr(elt, int64_t(v));
  return mlir::mdl::ConstantOp::create(b, l,
                                       mlir::DenseElementsAttr::get(type, a));
}

llvm::SmallVector<mlir::Value>
FunctionEmitter::emit(llvm::ArrayRef<unsigned> roots) {
  std::vector<bool> needed(g.nodes.size(), false);
  for (unsigned r : roots)
    needed[r] = true;
  for (size_t i = g.nodes.size(); i-- > 0;)
    if (needed[i])
      for (unsigned o : g.nodes[i].operands)
        needed[o] = true;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (needed[i] && !values.count(i))
      values[i] = emitNode(g.nodes[i]);
  llvm::SmallVector<mlir::Value> out;
  for (unsigned r : roots)
    out.push_back(values[r]);
  return out;
}

/// The mdl op class of each elementwise node kind.
template <typename Op>
static mlir::Value make(mlir::OpBuilder &b, mlir::Location l,
                        llvm::ArrayRef<mlir::Value> ops) {
  return Op::create(b, l, ops[0], ops[1]).getResult();
}
template <typename Op>
static mlir::Value make1(mlir::OpBuilder &b, mlir::Location l,
                         llvm::ArrayRef<mlir::Value> ops) {
  return Op::create(b, l, ops[0]).getResult();
}

mlir::Value FunctionEmitter::emitNode(const Node &n) {
  mlir::Location l = loc(n);
  llvm::SmallVector<mlir::Value> ops;
  for (unsigned o : n.operands)
    ops.push_back(values[o]);
  namespace mdl = mlir::mdl;
  switch (n.kind) {
  case OpKind::Input:
    return input;
  case OpKind::Label:
    return labels;
  case OpKind::Param:
    return mdl::ParamOp::create(
        b, l, toType(b, n.type),
        mlir::FlatSymbolRefAttr::get(b.getContext(), n.getText("symbol")));
  case OpKind::Constant:
    return scalar(n.getNumber("value"), toType(b, n.type).getElementType(), l);
  case OpKind::Add: return make<mdl::AddOp>(b, l, ops);
  case OpKind::Sub: return make<mdl::SubOp>(b, l, ops);
  case OpKind::Mul: return make<mdl::MulOp>(b, l, ops);
  case OpKind::Div: return make<mdl::DivOp>(b, l, ops);
  case OpKind::Pow: return make<mdl::PowOp>(b, l, ops);
  case OpKind::Max: return make<mdl::MaxOp>(b, l, ops);
  case OpKind::Min: return make<mdl::MinOp>(b, l, ops);
  case OpKind::Neg: return make1<mdl::NegOp>(b, l, ops);
  case OpKind::Abs: return make1<mdl::AbsOp>(b, l, ops);
  case OpKind::Exp: return make1<mdl::ExpOp>(b, l, ops);
  case OpKind::Log: return make1<mdl::LogOp>(b, l, ops);
  case OpKind::Sqrt: return make1<mdl::SqrtOp>(b, l, ops);
  case OpKind::Relu: return make1<mdl::ReluOp>(b, l, ops);
  case OpKind::Gelu: return make1<mdl::GeluOp>(b, l, ops);
  case OpKind::Tanh: return make1<mdl::TanhOp>(b, l, ops);
  case OpKind::Sigmoid: return make1<mdl::SigmoidOp>(b, l, ops);
  case OpKind::MatMul: return make<mdl::MatmulOp>(b, l, ops);
  case OpKind::Cmp: {
    auto pred = mdl::symbolizeCmpPredicate(n.getText("predicate"));
    return mdl::CmpOp::create(b, l, mdl::CmpPredicateAttr::get(
                                        b.getContext(), *pred),
                              ops[0], ops[1]);
  }
  case OpKind::Cast:
    return mdl::CastOp::create(b, l, ops[0],
                               toType(b, n.type).getElementType());
  default:
    return emitLayer(n, ops, l);
  }
}
