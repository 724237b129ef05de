//===- GpuFuseLoops.cpp - Fewer kernels: adjacent parallel loops merged ---===//
//
// Implements `modelc-gpu-fuse-loops`, run on the parallel loops of a GPU
// entry function's body (after convert-linalg-to-parallel-loops, before the
// mapping to blocks and threads, where each top-level `scf.parallel` becomes
// one kernel launch). Three steps, in each block of a function body:
//   1. allocations and side-effect-free ops that sit between parallel loops
//      move above the first loop of their run (a loop has no results, so
//      nothing between depends on one; a buffer is allocated a few kernels
//      earlier), so that the run's loops become adjacent;
//   2. adjacent one-iteration loops (scalar work, wrapped by
//      modelc-gpu-prepare) merge into one: one thread runs both bodies in
//      order, which is their sequential meaning;
//   3. upstream's naive parallel-loop fusion (scf-parallel-loop-fusion's
//      rule, with MLIR's alias analysis) merges adjacent loops with the same
//      bounds when each iteration reads only what the same iteration of the
//      earlier loop wrote (a cross-entropy's row maximum, its exponential
//      sum and their initialisations: one thread per row).
// A fusion can make more loops adjacent, so the three steps repeat until the
// number of loops stops falling.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/GPU/Passes.h"

#include "mlir/Analysis/AliasAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_GPUFUSELOOPSPASS
#include "modelc/Transforms/GPU/Passes.h.inc"

namespace {

/// True for an op that may move above a parallel loop it follows: an
/// allocation, or an op without side effects or regions.
bool isMovable(Operation *op) {
  if (isa<memref::AllocOp>(op))
    return true;
  return op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
         !op->hasTrait<OpTrait::IsTerminator>();
}

/// Step 1: moves the movable ops that sit between parallel loops of `block`
/// above the first loop of their run, so that each run of loops separated
/// only by such ops becomes contiguous.
void gatherLoops(Block &block) {
  scf::ParallelOp first; ///< the first loop of the current run
  SmallVector<Operation *> between;
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
      if (!first)
        first = loop;
      for (Operation *moved : between)
        moved->moveBefore(first);
      between.clear();
    } else if (first && isMovable(&op)) {
      between.push_back(&op);
    } else {
      first = nullptr;
      between.clear();
    }
  }
}

/// True for a one-dimensional loop from 0 to 1 by 1.
bool isSingleIteration(scf::ParallelOp loop) {
  if (loop.getNumLoops() != 1 || loop.getNumReductions() != 0)
    return false;
  auto constant = [](Value v, int64_t c) {
    auto op = v.getDefiningOp<arith::ConstantIndexOp>();
    return op && op.value() == c;
  };
  return constant(loop.getLowerBound()[0], 0) && constant(loop.getUpperBound()[0], 1) &&
         constant(loop.getStep()[0], 1);
}

/// Step 2: appends the body of `second` to `first` (both one-iteration
/// loops, `second` right after `first`) and erases `second`.
void mergeInto(scf::ParallelOp first, scf::ParallelOp second) {
  Block *into = first.getBody();
  OpBuilder b(into->getTerminator());
  IRMapping map;
  map.map(second.getInductionVars()[0], first.getInductionVars()[0]);
  for (Operation &op : second.getBody()->without_terminator())
    b.clone(op, map);
  second.erase();
}

void mergeScalarLoops(Block &block) {
  scf::ParallelOp previous;
  for (Operation &op : llvm::make_early_inc_range(block)) {
    auto loop = dyn_cast<scf::ParallelOp>(op);
    if (loop && isSingleIteration(loop) && previous) {
      mergeInto(previous, loop);
      continue;
    }
    previous = loop && isSingleIteration(loop) ? loop : scf::ParallelOp();
  }
}

struct GpuFuseLoopsPass : impl::GpuFuseLoopsPassBase<GpuFuseLoopsPass> {
  using GpuFuseLoopsPassBase::GpuFuseLoopsPassBase;

  void runOnOperation() final {
    AliasAnalysis &aliases = getAnalysis<AliasAnalysis>();
    // A fusion can make further loops adjacent: repeat until nothing changes.
    for (size_t before = SIZE_MAX, after = loopCount(); after < before;
         before = after, after = loopCount()) {
      for (Block &block : getOperation().getBody()) {
        gatherLoops(block);
        mergeScalarLoops(block);
      }
      scf::naivelyFuseParallelOps(getOperation().getBody(), [&](Value a, Value b) {
        return !aliases.alias(a, b).isNo();
      });
    }
  }

  /// The top-level parallel loops of the function.
  size_t loopCount() {
    size_t n = 0;
    for (Block &block : getOperation().getBody())
      n += llvm::range_size(block.getOps<scf::ParallelOp>());
    return n;
  }
};

} // namespace

} // namespace modelc
