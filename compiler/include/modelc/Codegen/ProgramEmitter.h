//===- ProgramEmitter.h - The ModelrtProgram and its adapters ---*- C++ -*-===//
//
// Declares the last code generation step: into the LLVM module holding the
// compiled kernels (`_mlir_ciface_train_step`, `..._eval_metrics`,
// `..._predict`), add
//   * adapters with the runtime's exact entry-point signatures
//     (ModelrtTrainStepFn, ModelrtEvalStepFn, ModelrtPredictFn) that build
//     memref descriptors from raw pointers and the batch size, call the
//     kernels and convert results (loss sum -> mean, correct count ->
//     metric sum, state outputs copied back);
//   * the constant `modelc_program` (a ModelrtProgram: tables, shapes,
//     metric names, default configuration, entry points);
//   * optionally `main`, calling `modelrt_main(argc, argv, &modelc_program)`.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_CODEGEN_PROGRAMEMITTER_H
#define MODELC_CODEGEN_PROGRAMEMITTER_H

#include "modelc/Codegen/ProgramSpec.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace modelc {

/// The symbol of the emitted ModelrtProgram constant.
inline constexpr const char *kProgramSymbol = "modelc_program";

/// Options of the program emitter.
struct ProgramEmitOptions {
  /// Define `main` (calling modelrt_main). Off when the object is linked
  /// into a host application that drives `modelc_program` itself.
  bool emitMain = true;
  /// The module also holds the GPU kernels (`_mlir_ciface_gpu_*`, from the
  /// GPU pipeline): emit the GPU adapters and fill the program's GPU entry
  /// points.
  bool withGpu = false;
  /// Non-empty: also define the library API of `--emit=lib`,
  /// PREFIX_load / _predict / _input_shape / _output_shape / _free /
  /// _last_error,
  /// forwarding to modelrt_embed_* (modelrt/embed/Embed.h) with this
  /// program.
  std::string libraryPrefix;
};

/// Adds the adapters, `modelc_program` and `main` to `module`, which must
/// already declare or define the `_mlir_ciface_*` functions named by
/// `spec`'s entry ABIs. Errors name an entry slot the adapters cannot feed.
llvm::Error emitProgram(llvm::Module &module, const ProgramSpec &spec,
                        const ProgramEmitOptions &options = {});

/// Adds a constant ModelrtTrainConfig holding `config` to `module` under
/// `name` (emitProgram writes the same constant into `modelc_program`).
llvm::GlobalVariable *emitTrainConfig(llvm::Module &module,
                                      const TrainDefaults &config,
                                      llvm::StringRef name);

/// The runtime-ABI adapters of one device.
struct EntryAdapters {
  llvm::Function *trainStep, *evalStep, *predict;
  /// The halves of trainStep (GPU only; null on the CPU).
  llvm::Function *trainEnqueue, *trainFinish;
  /// The decoding step (CPU only; null without one).
  llvm::Function *decodeStep;
};

/// Adds the runtime-ABI adapters to `module` and returns them, for
/// emitProgram; with `gpu`, the adapters of the GPU kernels (device
/// pointers), the training step also in two halves.
llvm::Expected<EntryAdapters> emitAdapters(llvm::Module &module,
                                         const ProgramSpec &spec,
                                         bool gpu = false);

} // namespace modelc

#endif // MODELC_CODEGEN_PROGRAMEMITTER_H
