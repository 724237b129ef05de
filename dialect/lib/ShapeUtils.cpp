//===- ShapeUtils.cpp - Shape rules shared by mdl ops ---------------------===//
//
// The MLIR-typed broadcasting wrappers over modelsupport/ShapeArith.h, shape
// formatting for messages, and the verifier shared by inferring ops (see
// ShapeUtils.h).
//
//===----------------------------------------------------------------------===//

#include "mdl/ShapeUtils.h"

#include "modelsupport/ShapeArith.h"

#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

#include <string>

using namespace mlir;

static_assert(modelsupport::kDynamic == ShapedType::kDynamic,
              "ShapeArith's dynamic size must be MLIR's");

std::optional<SmallVector<int64_t>>
mdl::broadcastShapes(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs) {
  std::optional<std::vector<int64_t>> shape =
      modelsupport::broadcastShapes(lhs, rhs);
  if (!shape)
    return std::nullopt;
  return SmallVector<int64_t>(shape->begin(), shape->end());
}

bool mdl::isBroadcastableTo(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  return modelsupport::isBroadcastableTo(from, to);
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
