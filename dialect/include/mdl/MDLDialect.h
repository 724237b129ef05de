//===- MDLDialect.h - The mdl dialect and its attributes --------*- C++ -*-===//
//
// Declares the mdl dialect class, its enums (CmpPredicate, Reduction,
// InitKind) and attributes (#mdl.init, enum attributes), and the one
// question asked of the module attribute `mdl.config` in several places.
//
//===----------------------------------------------------------------------===//

#ifndef MDL_MDLDIALECT_H
#define MDL_MDLDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include "mdl/MDLEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "mdl/MDLAttrs.h.inc"

#include "mdl/MDLDialect.h.inc"

namespace mlir::mdl {
/// True when the `metrics` list of the op's `mdl.config` dictionary
/// (docs/dialect.md) names \p metric, e.g. "accuracy".
bool configHasMetric(Operation *module, StringRef metric);
} // namespace mlir::mdl

#endif // MDL_MDLDIALECT_H
