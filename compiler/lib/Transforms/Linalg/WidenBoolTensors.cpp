//===- WidenBoolTensors.cpp - i1 tensors between kernels stored as i8 -----===//
//
// Implements `modelc-widen-bool-tensors`, run after elementwise fusion:
// a linalg.generic that produces an i1 tensor (a dropout mask, the `x > 0`
// of relu's gradient) into a fresh tensor.empty, and whose every use is an
// input of another linalg.generic, produces an i8 tensor instead (yield
// arith.extui) and its consumers read it back with arith.trunci. Reshapes
// (expand_shape, collapse_shape) between them carry the i8 tensor. The values
// are the same; the memory is not: LLVM's loop vectorizer never vectorizes
// loads or stores of i1 (a vector of i1 is bit-packed, memory is a byte per
// element), so every loop touching an i1 buffer would run one element at a
// time. With i8 buffers those loops take whole vectors (docs/codegen.md has
// the MLP's figures).
//
// Left as they are: i1 tensors whose init is read by the payload, that cross
// a function boundary or feed anything but a linalg.generic input or a
// reshape.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/Linalg/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_WIDENBOOLTENSORSPASS
#include "modelc/Transforms/Linalg/Passes.h.inc"

namespace {

/// True when \p v is an op result that reshapes (expand_shape or
/// collapse_shape) can carry as i8.
bool isReshape(Operation *op) {
  return isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op);
}

/// Collects into \p leaves the generic inputs that read \p v, through
/// reshapes (collected into \p reshapes); false if anything else reads it.
bool collectUses(Value v, SmallVectorImpl<OpOperand *> &leaves,
                 SmallVectorImpl<Operation *> &reshapes) {
  for (OpOperand &use : v.getUses()) {
    Operation *owner = use.getOwner();
    if (isReshape(owner)) {
      reshapes.push_back(owner);
      if (!collectUses(owner->getResult(0), leaves, reshapes))
        return false;
      continue;
    }
    auto consumer = dyn_cast<linalg::GenericOp>(owner);
    if (!consumer || !consumer.isDpsInput(&use))
      return false;
    leaves.push_back(&use);
  }
  return true;
}

/// True when result \p index of \p g can become i8: an i1 tensor built in a
/// tensor.empty the payload never reads, used only as generic inputs
/// (directly or through reshapes).
bool canWiden(linalg::GenericOp g, unsigned index) {
  auto type = dyn_cast<RankedTensorType>(g->getResult(index).getType());
  if (!type || !type.getElementType().isInteger(1))
    return false;
  OpOperand *init = g.getDpsInitOperand(index);
  if (!init->get().getDefiningOp<tensor::EmptyOp>() || g.payloadUsesValueFromOperand(init))
    return false;
  SmallVector<OpOperand *> leaves;
  SmallVector<Operation *> reshapes;
  return collectUses(g->getResult(index), leaves, reshapes);
}

/// Rewrites result \p index of \p g to i8 and its consumers to read i8.
void widen(linalg::GenericOp g, unsigned index) {
  OpBuilder b(g);
  Type i8 = b.getI8Type();
  OpOperand *init = g.getDpsInitOperand(index);
  auto empty = init->get().getDefiningOp<tensor::EmptyOp>();
  auto type = cast<RankedTensorType>(empty.getType()).clone(i8);
  init->set(tensor::EmptyOp::create(b, empty.getLoc(), type, empty.getDynamicSizes()));
  g.getMatchingBlockArgument(init).setType(i8);
  Operation *yield = g.getBody()->getTerminator();
  b.setInsertionPoint(yield);
  Value bit = yield->getOperand(index);
  yield->setOperand(index, arith::ExtUIOp::create(b, bit.getLoc(), i8, bit));
  Value result = g->getResult(index);
  SmallVector<OpOperand *> leaves;
  SmallVector<Operation *> reshapes;
  collectUses(result, leaves, reshapes);
  result.setType(type);
  for (Operation *r : reshapes) {
    auto t = cast<RankedTensorType>(r->getResult(0).getType());
    r->getResult(0).setType(t.clone(i8));
  }
  for (OpOperand *use : leaves) {
    auto consumer = cast<linalg::GenericOp>(use->getOwner());
    BlockArgument arg = consumer.getMatchingBlockArgument(use);
    arg.setType(i8);
    b.setInsertionPointToStart(consumer.getBody());
    auto bitBack = arith::TruncIOp::create(b, arg.getLoc(), b.getI1Type(), arg);
    arg.replaceAllUsesExcept(bitBack, bitBack);
  }
}

struct WidenBoolTensorsPass
    : impl::WidenBoolTensorsPassBase<WidenBoolTensorsPass> {
  using WidenBoolTensorsPassBase::WidenBoolTensorsPassBase;

  void runOnOperation() final {
    SmallVector<std::pair<linalg::GenericOp, unsigned>> todo;
    getOperation().walk([&](linalg::GenericOp g) {
      for (unsigned i = 0; i < g->getNumResults(); ++i)
        if (canWiden(g, i))
          todo.push_back({g, i});
    });
    for (auto [g, i] : todo)
      widen(g, i);
  }
};

} // namespace

} // namespace modelc
