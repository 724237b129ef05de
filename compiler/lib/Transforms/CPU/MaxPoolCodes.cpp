//===- MaxPoolCodes.cpp - Max poolings paired with their gradient ---------===//
//
// Implements pairMaxPools (MaxPoolCodes.h). A pooling and a gradient pair
// when the gradient reads the same memref value of x and no op between
// them in the block may write or free x's buffer (BufferEffects.h). The
// pooling's codes then name the elements the gradient would have found in
// x.
//
//===----------------------------------------------------------------------===//
#include "MaxPoolCodes.h"
#include "BufferEffects.h"

#include "mdl/MDLOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace modelc {
namespace {

/// Whether \p grad is the gradient of \p pool: the same window, on the
/// same memref value of x, 2x2 windows with stride 2 and no padding (the
/// runtime's vector paths with codes).
bool routesThroughCodes(mdl::LibMaxPool2DOp pool, mdl::LibMaxPool2DGradOp grad) {
  return pool.getInput() == grad.getInput() &&
         isPlain2x2(pool.getKernel(), pool.getStride(), pool.getPadding()) &&
         isPlain2x2(grad.getKernel(), grad.getStride(), grad.getPadding());
}

/// The open pooling (latest first) whose codes \p grad can use: it
/// routesThroughCodes, and no op between the two may write or free x.
/// -1: none.
int64_t pairFor(ArrayRef<mdl::LibMaxPool2DOp> open, mdl::LibMaxPool2DGradOp grad) {
  for (int64_t at = int64_t(open.size()) - 1; at >= 0; --at) {
    if (!routesThroughCodes(open[at], grad))
      continue;
    Value root = rootOf(grad.getInput());
    for (Operation *op = open[at]->getNextNode(); op != grad; op = op->getNextNode())
      if (mayWriteOrFree(op, root))
        return -1;
    return at;
  }
  return -1;
}

/// A fresh i8 buffer of \p pool's output shape (its batch read there),
/// allocated before \p pool and freed after \p grad.
Value allocateCodes(mdl::LibMaxPool2DOp pool, mdl::LibMaxPool2DGradOp grad) {
  OpBuilder b(pool);
  Location loc = pool.getLoc();
  Value y = pool->getOperand(1);
  auto yType = cast<MemRefType>(y.getType());
  SmallVector<Value> batch;
  if (yType.isDynamicDim(0))
    batch.push_back(memref::DimOp::create(b, loc, y, 0));
  Value buffer =
      memref::AllocOp::create(b, loc, MemRefType::get(yType.getShape(), b.getI8Type()), batch);
  b.setInsertionPointAfter(grad);
  memref::DeallocOp::create(b, loc, buffer);
  return buffer;
}

} // namespace

bool isPlain2x2(ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride, ArrayRef<int64_t> padding) {
  const int64_t twos[] = {2, 2}, zeros[] = {0, 0};
  return kernel == ArrayRef<int64_t>(twos) && stride == ArrayRef<int64_t>(twos) &&
         padding == ArrayRef<int64_t>(zeros);
}

DenseMap<Operation *, Value> pairMaxPools(ModuleOp module) {
  DenseMap<Operation *, Value> codes;
  module.walk([&](Block *block) {
    SmallVector<mdl::LibMaxPool2DOp> open;
    for (Operation &op : *block) {
      if (op.getNumResults() != 0) // still on tensors: reported later
        continue;
      if (auto pool = dyn_cast<mdl::LibMaxPool2DOp>(op)) {
        open.push_back(pool);
        continue;
      }
      auto grad = dyn_cast<mdl::LibMaxPool2DGradOp>(op);
      int64_t at = grad ? pairFor(open, grad) : -1;
      if (at < 0)
        continue;
      mdl::LibMaxPool2DOp pool = open[at];
      open.erase(open.begin() + at);
      codes[pool] = codes[grad] = allocateCodes(pool, grad);
    }
  });
  return codes;
}

} // namespace modelc
