//===- ParallelKernels.h - What the kernel-outlining passes share ---------===//
//
// The attributes through which modelc-outline-kernels,
// modelc-parallel-kernel-loops and modelc-parallel-kernel-calls hand kernels
// and their parallel parts to each other, and the split of an outlined
// region's inputs into arguments and cloned constants.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_LIB_TRANSFORMS_CPU_PARALLELKERNELS_H
#define MODELC_LIB_TRANSFORMS_CPU_PARALLELKERNELS_H

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"

namespace modelc {

/// Unit attribute on each function modelc-outline-kernels creates.
constexpr const char *kKernelAttr = "modelc.kernel";

/// Unit attribute on each part function of a kernel's parallel loop
/// (kept by func-to-llvm on the llvm.func).
constexpr const char *kParallelPartAttr = "modelc.parallel_part";

/// Splits the values \p used by a region to be outlined into \p captured
/// (passed as arguments) and the \p constants that define the rest (cloned
/// into the new function: LLVM must see them to strength-reduce index
/// arithmetic and to vectorise).
inline void splitOutlinedInputs(const llvm::SetVector<mlir::Value> &used,
                                llvm::SetVector<mlir::Value> &captured,
                                llvm::SmallVectorImpl<mlir::Operation *> &constants) {
  for (mlir::Value v : used) {
    mlir::Operation *def = v.getDefiningOp();
    if (def && def->hasTrait<mlir::OpTrait::ConstantLike>())
      constants.push_back(def);
    else
      captured.insert(v);
  }
}

} // namespace modelc

#endif // MODELC_LIB_TRANSFORMS_CPU_PARALLELKERNELS_H
