//===- MaxPoolCodes.h - Max poolings paired with their gradient -*- C++ -*-===//
//
// Declares pairMaxPools (MaxPoolCodes.cpp), which `modelc-library-to-calls`
// runs before it makes its calls: a max pooling and its gradient that can
// share the codes of each window's arg-max (modelrt_max_pool2d_forward_codes
// and _backward_codes) get a buffer for them.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_LIB_TRANSFORMS_CPU_MAXPOOLCODES_H
#define MODELC_LIB_TRANSFORMS_CPU_MAXPOOLCODES_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

namespace modelc {

/// Pairs each max pooling gradient on memrefs with the latest max pooling
/// before it in its block on the same memref of x, 2x2 windows with stride
/// 2 and no padding, when no op between them may write or free x: a fresh i8
/// buffer of y's shape (allocated before the pooling, freed after the
/// gradient) then holds the codes, so that the gradient does not read x
/// again. Each pooling pairs at most once. Returns each paired op's codes.
llvm::DenseMap<mlir::Operation *, mlir::Value> pairMaxPools(mlir::ModuleOp module);

/// Whether a pooling's window is 2x2 with stride 2 and no padding: the
/// runtime's paths with codes and on blocked layouts.
bool isPlain2x2(llvm::ArrayRef<int64_t> kernel, llvm::ArrayRef<int64_t> stride,
                llvm::ArrayRef<int64_t> padding);

} // namespace modelc

#endif // MODELC_LIB_TRANSFORMS_CPU_MAXPOOLCODES_H
