//===- GpuDeviceMemory.cpp - Host buffers become device buffers ----------===//
//
// Implements `modelc-gpu-device-memory`, run after
// convert-parallel-loops-to-gpu. After it, the host code of a GPU entry
// function only orders kernels, sgemm calls and device allocations:
//   * each `memref.alloc` outside a kernel becomes `gpu.alloc` and each
//     `memref.dealloc` a `gpu.dealloc` (the runtime's device pool serves
//     them; all work is ordered on one stream, so a freed buffer may be
//     reused by the next kernel at once);
//   * any other host access to memory is an error: every argument is device
//     memory, the seed's cell included (modelc-gpu-sink-scalars has moved
//     the seed's reads into the kernels that use it). An allocation inside a
//     kernel is an error too;
//   * a `memref.get_global` in the host code whose uses are all inside
//     kernels is copied into each kernel that uses it (the outlining then
//     copies the global into the device module); one that a library call
//     or other host code would use is an error: the global lives in host
//     memory, and the GPU would read it there (a fault at run time).
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/GPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_GPUDEVICEMEMORYPASS
#include "modelc/Transforms/GPU/Passes.h.inc"

namespace {

/// Checks one host operation; emits an error and returns false when it
/// touches device memory from the host.
bool checkHostOp(Operation *op) {
  if (isa<memref::AllocaOp>(op))
    return op->emitError("GPU lowering: a stack buffer on the host"), false;
  if (isa<memref::LoadOp>(op))
    return op->emitError("GPU lowering: the host would read device memory"), false;
  if (isa<memref::StoreOp>(op))
    return op->emitError("GPU lowering: the host would write device memory"),
           false;
  if (auto global = dyn_cast<memref::GetGlobalOp>(op))
    return op->emitError("GPU lowering: the constant @")
               << global.getName()
               << " lives in host memory, and the GPU code would read it "
                  "there (compute it inside the kernel that uses it)",
           false;
  return true;
}

/// Copies each host `memref.get_global` into the kernels that use it, and
/// erases it when no host use is left.
void sinkGlobalsIntoKernels(func::FuncOp func) {
  SmallVector<memref::GetGlobalOp> globals;
  func.walk([&](memref::GetGlobalOp op) {
    if (!op->getParentOfType<gpu::LaunchOp>())
      globals.push_back(op);
  });
  OpBuilder builder(func.getContext());
  for (memref::GetGlobalOp global : globals) {
    DenseMap<Operation *, Value> copies; // one copy per kernel
    for (OpOperand &use : llvm::make_early_inc_range(global->getUses())) {
      auto launch = use.getOwner()->getParentOfType<gpu::LaunchOp>();
      if (!launch)
        continue;
      Value &copy = copies[launch];
      if (!copy) {
        builder.setInsertionPointToStart(&launch.getBody().front());
        copy = builder.clone(*global)->getResult(0);
      }
      use.set(copy);
    }
    if (global->use_empty())
      global->erase();
  }
}

struct GpuDeviceMemoryPass
    : impl::GpuDeviceMemoryPassBase<GpuDeviceMemoryPass> {
  using GpuDeviceMemoryPassBase::GpuDeviceMemoryPassBase;

  /// Rewrites the allocations of one function body; false on error.
  bool rewriteFunction(func::FuncOp func) {
    sinkGlobalsIntoKernels(func);
    IRRewriter rewriter(&getContext());
    bool ok = true;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::LaunchOp>(op)) {
        op->walk([&](memref::AllocOp alloc) {
          ok = false;
          alloc.emitError("GPU lowering: an allocation inside a kernel");
        });
        return WalkResult::skip();
      }
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        rewriter.setInsertionPoint(alloc);
        auto dev = gpu::AllocOp::create(
            rewriter, alloc.getLoc(), alloc.getType(), Type(), ValueRange{},
            alloc.getDynamicSizes(), alloc.getSymbolOperands(), UnitAttr());
        rewriter.replaceOp(alloc, dev.getMemref());
        return WalkResult::skip(); // erased: do not visit its regions
      }
      if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        rewriter.setInsertionPoint(dealloc);
        gpu::DeallocOp::create(rewriter, dealloc.getLoc(), Type(),
                               ValueRange{}, dealloc.getMemref());
        rewriter.eraseOp(dealloc);
        return WalkResult::skip();
      }
      ok = checkHostOp(op) && ok;
      return WalkResult::advance();
    });
    return ok;
  }

  void runOnOperation() final {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal() && !rewriteFunction(func))
        return signalPassFailure();
  }
};

} // namespace

} // namespace modelc
