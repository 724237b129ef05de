//===- PoolBeforeRelu.cpp - Max pooling moved before its input's relu -----===//
//
// Implements the `mdl-pool-before-relu` pass (Passes.td). A convolutional
// block writes conv -> relu -> max_pool: the relu reads and writes the
// convolution's whole output, and its gradient's mask runs over the same
// size. max(relu(a), relu(b), ...) = relu(max(a, b, ...)) holds bit for
// bit (relu is arith.maximumf with 0: NaN stays NaN, which the pooling
// picks either way; -0 and +0 both give +0), and the gradients agree: the
// pooling's arg-max among positive values is the same element, and a
// window with none gets relu's zero gradient (y > 0 is false) either way.
// So the pass swaps the two, and the relu runs on the pooled tensor.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/Passes.h"

#include "mdl/MDLOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::mdl;

namespace modelc {
#define GEN_PASS_DEF_MDLPOOLBEFORERELU
#include "modelc/Transforms/Passes.h.inc"

namespace {

/// Rewrites `pool` when its input is a relu used by it alone.
void moveBeforeRelu(MaxPool2DOp pool) {
  auto relu = pool.getInput().getDefiningOp<ReluOp>();
  if (!relu || !relu->hasOneUse())
    return;
  OpBuilder b(pool);
  auto pooled = MaxPool2DOp::create(b, pool.getLoc(), pool.getType(), relu.getOperand(),
                                    pool.getKernelAttr(), pool.getStrideAttr(),
                                    pool.getPaddingAttr());
  auto activated = ReluOp::create(b, relu.getLoc(), pool.getType(), pooled.getResult());
  pool.getResult().replaceAllUsesWith(activated.getResult());
  pool->erase();
  relu->erase();
}

struct MDLPoolBeforeReluPass : impl::MDLPoolBeforeReluBase<MDLPoolBeforeReluPass> {
  void runOnOperation() override {
    SmallVector<MaxPool2DOp> pools;
    getOperation().walk([&](MaxPool2DOp pool) { pools.push_back(pool); });
    for (MaxPool2DOp pool : pools)
      moveBeforeRelu(pool);
  }
};

} // namespace
} // namespace modelc
