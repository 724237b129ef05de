//===- ShapeUtils.cpp - Shape rules shared by mdl ops ---------------------===//
//
// Broadcasting, axis normalisation and shape formatting (see ShapeUtils.h).
//
//===----------------------------------------------------------------------===//

#include "mdl/ShapeUtils.h"

#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

#include <string>

using namespace mlir;

std::optional<SmallVector<int64_t>>
mdl::broadcastShapes(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Walk from the trailing dimension; missing leading dims act as 1.
    int64_t a = i < lhs.size() ? lhs[lhs.size() - 1 - i] : 1;
    int64_t b = i < rhs.size() ? rhs[rhs.size() - 1 - i] : 1;
    int64_t &out = result[rank - 1 - i];
    if (a == b || b == 1)
      out = a;
    else if (a == 1)
      out = b;
    else if (ShapedType::isDynamic(a))
      out = b; // b is static and > 1: ? must be 1 or b at run time.
    else if (ShapedType::isDynamic(b))
      out = a;
    else
      return std::nullopt;
  }
  return result;
}

bool mdl::isBroadcastableTo(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  if (from.size() > to.size())
    return false;
  for (size_t i = 0; i < from.size(); ++i) {
    int64_t a = from[from.size() - 1 - i];
    int64_t b = to[to.size() - 1 - i];
    if (a == b || a == 1)
      continue;
    // A dynamic input size is accepted: it must equal the target at run time.
    if (ShapedType::isDynamic(a))
      continue;
    // A static input size > 1 cannot grow; a dynamic target must equal it.
    if (ShapedType::isDynamic(b))
      continue;
    return false;
  }
  return true;
}

std::optional<int64_t> mdl::normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

std::string mdl::formatShape(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string out;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      out += "x";
    out += ShapedType::isDynamic(shape[i]) ? "?" : std::to_string(shape[i]);
  }
  return out;
}

/// Streams `types` as "'t0', 't1'" (diagnostics quote types).
static void printTypes(InFlightDiagnostic &diag, TypeRange types) {
  llvm::interleave(
      types, [&](Type t) { diag << t; }, [&] { diag << ", "; });
}

LogicalResult mdl::verifyInferredResultTypes(Operation *op) {
  auto iface = llvm::cast<InferTypeOpInterface>(op);
  SmallVector<Type> inferred;
  if (failed(iface.inferReturnTypes(
          op->getContext(), op->getLoc(), op->getOperands(),
          op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
          op->getRegions(), inferred)))
    return failure();
  if (TypeRange(inferred) == op->getResultTypes())
    return success();
  InFlightDiagnostic diag = op->emitOpError("inferred type(s) ");
  printTypes(diag, inferred);
  diag << " are incompatible with return type(s) of operation ";
  printTypes(diag, op->getResultTypes());
  return diag;
}
