//===- MLIRGen.h - From the checked program to the mdl dialect --*- C++ -*-===//
//
// generateMLIR() turns the checked program's main model into an `mdl`
// module: the parameter and state tables (`mdl.parameter`, `mdl.state`), the
// functions @forward_train, @forward_eval, @train_loss and @eval_metrics,
// @decode_step when the model has a decoding form (one position of one
// sequence over key/value caches), and the data/train configuration as the
// module attribute `mdl.config` (its keys are documented in
// docs/dialect.md). Every op carries the FileLineColLoc of its source,
// wrapped in CallSiteLoc(callee, caller) for each call site it was inlined
// through.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_MLIRGEN_MLIRGEN_H
#define MODELC_MLIRGEN_MLIRGEN_H

#include "modelc/Sema/Program.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace modelc {

/// Registers the dialects generated modules use (mdl, func, arith, tensor).
void registerMLIRGenDialects(mlir::DialectRegistry &registry);

/// A failure that is a compiler bug (e.g. the generated module does not
/// verify), as opposed to a program the user can fix. Drivers report it as
/// an internal error.
class InternalError : public llvm::ErrorInfo<InternalError> {
public:
  static char ID;
  explicit InternalError(std::string text) : text(std::move(text)) {}
  void log(llvm::raw_ostream &os) const override { os << text; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string text;
};

/// Builds the module for `program.getMainModel()`. Fails with a plain
/// llvm::StringError when there is no model to generate, and with an
/// InternalError when the generated module does not verify.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
generateMLIR(mlir::MLIRContext &context, const sema::Program &program,
             const llvm::SourceMgr &sourceMgr);

} // namespace modelc

#endif // MODELC_MLIRGEN_MLIRGEN_H
