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
};

/// DIR/gradients.safetensors.
std::string gradientDumpPath(const std::string &dir);

/// Before the step: refuses an existing DIR/gradients.safetensors (unless
/// \p overwrite) and creates \p dir with its parents. Errors name the path.
Status prepareGradientDump(const std::string &dir, bool overwrite);

/// Writes the dump of \p program's step: \p grads (one buffer per
/// parameter, in table order) taken at \p model's parameters on \p batch.
Status writeGradientDump(const std::string &dir, const ModelrtProgram &program,
                         const ModelState &model,
                         const std::vector<std::vector<float>> &grads, const Batch &batch,
                         const GradientDumpInfo &info);

} // namespace modelrt

#endif // MODELRT_IO_GRADIENTDUMP_H
