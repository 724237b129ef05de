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

/// Reads the options (modelsupport/TrainConfig.def) and the data set from
/// `config`: an absent option or setting takes its schema default, an
/// absent optional feature is off. Errors name an unsupported kind or a
/// required setting that is missing.
llvm::Error readTrainDefaults(mlir::DictionaryAttr config, TrainDefaults &c);

} // namespace modelc

#endif // MODELC_LIB_CODEGEN_CONFIGREADER_H
