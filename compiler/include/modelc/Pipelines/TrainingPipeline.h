//===- TrainingPipeline.h - mdl module -> trained executable -----*- C++ -*-===//
//
// Declares the one place where the whole compile pipeline after MLIRGen is
// spelled out:
//
//   grad    --mdl-autodiff (train_loss -> train_step), entry points
//           (@train_step, @eval_metrics, @predict), program description read
//   linalg  --convert-mdl-to-linalg, entry ABIs bound
//   llvm    modelc-cpu-lowering -> LLVM dialect -> LLVM IR + the runtime
//           adapters, `modelc_program` and `main`
//   obj     an object file
//   exe     linked with libmodelrt.a into an executable
//
// The driver only calls TrainingCompiler; errors carry the stage and whether
// the user (options, environment) or the compiler is at fault.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_PIPELINES_TRAININGPIPELINE_H
#define MODELC_PIPELINES_TRAININGPIPELINE_H

#include "modelc/Codegen/ProgramEmitter.h"
#include "modelc/Codegen/ProgramSpec.h"
#include "modelc/Pipelines/CpuPipeline.h"
#include "modelc/Pipelines/GpuPipeline.h"
#include "modelc/Target/ObjectEmitter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>

namespace modelc {

/// The stages after MLIRGen, in order.
/// `Fused` is the CPU pipeline up to kernel outlining: bufferized, every
/// fused group (and sgemm call) its own function; `LLVMDialect` finishes it.
enum class TrainingStage { MLIR, Grad, Linalg, Fused, LLVMDialect };

/// Everything that configures code generation.
struct TrainingOptions {
  CpuPipelineOptions cpu;
  /// Also compile the GPU (CUDA) version of the entry points into the
  /// executable; the runtime picks the device at run time.
  bool gpu = false;
  GpuPipelineOptions gpuPipeline;
  /// Tests only: the CPU entry points run the GPU kernels' code, emulated
  /// on the CPU (buildGpuEmulationPipeline), instead of the CPU code.
  bool emulateGpu = false;
  TargetOptions target;
  ProgramEmitOptions program;
  /// The module comes from the front end, which has already warned at the
  /// source about every parameter the loss does not reach: autodiff does
  /// not warn about them again.
  bool frontEndLinted = false;
};

/// An error of the pipeline: which stage failed and whose fault it is.
class CompileError : public llvm::ErrorInfo<CompileError> {
public:
  static char ID;
  CompileError(std::string stage, std::string message, bool userError)
      : stage(std::move(stage)), message(std::move(message)),
        userError(userError) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  std::string stage, message;
  /// True for bad options or a broken environment (exit 1); false for a
  /// compiler failure (exit 2).
  bool userError;
};

/// Appends the passes of `stage` (Grad, Linalg or LLVMDialect) to `pm`.
void buildTrainingStagePasses(mlir::OpPassManager &pm, TrainingStage stage,
                              const TrainingOptions &options);

/// Appends the whole pipeline from the MLIRGen module to the LLVM dialect.
void buildTrainingPipeline(mlir::OpPassManager &pm,
                           const TrainingOptions &options);

/// Adds every dialect and translation the pipeline needs to `registry`.
void registerTrainingPipelineDependencies(mlir::DialectRegistry &registry);

/// Drives one module through the stages, keeping the program description
/// (ProgramSpec) read on the way.
class TrainingCompiler {
public:
  /// `module` is MLIRGen's output; it is transformed in place.
  TrainingCompiler(mlir::ModuleOp module, TrainingOptions options)
      : module(module), options(std::move(options)) {}

  /// Runs the stages after the last one run, up to and including `stage`.
  /// Pass failures have been reported through the context's diagnostics.
  llvm::Error runUntil(TrainingStage stage);

  /// After LLVMDialect: translates, optimises and adds the program glue.
  llvm::Expected<std::unique_ptr<llvm::Module>>
  buildLLVMModule(llvm::LLVMContext &context);

  /// Writes an object file of a module from buildLLVMModule.
  llvm::Error writeObject(llvm::Module &llvmModule, llvm::raw_pwrite_stream &os);

  /// Writes the object to a temporary file and links it with the runtime
  /// from `runtimeLibDir` into `outputPath`.
  llvm::Error linkProgram(llvm::Module &llvmModule, llvm::StringRef outputPath,
                          llvm::StringRef runtimeLibDir);

  const ProgramSpec &getSpec() const { return spec; }
  /// After Linalg, with TrainingOptions::gpu: runs the GPU pipeline on the
  /// GPU copy of the module up to `stage` (once) and returns that copy.
  llvm::Expected<mlir::ModuleOp> runGpu(GpuStage stage);

private:
  mlir::ModuleOp module;
  /// The linalg module cloned for the GPU pipeline (with options.gpu).
  mlir::OwningOpRef<mlir::ModuleOp> gpuModule;
  std::optional<GpuStage> gpuDone;
  TrainingOptions options;
  ProgramSpec spec;
  TrainingStage done = TrainingStage::MLIR;
  std::unique_ptr<llvm::TargetMachine> machine;

  llvm::Error runStage(TrainingStage stage);
  /// runGpu without running the CPU stages first (they must have reached
  /// Linalg); safe on another thread than the CPU stages.
  llvm::Expected<mlir::ModuleOp> runGpuPipeline(GpuStage stage);
  /// The CPU stages up to LLVMDialect, translated and optimised.
  llvm::Expected<std::unique_ptr<llvm::Module>>
  translateCpuModule(llvm::LLVMContext &context);
  llvm::Error getMachine();
};

} // namespace modelc

#endif // MODELC_PIPELINES_TRAININGPIPELINE_H
