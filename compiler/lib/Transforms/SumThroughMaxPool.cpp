//===- SumThroughMaxPool.cpp - Plane sums of max pooling's gradient --------===//
//
// Implements the `mdl-sum-through-max-pool` pass (Passes.td). The gradient
// of max pooling, max_pool2d_grad(dy, x), adds each dy[n, c, oh, ow] to one
// element of plane (n, c): its window's arg-max, which is a real element
// (padding is at most half the kernel, so every window holds one, and
// padding never wins). A sum over both spatial axes therefore adds exactly
// the elements of dy, plus zeros; the pass makes such a reduce_sum read dy.
// The sum's terms are the same and their order differs, so the result may
// differ in its last bits (never for sums that are exact, such as those of
// small integers). Autodiff writes the bias gradient of a convolution that
// max pooling reads as this sum, over axes 0, 2 and 3.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/Passes.h"

#include "mdl/MDLOps.h"

using namespace mlir;
using namespace mlir::mdl;

namespace modelc {
#define GEN_PASS_DEF_MDLSUMTHROUGHMAXPOOL
#include "modelc/Transforms/Passes.h.inc"

namespace {

/// Whether \p axes (each in [-4, 4)) name both spatial axes of NCHW.
bool sumsPlanes(ArrayRef<int64_t> axes) {
  bool rows = false, columns = false;
  for (int64_t axis : axes) {
    int64_t a = axis < 0 ? axis + 4 : axis;
    rows |= a == 2;
    columns |= a == 3;
  }
  return rows && columns;
}

/// Makes \p sum read the gradient that its max_pool2d_grad input routes,
/// when the sum covers the planes and the two agree on N and C (so the
/// sum's type stays).
void sumPooledGradient(ReduceSumOp sum) {
  auto grad = sum.getInput().getDefiningOp<MaxPool2DGradOp>();
  if (!grad || !sumsPlanes(sum.getAxes()))
    return;
  auto routed = cast<RankedTensorType>(grad.getGrad().getType());
  auto spread = cast<RankedTensorType>(grad.getType());
  if (routed.getShape().take_front(2) != spread.getShape().take_front(2))
    return;
  sum.getInputMutable().assign(grad.getGrad());
  if (grad->use_empty())
    grad->erase();
}

struct MDLSumThroughMaxPoolPass : impl::MDLSumThroughMaxPoolBase<MDLSumThroughMaxPoolPass> {
  void runOnOperation() override {
    SmallVector<ReduceSumOp> sums;
    getOperation().walk([&](ReduceSumOp sum) { sums.push_back(sum); });
    for (ReduceSumOp sum : sums)
      sumPooledGradient(sum);
  }
};

} // namespace
} // namespace modelc
