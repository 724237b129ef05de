//===- Precision.h - The training precisions a train block names -*- C++ -*-===//
//
// The values of a train block's `precision` and of `modelc --precision`
// (docs/precision.md), written once for semantic analysis, the driver and
// the mdl-assign-precision pass: f32 (the default), bf16 (products and
// convolutions with bf16 operands and f32 accumulation, CPU and GPU) and
// tf32 (the GPU's with TF32 operands; the CPU code runs f32), and the
// one-line summary of each that `modelc --help`, `--emit=sema` and `info`
// print.
//
// Header-only, plain C++17 with no LLVM or MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MODELSUPPORT_PRECISION_H
#define MODELSUPPORT_PRECISION_H

#include <string>
#include <string_view>

namespace modelsupport {

/// The precisions, the default first.
inline constexpr std::string_view kTrainingPrecisions[] = {"f32", "bf16", "tf32"};

/// The precisions as messages list them.
inline constexpr const char *kTrainingPrecisionList = "f32, bf16 or tf32";

/// Why \p name is no training precision, for the train block's error and
/// the driver's alike: "precision f16 has no kernels in modelc; ..." for
/// f16 (a model may still write f16 types), otherwise the list.
inline std::string whyNotTrainingPrecision(std::string_view name) {
  std::string list = std::string("precision must be ") + kTrainingPrecisionList;
  if (name == "f16")
    return "precision f16 has no kernels in modelc (a model may still write "
           "f16 "
           "types: docs/language.md); " +
           list;
  return list;
}

/// Whether \p name is one of kTrainingPrecisions.
inline bool isTrainingPrecision(std::string_view name) {
  for (std::string_view p : kTrainingPrecisions)
    if (name == p)
      return true;
  return false;
}

/// Under bf16, a convolution's weight gradient over fewer input channels
/// than this stays f32: the first layer of a model of grey (1) or colour
/// (3) images. Its work per element of dy it reads is C*KH*KW multiply-adds,
/// so it is bound by memory, and bf16 operands cost a rounded copy of dy (as
/// large as the convolution's output). Measured with oneDNN 2.6.3 on Zen 5
/// (bench/bf16/conv_weights_bf16.cpp): bf16 takes 1.6-2x the f32 time for 1
/// and 3 channels, whose f32 primitive reads the images as they are, and
/// about half of it for 4 and 8, whose f32 primitive takes blocked copies.
/// Not measured with AMX or on a GPU.
inline constexpr int kF32WeightGradientChannels = 4;

/// What \p name (one of kTrainingPrecisions) computes in which type, in
/// one line without the name; empty for f32, where everything is f32.
inline std::string precisionSummary(std::string_view name) {
  if (name == "bf16")
    return "products and convolutions take bf16 operands and accumulate in "
           "f32, except a convolution's weight gradient over fewer than " +
           std::to_string(kF32WeightGradientChannels) +
           " input channels; parameters, gradients, optimizer state and "
           "activations are f32";
  if (name == "tf32")
    return "on the GPU, products and convolutions take TF32 operands and "
           "accumulate in f32; the CPU code runs them in f32";
  return "";
}

} // namespace modelsupport

#endif // MODELSUPPORT_PRECISION_H
