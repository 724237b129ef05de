//===- CpuPipeline.h - The named CPU lowering pipeline ----------*- C++ -*-===//
//
// Declares the CPU lowering pipeline: linalg/tensor/arith/math on ranked
// tensors -> elementwise fusion -> one-shot bufferization with out-params
// -> convolutions and matrix products as calls of the runtime and
// cblas_sgemm -> loops -> LLVM dialect. The
// pipeline is defined here, in the library, and registered under the name
// `modelc-cpu-lowering` for tools; its passes are declared in
// modelc/Transforms/{Linalg,CPU}/Passes.h.
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
  Blas,          ///< library ops and contractions rewritten into calls.
  Kernels,       ///< each kernel outlined into its own function.
  LLVM,          ///< the LLVM dialect, ready for translation.
};

/// Options of the CPU lowering pipeline.
struct CpuPipelineOptions {
  /// Rewrite f32 matrix products on memrefs into `cblas_sgemm` calls (the
  /// faster path, docs/codegen.md); otherwise lower them to plain loops.
  bool useBlas = true;
  /// Call the runtime for the mdl library ops (convolutions by oneDNN
  /// primitives, pooling by its own kernels; modelc-library-to-calls);
  /// otherwise expand them first into linalg (modelc-expand-library-ops:
  /// im2col and one GEMM, window loops), as the GPU pipeline does.
  bool libraryOps = true;
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
/// pipeline needs (mdl for its library ops, bufferization models,
/// convert-to-llvm interfaces, LLVM IR translations).
void registerCpuPipelineDependencies(mlir::DialectRegistry &registry);

/// Registers the named pipeline `modelc-cpu-lowering` and the passes it
/// runs (compiler/include/modelc/Transforms/{Linalg,CPU}/Passes.td) with
/// MLIR's global registry, for `-pass-pipeline` users.
void registerModelcPipelines();

/// Appends the fusion stage (named ops generalised, elementwise fusion, i1
/// tensors widened to i8), the first stage of both the CPU and the GPU
/// pipelines.
void addFusionStage(mlir::OpPassManager &pm);

/// Appends the bufferization stage (one-shot bufferization, results as
/// out-params, deallocations), shared by the CPU and the GPU pipelines.
void addBufferizationStage(mlir::OpPassManager &pm);

} // namespace modelc

#endif // MODELC_PIPELINES_CPUPIPELINE_H
