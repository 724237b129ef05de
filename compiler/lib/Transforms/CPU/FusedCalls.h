//===- FusedCalls.h - Calls that replace several library ops -*- C++ -*-===//
//
// Declares the calls of `modelc-library-to-calls` that replace two or three
// library ops at once (FusedCalls.cpp), from the pairings of
// ConvMaxPool.h, ConvBackward.h and ConvFromMaxPool.h.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_LIB_TRANSFORMS_CPU_FUSEDCALLS_H
#define MODELC_LIB_TRANSFORMS_CPU_FUSEDCALLS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace modelc {

/// Library ops that become one call of `callee` at the last of them
/// (`at`), the others (`moved`) moving there: a convolution and its max
/// pooling; a convolution's input and weight gradients; a max pooling's
/// gradient and the gradients of the convolution before the pooling.
struct FusedCall {
  llvm::SmallVector<mlir::Operation *, 2> moved;
  mlir::Operation *at;
  llvm::StringRef callee;
};

/// The fused calls of \p module on the CPU, in the order of the ops they
/// replace, each with the entry point of its precision; \p codes are
/// pairMaxPools' codes.
llvm::SmallVector<FusedCall>
fusedCallsOf(mlir::ModuleOp module, const llvm::DenseMap<mlir::Operation *, mlir::Value> &codes,
             llvm::StringRef modulePrecision);

/// The runtime's signature of \p call: its pointers, then a convolution's
/// sizes.
mlir::FunctionType fusedCallType(mlir::MLIRContext *ctx, const FusedCall &call);

/// Replaces \p call's ops by its call, at the location of all of them;
/// \p codes are the max pooling's (or its gradient's) codes, or null.
void rewriteFused(const FusedCall &call, mlir::Value codes);

} // namespace modelc

#endif // MODELC_LIB_TRANSFORMS_CPU_FUSEDCALLS_H
