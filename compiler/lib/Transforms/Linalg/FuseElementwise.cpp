//===- FuseElementwise.cpp - Elementwise fusion that keeps products rank 2 ===//
//
// Implements `modelc-fuse-elementwise`, the first step of the fusion stage:
// MLIR's producer/consumer fusion of linalg.generic ops on tensors and the
// propagation of tensor.expand_shape / tensor.collapse_shape through
// generics (so that a reshape between two elementwise ops does not keep
// them apart), the same patterns as upstream's
// `linalg-fuse-elementwise-ops`, with one difference: a reshape is never
// propagated into a contraction. Upstream would turn
//   cols = collapse_shape(rank-6 im2col) : [C*KH*KW, N*OH*OW]
//   W[O, C*KH*KW] @ cols
// into a rank-5 contraction over (c, kh, kw) and (n, oh, ow), which
// modelc-matmul-to-blas cannot hand to cblas_sgemm (it would then run as a
// naive loop nest). Lowerings may therefore build gathers as
// rank-N generics and reshape their results into matrices for a product.
// Nor is a reshape propagated into a generic that reads linalg.index
// (dropout runs over the flattened tensor; see reshapeable).
//
// Fusion itself only takes a producer with one use (otherwise its work would
// be repeated in every consumer), into a contraction only when it is a
// transpose or a broadcast, and only while the fused body stays within
// kMaxFusedBodyOps ops (which keeps the pass linear in program length).
// `tensor.dim` of a result (the lowering's
// run-time size checks) does not count as a use: such dims are first
// resolved to the sizes of the op's init or inputs.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/Linalg/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_FUSEELEMENTWISEPASS
#include "modelc/Transforms/Linalg/Passes.h.inc"

namespace {

/// Whether a reshape may be propagated through \p op: not when \p op is a
/// contraction (a matrix product in any of its forms, which the BLAS
/// rewrite must see at rank 2), nor when it reads linalg.index (dropout's
/// random counter runs over the flattened tensor on purpose: expanded, its
/// loop nest no longer collapses into one vectorisable loop).
bool reshapeable(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  if (!linalgOp)
    return true;
  return !linalg::isaContractionOpInterface(linalgOp) &&
         !linalgOp.hasIndexSemantics();
}

/// Whether \p op is a generic that only moves data: its body yields one of
/// its input elements (a transpose or broadcast).
bool onlyMovesData(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 1 || generic.getNumResults() != 1)
    return false;
  Block &body = generic.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  return &body.front() == yield.getOperation() &&
         yield.getOperand(0) == body.getArgument(0);
}

/// The most ops a fused generic's body may hold. Each fusion clones both
/// bodies into a new op, so without a bound a chain of N elementwise
/// statements fuses in O(N^2) (and LLVM then compiles one loop of N ops);
/// with it, fusion is linear in N. A body of 64 ops does far more work per
/// element than the store and load that a cut between two kernels adds.
constexpr size_t kMaxFusedBodyOps = 64;

/// The number of ops in the body of \p op when it is a linalg op, else 0.
size_t bodySize(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  return linalgOp ? linalgOp.getBlock()->getOperations().size() : 0;
}

/// Fusion control: the producer of \p fused must have one use, and the
/// fused body stays within kMaxFusedBodyOps. Into a contraction, only a
/// transpose or broadcast fuses (its product then reads the operand through
/// a permuted map, which the BLAS rewrite turns into a transposed operand);
/// anything else (relu fused into the product that reads it) would hide the
/// product from the BLAS rewrite: a naive loop.
bool producerHasOneUse(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  if (bodySize(producer) + bodySize(fused->getOwner()) > kMaxFusedBodyOps)
    return false;
  auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
  return !(consumer && linalg::isaContractionOpInterface(consumer)) ||
         onlyMovesData(producer);
}

/// Reshape-propagation control: as producerHasOneUse, and the generic that
/// would be reshaped (the operand's owner, or the producer of an
/// expand_shape's source) is reshapeable.
bool reshapeControl(OpOperand *fused) {
  return producerHasOneUse(fused) && reshapeable(fused->getOwner()) &&
         reshapeable(fused->get().getDefiningOp());
}

/// Whether some indexing map of \p op is not a projected permutation (a
/// window or im2col read): such a generic cannot be expanded.
bool readsThroughWindows(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  return generic && llvm::any_of(generic.getIndexingMapsArray(),
                                 [](AffineMap m) {
                                   return !m.isProjectedPermutation();
                                 });
}

/// Control of the collapsing direction, used only where expansion cannot
/// go: a generic reading `expand_shape(x)` where x comes from a generic
/// that cannot be expanded (the convolution's bias add, reading the GEMM
/// result through a linearising map) is collapsed to x's shape instead, so
/// that it fuses with that producer (bias + relu in one loop). Limited to
/// that case so that the two directions never undo each other.
bool collapseControl(OpOperand *fused) {
  auto expand = fused->get().getDefiningOp<tensor::ExpandShapeOp>();
  return expand && isa<linalg::GenericOp>(fused->getOwner()) &&
         reshapeable(fused->getOwner()) && expand->hasOneUse() &&
         readsThroughWindows(expand.getSrc().getDefiningOp());
}

struct FuseElementwisePass
    : impl::FuseElementwisePassBase<FuseElementwisePass> {
  using FuseElementwisePassBase::FuseElementwisePassBase;

  /// The fusion patterns and the canonicalizations they rely on.
  static void addCommonPatterns(RewritePatternSet &patterns) {
    MLIRContext *ctx = patterns.getContext();
    linalg::populateElementwiseOpsFusionPatterns(patterns, producerHasOneUse);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::DimOp::getCanonicalizationPatterns(patterns, ctx);
    memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
    ctx->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(
        patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, producerHasOneUse);
  }

  /// Applies \p patterns greedily, top-down (as upstream; a rewrite limit
  /// reached leaves valid, less fused IR).
  void apply(RewritePatternSet &&patterns) {
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
  }

  void runOnOperation() final {
    // Two rounds, so that the directions never undo each other: first
    // collapsing (consumers of expand_shape(window generic)), then
    // expansion (every other reshape between elementwise generics).
    RewritePatternSet collapsing(&getContext());
    addCommonPatterns(collapsing);
    linalg::populateFoldReshapeOpsByCollapsingPatterns(collapsing,
                                                       collapseControl);
    apply(std::move(collapsing));
    RewritePatternSet expansion(&getContext());
    addCommonPatterns(expansion);
    linalg::populateFoldReshapeOpsByExpansionPatterns(expansion,
                                                      reshapeControl);
    tensor::populateBubbleUpExpandShapePatterns(expansion);
    apply(std::move(expansion));
  }
};

} // namespace

} // namespace modelc
