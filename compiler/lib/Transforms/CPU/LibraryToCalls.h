//===- LibraryToCalls.h - A library op as a runtime call -*- C++ -*-===//
//
// Declares what `modelc-library-to-calls` (LibraryToCalls.cpp) knows of
// each library op's call, for the calls that replace two or three ops
// (FusedCalls.cpp): the operands that give its sizes, dense copies of
// strided operands, the sizes, and an op's precision.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_LIB_TRANSFORMS_CPU_LIBRARYTOCALLS_H
#define MODELC_LIB_TRANSFORMS_CPU_LIBRARYTOCALLS_H

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallVector.h"

namespace modelc {

/// One library op as the runtime sees it: the entry point, and which
/// operand has the input's shape (NCHW; the gradient rows S x D of an
/// embedding; attention's query), the weight's (convolutions only; the key
/// for attention; else null) and the output's.
struct RuntimeCall {
  llvm::StringRef callee;
  mlir::Value input, weight, output;
  mlir::Value codes = {}; ///< a max pooling's codes (pairMaxPools), or null
};

/// The runtime call of the library op \p op; the callee is empty for any
/// other op.
RuntimeCall describe(mlir::Operation *op);

/// \p buffer itself when its layout is the identity, else a fresh dense
/// copy (\p copyIn: of its contents; otherwise uninitialised).
mlir::Value denseBuffer(mlir::OpBuilder &b, mlir::Location loc, mlir::Value buffer, bool copyIn);

/// The call's sizes in ConvCallSize, PoolCallSize or EmbeddingCallSize
/// order (RuntimeCalls.h), from \p op's operands' shapes and its window
/// attributes.
llvm::SmallVector<mlir::Value> callSizes(mlir::OpBuilder &b, mlir::Location loc,
                                         mlir::Operation *op, const RuntimeCall &c);

/// The precision of \p op: its own `mdl.precision` (mdl-assign-precision
/// keeps some convolutions' f32 in a bf16 module), else \p modulePrecision.
llvm::StringRef precisionOf(mlir::Operation *op, llvm::StringRef modulePrecision);

} // namespace modelc

#endif // MODELC_LIB_TRANSFORMS_CPU_LIBRARYTOCALLS_H
