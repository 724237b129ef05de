//===- MappedDataset.cpp - Datasets of mapped NPY files --------------------===//
//
// Implements MappedDataset.h and makeMappedDataset (Dataset.h). A sample is
// its file row (or the row a split chose), converted to the model's type
// and transformed as it is read; validation converts the files chunk by
// chunk exactly as a read would, so what it accepts is what batches hold.
//
//===----------------------------------------------------------------------===//
#include "MappedDataset.h"

#include <climits>
#include <cmath>

namespace modelrt {

static bool isFloatType(DType t) { return t == DType::F32 || t == DType::F64; }

Expected<Dataset> makeMappedDataset(std::string name, std::shared_ptr<const MappedArray> inputs,
                                    std::shared_ptr<const MappedArray> labels,
                                    DType inputType, DType labelType) {
  if (inputs->shape().empty())
    return errorf("%s: inputs must have a leading sample dimension", name.c_str());
  if (labels->shape().empty() || labels->rows() != inputs->rows())
    return errorf("%s: %lld input samples but labels have shape %s", name.c_str(),
                  (long long)inputs->rows(), shapeToString(labels->shape()).c_str());
  if (inputType != DType::F32 && isFloatType(inputs->dtype()))
    return errorf("%s: the model takes integer ids (%s) but the file holds %s values; store "
                  "the ids as integers", name.c_str(), dtypeName(inputType),
                  dtypeName(inputs->dtype()));
  Dataset d;
  d.name = std::move(name);
  MappedSamples m;
  m.sampleShape.assign(inputs->shape().begin() + 1, inputs->shape().end());
  m.inputs = std::move(inputs);
  m.labels = std::move(labels);
  m.inputType = inputType;
  m.labelType = labelType;
  d.mapped = std::move(m);
  return d;
}

void applyTransform(const InputTransform &t, int64_t per, float *x, int64_t first, int64_t n) {
  int64_t channels = int64_t(t.mean.size());
  int64_t perChannel = std::max<int64_t>(channels > 1 ? per / channels : per, 1);
  // Runs of values within one channel's plane share its mean and deviation.
  for (int64_t i = 0; i < n;) {
    int64_t at = first + i, c = channels > 1 ? (at % per) / perChannel : 0;
    int64_t run = std::min(perChannel - at % perChannel, n - i);
    double m = channels ? t.mean[c] : 0.0, s = channels ? t.stddev[c] : 1.0;
    for (int64_t k = i; k < i + run; ++k)
      x[k] = static_cast<float>((x[k] * t.scale - m) / s);
    i += run;
  }
}

/// Checks class labels: each in [0, classes) or the ignore index.
static Status checkMappedClasses(const Dataset &data, const DataRules &r, const char *ln) {
  const MappedArray &y = *data.mapped->labels;
  if (data.mapped->labelType != DType::I64 || isFloatType(y.dtype()))
    return errorf("%s: class labels must be integers of shape [N, ...], got %s %s", ln,
                  dtypeName(y.dtype()), shapeToString(y.shape()).c_str());
  int64_t per = std::max<int64_t>(y.rowElements(), 1);
  std::vector<int64_t> buf;
  return scanMapped(y, [&](int64_t first, int64_t count) -> Status {
    buf.resize(size_t(count));
    y.read(first, count, DType::I64, buf.data());
    for (int64_t k = 0; k < count; ++k) {
      int64_t i = first + k, l = buf[size_t(k)];
      if ((l >= 0 && l < r.numClasses) || (r.hasIgnore && l == r.ignoreIndex))
        continue;
      if (per == 1)
        return errorf("%s: sample %lld: label %lld is outside [0, %lld)", ln, (long long)i,
                      (long long)l, (long long)r.numClasses);
      return errorf("%s: sample %lld, element %lld: label %lld is outside [0, %lld)", ln,
                    (long long)(i / per), (long long)(i % per), (long long)l,
                    (long long)r.numClasses);
    }
    return Status::ok();
  });
}

/// Checks that every value of \p a, read as f32 (and transformed by \p t
/// when given), is finite; \p what names the values in messages.
static Status checkMappedFinite(const MappedArray &a, const InputTransform *t, int64_t per,
                                const char *name, const char *what) {
  per = std::max<int64_t>(per, 1);
  std::vector<float> buf;
  return scanMapped(a, [&](int64_t first, int64_t count) -> Status {
    buf.resize(size_t(count));
    a.read(first, count, DType::F32, buf.data());
    if (t && !t->isIdentity())
      applyTransform(*t, per, buf.data(), first, count);
    for (int64_t k = 0; k < count; ++k)
      if (float v = buf[size_t(k)]; !std::isfinite(v))
        return errorf("%s: sample %lld, element %lld: %s is %s", name,
                      (long long)((first + k) / per), (long long)((first + k) % per), what,
                      std::isnan(v) ? "NaN" : "infinite");
    return Status::ok();
  });
}

/// Checks ids: each fits the input type and, with a limit, lies in [0, limit).
static Status checkMappedIds(const Dataset &data, int64_t limit) {
  const MappedArray &x = *data.mapped->inputs;
  const char *n = data.name.c_str();
  int64_t per = std::max<int64_t>(data.sampleElements(), 1);
  bool i32 = data.mapped->inputType == DType::I32;
  std::vector<double> buf;
  return scanMapped(x, [&](int64_t first, int64_t count) -> Status {
    buf.resize(size_t(count));
    x.read(first, count, DType::F64, buf.data());
    for (int64_t k = 0; k < count; ++k) {
      double v = buf[size_t(k)];
      long long i = (long long)(first + k);
      if (i32 && (v < INT32_MIN || v > INT32_MAX))
        return errorf("%s: element %lld: id %.0f does not fit the model's i32 input", n, i, v);
      if (limit > 0 && !(v >= 0 && v < double(limit)))
        return errorf("%s: sample %lld, element %lld: id %.0f is outside the model's "
                      "embedding table [0, %lld)", n, i / per, i % per, v, (long long)limit);
    }
    return Status::ok();
  });
}

Status validateMapped(const Dataset &data, const DataRules &r) {
  const MappedSamples &m = *data.mapped;
  const char *n = data.name.c_str();
  const char *ln = data.labelsName.empty() ? n : data.labelsName.c_str();
  if (r.numClasses > 0)
    MODELRT_TRY(checkMappedClasses(data, r, ln));
  if (m.inputType == DType::F32)
    MODELRT_TRY(checkMappedFinite(*m.inputs, &m.transform, data.sampleElements(), n, "input"));
  else
    MODELRT_TRY(checkMappedIds(data, r.idLimit));
  if (m.labelType == DType::F32)
    MODELRT_TRY(checkMappedFinite(*m.labels, nullptr, data.labelElements(), ln, "target"));
  return Status::ok();
}

/// The file row of sample \p s.
static int64_t rowOf(const MappedSamples &m, int64_t s) {
  return m.allRows ? s : m.rows[size_t(s)];
}

void readMappedSample(const Dataset &data, int64_t s, void *dst) {
  const MappedSamples &m = *data.mapped;
  int64_t per = data.sampleElements();
  m.inputs->read(rowOf(m, s) * per, per, m.inputType, dst);
  if (m.inputType == DType::F32 && !m.transform.isIdentity())
    applyTransform(m.transform, per, static_cast<float *>(dst), 0, per);
}

void readMappedLabels(const Dataset &data, int64_t s, void *dst) {
  const MappedSamples &m = *data.mapped;
  int64_t per = data.labelElements();
  m.labels->read(rowOf(m, s) * per, per, m.labelType, dst);
}

} // namespace modelrt
