//===- ExportStages.h - The driver's export stages ---------------*- C++ -*-===//
//
// `--emit=onnx --checkpoint CK [--no-input-transform]`: the evaluation
// graph with the checkpoint's weights as an ONNX model (Export/OnnxExport.h).
// The stage branches off after `mlir`: it runs only when requested.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_TOOLS_MODELC_EXPORTSTAGES_H
#define MODELC_TOOLS_MODELC_EXPORTSTAGES_H

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace modelc {

struct Compilation;

/// Export settings from the command line.
struct ExportSettings {
  /// --checkpoint: the trained weights (a safetensors checkpoint).
  std::string checkpoint;
  /// Off with --no-input-transform: the graph takes transformed samples.
  bool includeTransform = true;
  /// The compiler's version, for the exported metadata.
  std::string version;
};

/// Reads the checkpoint and builds the ONNX model in memory (so that a
/// failed export leaves an existing output file alone); false after
/// reporting an error at the op or about the checkpoint.
bool runOnnx(Compilation &c);
/// Writes the ONNX model (refuses a terminal).
bool emitOnnx(Compilation &c, llvm::raw_ostream &os);

} // namespace modelc

#endif // MODELC_TOOLS_MODELC_EXPORTSTAGES_H
