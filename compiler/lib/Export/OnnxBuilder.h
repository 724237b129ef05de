//===- OnnxBuilder.h - Appending nodes to an ONNX graph ----------*- C++ -*-===//
//
// The state of one export: the GraphProto being filled, the ONNX name of
// every mdl value already emitted, and helpers that add nodes, attributes
// and constant initialisers. OnnxOps.cpp emits each mdl op through it.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_LIB_EXPORT_ONNXBUILDER_H
#define MODELC_LIB_EXPORT_ONNXBUILDER_H

#include "onnx.pb.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace modelc {

/// The ONNX TensorProto data type of an MLIR element type (0: none).
int onnxElementType(mlir::Type type);

/// Builds the nodes of one ONNX graph.
class OnnxBuilder {
public:
  explicit OnnxBuilder(onnx::GraphProto &graph) : graph(graph) {}

  /// The ONNX name of \p value (set by bind); empty when not yet emitted.
  std::string name(mlir::Value value) const { return names.lookup(value); }
  /// Records that \p value is the ONNX tensor \p onnxName.
  void bind(mlir::Value value, std::string onnxName) {
    names[value] = std::move(onnxName);
  }
  /// A new tensor name, unique in the graph.
  std::string fresh();

  /// Adds a node of \p opType; returns it for attributes.
  onnx::NodeProto &node(llvm::StringRef opType,
                        llvm::ArrayRef<std::string> inputs,
                        llvm::ArrayRef<std::string> outputs);
  /// Adds a node with one fresh output, and returns that output's name.
  std::string unary(llvm::StringRef opType, llvm::ArrayRef<std::string> inputs);

  /// Attributes of \p n.
  static void attr(onnx::NodeProto &n, llvm::StringRef key, int64_t v);
  static void attr(onnx::NodeProto &n, llvm::StringRef key, float v);
  static void attr(onnx::NodeProto &n, llvm::StringRef key,
                   llvm::ArrayRef<int64_t> v);

  /// Adds an initialiser called \p onnxName holding \p bytes (raw,
  /// little-endian) of element type \p dataType and shape \p shape.
  void initializer(const std::string &onnxName, int dataType,
                   llvm::ArrayRef<int64_t> shape, llvm::StringRef bytes);
  /// A fresh i64 initialiser of shape [values.size()], and its name.
  std::string constI64(llvm::ArrayRef<int64_t> values);
  /// A fresh f32 initialiser of shape \p shape, and its name.
  std::string constF32(llvm::ArrayRef<float> values,
                       llvm::ArrayRef<int64_t> shape);

private:
  onnx::GraphProto &graph;
  llvm::DenseMap<mlir::Value, std::string> names;
  unsigned counter = 0;
};

/// Emits the ONNX nodes of \p op (an mdl op of the evaluation graph other
/// than param and state_read), binding its results. Fails with an
/// OnnxExportError at the op when it has no ONNX form here.
llvm::Error emitOnnxOp(OnnxBuilder &b, mlir::Operation *op);

} // namespace modelc

#endif // MODELC_LIB_EXPORT_ONNXBUILDER_H
