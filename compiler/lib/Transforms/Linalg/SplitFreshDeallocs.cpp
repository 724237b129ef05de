//===- SplitFreshDeallocs.cpp - Deallocs of fresh buffers made direct -----===//
//
// Implements `modelc-split-fresh-deallocs`, run in the bufferization stage
// between ownership-based deallocation and upstream's dealloc
// simplification. Ownership-based deallocation frees every buffer a
// function allocates with one `bufferization.dealloc` at its end: in a long
// training step that is one op over hundreds or thousands of memrefs.
// Upstream's simplification then tests every pair of them for aliasing
// (quadratic in the function's length), and the lowering of what is left
// compares every pair at run time. When each memref of the op is the
// result of its own memref.alloc, freed unconditionally, and nothing is
// retained, no two of them can alias: the op is exactly one memref.dealloc
// per memref, which this pass writes directly. Any other dealloc is left to
// the upstream passes.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/Linalg/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_SPLITFRESHDEALLOCSPASS
#include "modelc/Transforms/Linalg/Passes.h.inc"

namespace {

/// Whether every memref of \p op comes from a memref.alloc of its own and
/// is freed unconditionally, with nothing retained.
bool freesOnlyFreshBuffers(bufferization::DeallocOp op) {
  if (!op.getRetained().empty())
    return false;
  llvm::SmallPtrSet<Operation *, 16> allocs;
  for (Value m : op.getMemrefs()) {
    Operation *def = m.getDefiningOp<memref::AllocOp>();
    if (!def || !allocs.insert(def).second)
      return false;
  }
  return llvm::all_of(op.getConditions(), [](Value c) {
    return matchPattern(c, m_One());
  });
}

struct SplitFreshDeallocsPass
    : impl::SplitFreshDeallocsPassBase<SplitFreshDeallocsPass> {
  using SplitFreshDeallocsPassBase::SplitFreshDeallocsPassBase;

  void runOnOperation() final {
    SmallVector<bufferization::DeallocOp> split;
    getOperation()->walk([&](bufferization::DeallocOp op) {
      if (freesOnlyFreshBuffers(op))
        split.push_back(op);
    });
    for (bufferization::DeallocOp op : split) {
      OpBuilder b(op);
      for (Value m : op.getMemrefs())
        memref::DeallocOp::create(b, op.getLoc(), m);
      op.erase();
    }
  }
};

} // namespace

} // namespace modelc
