//===- Dataset.h - Datasets: validation, transforms, splits ---------------===//
//
// Implements `Dataset` (inputs N x sample-shape as f32, or as i32/i64 ids;
// labels N as i64 class indices, N x ... as i64 class indices per position
// or as f32 targets; or a token stream whose samples are its windows, never
// copied; or the rows of mapped NPY files, read, converted and normalised
// only when a batch is gathered) and the load-time operations on it:
// validation against the model's declared shapes, classes and id range, the
// `(x*scale - mean)/std` normalisation (per channel or global; float inputs
// only), and the deterministic train/validation split (a stream's last
// tokens; for mapped files, the same samples as for files read whole, kept
// as a list of rows). Mapped files are validated by one pass over the
// mapping that releases each chunk's pages after it (MappedArray.h's
// scanMapped), so loading keeps no more of the file in memory than a chunk.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_DATA_DATASET_H
#define MODELRT_DATA_DATASET_H

#include "modelrt/core/Status.h"
#include "modelrt/core/Tensor.h"
#include "modelrt/data/MappedArray.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace modelrt {

/// The input transform x -> (x*scale - mean[c]) / std[c] (normalizeDataset).
struct InputTransform {
  double scale = 1;
  std::vector<double> mean, stddev; ///< one entry: global; none: 0 and 1
  bool isIdentity() const { return scale == 1 && mean.empty(); }
};

/// Samples left in mapped NPY files (Dataset::mapped).
struct MappedSamples {
  std::shared_ptr<const MappedArray> inputs, labels;
  /// True: sample i is row i of the files; false: row rows[i].
  bool allRows = true;
  std::vector<int64_t> rows;
  DType inputType = DType::F32;     ///< a sample's type once read (F32, I32, I64)
  DType labelType = DType::I64;     ///< I64 class indices or F32 targets
  std::vector<int64_t> sampleShape; ///< the file's row shape, or the model's
  InputTransform transform;         ///< applied to F32 samples as they are read
};

/// Samples and their labels: held in memory, or mapped (`mapped`).
struct Dataset {
  std::string name;  ///< used in messages, e.g. the input file path
  std::string labelsName; ///< the labels file, named in label messages (name if empty)
  Tensor inputs;     ///< F32, I32 or I64 [N, sample dims...]; a stream: [tokens]
  Tensor labels;     ///< I64 [N, ...] (classes) or F32 [N, target dims...]; a stream: none
  /// > 0: `inputs` is a token stream of ids and sample s the window
  /// starting at token s (modelsupport/Text.h): ids [s, s + window), its
  /// labels [s + 1, s + window + 1); size() is the windows of one epoch.
  int64_t window = 0;
  /// Set: the samples and labels are rows of mapped NPY files; `inputs` and
  /// `labels` stay empty.
  std::optional<MappedSamples> mapped;

  int64_t size() const;
  /// Shape of one sample (inputs' shape without the leading N; a stream's
  /// [window]).
  std::vector<int64_t> sampleShape() const;
  /// Elements in one sample / one label.
  int64_t sampleElements() const;
  int64_t labelElements() const;
  /// The element type of one sample (F32, or I32/I64 ids).
  DType inputType() const { return mapped ? mapped->inputType : inputs.dtype(); }
  /// The element type of one sample's labels (a stream's are I64).
  DType labelType() const {
    return window > 0 ? DType::I64 : mapped ? mapped->labelType : labels.dtype();
  }
  /// The shape of one sample's labels ([] for one class index).
  std::vector<int64_t> labelShape() const;
  /// Writes sample \p s (sampleElements() of inputType()) to \p dst:
  /// converted and normalised when mapped; not for a stream.
  void readSample(int64_t s, void *dst) const;
  /// Writes sample \p s's labels (labelElements() of labelType()) to \p dst;
  /// not for a stream.
  void readLabels(int64_t s, void *dst) const;
  /// A stream: the number of window starts, 0 .. windowStarts() - 1.
  int64_t windowStarts() const;
};

/// What a model accepts of a dataset.
struct DataRules {
  std::vector<int64_t> sampleShape;
  /// > 0: labels are class indices in [0, numClasses) (but ignoreIndex).
  int64_t numClasses = 0;
  /// > 0: integer inputs are ids in [0, idLimit).
  int64_t idLimit = 0;
  /// A label value that is no class (cross_entropy's ignore_index).
  bool hasIgnore = false;
  int64_t ignoreIndex = 0;
};

/// Builds a dataset from raw tensors: inputs are converted to \p inputType
/// (F32; or I32/I64 ids, which only a file of integers can give, each id
/// fitting the type), integer labels to I64, float labels to F32. Errors
/// when the counts differ.
Expected<Dataset> makeDataset(std::string name, Tensor inputs, Tensor labels,
                              DType inputType = DType::F32);

/// A dataset of the rows of mapped NPY files \p inputs and \p labels:
/// samples are read as \p inputType (F32; or I32/I64 ids, which only a file
/// of integers can give), labels as \p labelType (I64 classes, F32
/// targets). Errors when the counts differ or a float file is given for ids;
/// the values themselves are checked by validateDataset.
Expected<Dataset> makeMappedDataset(std::string name, std::shared_ptr<const MappedArray> inputs,
                                    std::shared_ptr<const MappedArray> labels,
                                    DType inputType, DType labelType);

/// A token stream of \p ids (1-D integers, converted to \p idType, I32 or
/// I64) cut into windows of \p window tokens; it needs window + 1 ids.
Expected<Dataset> makeStreamDataset(std::string name, Tensor ids, int64_t window,
                                    DType idType);

/// Checks a dataset against the model: the sample shape must equal
/// \p sampleShape (reshaping when only the element counts agree, e.g. a
/// flat CSV row into [k]), labels must be in [0, numClasses) when
/// numClasses > 0, and every input and every f32 target must be finite
/// (for mapped files, after the conversion to f32 and the normalisation;
/// ids must fit an i32 input).
Status validateDataset(Dataset &data, const std::vector<int64_t> &sampleShape,
                       int64_t numClasses);
/// validateDataset with every rule: also class labels may equal the ignore
/// index, and integer inputs must lie in [0, idLimit) (an error names the
/// file, the sample and the element, or a stream's token).
Status validateDataset(Dataset &data, const DataRules &rules);

/// Applies x -> (x*scale - mean[c]) / std[c] where c is the channel (dim 1 of
/// the inputs) when mean/std have more than one entry, else a global mean/std.
/// Integer inputs (ids) are refused. Mapped samples keep the transform and
/// apply it as they are read.
Status normalizeDataset(Dataset &data, double scale, const std::vector<double> &mean,
                        const std::vector<double> &stddev);

/// Splits \p data into (train, validation), the validation part holding
/// round(N * fraction) samples chosen by a permutation seeded with \p seed;
/// a stream's validation part is its last round(tokens * fraction) tokens.
Expected<std::pair<Dataset, Dataset>> splitDataset(const Dataset &data, double fraction,
                                                   uint64_t seed);

/// A dataset made of the samples \p indices of \p data, in that order
/// (for mapped files, a list of rows of the same mapping).
Dataset gatherDataset(const Dataset &data, const std::vector<int64_t> &indices);

} // namespace modelrt

#endif // MODELRT_DATA_DATASET_H
