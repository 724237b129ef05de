//===- ModelData.cpp - Reading a program's data sets (part of Model.h) -----===//
//
// Reads the files named by a ModelrtDataConfig (IDX, NPY, CSV, an image
// folder, or a token stream: text or a 1-D NPY array of ids), applies
// the input transforms and validates shapes, classes, ids and finiteness.
// An npy(inputs, labels) pair is mapped (MappedArray.h), never read whole:
// its samples are converted and normalised as batches are gathered. A
// program with f32 targets gets its labels as f32 whatever the file's
// element type, [N, target shape...] as the file holds them.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Model.h"

#include "modelrt/data/ImageFolder.h"
#include "modelrt/data/MappedArray.h"
#include "modelrt/data/Readers.h"

namespace modelrt {

Status applyInputTransforms(Dataset &data, const ModelrtDataConfig &c) {
  double scale = c.scale != 0 ? c.scale : 1.0;
  std::vector<double> mean, sd;
  if (c.num_norm > 0 && c.mean && c.std) {
    mean.assign(c.mean, c.mean + c.num_norm);
    sd.assign(c.std, c.std + c.num_norm);
  }
  if (scale == 1.0 && mean.empty())
    return Status::ok();
  return normalizeDataset(data, scale, mean, sd);
}

/// Checks that the inputs file holds samples and the labels file labels:
/// class labels are integers of shape [N] (or [N, 1]) and the inputs have a
/// sample dimension, naming which file is which when they look swapped.
static Status checkPairKinds(const std::vector<int64_t> &x, const std::vector<int64_t> &y,
                             DType yType, const char *inputs, const char *labels,
                             DType labelType) {
  if (labelType != DType::I64)
    return Status::ok();
  bool yIsFloat = yType == DType::F32 || yType == DType::F64;
  bool yLabels = y.size() == 1 || (y.size() == 2 && y[1] == 1);
  if (x.size() == 1 && !yLabels)
    return errorf("the inputs and labels files look swapped: the inputs file %s holds shape %s "
                  "(labels) and the labels file %s holds shape %s (samples)", inputs,
                  shapeToString(x).c_str(), labels, shapeToString(y).c_str());
  if (x.size() == 1)
    return errorf("%s: the inputs file holds shape %s, one value per sample, which looks like "
                  "a labels file; give the samples (images) file as the inputs", inputs,
                  shapeToString(x).c_str());
  if (!yLabels)
    return errorf("%s: the labels file holds shape %s, which looks like samples (images); "
                  "class labels need shape [N]", labels, shapeToString(y).c_str());
  if (yIsFloat)
    return errorf("%s: class labels must be integers, the file holds %s", labels,
                  dtypeName(yType));
  return Status::ok();
}

/// Maps the NPY pair \p inputs, \p labels as a dataset of the program.
static Expected<Dataset> mapNpyPair(const ModelrtProgram &p, const char *inputs,
                                    const char *labels, DType labelType) {
  auto x = MappedArray::open(inputs);
  if (!x)
    return x.status();
  auto y = MappedArray::open(labels);
  if (!y)
    return y.status();
  MODELRT_TRY(checkPairKinds((*x)->shape(), (*y)->shape(), (*y)->dtype(), inputs, labels,
                             labelType));
  bool floatLabels = (*y)->dtype() == DType::F32 || (*y)->dtype() == DType::F64;
  DType stored = labelType == DType::F32 || floatLabels ? DType::F32 : DType::I64;
  auto d = makeMappedDataset(inputs, x.take(), y.take(), inputType(p), stored);
  if (d)
    d->labelsName = labels;
  return d;
}

/// Reads image folder \p dir as the program's samples.
static Expected<Dataset> readImages(const ModelrtProgram &p, const char *dir) {
  // A model whose loss ignores the labels (an autoencoder) has no class
  // names: every class folder's images are read, the labels unused.
  if (p.input_rank != 3 || (p.num_classes > 0 && (p.num_class_names < 2 || !p.class_names)))
    return errorf("%s: an image folder needs a [C, H, W] input and, for a classifier, the "
                  "class names", dir);
  return readImageFolder(dir, imageFolderSpec(p));
}

DType inputType(const ModelrtProgram &p) {
  return p.input_dtype == MODELRT_I64 ? DType::I64
         : p.input_dtype == MODELRT_I32 ? DType::I32
                                        : DType::F32;
}

/// The program's chars vocabulary (empty: none).
std::vector<uint32_t> vocabulary(const ModelrtProgram &p) {
  if (p.num_vocab <= 0 || !p.vocab)
    return {};
  return std::vector<uint32_t>(p.vocab, p.vocab + p.num_vocab);
}

/// Reads token stream \p path (a text file, or a 1-D NPY array of ids) as
/// windows of the program's input length.
static Expected<Dataset> readStream(const ModelrtProgram &p, const ModelrtDataConfig &c,
                                    const char *path) {
  if (p.input_rank != 1 || inputType(p) == DType::F32)
    return errorf("%s: a token stream needs an integer [seq] input", path);
  auto ids = c.format == MODELRT_DATA_TEXT
                 ? readTextTokens(path, c.tokens == MODELRT_TOKENS_CHARS ? vocabulary(p)
                                                                         : std::vector<uint32_t>())
                 : readNpy(path);
  if (!ids)
    return ids.status();
  return makeStreamDataset(path, ids.take(), c.seq_len, inputType(p));
}

/// Reads one (inputs, labels) pair of files in the configured format.
static Expected<Dataset> readPair(const ModelrtProgram &p, const ModelrtDataConfig &c,
                                  const char *inputs, const char *labels) {
  if (!inputs)
    return errorf("data: no input file configured");
  if (c.format == MODELRT_DATA_IMAGES)
    return readImages(p, inputs);
  if (c.seq_len > 0)
    return readStream(p, c, inputs);
  DType labelType = p.label_dtype == MODELRT_I64 ? DType::I64 : DType::F32;
  if (c.format == MODELRT_DATA_CSV) {
    std::vector<CsvColumn> cols;
    for (int32_t i = 0; i < c.num_columns; ++i)
      cols.push_back({c.columns[i], DType::F32});
    std::vector<std::string> labelCols(c.label_columns, c.label_columns + c.num_label_columns);
    auto t = readCsv(inputs, cols, labelCols, labelType,
                     labelType == DType::I64 ? classNames(p) : std::vector<std::string>());
    if (!t)
      return t.status();
    return makeDataset(inputs, std::move(t->inputs), std::move(t->labels), inputType(p));
  }
  if (!labels)
    return errorf("%s: no labels file configured", inputs);
  if (c.format == MODELRT_DATA_NPY)
    return mapNpyPair(p, inputs, labels, labelType);
  if (c.format != MODELRT_DATA_IDX)
    return errorf("data: unknown data format %d", c.format);
  auto x = readIdx(inputs);
  if (!x)
    return x.status();
  auto y = readIdx(labels);
  if (!y)
    return y.status();
  MODELRT_TRY(checkPairKinds(x->shape(), y->shape(), y->dtype(), inputs, labels, labelType));
  Tensor targets = labelType == DType::F32 ? y->convertTo(DType::F32) : y.take();
  auto d = makeDataset(inputs, x.take(), std::move(targets), inputType(p));
  if (d)
    d->labelsName = labels;
  return d;
}

DataRules dataRules(const ModelrtProgram &p) {
  DataRules r;
  r.sampleShape.assign(p.input_shape, p.input_shape + p.input_rank);
  r.numClasses = p.label_dtype == MODELRT_I64 ? p.num_classes : 0;
  r.idLimit = p.input_id_limit;
  r.hasIgnore = p.has_ignore_index != 0;
  r.ignoreIndex = p.ignore_index;
  return r;
}

/// Transforms and validates one data set against the program.
static Status prepare(Dataset &d, const ModelrtProgram &p, const ModelrtDataConfig &c) {
  MODELRT_TRY(applyInputTransforms(d, c));
  MODELRT_TRY(validateDataset(d, dataRules(p)));
  if (p.label_dtype == MODELRT_F32) {
    std::vector<int64_t> want(p.label_shape, p.label_shape + p.label_rank);
    if (d.labelElements() != shapeNumElements(want))
      return errorf("%s: labels have %lld elements per sample, the model declares %s",
                    d.name.c_str(), (long long)d.labelElements(), shapeToString(want).c_str());
  }
  return Status::ok();
}

Expected<Dataset> loadEvaluationData(const ModelrtProgram &p, const ModelrtTrainConfig &cfg) {
  const ModelrtDataConfig &c = cfg.data;
  if (c.test_inputs && !(c.val_fraction > 0)) { // the training set is not needed
    auto test = readPair(p, c, c.test_inputs, c.test_labels);
    if (!test)
      return test.status();
    MODELRT_TRY(prepare(*test, p, c));
    return test.take();
  }
  auto data = loadTrainingData(p, cfg);
  if (!data)
    return data.status();
  return data->validation ? std::move(*data->validation) : std::move(data->train);
}

Expected<TrainingData> loadTrainingData(const ModelrtProgram &p, const ModelrtTrainConfig &cfg) {
  const ModelrtDataConfig &c = cfg.data;
  auto train = readPair(p, c, c.train_inputs, c.train_labels);
  if (!train)
    return train.status();
  MODELRT_TRY(prepare(*train, p, c));
  TrainingData out;
  if (c.val_fraction > 0) {
    auto parts = splitDataset(*train, c.val_fraction, cfg.seed);
    if (!parts)
      return parts.status();
    out.train = std::move(parts->first);
    out.validation = std::move(parts->second);
    return out;
  }
  out.train = train.take();
  if (c.test_inputs) {
    auto test = readPair(p, c, c.test_inputs, c.test_labels);
    if (!test)
      return test.status();
    MODELRT_TRY(prepare(*test, p, c));
    out.validation = test.take();
  }
  return out;
}

} // namespace modelrt
