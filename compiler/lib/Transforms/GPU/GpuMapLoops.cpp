//===- GpuMapLoops.cpp - One GPU grid per top-level scf.parallel -----------===//
//
// Implements `modelc-gpu-map-loops`, run after
// convert-linalg-to-parallel-loops. Every `scf.parallel` directly in a
// function body (one per linalg op, see GpuPrepare.cpp) is
//   1. collapsed to one dimension (its normalised loops linearised; the
//      original indices recovered with div/rem inside the body), so any
//      rank maps onto the grid;
//   2. tiled by the block size (no min/max bounds: the inner loop runs
//      0..blockSize with an `scf.if` guard);
//   3. mapped: the tile loop to block x, the intra-tile loop to thread x,
//      nested scf.parallel loops to sequential.
// convert-parallel-loops-to-gpu then turns each into one `gpu.launch`.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_GPUMAPLOOPSPASS
#include "modelc/Transforms/GPU/Passes.h.inc"

namespace {

/// True when every loop of `op` runs from 0 with step 1.
bool isNormalised(scf::ParallelOp op) {
  auto isConst = [](Value v, int64_t c) {
    auto cst = v.getDefiningOp<arith::ConstantIndexOp>();
    return cst && cst.value() == c;
  };
  return llvm::all_of(op.getLowerBound(),
                      [&](Value v) { return isConst(v, 0); }) &&
         llvm::all_of(op.getStep(), [&](Value v) { return isConst(v, 1); });
}

/// Replaces a normalised multi-dimensional `op` by a one-dimensional loop
/// over the product of its trip counts; returns the new loop.
scf::ParallelOp collapse(IRRewriter &rewriter, scf::ParallelOp op) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value total = one;
  for (Value ub : op.getUpperBound())
    total = arith::MulIOp::create(rewriter, loc, total, ub);
  auto flat = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                      ValueRange{total}, ValueRange{one});
  rewriter.setInsertionPointToStart(flat.getBody());
  // Delinearise, innermost dimension first.
  SmallVector<Value> ivs(op.getNumLoops());
  Value rest = flat.getInductionVars()[0];
  for (int d = int(op.getNumLoops()) - 1; d >= 0; --d) {
    Value ub = op.getUpperBound()[d];
    ivs[d] = d == 0 ? rest : arith::RemUIOp::create(rewriter, loc, rest, ub);
    if (d > 0)
      rest = arith::DivUIOp::create(rewriter, loc, rest, ub);
  }
  // Drop the new loop's empty terminator; the old body brings its own.
  rewriter.eraseOp(flat.getBody()->getTerminator());
  rewriter.inlineBlockBefore(op.getBody(), flat.getBody(),
                             flat.getBody()->end(), ivs);
  rewriter.eraseOp(op);
  return flat;
}

/// The mapping attribute sending one loop to `processor`.
gpu::ParallelLoopDimMappingAttr mapTo(MLIRContext *ctx,
                                      gpu::Processor processor) {
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
  return gpu::ParallelLoopDimMappingAttr::get(ctx, processor, id, id);
}

/// Marks every loop of `op` sequential.
LogicalResult mapSequential(scf::ParallelOp op) {
  SmallVector<gpu::ParallelLoopDimMappingAttr> dims(
      op.getNumLoops(), mapTo(op.getContext(), gpu::Processor::Sequential));
  return gpu::setMappingAttr(op, dims);
}

struct GpuMapLoopsPass : impl::GpuMapLoopsPassBase<GpuMapLoopsPass> {
  using GpuMapLoopsPassBase::GpuMapLoopsPassBase;

  /// Maps one top-level loop; false (with an error) on failure.
  bool mapLoop(IRRewriter &rewriter, scf::ParallelOp op) {
    if (!isNormalised(op)) {
      op.emitError("GPU lowering: expected a loop from 0 with step 1");
      return false;
    }
    MLIRContext *ctx = op.getContext();
    if (op.getNumLoops() > 1)
      op = collapse(rewriter, op);
    // Tiling replaces `op`: only the two new loops are valid afterwards.
    auto [outer, inner] =
        scf::tileParallelLoop(op, {blockSize}, /*noMinMaxBounds=*/true);
    bool ok = succeeded(gpu::setMappingAttr(
                  outer, {mapTo(ctx, gpu::Processor::BlockX)})) &&
              succeeded(gpu::setMappingAttr(
                  inner, {mapTo(ctx, gpu::Processor::ThreadX)}));
    inner.getBody()->walk([&](scf::ParallelOp nested) {
      ok = ok && succeeded(mapSequential(nested));
    });
    return ok;
  }

  void runOnOperation() final {
    IRRewriter rewriter(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      SmallVector<scf::ParallelOp> loops(
          func.getBody().front().getOps<scf::ParallelOp>());
      for (scf::ParallelOp op : loops)
        if (!mapLoop(rewriter, op))
          return signalPassFailure();
    }
  }
};

} // namespace

} // namespace modelc
