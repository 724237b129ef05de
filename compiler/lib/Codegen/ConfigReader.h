//===- ConfigReader.h - mdl.config -> TrainDefaults -------------*- C++ -*-===//
//
// Declares the reader of the `mdl.config` module attribute into the
// runtime's default training configuration (private to ModelcCodegen).
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_LIB_CODEGEN_CONFIGREADER_H
#define MODELC_LIB_CODEGEN_CONFIGREADER_H

#include "modelc/Codegen/ProgramSpec.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace modelc {

/// Reads optimizer, schedule, data, epochs, batch, seed, gradient clipping
/// and accumulation and early stopping from `config` (a missing key keeps
/// the value already in `c`, or turns an optional feature off). Errors name
/// the unsupported kind.
llvm::Error readTrainDefaults(mlir::DictionaryAttr config, TrainDefaults &c);

} // namespace modelc

#endif // MODELC_LIB_CODEGEN_CONFIGREADER_H
