//===- Dataset.h - In-memory datasets: validation, transforms, splits ------===//
//
// Implements `Dataset` (inputs N x sample-shape as f32, labels N as i64 class
// indices or N x ... as f32 targets) and the load-time operations on it:
// validation against the model's declared shapes and classes, the
// `(x*scale - mean)/std` normalisation (per channel or global), and the
// deterministic train/validation split.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_DATA_DATASET_H
#define MODELRT_DATA_DATASET_H

#include "modelrt/core/Status.h"
#include "modelrt/core/Tensor.h"

#include <string>
#include <vector>

namespace modelrt {

/// Samples and their labels, held in memory.
struct Dataset {
  std::string name;  ///< used in messages, e.g. the input file path
  std::string labelsName; ///< the labels file, named in label messages (name if empty)
  Tensor inputs;     ///< F32, [N, sample dims...]
  Tensor labels;     ///< I64 [N] (classes) or F32 [N, target dims...]

  int64_t size() const { return inputs.rank() ? inputs.dim(0) : 0; }
  /// Shape of one sample (inputs' shape without the leading N).
  std::vector<int64_t> sampleShape() const;
  /// Elements in one sample / one label.
  int64_t sampleElements() const;
  int64_t labelElements() const;
};

/// Builds a dataset from raw tensors: inputs are converted to F32, integer
/// labels to I64, float labels to F32. Errors when the counts differ.
Expected<Dataset> makeDataset(std::string name, Tensor inputs, Tensor labels);

/// Checks a dataset against the model: the sample shape must equal
/// \p sampleShape (reshaping when only the element counts agree, e.g. a
/// flat CSV row into [k]), labels must be in [0, numClasses) when
/// numClasses > 0, and every input and every f32 target must be finite.
Status validateDataset(Dataset &data, const std::vector<int64_t> &sampleShape,
                       int64_t numClasses);

/// Applies x -> (x*scale - mean[c]) / std[c] where c is the channel (dim 1 of
/// the inputs) when mean/std have more than one entry, else a global mean/std.
Status normalizeDataset(Dataset &data, double scale, const std::vector<double> &mean,
                        const std::vector<double> &stddev);

/// Splits \p data into (train, validation), the validation part holding
/// round(N * fraction) samples chosen by a permutation seeded with \p seed.
Expected<std::pair<Dataset, Dataset>> splitDataset(const Dataset &data, double fraction,
                                                   uint64_t seed);

/// A dataset made of the samples \p indices of \p data, in that order.
Dataset gatherDataset(const Dataset &data, const std::vector<int64_t> &indices);

} // namespace modelrt

#endif // MODELRT_DATA_DATASET_H
