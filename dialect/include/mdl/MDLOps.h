//===- MDLOps.h - Operations of the mdl dialect -----------------*- C++ -*-===//
//
// Declares every mdl op class (generated from MDLOps.td). Include this to
// build or match mdl ops; it pulls in the dialect and its attributes.
//
//===----------------------------------------------------------------------===//

#ifndef MDL_MDLOPS_H
#define MDL_MDLOPS_H

#include "mdl/MDLDialect.h"
#include "mdl/MDLTraits.h"
#include "mdl/ShapeUtils.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "mdl/MDLOps.h.inc"

#include <optional>

namespace mlir::mdl {

/// The accuracy count of a cross_entropy: the number of rows of `logits`
/// ([..., C]) whose argmax over C equals the row's label in `labels`
/// ([...], integer), rows labelled `ignoreIndex` left out, as a 0-d i64
/// tensor of mdl ops built at `b`'s insertion point.
Value buildCorrectCount(OpBuilder &b, Location loc, Value logits, Value labels,
                        std::optional<int64_t> ignoreIndex);

} // namespace mlir::mdl

#endif // MDL_MDLOPS_H
