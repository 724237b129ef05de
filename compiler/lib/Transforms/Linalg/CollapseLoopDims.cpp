//===- CollapseLoopDims.cpp - Elementwise loop nests made one long loop ---===//
//
// Implements `modelc-collapse-loop-dims`, run after elementwise fusion:
// consecutive iteration dimensions of a linalg.generic that are of one kind
// (parallel or reduction) and contiguous in every operand
// (areDimSequencesPreserved) are merged, the
// operands reshaped with tensor.collapse_shape (free after bufferization:
// the buffers are dense). A relu over f32[B, 32, 28, 28] becomes one loop of
// B*25088 iterations instead of a nest whose innermost loop has 28: LLVM's
// vectoriser then runs whole 16-lane vectors instead of one vector and a
// 12-iteration scalar remainder per row (docs/codegen.md has the CNN's
// figures). Broadcasts merge what they can (a bias add over [B, C, H, W]
// merges H and W), and so do sums (a conv bias gradient sums over N and
// H*W: its innermost loop becomes 784 long instead of 28).
//
// Left as they are: fills (no input: a reshape between a zero fill and
// the product it initialises would hide it from modelc-matmul-to-blas, which
// turns that pair into beta = 0), generics reading linalg.index (dropout's counter:
// collapsing would divide it back into coordinates), generics with an
// indexing map that is not a projected permutation (reshaping copies), runs
// with two dynamic extents, and runs of one dimension.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/Linalg/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_COLLAPSELOOPDIMSPASS
#include "modelc/Transforms/Linalg/Passes.h.inc"

namespace {

/// The maximal runs of two or more consecutive iteration dimensions of
/// \p op of one iterator type that are contiguous in all its operands; empty
/// when \p op is not a generic on tensors without linalg.index.
SmallVector<ReassociationIndices> collapsibleRuns(linalg::LinalgOp op) {
  auto g = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!g || !g.hasPureTensorSemantics() || g.getNumLoops() < 2 || g.hasIndexSemantics() ||
      g.getNumDpsInputs() == 0)
    return {};
  SmallVector<utils::IteratorType> iters = g.getIteratorTypesArray();
  SmallVector<AffineMap> maps = g.getIndexingMapsArray();
  // collapseOpIterationDims handles projected permutations only (a map such
  // as (d0, d1*9 + d2*3 + d3) passes areDimSequencesPreserved and is then
  // collapsed wrongly).
  if (!llvm::all_of(maps, [](AffineMap m) { return m.isProjectedPermutation(); }))
    return {};
  // At most one dynamic extent per run: expanding a run back with two
  // (memref.expand_shape into ?x?) crashes expand-strided-metadata in 22.
  SmallVector<int64_t> extents = g.getStaticLoopRanges();
  auto dynamicCount = [&](const ReassociationIndices &dims) {
    return llvm::count_if(dims, [&](int64_t d) { return ShapedType::isDynamic(extents[d]); });
  };
  SmallVector<ReassociationIndices> runs;
  ReassociationIndices run = {0};
  auto flush = [&] {
    if (run.size() > 1)
      runs.push_back(run);
  };
  for (int64_t d = 1; d < int64_t(g.getNumLoops()); ++d) {
    ReassociationIndices longer = run;
    longer.push_back(d);
    if (iters[d] == iters[run.front()] && dynamicCount(longer) <= 1 &&
        linalg::areDimSequencesPreserved(maps, {longer})) {
      run = longer;
      continue;
    }
    flush();
    run = {d};
  }
  flush();
  return runs;
}

struct CollapseLoopDimsPass
    : impl::CollapseLoopDimsPassBase<CollapseLoopDimsPass> {
  using CollapseLoopDimsPassBase::CollapseLoopDimsPassBase;

  void runOnOperation() final {
    RewritePatternSet patterns(&getContext());
    linalg::populateCollapseDimensions(patterns, collapsibleRuns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

} // namespace modelc
