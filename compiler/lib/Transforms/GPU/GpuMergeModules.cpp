//===- GpuMergeModules.cpp - All kernels in one gpu.module ----------------===//
//
// Implements `modelc-gpu-merge-modules`, run after gpu-kernel-outlining,
// which puts every kernel in a gpu.module of its own. Moving them all into
// one module `@<prefix>kernels` (each kernel renamed after its old module,
// which is unique) makes one PTX translation unit: the NVPTX back end is
// set up once at compile time instead of once per kernel, and the driver
// JIT-compiles one module at run time. A kernel equivalent to one merged
// before (EquivalentFunctions.h: the same attributes and body, locations
// aside) is dropped and its launches go to the first. The globals the
// outlining copied into the old modules (constants a kernel reads) move
// too, one per name: every copy of a name is a copy of the same host
// global.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/EquivalentFunctions.h"
#include "modelc/Transforms/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_GPUMERGEMODULESPASS
#include "modelc/Transforms/GPU/Passes.h.inc"

namespace {

struct GpuMergeModulesPass
    : impl::GpuMergeModulesPassBase<GpuMergeModulesPass> {
  using GpuMergeModulesPassBase::GpuMergeModulesPassBase;

  void runOnOperation() final {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> modules(module.getOps<gpu::GPUModuleOp>());
    if (modules.empty())
      return;
    if (module.lookupSymbol(mergedName)) {
      module.emitError("symbol '") << mergedName.getValue()
                                   << "' already exists";
      return signalPassFailure();
    }
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    auto merged = gpu::GPUModuleOp::create(b, module.getLoc(), mergedName);
    MLIRContext *ctx = &getContext();
    // old module name -> kernel name in the merged module.
    llvm::StringMap<StringAttr> renamed;
    EquivalentFunctions kernels;
    for (gpu::GPUModuleOp old : modules) {
      for (auto func :
           llvm::make_early_inc_range(old.getOps<gpu::GPUFuncOp>())) {
        StringAttr name = old.getSymNameAttr();
        std::string key = (name.getValue() + "::" + func.getName()).str();
        if (auto shared = kernels.unique(func); shared != func) {
          renamed[key] = shared.getNameAttr();
          continue; // erased with its module
        }
        renamed[key] = name;
        func->moveBefore(merged.getBody(), merged.getBody()->end());
        SymbolTable::setSymbolName(func, name);
      }
    }
    module.walk([&](gpu::LaunchFuncOp launch) {
      SymbolRefAttr kernel = launch.getKernel();
      std::string key = (kernel.getRootReference().getValue() + "::" +
                         kernel.getLeafReference().getValue())
                            .str();
      if (StringAttr name = renamed.lookup(key))
        launch.setKernelAttr(SymbolRefAttr::get(
            merged.getSymNameAttr(), {FlatSymbolRefAttr::get(ctx, name)}));
    });
    for (gpu::GPUModuleOp old : modules) {
      moveGlobals(old, merged);
      old.erase();
    }
  }

  /// Moves the symbols of \p old other than kernels (the constants the
  /// outlining copied in) into \p merged, skipping names already there.
  static void moveGlobals(gpu::GPUModuleOp old, gpu::GPUModuleOp merged) {
    for (Operation &op : llvm::make_early_inc_range(old.getBody()->getOperations())) {
      auto name = op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
      if (!name || isa<gpu::GPUFuncOp>(op) ||
          SymbolTable::lookupSymbolIn(merged, name))
        continue;
      op.moveBefore(merged.getBody(), merged.getBody()->begin());
    }
  }
};

} // namespace

} // namespace modelc
