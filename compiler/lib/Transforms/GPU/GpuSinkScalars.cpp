//===- GpuSinkScalars.cpp - Host reads of scalar arguments move into kernels ===//
//
// Implements `modelc-gpu-sink-scalars`, run after convert-parallel-loops-to-
// gpu. The lowering extracts some scalars from 0-d arguments on the host,
// outside the loops that use them: the training seed, from which each
// dropout computes its Philox key (split into two words, offset per
// dropout, bumped per round). On the GPU that argument is a device cell, so
// such a load and the pure arithmetic that only kernels use are cloned into
// the start of every gpu.launch body that uses them, and removed from the
// host. Each thread then computes the key itself (a few integer operations),
// and the host code reads no memory: its launches depend on no value the
// host computes from device data, which a captured CUDA graph replays.
// A load whose results the host needs (a size, a call argument) stays, and
// modelc-gpu-device-memory reports it.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/GPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_GPUSINKSCALARSPASS
#include "modelc/Transforms/GPU/Passes.h.inc"

namespace {

/// True for a load of a 0-d argument of the function.
bool isScalarArgumentLoad(Operation *op) {
  auto load = dyn_cast<memref::LoadOp>(op);
  auto arg = load ? dyn_cast<BlockArgument>(load.getMemref()) : BlockArgument();
  return arg && isa<func::FuncOp>(arg.getOwner()->getParentOp()) &&
         load.getMemRefType().getRank() == 0;
}

/// The load and the host ops computed from it (pure, without regions, in
/// the load's block), in program order; empty when any of them has a use
/// on the host outside that set and outside gpu.launch bodies.
SmallVector<Operation *> sinkableSlice(Operation *load) {
  llvm::SetVector<Operation *> slice;
  slice.insert(load);
  for (Operation &op : llvm::make_range(std::next(load->getIterator()), load->getBlock()->end()))
    if (op.getNumRegions() == 0 && isMemoryEffectFree(&op) &&
        llvm::any_of(op.getOperands(),
                     [&](Value v) { return v.getDefiningOp() && slice.contains(v.getDefiningOp()); }))
      slice.insert(&op);
  for (Operation *op : slice)
    for (Operation *user : op->getUsers())
      if (!slice.contains(user) && !user->getParentOfType<gpu::LaunchOp>())
        return {};
  return SmallVector<Operation *>(slice.begin(), slice.end());
}

/// Clones the ops of `slice` that `launch` needs (the backward closure of the
/// slice values its body uses; all precede the launch) at the start of its
/// body, in program order, and makes the body use the clones.
void cloneInto(gpu::LaunchOp launch, ArrayRef<Operation *> slice) {
  llvm::SmallPtrSet<Operation *, 16> inSlice(slice.begin(), slice.end()), needed;
  SmallVector<Operation *> work;
  launch.getBody().walk([&](Operation *inner) {
    for (Value v : inner->getOperands())
      if (Operation *def = v.getDefiningOp(); def && inSlice.contains(def))
        work.push_back(def);
  });
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!needed.insert(op).second)
      continue;
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp(); def && inSlice.contains(def))
        work.push_back(def);
  }
  OpBuilder b = OpBuilder::atBlockBegin(&launch.getBody().front());
  IRMapping map;
  for (Operation *op : slice)
    if (needed.contains(op))
      b.clone(*op, map);
  for (Operation *op : slice)
    if (needed.contains(op))
      for (Value result : op->getResults())
        result.replaceUsesWithIf(map.lookup(result), [&](OpOperand &use) {
          return launch->isProperAncestor(use.getOwner());
        });
}

/// Sinks every sinkable scalar load of `func`.
void sinkScalars(func::FuncOp func) {
  SmallVector<Operation *> loads;
  for (Operation &op : func.getBody().getOps())
    if (isScalarArgumentLoad(&op))
      loads.push_back(&op);
  for (Operation *load : loads) {
    SmallVector<Operation *> slice = sinkableSlice(load);
    if (slice.empty())
      continue;
    llvm::SetVector<gpu::LaunchOp> launches;
    for (Operation *op : slice)
      for (Operation *user : op->getUsers())
        if (auto launch = user->getParentOfType<gpu::LaunchOp>())
          launches.insert(launch);
    for (gpu::LaunchOp launch : launches)
      cloneInto(launch, slice);
    for (Operation *op : llvm::reverse(slice))
      op->erase();
  }
}

struct GpuSinkScalarsPass : impl::GpuSinkScalarsPassBase<GpuSinkScalarsPass> {
  using GpuSinkScalarsPassBase::GpuSinkScalarsPassBase;
  void runOnOperation() final {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal())
        sinkScalars(func);
  }
};

} // namespace

} // namespace modelc
