//===- SumThroughMaxPool.cpp - Plane sums of max pooling's gradient -------===//
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

#include <array>

using namespace mlir;
using namespace mlir::mdl;

namespace modelc {
#define GEN_PASS_DEF_MDLSUMTHROUGHMAXPOOL
#include "modelc/Transforms/Passes.h.inc"

namespace {

/// Which of the four NCHW axes \p axes (each in [-4, 4)) names.
std::array<bool, 4> summedAxes(ArrayRef<int64_t> axes) {
  std::array<bool, 4> summed = {false, false, false, false};
  for (int64_t axis : axes)
    summed[axis < 0 ? axis + 4 : axis] = true;
  return summed;
}

/// Makes \p sum read the gradient that its max_pool2d_grad input routes,
/// when the sum covers the planes and the two agree on N and C where the
/// sum keeps them (so the sum's type stays).
void sumPooledGradient(ReduceSumOp sum) {
  auto grad = sum.getInput().getDefiningOp<MaxPool2DGradOp>();
  std::array<bool, 4> summed = summedAxes(sum.getAxes());
  if (!grad || !summed[2] || !summed[3])
    return;
  auto routed = cast<RankedTensorType>(grad.getGrad().getType());
  auto spread = cast<RankedTensorType>(grad.getType());
  for (int64_t d : {0, 1})
    if (!summed[d] && routed.getDimSize(d) != spread.getDimSize(d))
      return;
  sum.getInputMutable().assign(grad.getGrad());
  if (grad->use_empty())
    grad->erase();
}

struct MDLSumThroughMaxPoolPass
    : impl::MDLSumThroughMaxPoolBase<MDLSumThroughMaxPoolPass> {
  void runOnOperation() override {
    SmallVector<ReduceSumOp> sums;
    getOperation().walk([&](ReduceSumOp sum) { sums.push_back(sum); });
    for (ReduceSumOp sum : sums)
      sumPooledGradient(sum);
  }
};

} // namespace
} // namespace modelc
