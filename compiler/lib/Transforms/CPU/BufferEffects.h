//===- BufferEffects.h - What an op may do to a buffer -*- C++ -*-===//
//
// Declares the questions the CPU pipeline's pairings (MaxPoolCodes,
// ConvMaxPool, ConvBackward) ask before they move a library op past
// others: which buffer a memref views, and whether an op may read, write
// or free it (BufferEffects.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_LIB_TRANSFORMS_CPU_BUFFEREFFECTS_H
#define MODELC_LIB_TRANSFORMS_CPU_BUFFEREFFECTS_H

#include "mlir/IR/Operation.h"

namespace modelc {

/// The allocation or argument that \p buffer is a view of.
mlir::Value rootOf(mlir::Value buffer);

/// Whether \p op, or an op nested in it, may write or free the buffer \p
/// root: a write or a free of (a view of) it or of an unnamed resource, or,
/// for an op that declares no effects (a call), a memref operand that is a
/// view of it.
bool mayWriteOrFree(mlir::Operation *op, mlir::Value root);

/// Whether \p op, or an op nested in it, may read, write or free the
/// buffer \p root, as mayWriteOrFree decides for writes and frees.
bool mayAccess(mlir::Operation *op, mlir::Value root);

/// Whether \p root is an allocation that no use hands on as another
/// memref (a select, a yield, a call's result; views are followed), so
/// that the ops that may touch it are those that name it or its views.
bool ownsItsUses(mlir::Value root);

} // namespace modelc

#endif // MODELC_LIB_TRANSFORMS_CPU_BUFFEREFFECTS_H
