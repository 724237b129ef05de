//===- Dataset.cpp - In-memory datasets: validation, transforms, splits ----===//
#include "modelrt/data/Dataset.h"

#include "modelrt/core/Rng.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

namespace modelrt {

std::vector<int64_t> Dataset::sampleShape() const {
  if (inputs.rank() == 0)
    return {};
  return std::vector<int64_t>(inputs.shape().begin() + 1, inputs.shape().end());
}

int64_t Dataset::sampleElements() const { return shapeNumElements(sampleShape()); }

int64_t Dataset::labelElements() const {
  if (labels.rank() == 0)
    return 0;
  return labels.numElements() / labels.dim(0);
}

Expected<Dataset> makeDataset(std::string name, Tensor inputs, Tensor labels) {
  if (inputs.rank() == 0)
    return errorf("%s: inputs must have a leading sample dimension", name.c_str());
  if (labels.rank() == 0 || labels.dim(0) != inputs.dim(0))
    return errorf("%s: %lld input samples but labels have shape %s", name.c_str(),
                  (long long)inputs.dim(0), shapeToString(labels.shape()).c_str());
  Dataset d;
  d.name = std::move(name);
  d.inputs = inputs.convertTo(DType::F32);
  bool isFloat = labels.dtype() == DType::F32 || labels.dtype() == DType::F64;
  d.labels = labels.convertTo(isFloat ? DType::F32 : DType::I64);
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

Status validateDataset(Dataset &data, const std::vector<int64_t> &sampleShape,
                       int64_t numClasses) {
  const char *n = data.name.c_str();
  if (data.sampleShape() != sampleShape) {
    if (data.sampleElements() != shapeNumElements(sampleShape))
      return errorf("%s: samples have shape %s but the model declares %s", n,
                    shapeToString(data.sampleShape()).c_str(),
                    shapeToString(sampleShape).c_str());
    std::vector<int64_t> full = {data.size()};
    full.insert(full.end(), sampleShape.begin(), sampleShape.end());
    data.inputs.reshape(full);
  }
  if (numClasses > 0) {
    const char *ln = data.labelsName.empty() ? n : data.labelsName.c_str();
    if (data.labels.dtype() != DType::I64 || data.labels.rank() != 1)
      return errorf("%s: class labels must be integers of shape [N], got %s %s", ln,
                    dtypeName(data.labels.dtype()), shapeToString(data.labels.shape()).c_str());
    const int64_t *l = data.labels.as<int64_t>();
    for (int64_t i = 0; i < data.size(); ++i)
      if (l[i] < 0 || l[i] >= numClasses)
        return errorf("%s: sample %lld: label %lld is outside [0, %lld)", ln, (long long)i,
                      (long long)l[i], (long long)numClasses);
  }
  MODELRT_TRY(checkFinite(data.inputs, data.sampleElements(), n, "input"));
  if (data.labels.dtype() == DType::F32)
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
  int64_t channels = static_cast<int64_t>(mean.size());
  if (channels > 1 && (data.inputs.rank() < 2 || data.inputs.dim(1) != channels))
    return errorf("%s: %lld normalisation channels but samples have shape %s",
                  data.name.c_str(), (long long)channels,
                  shapeToString(data.sampleShape()).c_str());
  int64_t per = data.sampleElements();
  int64_t perChannel = channels > 1 ? per / channels : per;
  float *x = data.inputs.as<float>();
  // Runs of perChannel values share one channel's mean and deviation.
  for (int64_t start = 0, e = data.inputs.numElements(); start < e; start += perChannel) {
    int64_t c = channels > 1 ? (start % per) / perChannel : 0;
    double m = channels ? mean[c] : 0.0, s = channels ? stddev[c] : 1.0;
    float *run = x + start;
    for (int64_t i = 0, n = std::min(perChannel, e - start); i < n; ++i)
      run[i] = static_cast<float>((run[i] * scale - m) / s);
  }
  return Status::ok();
}

Dataset gatherDataset(const Dataset &data, const std::vector<int64_t> &indices) {
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

Expected<std::pair<Dataset, Dataset>> splitDataset(const Dataset &data, double fraction,
                                                   uint64_t seed) {
  if (!(fraction > 0 && fraction < 1))
    return errorf("%s: validation fraction %g must be in (0, 1)", data.name.c_str(), fraction);
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
