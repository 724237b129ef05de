//===- ShapeUtils.h - Shape rules shared by mdl ops -------------*- C++ -*-===//
//
// Broadcasting and axis helpers used by the mdl ops' result-type inference
// and reusable by lowering (which must apply the same rules): MLIR-typed
// wrappers over the pure arithmetic of modelsupport/ShapeArith.h, which
// semantic analysis shares.
//
//===----------------------------------------------------------------------===//

#ifndef MDL_SHAPEUTILS_H
#define MDL_SHAPEUTILS_H

#include "modelsupport/ShapeArith.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::mdl {

/// The numpy broadcast of two shapes (aligned at the trailing dimension);
/// `?` with 1 or `?` gives `?`, `?` with n > 1 gives n. Returns std::nullopt
/// when two static sizes differ and neither is 1.
std::optional<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs);

/// Whether a value of shape `from` can be broadcast to shape `to` (numpy
/// rule, `to` is the final shape).
bool isBroadcastableTo(llvm::ArrayRef<int64_t> from, llvm::ArrayRef<int64_t> to);

/// Normalises `axis` in [-rank, rank) to [0, rank); std::nullopt if outside.
using modelsupport::normalizeAxis;

/// Formats a shape as "?x3x4" ("scalar" for rank 0) for messages.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// The ranked tensor type of `value`, or null if it has another type.
inline RankedTensorType getTensorType(Value value) {
  return llvm::dyn_cast<RankedTensorType>(value.getType());
}

/// Runs `op`'s InferTypeOpInterface at its location and checks that the
/// result types are the inferred ones: the verifier of every inferring mdl op.
llvm::LogicalResult verifyInferredResultTypes(Operation *op);

/// Emits "'<opName>' op <args...>" at `loc` (if any) and returns failure:
/// the error form of every mdl result-type inference.
template <typename... Args>
llvm::LogicalResult emitInferError(std::optional<Location> loc,
                                   llvm::StringRef opName, Args &&...args) {
  return emitOptionalError(loc, "'", opName, "' op ",
                           std::forward<Args>(args)...);
}

/// Checks cross_entropy's (and its gradient's) operands: `logits` is
/// [..., C] (rank >= 2, C static), `labels` i32/i64 of the logits' shape
/// without C (`?` matching any size).
llvm::LogicalResult verifyCrossEntropyShapes(std::optional<Location> loc,
                                             llvm::StringRef name,
                                             RankedTensorType logits,
                                             RankedTensorType labels);

/// Checks cross_entropy's (and its gradient's) optional class `weight`
/// (null, or C values of the logits' element type) and `smoothing` (in
/// [0, 1)).
llvm::LogicalResult verifyCrossEntropyOptions(std::optional<Location> loc,
                                              llvm::StringRef name,
                                              RankedTensorType logits,
                                              Value weight, double smoothing);

} // namespace mlir::mdl

#endif // MDL_SHAPEUTILS_H
