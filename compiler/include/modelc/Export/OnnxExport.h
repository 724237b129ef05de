//===- OnnxExport.h - The evaluation graph as an ONNX model ------*- C++ -*-===//
//
// Writes the `@forward_eval` function of an mdl module (MLIRGen.h: dropout
// off, batch norm on the running statistics) as an ONNX ModelProto, opset
// 17: the data block's input transform as leading ONNX ops (optional), one
// or a few ONNX nodes per mdl op, parameters and state as initialisers read
// from a checkpoint, and metadata (the class names, the modelc version).
// docs/deploy.md describes the mapping.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_EXPORT_ONNXEXPORT_H
#define MODELC_EXPORT_ONNXEXPORT_H

#include "modelc/Export/Safetensors.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace modelc {

/// The ONNX opset the exporter writes.
constexpr int64_t kOnnxOpset = 17;

/// What the exported graph is called and holds.
struct OnnxExportOptions {
  /// The graph input's name (the model's parameter, e.g. "x") and the name
  /// of its symbolic batch dimension (e.g. "B").
  std::string inputName = "x";
  std::string batchName = "B";
  /// The graph output's name.
  std::string outputName = "logits";
  /// Include the data block's input transform (x * scale - mean) / std, so
  /// that the graph takes samples as stored (e.g. pixels 0-255).
  bool includeTransform = true;
  /// The `producer_version` and the `modelc_version` metadata.
  std::string producerVersion;
};

/// An error at an op of the module: the exporter has no ONNX form for it,
/// or the checkpoint does not fit the op's operand.
class OnnxExportError : public llvm::ErrorInfo<OnnxExportError> {
public:
  static char ID;
  OnnxExportError(mlir::Location loc, std::string text)
      : loc(loc), text(std::move(text)) {}
  void log(llvm::raw_ostream &os) const override { os << text; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  /// Where in the source the op comes from (a FileLineColLoc, possibly
  /// inside CallSiteLocs).
  mlir::Location loc;
  std::string text;
};

/// Serialises `@forward_eval` of \p module as an ONNX model to \p os, the
/// initialisers taken from \p checkpoint (`param/NAME`, `state/NAME`).
/// Errors: OnnxExportError for an op without an ONNX form; a StringError
/// when the checkpoint lacks a tensor or holds one of another shape (its
/// model's name is not checked: modelsupport/CheckpointModel.h), or when
/// the module has no evaluation function.
llvm::Error exportOnnx(mlir::ModuleOp module,
                       const SafetensorsContents &checkpoint,
                       const OnnxExportOptions &options, llvm::raw_ostream &os);

} // namespace modelc

#endif // MODELC_EXPORT_ONNXEXPORT_H
