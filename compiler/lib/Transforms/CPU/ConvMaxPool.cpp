//===- ConvMaxPool.cpp - Convolutions only a max pooling reads ------------===//
//
// Implements pairConvPools (ConvMaxPool.h). The convolution's result is
// then scratch that the runtime may leave unwritten: nothing reads it but
// the pooling (the gradient, routed by codes, does not), and it is no view
// of another buffer. The convolution moves to the pooling, so no op between
// them may write or free its image, weights or bias.
//
//===----------------------------------------------------------------------===//
#include "ConvMaxPool.h"
#include "BufferEffects.h"
#include "MaxPoolCodes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace modelc {
namespace {

/// Whether every use of \p y, a dense allocation, is \p conv's write, \p
/// pool's read, a deallocation, or a gradient routed by \p pool's codes.
bool onlyPooled(Value y, mdl::LibConv2DBiasOp conv, mdl::LibMaxPool2DOp pool,
                const DenseMap<Operation *, Value> &codes) {
  auto type = cast<MemRefType>(y.getType());
  if (!y.getDefiningOp<memref::AllocOp>() || !type.getLayout().isIdentity())
    return false;
  Value poolCodes = codes.lookup(pool);
  return llvm::all_of(y.getUsers(), [&](Operation *user) {
    if (user == conv.getOperation() || user == pool.getOperation() ||
        isa<memref::DeallocOp>(user))
      return true;
    auto grad = dyn_cast<mdl::LibMaxPool2DGradOp>(user);
    return grad && poolCodes && codes.lookup(grad) == poolCodes;
  });
}

/// Whether an op strictly between \p conv and \p pool may write or free
/// the convolution's image, weights or bias.
bool inputsChangeBetween(mdl::LibConv2DBiasOp conv, mdl::LibMaxPool2DOp pool) {
  for (Operation *op = conv->getNextNode(); op != pool.getOperation();
       op = op->getNextNode())
    for (unsigned i = 0; i < 3; ++i)
      if (mayWriteOrFree(op, rootOf(conv->getOperand(i))))
        return true;
  return false;
}

/// The convolution that writes \p pool's x and pairs with it, or null.
mdl::LibConv2DBiasOp convFor(mdl::LibMaxPool2DOp pool,
                             const DenseMap<Operation *, Value> &codes) {
  Value y = pool.getInput();
  mdl::LibConv2DBiasOp conv;
  for (Operation *user : y.getUsers())
    if (auto c = dyn_cast<mdl::LibConv2DBiasOp>(user); c && c->getOperand(3) == y)
      conv = c;
  if (!conv || conv->getNumResults() != 0 || conv->getBlock() != pool->getBlock() ||
      !conv->isBeforeInBlock(pool) || !onlyPooled(y, conv, pool, codes) ||
      inputsChangeBetween(conv, pool))
    return {};
  return conv;
}

} // namespace

DenseMap<Operation *, mdl::LibConv2DBiasOp>
pairConvPools(ModuleOp module, const DenseMap<Operation *, Value> &codes) {
  DenseMap<Operation *, mdl::LibConv2DBiasOp> pairs;
  module.walk([&](mdl::LibMaxPool2DOp pool) {
    if (pool->getNumResults() != 0 || // on tensors: reported later
        !isPlain2x2(pool.getKernel(), pool.getStride(), pool.getPadding()))
      return;
    if (mdl::LibConv2DBiasOp conv = convFor(pool, codes))
      pairs[pool] = conv;
  });
  return pairs;
}

} // namespace modelc
