//===- BufferBase.h - Which buffer a memref views (GPU pipeline passes) ----===//
//
// Declares the buffer analysis that modelc-gpu-promote-accumulators and
// modelc-gpu-split-reductions share: a memref's base is the allocation,
// global or entry-function argument it is a view of (through view-like ops).
// Two different bases are different memory, except two uses of one global;
// entry functions' buffer arguments never alias (the runtime's adapters pass
// distinct buffers). A memref whose base cannot be told may be any buffer.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_LIB_TRANSFORMS_GPU_BUFFERBASE_H
#define MODELC_LIB_TRANSFORMS_GPU_BUFFERBASE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace modelc {

/// The allocation, global or function argument that `v` is a view of; null
/// when it cannot be told.
inline mlir::Value bufferBase(mlir::Value v) {
  while (v) {
    if (auto arg = llvm::dyn_cast<mlir::BlockArgument>(v))
      return llvm::isa<mlir::func::FuncOp>(arg.getOwner()->getParentOp()) ? v : mlir::Value();
    mlir::Operation *def = v.getDefiningOp();
    if (llvm::isa<mlir::memref::AllocOp, mlir::memref::AllocaOp, mlir::memref::GetGlobalOp,
                  mlir::gpu::AllocOp>(def))
      return v;
    auto view = llvm::dyn_cast<mlir::ViewLikeOpInterface>(def);
    v = view ? view.getViewSource() : mlir::Value();
  }
  return mlir::Value();
}

/// True when buffers with the bases `a` and `b` (from bufferBase, both
/// known) may share memory: the same base, or the same global.
inline bool basesMayAlias(mlir::Value a, mlir::Value b) {
  if (a == b)
    return true;
  auto ga = a.getDefiningOp<mlir::memref::GetGlobalOp>();
  auto gb = b.getDefiningOp<mlir::memref::GetGlobalOp>();
  return ga && gb && ga.getName() == gb.getName();
}

} // namespace modelc

#endif // MODELC_LIB_TRANSFORMS_GPU_BUFFERBASE_H
