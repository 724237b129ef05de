//===- LibraryCalls.h - Calls of library functions on memrefs ---*- C++ -*-===//
//
// What the passes that replace ops on memrefs by calls of C functions
// (modelc-matmul-to-blas: cblas_sgemm; modelc-library-to-calls: the
// runtime's convolutions) share: a memref's element pointer, and the
// declaration of the callee.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_TRANSFORMS_LINALG_LIBRARYCALLS_H
#define MODELC_TRANSFORMS_LINALG_LIBRARYCALLS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace modelc {

/// The address of `memref`'s first element (its aligned pointer plus its
/// offset, in elements of its type) as an `!llvm.ptr`.
mlir::Value elementPointer(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value memref);

/// Declares the private function `callee` of `type` in `module` unless a
/// symbol of that name exists. Fails, reporting at the module ("symbol
/// 'callee' already exists with a signature other than <whose>"), when it
/// exists with another type.
llvm::LogicalResult declareLibraryFunction(mlir::ModuleOp module,
                                           llvm::StringRef callee,
                                           mlir::FunctionType type,
                                           llvm::StringRef whose);

} // namespace modelc

#endif // MODELC_TRANSFORMS_LINALG_LIBRARYCALLS_H
