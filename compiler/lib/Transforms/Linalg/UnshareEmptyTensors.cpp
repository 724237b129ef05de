//===- UnshareEmptyTensors.cpp - At most 16 uses per tensor.empty --------===//
//
// Implements `modelc-unshare-empty-tensors`, the first step of the
// bufferization stage: a tensor.empty with more than kMaxUses uses is
// cloned, so that each clone serves at most kMaxUses of them. CSE merges
// every empty of one type and size (all the [B, 64] inits of a long
// elementwise chain become one value), and one-shot bufferization's
// conflict analysis then sees one alias set holding every op that writes
// such an init: each in-place decision scans the whole set, which makes the
// analysis cubic in the length of the program. With bounded sharing it is
// linear. A few uses still share one empty, so that an elementwise op may
// still write its result over an input that was written into the same
// empty (one buffer for a short chain, as before).
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/Linalg/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_UNSHAREEMPTYTENSORSPASS
#include "modelc/Transforms/Linalg/Passes.h.inc"

namespace {

struct UnshareEmptyTensorsPass
    : impl::UnshareEmptyTensorsPassBase<UnshareEmptyTensorsPass> {
  using UnshareEmptyTensorsPassBase::UnshareEmptyTensorsPassBase;

  /// The most uses one tensor.empty keeps.
  static constexpr size_t kMaxUses = 16;

  /// Gives each run of kMaxUses uses of \p empty after the first its own
  /// clone, built right after \p empty (so that it dominates every use).
  static void unshare(tensor::EmptyOp empty) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : empty->getUses())
      uses.push_back(&use);
    OpBuilder b(empty.getContext());
    b.setInsertionPointAfter(empty);
    Value clone;
    for (size_t i = kMaxUses; i < uses.size(); ++i) {
      if (i % kMaxUses == 0)
        clone = b.clone(*empty)->getResult(0);
      uses[i]->set(clone);
    }
  }

  void runOnOperation() final {
    SmallVector<tensor::EmptyOp> shared;
    getOperation()->walk([&](tensor::EmptyOp op) {
      if (!op.getResult().hasNUsesOrMore(kMaxUses + 1))
        return;
      shared.push_back(op);
    });
    for (tensor::EmptyOp op : shared)
      unshare(op);
  }
};

} // namespace

} // namespace modelc
