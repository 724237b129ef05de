//===- ConvFromMaxPool.cpp - Convolution gradients from pooling's --------===//
//
// Implements pairPoolGradConvs (ConvFromMaxPool.h). The pooling's
// gradient moves to the convolution's weight gradient, after the ops
// between them: none of those may change what it reads (the pooled
// gradient, the codes; the codes' deallocation moves after the call) or
// touch what it writes (the convolution's dy), which is then scratch that
// the runtime may leave unwritten.
//
//===----------------------------------------------------------------------===//
#include "ConvFromMaxPool.h"
#include "BufferEffects.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace modelc {
namespace {

/// Whether every use of \p dy is \p pool (its writer), \p weights, \p data
/// (when not null) or a deallocation.
bool onlyConvolutionsRead(Value dy, mdl::LibMaxPool2DGradOp pool,
                          mdl::LibConv2DGradWeightOp weights, mdl::LibConv2DGradInputOp data) {
  return llvm::all_of(dy.getUsers(), [&](Operation *user) {
    return user == pool.getOperation() || user == weights.getOperation() ||
           (data && user == data.getOperation()) || isa<memref::DeallocOp>(user);
  });
}

/// Whether an op strictly between \p pool and \p weights, but \p data and
/// the deallocation of \p codes, may change what \p pool reads or touch
/// \p dy. \p data needs no check: the call runs the pooling's gradient,
/// then \p data, then \p weights, their order in the block.
bool blockedBetween(mdl::LibMaxPool2DGradOp pool, mdl::LibConv2DGradWeightOp weights,
                    mdl::LibConv2DGradInputOp data, Value codes, Value dy) {
  Value grad = rootOf(pool->getOperand(0));
  for (Operation *op = pool->getNextNode(); op != weights.getOperation(); op = op->getNextNode()) {
    auto dealloc = dyn_cast<memref::DeallocOp>(op);
    if ((data && op == data.getOperation()) || (dealloc && dealloc.getMemref() == codes))
      continue;
    if (mayWriteOrFree(op, grad) || mayWriteOrFree(op, codes) || mayAccess(op, dy))
      return true;
  }
  return false;
}

/// The pooling gradient that pairs with \p weights, or null.
mdl::LibMaxPool2DGradOp poolFor(mdl::LibConv2DGradWeightOp weights,
                                const DenseMap<Operation *, Value> &codes,
                                mdl::LibConv2DGradInputOp data) {
  Value dy = weights.getGrad();
  mdl::LibMaxPool2DGradOp pool;
  for (Operation *user : dy.getUsers())
    if (auto p = dyn_cast<mdl::LibMaxPool2DGradOp>(user); p && p->getOperand(2) == dy)
      pool = p;
  Value poolCodes = pool ? codes.lookup(pool) : Value();
  if (!poolCodes || pool->getBlock() != weights->getBlock() ||
      !pool->isBeforeInBlock(weights) || (data && !pool->isBeforeInBlock(data)) ||
      !ownsItsUses(dy) || !onlyConvolutionsRead(dy, pool, weights, data) ||
      blockedBetween(pool, weights, data, poolCodes, dy))
    return {};
  return pool;
}

} // namespace

DenseMap<Operation *, mdl::LibMaxPool2DGradOp>
pairPoolGradConvs(ModuleOp module, const DenseMap<Operation *, Value> &codes,
                  const DenseMap<Operation *, mdl::LibConv2DGradInputOp> &grads,
                  function_ref<StringRef(Operation *)> precisionOf) {
  DenseMap<Operation *, mdl::LibMaxPool2DGradOp> pairs;
  module.walk([&](mdl::LibConv2DGradWeightOp weights) {
    mdl::LibConv2DGradInputOp data = grads.lookup(weights);
    StringRef precision = precisionOf(weights);
    if (weights->getNumResults() != 0 || (precision != "f32" && precision != "bf16") ||
        (data && precisionOf(data) != precision))
      return;
    if (mdl::LibMaxPool2DGradOp pool = poolFor(weights, codes, data))
      pairs[weights] = pool;
  });
  return pairs;
}

} // namespace modelc
