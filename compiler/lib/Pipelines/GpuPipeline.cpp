//===- GpuPipeline.cpp - The named GPU (CUDA) lowering pipeline ------------===//
//
// Implements buildGpuLoweringPipeline (stage by stage: see docs/gpu.md),
// its CPU emulation for tests (buildGpuEmulationPipeline) and the
// registration of `modelc-gpu-lowering`. The passes are in
// compiler/lib/Transforms/{Linalg,GPU} (and CPU for the C interface).
//
//===----------------------------------------------------------------------===//
#include "modelc/Pipelines/GpuPipeline.h"
#include "modelc/Conversion/Passes.h"
#include "modelc/Pipelines/CpuPipeline.h"
#include "modelc/Transforms/CPU/Passes.h"
#include "modelc/Transforms/CPU/RuntimeCalls.h"
#include "modelc/Transforms/GPU/Passes.h"
#include "modelc/Transforms/Linalg/Passes.h"
#include "modelrt/cuda/AttentionKernels.h"

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

/// The runtime's cuBLAS entry points.
GemmCallees cudaGemmCallees() {
  return {kCudaSgemmName, kCudaGemmBf16Name, kCudaGemmTf32Name};
}

/// Linalg on memrefs -> one outlined kernel per op (GpuStage::Kernels).
void addKernelStage(OpPassManager &pm, const GpuPipelineOptions &options) {
  addLaunchStage(pm, options, cudaGemmCallees());
  pm.addPass(createGpuDeviceMemoryPass());
  pm.addPass(createPrefixSymbolsPass({options.symbolPrefix}));
  // Constants into the kernels: a kernel dividing its thread index by a
  // constant extent gets a multiplication and a shift, not an integer
  // division by an argument, which the GPU emulates in about 20
  // instructions. The launches exist now, so canonicalising no longer folds
  // the device's one-iteration loops.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createGpuMergeModulesPass({options.symbolPrefix + "kernels"}));
  pm.addPass(createGpuMathApproximationPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

} // namespace

void addLaunchStage(OpPassManager &pm, const GpuPipelineOptions &options,
                    const GemmCallees &gemm) {
  pm.addPass(createMatmulToBlasPass({gemm.f32, gemm.bf16, gemm.tf32}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // No canonicalisation from here to the launches: it would fold the
  // one-iteration loops that keep scalar work on the device.
  pm.addPass(createGpuPreparePass());
  pm.addPass(createConvertLinalgToParallelLoopsPass());
  pm.addNestedPass<func::FuncOp>(createGpuFuseLoopsPass());
  pm.addNestedPass<func::FuncOp>(createGpuPromoteAccumulatorsPass());
  pm.addNestedPass<func::FuncOp>(createGpuSplitReductionsPass());
  pm.addPass(createGpuMapLoopsPass({options.blockSize}));
  pm.addPass(createConvertParallelLoopToGpuPass());
  pm.addPass(createGpuSinkScalarsPass());
}

void buildGpuEmulationPipeline(OpPassManager &pm,
                               const GpuPipelineOptions &options) {
  // The emulation runs on the CPU, where the sums over the ranks are the
  // runtime's; with the CUDA products, the convolutions call cuDNN's entry
  // points (on the fake driver's host memory) unless --gpu-conv=im2col.
  bool cudnn = options.emulateCudaProducts && options.cudnnConvolutions;
  pm.addPass(createExpandLibraryOps({/*keepAttentionWidth=*/0,
                                     /*keepSumRanks=*/true, cudnn}));
  addFusionStage(pm);
  addBufferizationStage(pm);
  pm.addPass(createLibraryToCallsPass({/*gpu=*/false, cudnn}));
  // OpenBLAS (or the CPU's bf16 products) stands for cuBLAS, unless asked.
  GemmCallees cpu{"cblas_sgemm", kGemmBf16Call.str(), ""};
  addLaunchStage(pm, options, options.emulateCudaProducts ? cudaGemmCallees() : cpu);
  pm.addPass(createGpuEmulateLaunchesPass());
  pm.addPass(createGpuMathApproximationPass({/*host=*/true}));
}

void buildGpuLoweringPipeline(OpPassManager &pm,
                              const GpuPipelineOptions &options) {
  if (!options.resumeAfterKernels) {
    // Convolutions stay for cuDNN (or become im2col + cuBLAS), attention
    // for the runtime's fused kernels (AttentionKernels.h).
    pm.addPass(createExpandLibraryOps({modelrt::kAttentionGpuMaxWidth,
                                       /*keepSumRanks=*/false,
                                       options.cudnnConvolutions}));
    addFusionStage(pm);
    addBufferizationStage(pm);
    pm.addPass(createLibraryToCallsPass({/*gpu=*/true}));
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
  Option<bool> cudnn{*this, "cudnn",
                     llvm::cl::desc("Convolutions through cuDNN (else im2col)"),
                     llvm::cl::init(true)};
  Option<GpuStage> stopAfter{
      *this, "stop-after", llvm::cl::desc("The last stage to run"),
      llvm::cl::init(GpuStage::LLVM),
      llvm::cl::values(
          clEnumValN(GpuStage::Kernels, "kernels", "after kernel outlining"),
          clEnumValN(GpuStage::LLVM, "llvm", "the whole pipeline"))};
};
} // namespace

void registerGpuPipelines() {
  registerModelcGpuPasses();
  PassPipelineRegistration<GpuPipelineCLOptions>(
      "modelc-gpu-lowering",
      "Lower linalg/tensor/arith/math on tensors to host LLVM + PTX kernels",
      [](OpPassManager &pm, const GpuPipelineCLOptions &cl) {
        GpuPipelineOptions options;
        options.chip = cl.chip;
        options.blockSize = cl.blockSize;
        options.cudnnConvolutions = cl.cudnn;
        options.stopAfter = cl.stopAfter;
        buildGpuLoweringPipeline(pm, options);
      });
}

} // namespace modelc
