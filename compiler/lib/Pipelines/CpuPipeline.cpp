//===- CpuPipeline.cpp - The named CPU lowering pipeline ------------------===//
//
// Implements buildCpuLoweringPipeline (pass by pass: see docs/codegen.md),
// the fusion and bufferization stages it shares with the GPU pipeline, and
// the registration of the pipeline name `modelc-cpu-lowering`. The passes
// are in compiler/lib/Transforms/{Linalg,CPU}.
//
//===----------------------------------------------------------------------===//
#include "modelc/Pipelines/CpuPipeline.h"
#include "modelc/Conversion/Passes.h"
#include "modelc/Transforms/CPU/Passes.h"
#include "modelc/Transforms/Linalg/Passes.h"

#include "mdl/MDLDialect.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace modelc {

/// Fusion stage: named ops become linalg.generic (so elementwise named ops
/// such as linalg.add/linalg.exp can fuse; contractions stay recognisable
/// for the BLAS rewrite), then producer/consumer elementwise fusion.
void addFusionStage(OpPassManager &pm) {
  pm.addPass(createLinalgGeneralizeNamedOpsPass());
  pm.addPass(createFuseElementwisePass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createWidenBoolTensorsPass());
  pm.addPass(createCollapseLoopDimsPass());
  pm.addPass(createCanonicalizerPass());
}

/// Upstream's buffer-deallocation pipeline
/// (bufferization::buildBufferDeallocationPipeline), with the deallocs of
/// distinct fresh buffers written directly before its simplification, which
/// is quadratic in the number of buffers one dealloc frees.
static void addDeallocationPasses(OpPassManager &pm) {
  pm.addPass(memref::createExpandReallocPass({/*emitDeallocs=*/false}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(bufferization::createOwnershipBasedBufferDeallocationPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createSplitFreshDeallocsPass());
  pm.addPass(bufferization::createBufferDeallocationSimplificationPass());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
}

/// Bufferization stage: at most 16 uses per tensor.empty (which keeps one-shot
/// analysis linear), one-shot bufferization across function boundaries
/// with identity layouts, a copy for each repeated function result, function
/// results turned into caller-allocated out-params, then ownership-based
/// deallocation of the remaining buffers (addDeallocationPasses).
void addBufferizationStage(OpPassManager &pm) {
  pm.addPass(createUnshareEmptyTensorsPass());
  bufferization::OneShotBufferizePassOptions bufOpts;
  bufOpts.bufferizeFunctionBoundaries = true;
  bufOpts.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufOpts));
  // Folds the in-place copies and memref iter_args bufferization leaves, so
  // that returned allocations become visible to the out-param rewrite.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCopyRepeatedResultsPass());
  bufferization::BufferResultsToOutParamsPassOptions outOpts;
  outOpts.hoistStaticAllocs = true;
  outOpts.hoistDynamicAllocs = true;
  outOpts.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outOpts));
  pm.addPass(createCanonicalizerPass());
  addDeallocationPasses(pm);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

namespace {

/// Final stage: loops, control flow, and the LLVM dialect.
void addLLVMStage(OpPassManager &pm, const CpuPipelineOptions &options) {
  pm.addPass(createMemrefCopyToLinalgPass());
  pm.addPass(createInterleaveReductionsPass());
  if (options.parallelKernels && options.outlineKernels) {
    pm.addPass(createConvertLinalgToParallelLoopsPass());
    pm.addPass(createParallelKernelLoopsPass());
  } else {
    pm.addPass(createConvertLinalgToLoopsPass());
  }
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  if (options.emitCInterface)
    pm.addPass(createEmitCInterfacePass());
  // erf as arithmetic, then intrinsics (exp, log, sqrt... stay
  // vectorisable), libm calls for what LLVM has no intrinsic for (tanh, ...).
  pm.addPass(createCpuMathApproximationPass());
  // bf16 conversions as integer arithmetic: the same bits on every host,
  // and no call of a libgcc helper GCC 12 lacks.
  pm.addPass(createCpuExpandBf16Pass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  // Buffers come from the runtime's pool (runtime/lib/core/BufferPool.cpp)
  // through MLIR's generic allocation entry points, not malloc/free: a
  // training step then reuses the previous step's warm buffers.
  FinalizeMemRefToLLVMConversionPassOptions memrefOpts;
  memrefOpts.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOpts));
  // Calls first, by the pass that resolves callees through one symbol
  // table (the generic conversion looks each one up by a scan of the
  // module: quadratic in a long program's tens of thousands of calls).
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (options.parallelKernels && options.outlineKernels)
    pm.addPass(createParallelKernelCallsPass());
  pm.addPass(createCanonicalizerPass());
}

} // namespace

