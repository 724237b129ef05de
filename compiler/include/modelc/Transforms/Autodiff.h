//===- Autodiff.h - Reverse-mode differentiation of mdl functions -*- C++ -*-===//
//
// The library entry point behind the `--mdl-autodiff` pass, for callers that
// differentiate without a pass manager (the driver's `--emit=grad`, tests).
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_TRANSFORMS_AUTODIFF_H
#define MODELC_TRANSFORMS_AUTODIFF_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace modelc {

/// The NameLoc name wrapped around the location of every op of the backward
/// pass that buildGradientFunction adds.
inline constexpr llvm::StringLiteral kBackwardLocName = "backward";

/// Adds to `module` a function `resultName` returning the loss of
/// `funcName` followed by its gradients (see the MDLAutodiff pass in
/// Passes.td for the exact rule), without canonicalising it. Reports errors
/// at the offending op (or the module) and returns failure. A source the
/// loss reaches only through values without a gradient gets a warning; one
/// it does not reach at all gets one when `warnUnreached` is set.
mlir::FailureOr<mlir::func::FuncOp>
buildGradientFunction(mlir::ModuleOp module, llvm::StringRef funcName,
                      llvm::StringRef resultName, bool warnUnreached = true);

} // namespace modelc

#endif // MODELC_TRANSFORMS_AUTODIFF_H
