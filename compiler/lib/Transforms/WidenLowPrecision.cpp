//===- WidenLowPrecision.cpp - bf16 and f16 ops computed in f32 ------------===//
//
// Implements the `mdl-widen-low-precision` pass (Passes.td). bf16 and f16
// are storage types: an mdl op on them is cloned onto f32 operands (each
// widened by an exact mdl.cast) with f32 results, and each result the op
// gave in bf16 or f16 is rounded back by one mdl.cast. mdl.cast and
// mdl.constant keep their types: the first is the conversion itself, the
// second's value is already rounded.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/Passes.h"

#include "mdl/MDLOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::mdl;

namespace modelc {
#define GEN_PASS_DEF_MDLWIDENLOWPRECISION
#include "modelc/Transforms/Passes.h.inc"

namespace {

/// True for a tensor of bf16 or f16.
bool isLowPrecision(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && (tensor.getElementType().isBF16() || tensor.getElementType().isF16());
}

/// \p type with f32 elements when it is a bf16 or f16 tensor.
Type widened(Type type) {
  return isLowPrecision(type) ? cast<RankedTensorType>(type).clone(Float32Type::get(type.getContext()))
                              : type;
}

/// True for the ops the pass rewrites: mdl ops other than the cast and the
/// constant with a bf16 or f16 operand or result.
bool needsWidening(Operation *op) {
  if (!isa<MDLDialect>(op->getDialect()) || isa<CastOp, ConstantOp>(op))
    return false;
  return llvm::any_of(op->getOperandTypes(), isLowPrecision) ||
         llvm::any_of(op->getResultTypes(), isLowPrecision);
}

/// Rewrites \p op onto f32 operands and results, rounding its bf16/f16
/// results back with casts. (No mdl op has regions.)
void widen(Operation *op) {
  OpBuilder b(op);
  IRMapping mapping;
  for (Value operand : op->getOperands())
    if (isLowPrecision(operand.getType()))
      mapping.map(operand, CastOp::create(b, op->getLoc(), operand, b.getF32Type()).getResult());
  Operation *wide = b.clone(*op, mapping);
  for (OpResult result : wide->getResults())
    result.setType(widened(result.getType()));
  for (auto [before, after] : llvm::zip(op->getResults(), wide->getResults())) {
    Value replacement = after;
    if (before.getType() != after.getType())
      replacement = CastOp::create(b, op->getLoc(), after,
                                   cast<RankedTensorType>(before.getType()).getElementType());
    before.replaceAllUsesWith(replacement);
  }
  op->erase();
}

struct WidenLowPrecisionPass : impl::MDLWidenLowPrecisionBase<WidenLowPrecisionPass> {
  void runOnOperation() final {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (needsWidening(op))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      widen(op);
  }
};

} // namespace
} // namespace modelc