void buildCpuLoweringPipeline(OpPassManager &pm,
                              const CpuPipelineOptions &options) {
  if (options.resumeAfterKernels) {
    addLLVMStage(pm, options);
    return;
  }
  if (!options.libraryOps) // the sums over the ranks always call the runtime
    pm.addPass(createExpandLibraryOps({/*keepAttentionWidth=*/0,
                                       /*keepSumRanks=*/true}));
  addFusionStage(pm);
  pm.addPass(createSplitInnerReductionsPass());
  pm.addPass(createCanonicalizerPass());
  if (options.stopAfter == CpuStage::Fusion)
    return;
  addBufferizationStage(pm);
  if (options.stopAfter == CpuStage::Bufferization)
    return;
  // Before any op is rewritten into a call on extracted pointers: the
  // buffers' last uses are still ops on memrefs.
  pm.addPass(createGradReadyCallsPass());
  pm.addPass(createLibraryToCallsPass());
  if (options.useBlas || options.libraryOps) {
    if (options.useBlas)
      pm.addPass(createMatmulToBlasPass());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  }
  if (options.stopAfter == CpuStage::Blas)
    return;
  if (options.outlineKernels)
    pm.addPass(createOutlineKernelsPass({options.instrumentKernels}));
  if (options.stopAfter == CpuStage::Kernels)
    return;
  addLLVMStage(pm, options);
}

void registerCpuPipelineDependencies(DialectRegistry &registry) {
  registerAllDialects(registry);
  registry.insert<mdl::MDLDialect>(); // the library ops it calls or expands
  registerAllExtensions(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

bool parseCpuStage(llvm::StringRef name, CpuStage &stage) {
  auto parsed = llvm::StringSwitch<std::optional<CpuStage>>(name)
                    .Case("fusion", CpuStage::Fusion)
                    .Case("bufferization", CpuStage::Bufferization)
                    .Case("blas", CpuStage::Blas)
                    .Case("kernels", CpuStage::Kernels)
                    .Case("llvm", CpuStage::LLVM)
                    .Default(std::nullopt);
  if (!parsed)
    return false;
  stage = *parsed;
  return true;
}

namespace {
/// Textual options of the registered `modelc-cpu-lowering` pipeline.
struct CpuPipelineCLOptions
    : public PassPipelineOptions<CpuPipelineCLOptions> {
  Option<bool> useBlas{*this, "use-blas",
                       llvm::cl::desc("Lower f32 matmuls to cblas_sgemm"),
                       llvm::cl::init(true)};
  Option<bool> libraryOps{
      *this, "library-ops",
      llvm::cl::desc("Call the runtime for the mdl library ops (otherwise "
                     "expand them into linalg; the sums over the ranks "
                     "always call it)"),
      llvm::cl::init(true)};
  Option<bool> emitCInterface{*this, "emit-c-interface",
                              llvm::cl::desc("Emit _mlir_ciface_ wrappers"),
                              llvm::cl::init(true)};
  Option<bool> outlineKernels{*this, "outline-kernels",
                              llvm::cl::desc("One noinline function per kernel"),
                              llvm::cl::init(true)};
  Option<bool> instrumentKernels{
      *this, "instrument-kernels",
      llvm::cl::desc("Profiling hooks around every kernel"),
      llvm::cl::init(true)};
  Option<bool> parallelKernels{
      *this, "parallel-kernels",
      llvm::cl::desc("Kernels' parallel loops through modelrt_parallel_for"),
      llvm::cl::init(true)};
  Option<CpuStage> stopAfter{
      *this, "stop-after", llvm::cl::desc("The last stage to run"),
      llvm::cl::init(CpuStage::LLVM),
      llvm::cl::values(
          clEnumValN(CpuStage::Fusion, "fusion", "after elementwise fusion"),
          clEnumValN(CpuStage::Bufferization, "bufferization",
                     "after bufferization"),
          clEnumValN(CpuStage::Blas, "blas", "after the BLAS rewrite"),
          clEnumValN(CpuStage::Kernels, "kernels", "after kernel outlining"),
          clEnumValN(CpuStage::LLVM, "llvm", "the whole pipeline"))};
};
} // namespace

void registerModelcPipelines() {
  registerModelcLinalgPasses();
  registerModelcCpuPasses();
  PassPipelineRegistration<CpuPipelineCLOptions>(
      "modelc-cpu-lowering",
      "Lower linalg/tensor/arith/math on tensors to the LLVM dialect (CPU)",
      [](OpPassManager &pm, const CpuPipelineCLOptions &cl) {
        CpuPipelineOptions options;
        options.useBlas = cl.useBlas;
        options.libraryOps = cl.libraryOps;
        options.emitCInterface = cl.emitCInterface;
        options.outlineKernels = cl.outlineKernels;
        options.instrumentKernels = cl.instrumentKernels;
        options.parallelKernels = cl.parallelKernels;
        options.stopAfter = cl.stopAfter;
        buildCpuLoweringPipeline(pm, options);
      });
}

} // namespace modelc
