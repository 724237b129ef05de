//===- ObjectEmitter.h - LLVM dialect -> LLVM IR -> object file -*- C++ -*-===//
//
// Declares the in-process CPU back end: translate a module in the MLIR LLVM
// dialect to LLVM IR, set the host (or requested) target triple, CPU and data
// layout, optimise at -O0..-O3, and emit textual LLVM IR or an object file.
// No external tool is run.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_TARGET_OBJECTEMITTER_H
#define MODELC_TARGET_OBJECTEMITTER_H

#include "modelc/Target/SplitLongCode.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace modelc {

/// Code generation options of the CPU back end.
struct TargetOptions {
  /// LLVM optimisation level, 0..3.
  unsigned optLevel = 3;
  /// Target CPU (`-mcpu` names, e.g. `x86-64-v3`, `znver4`); empty means the
  /// host CPU with the host's detected features.
  std::string cpu;
  /// Target triple; empty means the host's default triple.
  std::string triple;
  /// The most code that instruction selection and register allocation see
  /// in one block and one function.
  CodeSplitLimits split;
  /// Inline each function that only its `_mlir_ciface_` wrapper calls into
  /// the wrapper, for hosts that call only the wrappers (the compiled
  /// program): the call between them passes every memref descriptor as
  /// scalars, thousands of arguments for a deep model, and code generation
  /// is superlinear in a call's stack arguments.
  bool inlineIntoWrappers = false;
};

/// Creates a target machine for `options` (small code model, PIC).
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const TargetOptions &options);

/// Translates `module` (LLVM dialect only) to LLVM IR in `context`, sets its
/// triple and data layout from `machine`, and optimises it at
/// `options.optLevel`.
llvm::Expected<std::unique_ptr<llvm::Module>>
translateAndOptimize(mlir::ModuleOp module, llvm::LLVMContext &context,
                     llvm::TargetMachine &machine,
                     const TargetOptions &options);

/// Writes the optimised textual LLVM IR of `module` to `os`.
llvm::Error emitLLVMIR(mlir::ModuleOp module, const TargetOptions &options,
                       llvm::raw_ostream &os);

/// Compiles the optimised `module` to an object file written to `os`, after
/// splitLongCode bounds its blocks and functions by `limits` (a long
/// program's entry point is one block of thousands of kernel calls) and
/// compileGlueFast puts the functions that only call kernels on LLVM's fast
/// code generation path.
llvm::Error emitObject(llvm::Module &module, llvm::TargetMachine &machine,
                       llvm::raw_pwrite_stream &os,
                       const CodeSplitLimits &limits = {});

/// Writes an object file for `module` to `os`.
llvm::Error emitObjectFile(mlir::ModuleOp module, const TargetOptions &options,
                           llvm::raw_pwrite_stream &os);

} // namespace modelc

#endif // MODELC_TARGET_OBJECTEMITTER_H
