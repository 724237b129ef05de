//===- GpuPromoteAccumulators.cpp - Kernel accumulators into registers ----===//
//
// Implements `modelc-gpu-promote-accumulators`, run on the device code of
// the GPU pipeline (loops inside scf.parallel or gpu.launch bodies), after
// modelc-gpu-fuse-loops. Lowered linalg reductions
// accumulate in memory: a loss sum, a bias gradient's column sum, a softmax
// row's maximum and sum are
//   memref.store %init, %acc[%i]
//   scf.for %k = ... { %a = memref.load %acc[%i]  ...  memref.store %n, %acc[%i] }
// so on the GPU every iteration waits for a global load that depends on the
// previous iteration's global store. Nothing can tell LLVM that %acc is not
// one of the loop's other buffers, so it keeps them. This pass keeps the
// accumulator in a loop-carried value (iter_args) and stores it once after
// the loop, when
//   - the store is in the loop's body (not nested deeper), its memref and
//     indices are defined outside the loop, and every load of the same
//     buffer in the loop reads exactly that element, in the body, before the
//     store;
//   - every other memory access in the loop is a load or store of a buffer
//     that provably is not the accumulator's (BufferBase.h: buffers are told
//     apart by the allocation, global or entry-function argument they view);
//     an access whose base is unknown, or any other op with memory effects,
//     leaves the loop as it is.
// A store of the same element before the loop, with nothing touching memory
// in between, gives the initial value (and goes); otherwise the element is
// loaded before the loop. The values
// and the order of the arithmetic do not change.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/GPU/Passes.h"

#include "BufferBase.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_GPUPROMOTEACCUMULATORSPASS
#include "modelc/Transforms/GPU/Passes.h.inc"

namespace {

/// An accumulator of a loop: its one store and the loads of its element.
struct Accumulator {
  memref::StoreOp store;
  SmallVector<memref::LoadOp> loads;
};

/// True when `load` reads the element `store` writes (same memref value,
/// same index values).
bool sameElement(memref::LoadOp load, memref::StoreOp store) {
  return load.getMemref() == store.getMemref() && load.getIndices() == store.getIndices();
}

/// Checks the accesses of `loop` against the accumulator stored by `store`;
/// fills `acc` and returns true when it can be promoted.
bool analyse(scf::ForOp loop, memref::StoreOp store, Accumulator &acc) {
  if (!loop.isDefinedOutsideOfLoop(store.getMemref()) ||
      !llvm::all_of(store.getIndices(), [&](Value i) { return loop.isDefinedOutsideOfLoop(i); }))
    return false;
  Value base = bufferBase(store.getMemref());
  if (!base)
    return false;
  acc = {store, {}};
  WalkResult result = loop.getBody()->walk([&](Operation *op) {
    if (op == store.getOperation())
      return WalkResult::advance();
    Value memref;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      memref = load.getMemref();
    else if (auto other = dyn_cast<memref::StoreOp>(op))
      memref = other.getMemref();
    else if (isMemoryEffectFree(op) || op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    else
      return WalkResult::interrupt(); // a call, a barrier, an atomic...
    Value other = bufferBase(memref);
    if (!other)
      return WalkResult::interrupt();
    if (!basesMayAlias(other, base))
      return WalkResult::advance();
    auto load = dyn_cast<memref::LoadOp>(op);
    if (!load || !sameElement(load, store) || load->getBlock() != store->getBlock() ||
        !load->isBeforeInBlock(store))
      return WalkResult::interrupt();
    acc.loads.push_back(load);
    return WalkResult::advance();
  });
  return !result.wasInterrupted() && !acc.loads.empty();
}

/// The store of the accumulator's element that the loop starts from: the
/// last op before the loop with memory effects, when it stores that element.
memref::StoreOp initialStore(scf::ForOp loop, memref::StoreOp store) {
  for (Operation *op = loop->getPrevNode(); op; op = op->getPrevNode()) {
    if (auto previous = dyn_cast<memref::StoreOp>(op))
      return previous.getMemref() == store.getMemref() &&
                     previous.getIndices() == store.getIndices()
                 ? previous
                 : memref::StoreOp();
    if (!isMemoryEffectFree(op))
      return memref::StoreOp();
  }
  return memref::StoreOp();
}

/// Rewrites `loop` to carry the accumulator in iter_args; returns the new
/// loop.
scf::ForOp promote(RewriterBase &rewriter, scf::ForOp loop, const Accumulator &acc) {
  memref::StoreOp store = acc.store;
  Location loc = store.getLoc();
  rewriter.setInsertionPoint(loop);
  Value init;
  memref::StoreOp previous = initialStore(loop, store);
  if (previous) {
    init = previous.getValueToStore();
    rewriter.eraseOp(previous);
  } else {
    init = memref::LoadOp::create(rewriter, loc, store.getMemref(), store.getIndices());
  }
  Value stored = store.getValueToStore();
  auto newLoop = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
      rewriter, ValueRange{init}, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &, Location, ArrayRef<BlockArgument>) { return SmallVector<Value>{stored}; }));
  Value carried = newLoop.getRegionIterArgs().back();
  for (memref::LoadOp load : acc.loads)
    rewriter.replaceOp(load, carried);
  rewriter.setInsertionPointAfter(newLoop);
  memref::StoreOp::create(rewriter, loc, newLoop.getResults().back(), store.getMemref(),
                          store.getIndices());
  rewriter.eraseOp(store);
  return newLoop;
}

/// Promotes the accumulators of `loop`, one at a time; returns the loop that
/// replaced it.
scf::ForOp promoteAll(RewriterBase &rewriter, scf::ForOp loop) {
  for (bool changed = true; changed;) {
    changed = false;
    for (auto store : loop.getBody()->getOps<memref::StoreOp>()) {
      Accumulator acc;
      if (!analyse(loop, store, acc))
        continue;
      loop = promote(rewriter, loop, acc);
      changed = true;
      break;
    }
  }
  return loop;
}

struct GpuPromoteAccumulatorsPass
    : impl::GpuPromoteAccumulatorsPassBase<GpuPromoteAccumulatorsPass> {
  using GpuPromoteAccumulatorsPassBase::GpuPromoteAccumulatorsPassBase;
  void runOnOperation() final {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->getParentOfType<gpu::LaunchOp>() || loop->getParentOfType<scf::ParallelOp>())
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForOp loop : loops) // inner loops first (post-order walk)
      promoteAll(rewriter, loop);
  }
};

} // namespace

} // namespace modelc
