//===- MLIRGen.h - From the checked program to the mdl dialect --*- C++ -*-===//
//
// generateMLIR() turns the checked program's main model into an `mdl`
// module: the parameter and state tables (`mdl.parameter`, `mdl.state`), the
// functions @forward_train, @forward_eval, @train_loss and @eval_metrics,
// and the data/train configuration as the module attribute `mdl.config`
// (its keys are documented in docs/dialect.md). Every op carries the
// FileLineColLoc of its source, wrapped in CallSiteLoc(callee, caller) for
// each call site it was inlined through.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_MLIRGEN_MLIRGEN_H
#define MODELC_MLIRGEN_MLIRGEN_H

#include "modelc/Sema/Program.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>

namespace modelc {

/// Registers the dialects generated modules use (mdl, func, arith, tensor).
void registerMLIRGenDialects(mlir::DialectRegistry &registry);

/// Builds the module for `program.getMainModel()`. On failure (no model to
/// generate, or an internal verifier failure) returns nullptr and sets
/// `error`; `internal` tells whether the failure is a compiler bug.
mlir::OwningOpRef<mlir::ModuleOp>
generateMLIR(mlir::MLIRContext &context, const sema::Program &program,
             const llvm::SourceMgr &sourceMgr, std::string &error,
             bool &internal);

} // namespace modelc

#endif // MODELC_MLIRGEN_MLIRGEN_H
