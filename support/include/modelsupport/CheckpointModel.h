//===- CheckpointModel.h - Whose checkpoint a model may load ----*- C++ -*-===//
//
// The rule `eval`, `predict`, `gradcheck`, `generate`, `train --resume` and
// `modelc --emit=onnx --checkpoint` share: a checkpoint fits a model when its
// tensors do (names, dtypes and shapes; each tool checks them and names
// every one that does not fit). The model's name is not part of the rule,
// so a renamed model keeps its checkpoints; when the names differ, the tool
// says so in a note (otherModelNote) and goes on.
//
// Header-only, plain C++17 with no LLVM or MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MODELSUPPORT_CHECKPOINTMODEL_H
#define MODELSUPPORT_CHECKPOINTMODEL_H

#include <string>

namespace modelsupport {

/// The note for a checkpoint at \p path written by model \p checkpointModel
/// and loaded by model \p model, whose tensors fit: "" when the names agree
/// or either is unknown (empty).
inline std::string otherModelNote(const std::string &path,
                                  const std::string &checkpointModel,
                                  const std::string &model) {
  if (checkpointModel.empty() || model.empty() || checkpointModel == model)
    return "";
  return path + " is a checkpoint of model '" + checkpointModel +
         "', not of '" + model + "'; its tensors fit this model, so it is used";
}

} // namespace modelsupport

#endif // MODELSUPPORT_CHECKPOINTMODEL_H
