//===- CodegenStages.h - The driver's stages after MLIR generation -*- C++ -*-===//
//
// Declares the run/emit functions of the stages `grad`, `linalg`, `llvm`
// and `obj`, and the final step that links the executable. They drive
// modelc::TrainingCompiler (Pipelines/TrainingPipeline.h), which spells the
// pipeline; here only the command-line glue lives.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_TOOLS_MODELC_CODEGENSTAGES_H
#define MODELC_TOOLS_MODELC_CODEGENSTAGES_H

#include "modelc/Target/SplitLongCode.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace modelc {

struct Compilation;

/// Code generation settings from the command line.
struct CodegenSettings {
  /// LLVM optimisation level (-O0..-O3).
  unsigned optLevel = 3;
  /// --target-cpu; empty: the host CPU.
  std::string targetCpu;
  /// Define `main` (off with --no-main: the object exports modelc_program).
  bool emitMain = true;
  /// Directory holding libmodelrt.a.
  std::string runtimeLibDir;
  /// Also compile the GPU (CUDA) code (off with --no-gpu).
  bool gpu = true;
  /// --debug-gpu-emulation: the CPU entry points run the GPU kernels' code.
  bool emulateGpu = false;
  /// --debug-gpu-emulation-cuda-products: its products call cuBLAS.
  bool emulateCudaProducts = false;
  /// --gpu-conv=cudnn (true) or im2col: how the GPU code convolves.
  bool cudnnConvolutions = true;
  /// --emit=lib: the prefix of the library API's functions (empty: none).
  std::string libraryPrefix;
  /// --debug-max-{block,function}-instructions.
  CodeSplitLimits split;
};

/// Differentiates @train_loss and prepares the entry points.
bool runGrad(Compilation &c);
/// Prints the mdl module with @train_step, @eval_metrics, @predict.
bool emitGrad(Compilation &c, llvm::raw_ostream &os);
/// Lowers mdl to linalg/tensor/arith/math.
bool runLinalg(Compilation &c);
/// Prints the lowered module.
bool emitLinalg(Compilation &c, llvm::raw_ostream &os);

/// Runs the CPU pipeline up to kernel outlining (fusion, bufferization,
/// BLAS calls, one function per kernel).
bool runFused(Compilation &c);

/// Prints the module with its kernels.
bool emitFused(Compilation &c, llvm::raw_ostream &os);
/// Does nothing: emitGpuKernels runs the GPU pipeline up to kernel
/// outlining, and a full compilation runs the GPU pipeline beside the CPU
/// pipeline in the llvm stage.
bool runGpuKernels(Compilation &c);
/// Prints the GPU module: host functions launching gpu.func kernels.
bool emitGpuKernels(Compilation &c, llvm::raw_ostream &os);
/// Does nothing (see runGpuKernels); emitPtx lowers to PTX.
bool runPtx(Compilation &c);
/// Prints every kernel's PTX, each after a `//--- <kernel>.ptx` line
/// (split-file's marker, so that tests can assemble each with ptxas).
bool emitPtx(Compilation &c, llvm::raw_ostream &os);
/// CPU lowering, translation to LLVM IR and the runtime glue.
bool runLLVM(Compilation &c);
/// Prints the LLVM IR.
bool emitLLVM(Compilation &c, llvm::raw_ostream &os);
/// Writes the object file (refuses to write binary to a terminal).
bool emitObject(Compilation &c, llvm::raw_ostream &os);
/// Writes the object file to \p path (for the library stage).
bool writeObjectFile(Compilation &c, llvm::StringRef path);
/// Links the executable at `outputPath`.
bool linkProgramExecutable(Compilation &c, llvm::StringRef outputPath);

} // namespace modelc

#endif // MODELC_TOOLS_MODELC_CODEGENSTAGES_H
