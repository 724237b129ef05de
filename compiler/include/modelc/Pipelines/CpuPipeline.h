//===- CpuPipeline.h - The named CPU lowering pipeline ----------*- C++ -*-===//
//
// Declares the CPU lowering pipeline: linalg/tensor/arith/math on ranked
// tensors -> elementwise fusion -> one-shot bufferization with out-params
// -> matrix products as cblas_sgemm calls -> loops -> LLVM dialect. The
// pipeline is defined here, in the library, and registered under the name
// `modelc-cpu-lowering` for tools.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_PIPELINES_CPUPIPELINE_H
#define MODELC_PIPELINES_CPUPIPELINE_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"

#include <memory>

namespace modelc {

/// The last stage the CPU pipeline runs; later stages are skipped. Lets a
/// driver stop early (`--emit=...`) and tests check each stage's output.
enum class CpuStage {
  Fusion,        ///< linalg on tensors after elementwise fusion.
  Bufferization, ///< linalg on memrefs, out-param ABI, deallocations.
  Blas,          ///< contractions rewritten into cblas_sgemm calls.
  Kernels,       ///< each kernel outlined into its own function.
  LLVM,          ///< the LLVM dialect, ready for translation.
};

/// Options of the CPU lowering pipeline.
struct CpuPipelineOptions {
  /// Rewrite f32 matrix products on memrefs into `cblas_sgemm` calls (the
  /// measured faster path, see docs/codegen.md); otherwise lower them to
  /// plain loops.
  bool useBlas = true;
  /// Add `_mlir_ciface_<name>` wrappers (one descriptor pointer per memref)
  /// to every public function.
  bool emitCInterface = true;
  /// Move every kernel into its own noinline function (one profiler symbol
  /// per fused group).
  bool outlineKernels = true;
  /// Call the runtime's profiling hooks around every kernel (they return at
  /// once unless the executable runs with `--profile`).
  bool instrumentKernels = true;
  /// Run the kernels' parallel loops through `modelrt_parallel_for`, which
  /// splits large ones over the cores (needs outlineKernels).
  bool parallelKernels = true;
  /// The last stage to run.
  CpuStage stopAfter = CpuStage::LLVM;
  /// Run only the stages after `Kernels` (the module already went through
  /// the pipeline with stopAfter = Kernels).
  bool resumeAfterKernels = false;
};

/// Appends the CPU lowering pipeline to `pm`, which must be anchored on
/// `builtin.module`.
void buildCpuLoweringPipeline(mlir::OpPassManager &pm,
                              const CpuPipelineOptions &options);

/// Parses a stage name (`fusion`, `bufferization`, `blas`, `llvm`); returns
/// false for an unknown name.
bool parseCpuStage(llvm::StringRef name, CpuStage &stage);

/// Adds to `registry` every dialect and interface implementation the CPU
/// pipeline needs (bufferization models, convert-to-llvm interfaces, LLVM IR
/// translations).
void registerCpuPipelineDependencies(mlir::DialectRegistry &registry);

/// Registers the named pipelines (`modelc-cpu-lowering`) and the passes of
/// this library with MLIR's global registry, for `-pass-pipeline` users.
void registerModelcPipelines();

/// Creates the pass rewriting f32 contractions on memrefs (linalg.matmul with
/// any transposition, linalg.contract, contraction linalg.generic) into calls
/// to `callee`, a function with cblas_sgemm's signature (`cblas_sgemm` on the
/// CPU, `modelrt_cuda_sgemm` for the GPU). Ops it cannot express are left
/// untouched.
std::unique_ptr<mlir::Pass>
createMatmulToBlasPass(llvm::StringRef callee = "cblas_sgemm");

/// Creates the pass moving each top-level kernel of the public functions
/// into its own noinline function `@<fn>.k<N>.<mdl op names>`; with
/// `instrument`, brackets each call with the runtime's profiling hooks.
std::unique_ptr<mlir::Pass> createOutlineKernelsPass(bool instrument);

/// Registers `modelc-outline-kernels` with MLIR's global pass registry.
void registerOutlineKernelsPass();

/// Creates `modelc-interleave-reductions`: the parallel dimensions of a sum
/// to few outputs move innermost, so that its outputs' chains of additions
/// interleave (each output keeps the order of its terms).
std::unique_ptr<mlir::Pass> createInterleaveReductionsPass();

/// Registers `modelc-interleave-reductions` with MLIR's global pass registry.
void registerInterleaveReductionsPass();

/// Creates `modelc-parallel-kernel-loops`: each top-level scf.parallel of an
/// outlined kernel moves into a part function over a range of its first
/// dimension, called over the whole range with the loop's estimated work.
std::unique_ptr<mlir::Pass> createParallelKernelLoopsPass();

/// Registers `modelc-parallel-kernel-loops` with MLIR's global pass registry.
void registerParallelKernelLoopsPass();

/// Creates `modelc-parallel-kernel-calls` (LLVM dialect): calls of part
/// functions become `modelrt_parallel_for` calls through a trampoline that
/// unpacks the arguments from a stack frame.
std::unique_ptr<mlir::Pass> createParallelKernelCallsPass();

/// Registers `modelc-parallel-kernel-calls` with MLIR's global pass registry.
void registerParallelKernelCallsPass();

/// Creates `modelc-widen-bool-tensors`: i1 tensors passed from one
/// linalg.generic to others are stored as i8 (loops over i1 memory are never
/// vectorised).
std::unique_ptr<mlir::Pass> createWidenBoolTensorsPass();

/// Registers `modelc-widen-bool-tensors` with MLIR's global pass registry.
void registerWidenBoolTensorsPass();

/// Creates `modelc-fuse-elementwise`: producer/consumer fusion of
/// elementwise linalg.generic ops and reshape propagation through them, as
/// upstream's linalg-fuse-elementwise-ops but never reshaping a contraction.
std::unique_ptr<mlir::Pass> createFuseElementwisePass();

/// Registers `modelc-fuse-elementwise` with MLIR's global pass registry.
void registerFuseElementwisePass();

/// Creates `modelc-collapse-loop-dims`: the contiguous iteration dimensions
/// of elementwise linalg.generic ops are merged into one (long inner loops
/// vectorise; short ones run mostly in their scalar remainder).
std::unique_ptr<mlir::Pass> createCollapseLoopDimsPass();

/// Registers `modelc-collapse-loop-dims` with MLIR's global pass registry.
void registerCollapseLoopDimsPass();

/// Appends the fusion stage (named ops generalised, elementwise fusion, i1
/// tensors widened to i8), the first stage of both the CPU and the GPU
/// pipelines.
void addFusionStage(mlir::OpPassManager &pm);

/// Appends the bufferization stage (one-shot bufferization, results as
/// out-params, deallocations), shared by the CPU and the GPU pipelines.
void addBufferizationStage(mlir::OpPassManager &pm);

/// Creates the pass marking every public func.func `llvm.emit_c_interface`.
std::unique_ptr<mlir::Pass> createEmitCInterfacePass();

} // namespace modelc

#endif // MODELC_PIPELINES_CPUPIPELINE_H
