//===- FunctionEmitter.cpp - Emits one mdl function -----------------------===//
//
// Types, locations (FileLineColLoc wrapped in CallSiteLoc for each inlined
// call site), constants, dropout seeds, and the walk over the graph that
// hands each needed node to its op emitter (OpEmitters.cpp).
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
  case DType::BF16:
    elt = b.getBF16Type();
    break;
  case DType::F16:
    elt = b.getF16Type();
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

mlir::RankedTensorType FunctionEmitter::storageType(mlir::Builder &b,
                                                    const TensorType &t) {
  mlir::RankedTensorType type = toType(b, t);
  return isLowPrecisionFloat(t.dtype) ? type.clone(b.getF32Type()) : type;
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

/// The golden-ratio increment that separates the seeds of dropout layers.
static constexpr uint64_t kSeedStride = 0x9E3779B97F4A7C15ull;

mlir::Value FunctionEmitter::nextDropoutSeed(mlir::Location l) {
  unsigned k = dropouts++;
  if (!k)
    return seed;
  auto type = mlir::RankedTensorType::get({}, b.getI64Type());
  auto offset = mlir::DenseElementsAttr::get(
      type, b.getI64IntegerAttr(int64_t(k * kSeedStride)).getValue());
  return mlir::mdl::AddOp::create(b, l, seed,
                                  mlir::mdl::ConstantOp::create(b, l, offset));
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

mlir::Value FunctionEmitter::emitNode(const Node &n) {
  llvm::SmallVector<mlir::Value> ops;
  for (unsigned o : n.operands)
    ops.push_back(values[o]);
  return getOpEmitter(n.kind)(*this, n, ops, loc(n));
}
