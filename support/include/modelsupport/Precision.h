//===- Precision.h - The training precisions a train block names -*- C++ -*-===//
//
// The values of a train block's `precision` and of `modelc --precision`
// (docs/precision.md), written once for semantic analysis, the driver and
// the mdl-assign-precision pass: f32 (the default), bf16 (products and
// convolutions with bf16 operands and f32 accumulation, CPU and GPU) and
// tf32 (the GPU's with TF32 operands; the CPU code runs f32).
//
// Header-only, plain C++17 with no LLVM or MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MODELSUPPORT_PRECISION_H
#define MODELSUPPORT_PRECISION_H

#include <string_view>

namespace modelsupport {

/// The precisions, the default first.
inline constexpr std::string_view kTrainingPrecisions[] = {"f32", "bf16", "tf32"};

/// The precisions as messages list them.
inline constexpr const char *kTrainingPrecisionList = "f32, bf16 or tf32";

/// Whether \p name is one of kTrainingPrecisions.
inline bool isTrainingPrecision(std::string_view name) {
  for (std::string_view p : kTrainingPrecisions)
    if (name == p)
      return true;
  return false;
}

} // namespace modelsupport

#endif // MODELSUPPORT_PRECISION_H
