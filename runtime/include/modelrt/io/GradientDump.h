//===- GradientDump.h - One training step's gradients as safetensors -------===//
//
// Implements the file `train --dump-gradients DIR` writes (docs/cli.md):
// DIR/gradients.safetensors holds the gradient of every parameter under the
// parameter's own name (`fc1.weight`, as in the checkpoint's schema and in
// PyTorch's named_parameters), the parameters the step was taken at
// (`param/NAME`, as in a checkpoint), and the batch (`batch/inputs`,
// `batch/labels`), with the loss, the batch's sample indices and size, the
// step and its seed in `__metadata__`. The file is written atomically
// (writeFileAtomically); an existing one is refused unless overwriting was
// asked for.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_IO_GRADIENTDUMP_H
#define MODELRT_IO_GRADIENTDUMP_H

#include "modelrt/core/Model.h"
#include "modelrt/core/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace modelrt {

/// The file name of a gradient dump in its directory.
constexpr const char *kGradientDumpName = "gradients.safetensors";

/// What a gradient dump records besides the tensors.
struct GradientDumpInfo {
  float loss = 0;                    ///< the step's mean loss over the batch
  int64_t step = 0;                  ///< optimizer steps taken before this one
  uint64_t seed = 0;                 ///< train_step's seed (dropout)
  int64_t epoch = 0;                 ///< the data epoch of the batch
  int64_t batchIndex = 0;            ///< the batch's index in its epoch
  std::vector<int64_t> sampleIndices; ///< training-set indices, in batch order
  /// The run's gradient accumulation (micro-batches per update): with K > 1
  /// the dump holds the first micro-batch's gradient, not the update's mean.
  int64_t accumulate = 1;
  /// The run's gradient clipping norm (0: none); the dump is before clipping.
  double clipNorm = 0;
};

/// DIR/gradients.safetensors.
std::string gradientDumpPath(const std::string &dir);

/// Before the step: refuses an existing DIR/gradients.safetensors (unless
/// \p overwrite), a \p dir that is not a directory, and one whose nearest
/// existing ancestor is not a directory. Errors name the path.
Status checkGradientDumpPath(const std::string &dir, bool overwrite);

/// The bytes of the dump of \p program's step: \p grads (one buffer per
/// parameter, in table order) taken at \p model's parameters on \p batch.
std::string encodeGradientDump(const ModelrtProgram &program, const ModelState &model,
                               const std::vector<std::vector<float>> &grads, const Batch &batch,
                               const GradientDumpInfo &info);

/// Creates \p dir with its parents and writes \p bytes (encodeGradientDump)
/// as DIR/gradients.safetensors, atomically; errors name the path.
Status writeGradientDump(const std::string &dir, const std::string &bytes);

} // namespace modelrt

#endif // MODELRT_IO_GRADIENTDUMP_H
