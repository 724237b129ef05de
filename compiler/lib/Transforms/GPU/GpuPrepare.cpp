//===- GpuPrepare.cpp - Shape linalg on memrefs for GPU kernels -----------===//
//
// Implements `modelc-gpu-prepare`, the first GPU-only step after
// bufferization and the sgemm rewrite. It leaves every piece of work as a
// linalg op whose parallel loops come first, so that the generic
// linalg -> scf.parallel -> gpu.launch path turns each op into one kernel:
//   * every `memref.copy` becomes a `linalg.copy` (a copy kernel; the host
//     never touches device memory);
//   * `linalg.generic` ops get their parallel dimensions moved outermost
//     (a bias gradient's [reduction, parallel] becomes [parallel,
//     reduction]: one thread per output element, not a host loop);
//   * linalg ops with no parallel dimension at all (a loss mean, a scalar
//     fill) are wrapped in a one-iteration `scf.parallel`, so that they also
//     run on the device, on one thread; so is a `memref.store` in a
//     function body (a scalar tensor built from host values, e.g. the batch
//     size as f32).
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_GPUPREPAREPASS
#include "modelc/Transforms/GPU/Passes.h.inc"

namespace {

/// The permutation moving the parallel loops of `op` before its reductions
/// (stable within each group); empty when already in that order.
SmallVector<unsigned> parallelFirstOrder(linalg::GenericOp op) {
  SmallVector<unsigned> parallel, reduction;
  for (auto [i, type] : llvm::enumerate(op.getIteratorTypesArray()))
    (linalg::isParallelIterator(type) ? parallel : reduction).push_back(i);
  SmallVector<unsigned> order(parallel);
  order.append(reduction);
  for (auto [i, d] : llvm::enumerate(order))
    if (i != d)
      return order;
  return {};
}

/// Wraps `op` into `scf.parallel (%i) = (0) to (1) step (1)`.
void wrapInSingleIteration(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ParallelOp::create(b, loc, ValueRange{zero},
                                      ValueRange{one}, ValueRange{one});
  op->moveBefore(loop.getBody()->getTerminator());
}

struct GpuPreparePass : impl::GpuPreparePassBase<GpuPreparePass> {
  using GpuPreparePassBase::GpuPreparePassBase;

  void runOnOperation() final {
    ModuleOp module = getOperation();
    SmallVector<memref::CopyOp> copies;
    module.walk([&](memref::CopyOp op) { copies.push_back(op); });
    for (memref::CopyOp op : copies) {
      OpBuilder b(op);
      linalg::CopyOp::create(b, op.getLoc(), op.getSource(), op.getTarget());
      op.erase();
    }
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::GenericOp> generics;
    module.walk([&](linalg::GenericOp op) { generics.push_back(op); });
    for (linalg::GenericOp op : generics) {
      SmallVector<unsigned> order = parallelFirstOrder(op);
      if (order.empty())
        continue;
      rewriter.setInsertionPoint(op);
      if (failed(linalg::interchangeGenericOp(rewriter, op, order))) {
        op.emitError("GPU lowering: cannot move the parallel loops first");
        return signalPassFailure();
      }
    }
    SmallVector<linalg::LinalgOp> scalarOps;
    module.walk([&](linalg::LinalgOp op) {
      if (op.getNumParallelLoops() == 0 &&
          !op->getParentOfType<scf::ParallelOp>())
        scalarOps.push_back(op);
    });
    for (linalg::LinalgOp op : scalarOps)
      wrapInSingleIteration(op);
    SmallVector<memref::StoreOp> stores;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal())
        for (auto store : func.getBody().front().getOps<memref::StoreOp>())
          stores.push_back(store);
    for (memref::StoreOp store : stores)
      wrapInSingleIteration(store);
  }
};

} // namespace

} // namespace modelc
