//===- Predict.cpp - The predict subcommand --------------------------------===//
//
// Reads each INPUT by its extension: .png (one image), .npy, .csv (one sample
// per row; the model's input columns, or every column but the label), else
// IDX (plain or gzip); fits it to the model's input shape, applies the
// training input transforms, runs predict and prints, per sample, the class
// and the softmax of the output (classifiers) or the outputs, as text or as
// one JSON object per sample (--json).
//
//===----------------------------------------------------------------------===//
#include "CliInternal.h"

#include "modelrt/data/Readers.h"
#include "modelrt/io/Json.h"
#include "modelrt/train/Trainer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

namespace modelrt {
namespace {

bool endsWith(const std::string &s, const char *suffix) {
  std::string x = suffix;
  if (s.size() < x.size())
    return false;
  std::string tail = s.substr(s.size() - x.size());
  std::transform(tail.begin(), tail.end(), tail.begin(), ::tolower);
  return tail == x;
}

/// Reads a CSV of samples: the configured input columns, else all columns
/// except the label column (when the header has it).
Expected<Tensor> readCsvSamples(const ModelrtProgram &p, const std::string &path) {
  const ModelrtDataConfig &d = p.config.data;
  std::vector<CsvColumn> cols;
  for (int32_t i = 0; i < d.num_columns; ++i)
    cols.push_back({d.columns[i], DType::F32});
  std::string label;
  if (cols.empty() && d.label_column && *d.label_column) {
    std::ifstream in(path);
    std::string header;
    std::getline(in, header);
    std::string quoted = std::string(",") + header + ",", name = d.label_column;
    quoted.erase(std::remove(quoted.begin(), quoted.end(), ' '), quoted.end());
    if (quoted.find("," + name + ",") != std::string::npos)
      label = name;
  }
  auto t = readCsv(path, cols, label, DType::F32);
  if (!t)
    return t.status();
  return std::move(t->inputs);
}

/// A PNG as [1, model input...]: same element count, or gray <-> RGB by
/// luma / replication when only the channel count differs.
Expected<Tensor> fitImage(const Tensor &img, int64_t want, const std::string &path) {
  int64_t c = img.dim(0), hw = img.dim(1) * img.dim(2);
  Tensor x(DType::F32, {1, want});
  const unsigned char *px = img.as<unsigned char>();
  float *o = x.as<float>();
  if (c * hw == want) {
    for (int64_t i = 0; i < want; ++i)
      o[i] = px[i];
  } else if (c == 3 && hw == want) {
    for (int64_t i = 0; i < hw; ++i)
      o[i] = float(0.299 * px[i] + 0.587 * px[hw + i] + 0.114 * px[2 * hw + i]);
  } else if (c == 1 && 3 * hw == want) {
    for (int64_t i = 0; i < want; ++i)
      o[i] = px[i % hw];
  } else {
    return errorf("%s: image %lldx%lld with %lld channel(s) does not fit the model input of "
                  "%lld values", path.c_str(), (long long)img.dim(2), (long long)img.dim(1),
                  (long long)c, (long long)want);
  }
  return x;
}

/// Reads one INPUT as [N, input...] f32, transformed like the training data.
Expected<Dataset> readPredictInput(const ModelrtProgram &p, const std::string &path) {
  std::vector<int64_t> sample(p.input_shape, p.input_shape + p.input_rank);
  int64_t per = shapeNumElements(sample);
  Expected<Tensor> t = Status::error("unread");
  if (endsWith(path, ".png")) {
    auto img = readPng(path);
    t = img ? fitImage(*img, per, path) : Expected<Tensor>(img.status());
  } else if (endsWith(path, ".csv")) {
    t = readCsvSamples(p, path);
  } else {
    t = endsWith(path, ".npy") ? readNpy(path) : readIdx(path);
  }
  if (!t)
    return t.status();
  Tensor x = t->convertTo(DType::F32);
  if (x.numElements() == per || (x.rank() >= 1 && x.numElements() == x.dim(0) * per)) {
    std::vector<int64_t> shape = sample;
    shape.insert(shape.begin(), x.numElements() / std::max<int64_t>(per, 1));
    x.reshape(shape);
  }
  Dataset d;
  d.name = path;
  d.inputs = std::move(x);
  d.labels = Tensor(DType::I64, {d.inputs.rank() ? d.inputs.dim(0) : 1});
  MODELRT_TRY(applyInputTransforms(d, p.config.data));
  MODELRT_TRY(validateDataset(d, sample, 0));
  return d;
}

/// Prints one sample's result (probabilities for classifiers) as text or JSON.
void printSample(const ModelrtProgram &p, const std::string &path, int64_t i, const float *o,
                 int64_t per, bool json) {
  std::vector<double> v(o, o + per);
  int64_t best = -1;
  if (p.num_classes > 0) // o already holds the softmax probabilities
    best = std::max_element(v.begin(), v.end()) - v.begin();
  std::string line;
  char buf[48];
  if (json) {
    line = "{\"input\": " + jsonQuote(path) + ", \"index\": " + std::to_string(i);
    if (best >= 0)
      line += ", \"class\": " + std::to_string(best);
    line += best >= 0 ? ", \"probabilities\": [" : ", \"outputs\": [";
  } else {
    line = path + "[" + std::to_string(i) + "]:";
    if (best >= 0)
      line += " class " + std::to_string(best) + " probabilities";
  }
  for (int64_t k = 0; k < per; ++k) {
    std::snprintf(buf, sizeof buf, json ? "%s%.9g" : "%s%.6f", json && k ? ", " : " ", v[k]);
    line += std::isfinite(v[k]) || !json ? buf : (k ? ", null" : "null");
  }
  std::printf("%s\n", json ? (line + "]}").c_str() : line.c_str());
}

} // namespace

Status runPredict(const ModelrtProgram &p, const CliArgs &a) {
  int64_t batch = p.config.batch_size > 0 ? p.config.batch_size : 64, threads;
  MODELRT_TRY(integerFlag(a, "--batch", batch, true));
  MODELRT_TRY(applyThreads(p, a, threads));
  if (a.flags.count("--out") && a.positional.size() != 1)
    return errorf("--out writes one NPY file: give exactly one INPUT");
  auto m = loadModel(p, a.flags.at("--checkpoint"));
  if (!m)
    return m.status();
  std::vector<Dataset> inputs; // all read before anything is printed
  for (const std::string &path : a.positional) {
    auto d = readPredictInput(p, path);
    if (!d)
      return d.status();
    inputs.push_back(d.take());
  }
  auto runner = selectRunner(p, a);
  if (!runner)
    return runner.status();
  for (const Dataset &d : inputs) {
    auto out = predictTensor(p, *m, d.inputs, batch, runner->get());
    if (!out)
      return out.status();
    int64_t n = out->dim(0), per = out->numElements() / std::max<int64_t>(n, 1);
    if (p.num_classes > 0)
      for (int64_t i = 0; i < n; ++i) { // --out holds probabilities for classifiers
        float *o = out->as<float>() + i * per, mx = *std::max_element(o, o + per), z = 0;
        for (int64_t k = 0; k < per; ++k)
          z += std::exp(o[k] - mx);
        for (int64_t k = 0; k < per; ++k)
          o[k] = std::exp(o[k] - mx) / z;
      }
    for (int64_t i = 0; i < n; ++i)
      printSample(p, d.name, i, out->as<float>() + i * per, per, a.flags.count("--json") > 0);
    if (a.flags.count("--out"))
      MODELRT_TRY(writeNpy(a.flags.at("--out"), *out));
  }
  return Status::ok();
}

} // namespace modelrt
