//===- MDLDialect.h - The mdl dialect and its attributes --------*- C++ -*-===//
//
// Declares the mdl dialect class, its enums (CmpPredicate, Reduction,
// InitKind) and attributes (#mdl.init, enum attributes), the one question
// asked of the module attribute `mdl.config` in several places, and the
// names of the decoding step's function and attributes.
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
/// The function of an mdl module that decodes one position of a sequence
/// (docs/dialect.md, "The decoding step").
inline constexpr llvm::StringLiteral kDecodeStepName = "decode_step";
/// Its argument and result attribute naming a key/value cache: the cache's
/// number (2c the key cache, 2c + 1 the value cache of the c-th
/// mdl.attention_decode).
inline constexpr llvm::StringLiteral kCacheAttrName = "mdl.cache";
/// Its function attribute: the positions 0..length-1 a decoder steps
/// through, the rows of every cache.
inline constexpr llvm::StringLiteral kDecodeLengthAttrName =
    "mdl.decode_length";

/// A unit attribute that a pass sets on its module when it fails because of
/// the program rather than the compiler (autodiff's paths through ops
/// without a gradient, the cases its rules cannot differentiate): drivers
/// report such a failure as the user's error.
inline constexpr llvm::StringLiteral kProgramErrorAttrName =
    "mdl.program_error";

/// Reports \p message at \p op's location as the op's error, without the
/// IR that MLIR attaches to an op's errors, and marks the module with
/// kProgramErrorAttrName.
InFlightDiagnostic emitProgramError(Operation *op, const Twine &message);

/// True when the `metrics` list of the op's `mdl.config` dictionary
/// (docs/dialect.md) names \p metric, e.g. "accuracy".
bool configHasMetric(Operation *module, StringRef metric);
} // namespace mlir::mdl

#endif // MDL_MDLDIALECT_H
