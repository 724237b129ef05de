//===- Dataset.cpp - Datasets: validation, transforms, splits -------------===//
//
// Dataset.h's operations; a token stream's windows follow modelsupport/Text.h,
// mapped NPY files are read by MappedDataset.cpp.
//
//===----------------------------------------------------------------------===//
#include "modelrt/data/Dataset.h"

#include "MappedDataset.h"

#include "modelrt/core/Rng.h"

#include "modelsupport/Text.h"

#include <algorithm>
#include <climits>
#include <tuple>
#include <cmath>
#include <cstring>
#include <numeric>

namespace modelrt {

int64_t Dataset::size() const {
  if (window > 0)
    return modelsupport::text::epochWindows(inputs.numElements(), window);
  if (mapped)
    return mapped->allRows ? mapped->inputs->rows() : int64_t(mapped->rows.size());
  return inputs.rank() ? inputs.dim(0) : 0;
}

int64_t Dataset::windowStarts() const {
  return modelsupport::text::windowCount(inputs.numElements(), window);
}

std::vector<int64_t> Dataset::sampleShape() const {
  if (window > 0)
    return {window};
  if (mapped)
    return mapped->sampleShape;
  if (inputs.rank() == 0)
    return {};
  return std::vector<int64_t>(inputs.shape().begin() + 1, inputs.shape().end());
}

int64_t Dataset::sampleElements() const { return shapeNumElements(sampleShape()); }

int64_t Dataset::labelElements() const {
  if (window > 0)
    return window;
  if (mapped)
    return mapped->labels->rowElements();
  if (labels.rank() == 0)
    return 0;
  return labels.numElements() / labels.dim(0);
}

std::vector<int64_t> Dataset::labelShape() const {
  if (window > 0)
    return {window};
  const std::vector<int64_t> &full = mapped ? mapped->labels->shape() : labels.shape();
  return full.empty() ? full : std::vector<int64_t>(full.begin() + 1, full.end());
}

void Dataset::readSample(int64_t s, void *dst) const {
  if (mapped)
    return readMappedSample(*this, s, dst);
  size_t bytes = size_t(sampleElements()) * dtypeSize(inputs.dtype());
  std::memcpy(dst, static_cast<const unsigned char *>(inputs.data()) + size_t(s) * bytes, bytes);
}

void Dataset::readLabels(int64_t s, void *dst) const {
  if (mapped)
    return readMappedLabels(*this, s, dst);
  size_t bytes = size_t(labelElements()) * dtypeSize(labels.dtype());
  std::memcpy(dst, static_cast<const unsigned char *>(labels.data()) + size_t(s) * bytes, bytes);
}

static bool isFloatType(DType t) { return t == DType::F32 || t == DType::F64; }

/// \p ids (integers) as \p to (I32 or I64), each id checked to fit.
static Expected<Tensor> toIds(const std::string &name, const Tensor &ids, DType to) {
  if (isFloatType(ids.dtype()))
    return errorf("%s: the model takes integer ids (%s) but the file holds %s values; store "
                  "the ids as integers", name.c_str(), dtypeName(to), dtypeName(ids.dtype()));
  if (to == DType::I32)
    for (int64_t i = 0, n = ids.numElements(); i < n; ++i)
      if (double v = ids.getAsDouble(i); v < INT32_MIN || v > INT32_MAX)
        return errorf("%s: element %lld: id %.0f does not fit the model's i32 input",
                      name.c_str(), (long long)i, v);
  return ids.convertTo(to);
}

Expected<Dataset> makeDataset(std::string name, Tensor inputs, Tensor labels, DType inputType) {
  if (inputs.rank() == 0)
    return errorf("%s: inputs must have a leading sample dimension", name.c_str());
  if (labels.rank() == 0 || labels.dim(0) != inputs.dim(0))
    return errorf("%s: %lld input samples but labels have shape %s", name.c_str(),
                  (long long)inputs.dim(0), shapeToString(labels.shape()).c_str());
  Dataset d;
  if (inputType == DType::F32) {
    d.inputs = inputs.convertTo(DType::F32);
  } else {
    auto ids = toIds(name, inputs, inputType);
    if (!ids)
      return ids.status();
    d.inputs = ids.take();
  }
  d.name = std::move(name);
  d.labels = labels.convertTo(isFloatType(labels.dtype()) ? DType::F32 : DType::I64);
  return d;
}

Expected<Dataset> makeStreamDataset(std::string name, Tensor ids, int64_t window, DType idType) {
  if (ids.rank() != 1)
    return errorf("%s: a token stream is a 1-D array of ids, the file holds shape %s",
                  name.c_str(), shapeToString(ids.shape()).c_str());
  if (window <= 0 || ids.numElements() <= window)
    return errorf("%s: holds %lld tokens, fewer than the window length + 1 = %lld",
                  name.c_str(), (long long)ids.numElements(), (long long)window + 1);
  auto converted = toIds(name, ids, idType);
  if (!converted)
    return converted.status();
  Dataset d;
  d.name = std::move(name);
  d.inputs = converted.take();
  d.window = window;
  return d;
}

/// Errors at the first element of the F32 tensor \p t ([N, \p per elements])
/// that is NaN or infinite, naming the file \p name and \p what it holds.
static Status checkFinite(const Tensor &t, int64_t per, const char *name, const char *what) {
  const float *x = t.as<float>();
  for (int64_t i = 0, e = t.numElements(); i < e; ++i)
    if (!std::isfinite(x[i]))
      return errorf("%s: sample %lld, element %lld: %s is %s", name, (long long)(i / per),
                    (long long)(i % per), what, std::isnan(x[i]) ? "NaN" : "infinite");
  return Status::ok();
}

/// Checks class labels against \p r (in [0, classes), or the ignore index):
/// a stream's ids, which are its labels too, or the labels tensor.
static Status checkClassLabels(const Dataset &data, const DataRules &r) {
  const char *ln = data.labelsName.empty() ? data.name.c_str() : data.labelsName.c_str();
  if (data.window > 0) {
    for (int64_t i = 0, n = data.inputs.numElements(); i < n; ++i)
      if (double v = data.inputs.getAsDouble(i); v < 0 || v >= double(r.numClasses))
        return errorf("%s: token %lld: id %.0f is outside the model's %lld classes [0, %lld)",
                      data.name.c_str(), (long long)i, v, (long long)r.numClasses,
                      (long long)r.numClasses);
    return Status::ok();
  }
  if (data.labels.dtype() != DType::I64 || data.labels.rank() < 1)
    return errorf("%s: class labels must be integers of shape [N, ...], got %s %s", ln,
                  dtypeName(data.labels.dtype()), shapeToString(data.labels.shape()).c_str());
  const int64_t *l = data.labels.as<int64_t>();
  int64_t per = std::max<int64_t>(data.labelElements(), 1);
  for (int64_t i = 0, n = data.labels.numElements(); i < n; ++i) {
    if ((l[i] >= 0 && l[i] < r.numClasses) || (r.hasIgnore && l[i] == r.ignoreIndex))
      continue;
    if (per == 1)
      return errorf("%s: sample %lld: label %lld is outside [0, %lld)", ln, (long long)i,
                    (long long)l[i], (long long)r.numClasses);
    return errorf("%s: sample %lld, element %lld: label %lld is outside [0, %lld)", ln,
                  (long long)(i / per), (long long)(i % per), (long long)l[i],
                  (long long)r.numClasses);
  }
  return Status::ok();
}

/// Checks integer inputs against the ids' limit: every id in [0, limit).
static Status checkIds(const Dataset &data, int64_t limit) {
  int64_t per = std::max<int64_t>(data.sampleElements(), 1);
  for (int64_t i = 0, n = data.inputs.numElements(); i < n; ++i) {
    double v = data.inputs.getAsDouble(i);
    if (v >= 0 && v < double(limit))
      continue;
    if (data.window > 0)
      return errorf("%s: token %lld: id %.0f is outside the model's embedding table [0, %lld)",
                    data.name.c_str(), (long long)i, v, (long long)limit);
    return errorf("%s: sample %lld, element %lld: id %.0f is outside the model's embedding "
                  "table [0, %lld)", data.name.c_str(), (long long)(i / per),
                  (long long)(i % per), v, (long long)limit);
  }
  return Status::ok();
}

Status validateDataset(Dataset &data, const std::vector<int64_t> &sampleShape,
                       int64_t numClasses) {
  DataRules rules;
  rules.sampleShape = sampleShape;
  rules.numClasses = numClasses;
  return validateDataset(data, rules);
}

/// Whether the model's sample shape \p model is the data's \p data with
/// leading 1s (a channel of an IDX image), the rule the compiler checks the
/// data block by.
static bool sameUpToLeadingOnes(std::vector<int64_t> model, const std::vector<int64_t> &data) {
  while (model.size() > data.size() && model.front() == 1)
    model.erase(model.begin());
  return model == data;
}

Status validateDataset(Dataset &data, const DataRules &r) {
  const char *n = data.name.c_str();
  if (data.sampleShape() != r.sampleShape) {
    if (data.window > 0 || !sameUpToLeadingOnes(r.sampleShape, data.sampleShape()))
      return errorf("%s: samples have shape %s but the model declares %s", n,
                    shapeToString(data.sampleShape()).c_str(),
                    shapeToString(r.sampleShape).c_str());
    std::vector<int64_t> full = {data.size()};
    full.insert(full.end(), r.sampleShape.begin(), r.sampleShape.end());
    if (data.mapped)
      data.mapped->sampleShape = r.sampleShape;
    else
      data.inputs.reshape(full);
  }
  if (data.mapped)
    return validateMapped(data, r);
  if (r.numClasses > 0)
    MODELRT_TRY(checkClassLabels(data, r));
  if (data.inputs.dtype() == DType::F32)
    MODELRT_TRY(checkFinite(data.inputs, data.sampleElements(), n, "input"));
  else if (r.idLimit > 0)
    MODELRT_TRY(checkIds(data, r.idLimit));
  if (data.window == 0 && data.labels.dtype() == DType::F32)
    MODELRT_TRY(checkFinite(data.labels, data.labelElements(),
                            data.labelsName.empty() ? n : data.labelsName.c_str(), "target"));
  return Status::ok();
}

Status normalizeDataset(Dataset &data, double scale, const std::vector<double> &mean,
                        const std::vector<double> &stddev) {
  if (mean.size() != stddev.size())
    return errorf("%s: normalisation has %zu means but %zu standard deviations",
                  data.name.c_str(), mean.size(), stddev.size());
  for (double s : stddev)
    if (!(s > 0))
      return errorf("%s: normalisation standard deviation must be > 0", data.name.c_str());
  if (data.inputType() != DType::F32)
    return errorf("%s: the samples are integer ids (%s), which take no input transform",
                  data.name.c_str(), dtypeName(data.inputType()));
  int64_t channels = static_cast<int64_t>(mean.size());
  std::vector<int64_t> sample = data.sampleShape();
  if (channels > 1 && (sample.empty() || sample[0] != channels))
    return errorf("%s: %lld normalisation channels but samples have shape %s",
                  data.name.c_str(), (long long)channels, shapeToString(sample).c_str());
  InputTransform t{scale, mean, stddev};
  if (data.mapped) { // applied as each sample is read
    data.mapped->transform = std::move(t);
    return Status::ok();
  }
  applyTransform(t, data.sampleElements(), data.inputs.as<float>(), 0,
                 data.inputs.numElements());
  return Status::ok();
}

/// gatherDataset of mapped files: the rows of \p indices, nothing copied.
static Dataset gatherMapped(const Dataset &data, const std::vector<int64_t> &indices) {
  Dataset out = data;
  std::vector<int64_t> &rows = out.mapped->rows;
  rows.clear();
  for (int64_t i : indices)
    rows.push_back(data.mapped->allRows ? i : data.mapped->rows[size_t(i)]);
  out.mapped->allRows = false;
  return out;
}

Dataset gatherDataset(const Dataset &data, const std::vector<int64_t> &indices) {
  if (data.mapped)
    return gatherMapped(data, indices);
  Dataset out;
  out.name = data.name;
  out.labelsName = data.labelsName;
  std::vector<int64_t> ishape = data.inputs.shape(), lshape = data.labels.shape();
  ishape[0] = lshape[0] = static_cast<int64_t>(indices.size());
  out.inputs = Tensor(data.inputs.dtype(), ishape);
  out.labels = Tensor(data.labels.dtype(), lshape);
  size_t ib = data.sampleElements() * dtypeSize(data.inputs.dtype());
  size_t lb = data.labelElements() * dtypeSize(data.labels.dtype());
  auto *src = static_cast<const unsigned char *>(data.inputs.data());
  auto *lsrc = static_cast<const unsigned char *>(data.labels.data());
  for (size_t k = 0; k < indices.size(); ++k) {
    std::memcpy(static_cast<unsigned char *>(out.inputs.data()) + k * ib, src + indices[k] * ib, ib);
    std::memcpy(static_cast<unsigned char *>(out.labels.data()) + k * lb, lsrc + indices[k] * lb, lb);
  }
  return out;
}

/// A stream's split: its first tokens, then its last round(n * fraction).
static Expected<std::pair<Dataset, Dataset>> splitStream(const Dataset &data, double fraction) {
  int64_t n = data.inputs.numElements();
  int64_t held = static_cast<int64_t>(std::llround(double(n) * fraction));
  if (held <= data.window || n - held <= data.window)
    return errorf("%s: validation fraction %g of %lld tokens leaves a part shorter than a "
                  "window + 1 (%lld tokens)", data.name.c_str(), fraction, (long long)n,
                  (long long)data.window + 1);
  std::pair<Dataset, Dataset> parts;
  size_t bytes = dtypeSize(data.inputs.dtype());
  auto *src = static_cast<const unsigned char *>(data.inputs.data());
  for (auto [part, from, count] : {std::make_tuple(&parts.first, int64_t(0), n - held),
                                   std::make_tuple(&parts.second, n - held, held)}) {
    part->name = data.name;
    part->window = data.window;
    part->inputs = Tensor(data.inputs.dtype(), {count});
    std::memcpy(part->inputs.data(), src + size_t(from) * bytes, size_t(count) * bytes);
  }
  return parts;
}

Expected<std::pair<Dataset, Dataset>> splitDataset(const Dataset &data, double fraction,
                                                   uint64_t seed) {
  if (!(fraction > 0 && fraction < 1))
    return errorf("%s: validation fraction %g must be in (0, 1)", data.name.c_str(), fraction);
  if (data.window > 0)
    return splitStream(data, fraction);
  int64_t n = data.size();
  int64_t nval = static_cast<int64_t>(std::llround(n * fraction));
  if (nval < 1 || nval >= n)
    return errorf("%s: validation fraction %g of %lld samples leaves an empty part",
                  data.name.c_str(), fraction, (long long)n);
  std::vector<int64_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  Rng rng(mixSeed(seed, 0x5711u));
  for (int64_t i = n - 1; i > 0; --i)
    std::swap(perm[i], perm[rng.below(i + 1)]);
  std::vector<int64_t> train(perm.begin(), perm.end() - nval), val(perm.end() - nval, perm.end());
  return std::make_pair(gatherDataset(data, train), gatherDataset(data, val));
}

} // namespace modelrt
