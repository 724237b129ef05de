//===- ConvBackward.cpp - Both gradients of one convolution ---------------===//
//
// Implements pairConvGrads (ConvBackward.h). The input gradient moves to
// the weight gradient, after the ops between them: none of those may
// change what it reads (the output's gradient, the weights) or touch what
// it writes (dx), which must be an allocation of its own, so that every op
// that may touch it names it. The runtime then runs the input gradient
// first, as before, so the order of the two writes does not change.
//
//===----------------------------------------------------------------------===//
#include "ConvBackward.h"
#include "BufferEffects.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace modelc {
namespace {

/// Whether \p a and \p b are memrefs of one shape.
bool sameShape(Value a, Value b) {
  return cast<MemRefType>(a.getType()).getShape() == cast<MemRefType>(b.getType()).getShape();
}

/// Whether \p data and \p weights are the two gradients of one
/// convolution: the same output gradient, window and precision, and the
/// shapes of one convolution.
bool gradientsOfOne(mdl::LibConv2DGradInputOp data, mdl::LibConv2DGradWeightOp weights) {
  return data.getGrad() == weights.getGrad() && data.getStride() == weights.getStride() &&
         data.getPadding() == weights.getPadding() &&
         data.getDilation() == weights.getDilation() &&
         sameShape(data.getInit(), weights.getInput()) &&
         sameShape(data.getWeight(), weights.getInit()) &&
         data->getAttr("mdl.precision") == weights->getAttr("mdl.precision");
}

/// Whether \p data's dx is a buffer of its own: an allocation that
/// ownsItsUses, and no view of the output's gradient or of \p weights' x
/// (which the runtime reads after dx is written, as the two calls did).
bool privateDx(mdl::LibConv2DGradInputOp data, mdl::LibConv2DGradWeightOp weights) {
  Value dx = rootOf(data.getInit());
  return ownsItsUses(dx) && dx != rootOf(data.getGrad()) && dx != rootOf(weights.getInput());
}

/// Whether an op strictly between \p data and \p weights may change what
/// \p data reads or touch what it writes.
bool blockedBetween(mdl::LibConv2DGradInputOp data, mdl::LibConv2DGradWeightOp weights) {
  Value grad = rootOf(data.getGrad()), w = rootOf(data.getWeight()), dx = rootOf(data.getInit());
  for (Operation *op = data->getNextNode(); op != weights.getOperation(); op = op->getNextNode())
    if (mayWriteOrFree(op, grad) || mayWriteOrFree(op, w) || mayAccess(op, dx))
      return true;
  return false;
}

} // namespace

DenseMap<Operation *, mdl::LibConv2DGradInputOp> pairConvGrads(ModuleOp module) {
  DenseMap<Operation *, mdl::LibConv2DGradInputOp> pairs;
  module.walk([&](Block *block) {
    SmallVector<mdl::LibConv2DGradInputOp> open;
    for (Operation &op : *block) {
      if (op.getNumResults() != 0) // still on tensors: reported later
        continue;
      if (auto data = dyn_cast<mdl::LibConv2DGradInputOp>(op)) {
        open.push_back(data);
        continue;
      }
      auto weights = dyn_cast<mdl::LibConv2DGradWeightOp>(op);
      for (int64_t at = int64_t(open.size()) - 1; weights && at >= 0; --at) {
        if (!gradientsOfOne(open[at], weights))
          continue;
        if (privateDx(open[at], weights) && !blockedBetween(open[at], weights))
          pairs[weights] = open[at];
        open.erase(open.begin() + at);
        break;
      }
    }
  });
  return pairs;
}

} // namespace modelc
