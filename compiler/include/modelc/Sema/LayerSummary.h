//===- LayerSummary.h - The model's layers for `info` -----------*- C++ -*-===//
//
// Declares the per-layer summary of a checked model (what `NAME info`
// prints, like Keras' model.summary()): one entry per call the user wrote
// at the model's top level, a stdlib instance ("linear_0") or a builtin
// ("relu").
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_SEMA_LAYERSUMMARY_H
#define MODELC_SEMA_LAYERSUMMARY_H

#include "modelc/Sema/Program.h"

#include <cstdint>
#include <string>
#include <vector>

namespace modelc {
namespace sema {

/// One top-level layer of a model, per sample.
struct LayerSummary {
  /// The instance name ("conv2d_0"), or a model-level op's name ("relu",
  /// then "relu_1", "relu_2", ... when it occurs again).
  std::string name;
  /// Its output's shape without the batch dimension.
  std::vector<int64_t> shape;
  /// Elements of the parameters its instance owns.
  int64_t params = 0;
  /// Forward FLOPs per sample (modelsupport/Flops.h).
  double flops = 0;
  /// Bytes of its output per sample.
  int64_t activationBytes = 0;
};

/// The layers of `graph` in the order they first compute, counting only the
/// ops the model's output depends on (not the loss). Symbolic (batch)
/// dimensions count as 1.
std::vector<LayerSummary> summarizeLayers(const Graph &graph);

/// Forward FLOPs per sample of one node of `graph` (0 for leaves and
/// shape-only ops).
double nodeFlops(const Graph &graph, const Node &node);

} // namespace sema
} // namespace modelc

#endif // MODELC_SEMA_LAYERSUMMARY_H
