//===- GpuPipeline.cpp - The named GPU (CUDA) lowering pipeline ------------===//
//
// Implements buildGpuLoweringPipeline (stage by stage: see docs/gpu.md),
// the symbol-prefix pass that lets the GPU functions live beside the CPU
// ones, and the registration of `modelc-gpu-lowering`.
//
//===----------------------------------------------------------------------===//
#include "modelc/Pipelines/GpuPipeline.h"
#include "modelc/Pipelines/CpuPipeline.h"

#include "mlir/Conversion/SCFToGPU/SCFToGPUPass.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace modelc {
namespace {

struct PrefixSymbolsPass
    : PassWrapper<PrefixSymbolsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PrefixSymbolsPass)
  PrefixSymbolsPass() = default;
  PrefixSymbolsPass(const PrefixSymbolsPass &other) : PassWrapper(other) {}
  explicit PrefixSymbolsPass(StringRef p) { prefix = p.str(); }
  StringRef getArgument() const final { return "modelc-prefix-symbols"; }
  StringRef getDescription() const final {
    return "Prefix the names of the public functions";
  }
  Option<std::string> prefix{*this, "prefix",
                             llvm::cl::desc("The prefix"),
                             llvm::cl::init("gpu_")};

  void runOnOperation() final {
    ModuleOp module = getOperation();
    SymbolTable table(module);
    SmallVector<func::FuncOp> funcs;
    for (auto func : module.getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal())
        funcs.push_back(func);
    for (func::FuncOp func : funcs) {
      auto name = StringAttr::get(&getContext(), prefix + func.getSymName());
      if (failed(table.rename(func, name))) {
        func.emitError("cannot rename to '") << name.getValue() << "'";
        return signalPassFailure();
      }
    }
  }
};

/// Linalg on memrefs -> one outlined kernel per op (GpuStage::Kernels).
void addKernelStage(OpPassManager &pm, const GpuPipelineOptions &options) {
  addLaunchStage(pm, options, kCudaSgemmName);
  pm.addPass(createGpuDeviceMemoryPass());
  pm.addPass(std::make_unique<PrefixSymbolsPass>(options.symbolPrefix));
  // Constants into the kernels: a kernel dividing its thread index by a
  // constant extent gets a multiplication and a shift, not an integer
  // division by an argument, which the GPU emulates in about 20 instructions
  // (the CNN's im2col did five per element). The launches exist now, so
  // canonicalising no longer folds the device's one-iteration loops.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createGpuMergeModulesPass(options.symbolPrefix + "kernels"));
  pm.addPass(createGpuMathApproximationPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

} // namespace

void addLaunchStage(OpPassManager &pm, const GpuPipelineOptions &options,
                    StringRef sgemm) {
  pm.addPass(createMatmulToBlasPass(sgemm));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // No canonicalisation from here to the launches: it would fold the
  // one-iteration loops that keep scalar work on the device.
  pm.addPass(createGpuPreparePass());
  pm.addPass(createConvertLinalgToParallelLoopsPass());
  pm.addNestedPass<func::FuncOp>(createGpuFuseLoopsPass());
  pm.addNestedPass<func::FuncOp>(createGpuPromoteAccumulatorsPass());
  pm.addNestedPass<func::FuncOp>(createGpuSplitReductionsPass());
  pm.addPass(createGpuMapLoopsPass(options.blockSize));
  pm.addPass(createConvertParallelLoopToGpuPass());
  pm.addPass(createGpuSinkScalarsPass());
}

std::unique_ptr<Pass> createPrefixSymbolsPass(StringRef prefix) {
  return std::make_unique<PrefixSymbolsPass>(prefix);
}

void buildGpuLoweringPipeline(OpPassManager &pm,
                              const GpuPipelineOptions &options) {
  if (!options.resumeAfterKernels) {
    addFusionStage(pm);
    addBufferizationStage(pm);
    addKernelStage(pm, options);
  }
  if (options.stopAfter == GpuStage::Kernels)
    return;
  // One stream per entry function: allocations, launches and frees are
  // chained on it (the runtime orders everything on its compute stream).
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  pm.addPass(createEmitCInterfacePass());
  gpu::GPUToNVVMPipelineOptions nvvm;
  nvvm.cubinChip = options.chip;
  nvvm.cubinFeatures = options.features;
  nvvm.cubinFormat = "isa"; // PTX text, JIT-compiled by the driver
  gpu::buildLowerToNVVMPassPipeline(pm, nvvm);
}

void registerGpuPipelineDependencies(DialectRegistry &registry) {
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  // gpu-module-to-binary translates each kernel module to LLVM IR.
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
}

namespace {
/// Textual options of the registered `modelc-gpu-lowering` pipeline.
struct GpuPipelineCLOptions
    : public PassPipelineOptions<GpuPipelineCLOptions> {
  Option<std::string> chip{*this, "chip", llvm::cl::desc("GPU architecture"),
                           llvm::cl::init("sm_90")};
  Option<int64_t> blockSize{*this, "block-size",
                            llvm::cl::desc("Threads per block"),
                            llvm::cl::init(256)};
  Option<GpuStage> stopAfter{
      *this, "stop-after", llvm::cl::desc("The last stage to run"),
      llvm::cl::init(GpuStage::LLVM),
      llvm::cl::values(
          clEnumValN(GpuStage::Kernels, "kernels", "after kernel outlining"),
          clEnumValN(GpuStage::LLVM, "llvm", "the whole pipeline"))};
};
} // namespace

void registerGpuPipelines() {
  registerGpuPreparePass();
  registerGpuFuseLoopsPass();
  registerGpuSinkScalarsPass();
  registerGpuPromoteAccumulatorsPass();
  registerGpuSplitReductionsPass();
  registerGpuMapLoopsPass();
  registerGpuDeviceMemoryPass();
  registerGpuMergeModulesPass();
  registerGpuMathApproximationPass();
  registerGpuEmulateLaunchesPass();
  PassRegistration<PrefixSymbolsPass>();
  PassPipelineRegistration<GpuPipelineCLOptions>(
      "modelc-gpu-lowering",
      "Lower linalg/tensor/arith/math on tensors to host LLVM + PTX kernels",
      [](OpPassManager &pm, const GpuPipelineCLOptions &cl) {
        GpuPipelineOptions options;
        options.chip = cl.chip;
        options.blockSize = cl.blockSize;
        options.stopAfter = cl.stopAfter;
        buildGpuLoweringPipeline(pm, options);
      });
}

} // namespace modelc
