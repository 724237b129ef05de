//===- ConfigAttr.h - The mdl.config module attribute (internal) -*- C++ -*-===//
//
// Builds the dictionary attribute that carries a program's data and train
// configuration to later stages and to the runtime (keys documented in
// docs/dialect.md, section "Module attribute mdl.config").
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_LIB_MLIRGEN_CONFIGATTR_H
#define MODELC_LIB_MLIRGEN_CONFIGATTR_H

#include "modelc/Sema/Program.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace modelc {

/// The `mdl.config` dictionary for `program` and its model `graph`.
mlir::DictionaryAttr buildConfigAttr(mlir::MLIRContext &ctx,
                                     const sema::Program &program,
                                     const sema::Graph &graph);

} // namespace modelc

#endif // MODELC_LIB_MLIRGEN_CONFIGATTR_H
