//===- Predict.cpp - The predict subcommand --------------------------------===//
//
// Reads each INPUT by its extension: .png/.jpg/.jpeg (one image), .npy,
// .csv (one sample per row; the model's input columns, or every column but
// the label), .txt (a text model: windows of its tokens), else IDX (plain
// or gzip); for a model of ids, integers only. Fits it to the model's input
// shape, applies the training input transforms, runs predict and prints,
// per sample, the class and the softmax of the output (classifiers; a
// class per position: each position's class and their text) or the
// outputs, as text or as
// one JSON object per sample (--json); with --png DIR, outputs of the input
// image's size are written as PNG images instead (the input transform
// undone) and each sample's line names its file.
//
//===----------------------------------------------------------------------===//
#include "CliInternal.h"

#include "modelrt/data/ImageFolder.h"
#include "modelrt/data/Readers.h"
#include "modelrt/io/AtomicFile.h"
#include "modelrt/io/Checkpoint.h"
#include "modelrt/io/Json.h"
#include "modelrt/io/PngWriter.h"
#include "modelrt/train/Evaluate.h"

#include "modelsupport/Text.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>

#include <sys/stat.h>
#include <unistd.h>

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
/// except the label columns (those the header has); integers for a model
/// of ids (a cell that is not one is an error at its place).
Expected<Tensor> readCsvSamples(const ModelrtProgram &p, const std::string &path) {
  const ModelrtDataConfig &d = p.config.data;
  DType type = inputType(p) == DType::F32 ? DType::F32 : DType::I64;
  std::vector<CsvColumn> cols;
  for (int32_t i = 0; i < d.num_columns; ++i)
    cols.push_back({d.columns[i], type});
  std::vector<std::string> labels;
  if (cols.empty() && d.num_label_columns > 0) {
    std::ifstream in(path);
    std::string header;
    std::getline(in, header);
    std::string quoted = std::string(",") + header + ",";
    quoted.erase(std::remove(quoted.begin(), quoted.end(), ' '), quoted.end());
    for (int32_t i = 0; i < d.num_label_columns; ++i)
      if (quoted.find("," + std::string(d.label_columns[i]) + ",") != std::string::npos)
        labels.push_back(d.label_columns[i]);
  }
  auto t = readCsv(path, cols, labels, DType::F32, {}, type);
  if (!t)
    return t.status();
  return std::move(t->inputs);
}

/// A text model's .txt INPUT as windows of its input length [N, seq]: the
/// tokens from the start in steps of seq, the last window ending at the
/// text's last token.
Expected<Tensor> readTextWindows(const ModelrtProgram &p, const std::string &path) {
  auto ids = readTextTokens(path, p.config.data.tokens == MODELRT_TOKENS_CHARS
                                      ? vocabulary(p)
                                      : std::vector<uint32_t>());
  if (!ids)
    return ids.status();
  int64_t n = ids->numElements(), seq = p.input_shape[0];
  if (n < seq)
    return errorf("%s: holds %lld tokens, but the model reads windows of %lld", path.c_str(),
                  (long long)n, (long long)seq);
  int64_t count = (n + seq - 1) / seq;
  Tensor x(DType::I64, {count, seq});
  for (int64_t k = 0; k < count; ++k) {
    int64_t start = std::min(k * seq, n - seq);
    std::copy(ids->as<int64_t>() + start, ids->as<int64_t>() + start + seq,
              x.as<int64_t>() + k * seq);
  }
  return x;
}

/// Reads an array INPUT (NPY, or IDX) for a model of ids: integers only.
Expected<Tensor> readIdArray(const std::string &path) {
  auto t = endsWith(path, ".npy") ? readNpy(path) : readIdx(path);
  if (t && (t->dtype() == DType::F32 || t->dtype() == DType::F64))
    return errorf("%s: the model takes integer ids, the file holds %s values; store the ids as "
                  "integers", path.c_str(), dtypeName(t->dtype()));
  return t;
}

/// "28x28" for a square flat input of \p n values per channel, else "".
std::string squareSide(int64_t n) {
  int64_t side = int64_t(std::llround(std::sqrt(double(n))));
  return side * side == n ? std::to_string(side) + "x" + std::to_string(side) : "";
}

/// The model input's (channels, height, width) for images: [C, H, W],
/// [H, W] (gray), or a flat [n] taken as a square image with \p c channels.
bool imageGeometry(const std::vector<int64_t> &sample, int64_t c, int64_t &mc, int64_t &mh,
                   int64_t &mw) {
  if (sample.size() == 3)
    mc = sample[0], mh = sample[1], mw = sample[2];
  else if (sample.size() == 2)
    mc = 1, mh = sample[0], mw = sample[1];
  else if (sample.size() == 1) {
    // A flat input takes the image's own channel count when it divides it.
    mc = sample[0] % c == 0 && !squareSide(sample[0] / c).empty() ? c : sample[0] % 3 == 0 &&
         !squareSide(sample[0] / 3).empty() ? 3 : 1;
    mh = mw = int64_t(std::llround(std::sqrt(double(sample[0] / mc))));
    if (mh * mw * mc != sample[0])
      return false;
  } else
    return false;
  return true;
}

/// A PNG or JPEG image as [1, model input...]: its height and width must be
/// the model's, gray <-> RGB converted by convertChannels (BT.601 luma /
/// replication) when only the channels differ.
Expected<Tensor> fitImage(const Tensor &img, const std::vector<int64_t> &sample,
                          const std::string &path) {
  int64_t c = img.dim(0), h = img.dim(1), w = img.dim(2), hw = h * w, mc, mh, mw;
  if (!imageGeometry(sample, c, mc, mh, mw))
    return errorf("%s: the model input %s is not an image (C x H x W, H x W, or a square "
                  "flat input)", path.c_str(), shapeToString(sample).c_str());
  if (h != mh || w != mw || (mc != 1 && mc != 3 && mc != c))
    return errorf("%s: image is %lldx%lld with %lld channel(s) but the model takes %lldx%lld "
                  "with %lld channel(s) (input %s); resize the image to %lldx%lld",
                  path.c_str(), (long long)w, (long long)h, (long long)c, (long long)mw,
                  (long long)mh, (long long)mc, shapeToString(sample).c_str(), (long long)mw,
                  (long long)mh);
  std::vector<int64_t> shape = sample;
  shape.insert(shape.begin(), 1);
  Tensor x(DType::F32, shape);
  Tensor same = convertChannels(img, mc);
  const unsigned char *px = same.as<unsigned char>();
  std::copy(px, px + mc * hw, x.as<float>());
  return x;
}

/// \p shape without its 1-sized dimensions.
std::vector<int64_t> squeezed(std::vector<int64_t> shape) {
  shape.erase(std::remove(shape.begin(), shape.end(), 1), shape.end());
  return shape;
}

/// Reshapes an array read from \p path to [N, sample...]: it is one sample
/// (its shape the model's, up to 1-sized dimensions) or N of them; a flat
/// model input takes samples of any shape with its element count, and
/// \p flatRows (CSV) takes rows of that count.
Status fitSamples(Tensor &x, const std::vector<int64_t> &sample, bool flatRows,
                  const std::string &path) {
  int64_t per = shapeNumElements(sample);
  std::string have = shapeToString(x.shape()), want = shapeToString(sample);
  if (x.numElements() == 0)
    return errorf("%s: holds no samples (shape %s); give at least one sample of shape %s",
                  path.c_str(), have.c_str(), want.c_str());
  std::vector<int64_t> full = sample;
  if (x.numElements() == per && squeezed(x.shape()) == squeezed(sample)) {
    full.insert(full.begin(), 1);
    x.reshape(full);
    return Status::ok();
  }
  std::vector<int64_t> each(x.shape().begin() + (x.rank() ? 1 : 0), x.shape().end());
  bool flat = sample.size() == 1 || (flatRows && each.size() == 1);
  if (x.rank() >= 1 && shapeNumElements(each) == per &&
      (flat || squeezed(each) == squeezed(sample))) {
    full.insert(full.begin(), x.dim(0));
    x.reshape(full);
    return Status::ok();
  }
  std::string fix = "(N";
  for (int64_t d : sample)
    fix += ", " + std::to_string(d);
  return errorf("%s: holds shape %s but the model takes samples of shape %s; reshape it to %s) "
                "or %s", path.c_str(), have.c_str(), want.c_str(), fix.c_str(), want.c_str());
}

/// Reads one INPUT of a model of ids as [N, input...] integers: NPY or IDX
/// arrays of integers, CSV rows of integers, or (text models) a .txt file.
Expected<Tensor> readIds(const ModelrtProgram &p, const std::string &path, bool &csv) {
  bool text = p.config.data.format == MODELRT_DATA_TEXT && endsWith(path, ".txt");
  if (endsWith(path, ".png") || endsWith(path, ".jpg") || endsWith(path, ".jpeg"))
    return errorf("%s: the model takes integer ids (%s), not images; give an NPY or CSV file "
                  "of ids%s", path.c_str(), dtypeName(inputType(p)),
                  p.config.data.format == MODELRT_DATA_TEXT ? ", or a .txt file" : "");
  csv = endsWith(path, ".csv");
  Expected<Tensor> t = text  ? readTextWindows(p, path)
                       : csv ? readCsvSamples(p, path)
                             : readIdArray(path);
  if (!t)
    return t.status();
  return t->convertTo(DType::I64); // narrowed after validation (readPredictInput)
}

/// Refuses an id that the model's i32 input cannot hold (\p ids is I64),
/// naming the file, the sample and the element, before anything narrows it.
Status checkFitsI32(const Tensor &ids, const std::string &path) {
  int64_t per = ids.dim(0) > 0 ? ids.numElements() / ids.dim(0) : 1;
  const int64_t *v = ids.as<int64_t>();
  for (int64_t i = 0; i < ids.numElements(); ++i)
    if (v[i] < INT32_MIN || v[i] > INT32_MAX)
      return errorf("%s: sample %lld, element %lld: id %lld does not fit the model's i32 input",
                    path.c_str(), (long long)(i / per), (long long)(i % per),
                    (long long)v[i]);
  return Status::ok();
}

/// Reads one INPUT as [N, input...] f32 (or ids), transformed like the
/// training data.
Expected<Dataset> readPredictInput(const ModelrtProgram &p, const std::string &path) {
  std::vector<int64_t> sample(p.input_shape, p.input_shape + p.input_rank);
  if (auto size = statDataFile(path); !size) // before anything opens it
    return size.status();
  Expected<Tensor> t = Status::error("unread");
  bool image = endsWith(path, ".png") || endsWith(path, ".jpg") || endsWith(path, ".jpeg");
  bool csv = endsWith(path, ".csv");
  if (inputType(p) != DType::F32) {
    t = readIds(p, path, csv);
  } else if (image && p.config.data.format == MODELRT_DATA_IMAGES) {
    // As the training images: channels, resize and centre crop.
    auto img = loadFolderImage(path, imageFolderSpec(p));
    t = img ? fitImage(*img, sample, path) : Expected<Tensor>(img.status());
  } else if (image) {
    auto img = readImage(path);
    t = img ? fitImage(*img, sample, path) : Expected<Tensor>(img.status());
  } else if (csv) {
    t = readCsvSamples(p, path);
  } else {
    t = endsWith(path, ".npy") ? readNpy(path) : readIdx(path);
  }
  if (!t)
    return t.status();
  // Ids stay i64 until they are checked: narrowing first could turn an id
  // out of range into one in range.
  Tensor x = t->convertTo(inputType(p) == DType::F32 ? DType::F32 : DType::I64);
  MODELRT_TRY(fitSamples(x, sample, csv, path));
  Dataset d;
  d.name = path;
  d.inputs = std::move(x);
  d.labels = Tensor(DType::I64, {d.inputs.dim(0)});
  MODELRT_TRY(applyInputTransforms(d, p.config.data));
  DataRules rules = dataRules(p);
  rules.numClasses = 0; // no labels
  MODELRT_TRY(validateDataset(d, rules));
  if (inputType(p) == DType::I32) {
    MODELRT_TRY(checkFitsI32(d.inputs, path));
    d.inputs = d.inputs.convertTo(DType::I32);
  }
  return d;
}

/// The text of predicted ids \p ids: the vocabulary's characters (chars),
/// the bytes (bytes), or "" for a model without text.
std::string predictedText(const ModelrtProgram &p, const std::vector<int64_t> &ids) {
  std::string out;
  for (int64_t id : ids)
    if (id >= 0 && id < p.num_vocab)
      modelsupport::text::appendUtf8(out, uint32_t(p.vocab[id]));
    else if (p.config.data.tokens == MODELRT_TOKENS_BYTES && id >= 0 && id < 256)
      out += char(id);
  return out;
}

/// The softmax of logits \p o[0..n) in place. +inf logits share the whole
/// probability, as in the limit; a NaN logit, or logits that are all -inf,
/// make every probability NaN (no class: predictedClass).
void softmaxInPlace(float *o, int64_t n) {
  float mx = -INFINITY;
  for (int64_t k = 0; k < n; ++k)
    mx = std::isnan(o[k]) || std::isnan(mx) ? NAN : std::max(mx, o[k]);
  if (mx == INFINITY) {
    float top = float(std::count(o, o + n, INFINITY));
    for (int64_t k = 0; k < n; ++k)
      o[k] = o[k] == INFINITY ? 1.0f / top : 0.0f;
    return;
  }
  float z = 0;
  for (int64_t k = 0; k < n; ++k)
    z += std::exp(o[k] - mx);
  for (int64_t k = 0; k < n; ++k)
    o[k] = std::exp(o[k] - mx) / z;
}

/// The predicted class of probabilities \p q[0..n): the first largest, or
/// -1 when one is NaN (the model's outputs were NaN: no class is named).
int64_t predictedClass(const float *q, int64_t n) {
  if (std::any_of(q, q + n, [](float v) { return std::isnan(v); }))
    return -1;
  return std::max_element(q, q + n) - q;
}

/// Prints one sample of a model with a class per position: the predicted
/// class (argmax of the probabilities) of each, and their text.
void printPositions(const ModelrtProgram &p, const std::string &path, int64_t i, const float *o,
                    int64_t per, bool json) {
  int64_t classes = p.output_shape[p.output_rank - 1];
  std::vector<int64_t> best;
  for (int64_t at = 0; at < per; at += classes)
    best.push_back(predictedClass(o + at, classes));
  std::string list, text = predictedText(p, best);
  for (int64_t c : best) // a position without a class: null, or ? as text
    list += (list.empty() ? ""
             : json       ? ", "
                          : " ") +
            (c >= 0 ? std::to_string(c)
             : json ? "null"
                    : "?");
  bool hasText = p.num_vocab > 0 || p.config.data.tokens == MODELRT_TOKENS_BYTES;
  if (json)
    std::printf("{\"input\": %s, \"index\": %lld, \"classes\": [%s]%s%s}\n",
                jsonQuote(path).c_str(), (long long)i, list.c_str(),
                hasText ? ", \"text\": " : "", hasText ? jsonQuote(text).c_str() : "");
  else
    std::printf("%s[%lld]: classes %s%s%s\n", path.c_str(), (long long)i, list.c_str(),
                hasText ? " text " : "", hasText ? jsonQuote(text).c_str() : "");
}

/// One printed output value. Text: a probability with 6 decimals, any other
/// output with 6 significant digits (%g: 9.2e-41 and 3.4e+38 stay
/// readable); JSON: 9 significant digits, which read back as the same f32.
/// Non-finite values print as nan, inf and -inf, and in JSON, which has no
/// such numbers, as the strings "NaN", "Infinity" and "-Infinity".
std::string formatOutput(double v, bool json, bool probability) {
  if (!std::isfinite(v)) {
    const char *name = std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
    if (json)
      name = std::isnan(v) ? "\"NaN\"" : v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
    return name;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, json ? "%.9g" : probability ? "%.6f" : "%.6g", v);
  return buf;
}

/// Prints one sample's result (probabilities for classifiers) as text or JSON.
void printSample(const ModelrtProgram &p, const std::string &path, int64_t i, const float *o,
                 int64_t per, bool json) {
  std::vector<double> v(o, o + per);
  bool classifier = p.num_classes > 0; // o already holds the softmax probabilities
  int64_t best = classifier ? predictedClass(o, per) : -1;
  std::string line;
  const char *name = best >= 0 && best < p.num_class_names ? p.class_names[best] : nullptr;
  if (json) {
    line = "{\"input\": " + jsonQuote(path) + ", \"index\": " + std::to_string(i);
    if (classifier)
      line += ", \"class\": " + (best >= 0 ? std::to_string(best) : "null");
    if (name)
      line += ", \"class_name\": " + jsonQuote(name);
    line += classifier ? ", \"probabilities\": [" : ", \"outputs\": [";
  } else {
    line = path + "[" + std::to_string(i) + "]:";
    if (classifier)
      line += " class " +
              (best < 0 ? std::string("none (NaN probabilities)")
                        : std::to_string(best) + (name ? std::string(" (") + name + ")" : "")) +
              " probabilities";
  }
  for (int64_t k = 0; k < per; ++k)
    line += (json && k ? ", " : json ? "" : " ") + formatOutput(v[k], json, classifier);
  std::printf("%s\n", json ? (line + "]}").c_str() : line.c_str());
}

/// The classes of one prediction: the output's last dimension.
int64_t classesPer(const ModelrtProgram &p) {
  return p.output_rank > 0 ? p.output_shape[p.output_rank - 1] : 1;
}

/// The values per sample of outputs \p out ([N, ...]).
int64_t sampleSize(const Tensor &out) {
  return out.numElements() / std::max<int64_t>(out.dim(0), 1);
}

/// The outputs of every INPUT, softmax probabilities for classifiers.
Expected<std::vector<Tensor>> predictAll(const ModelrtProgram &p, ModelState &m,
                                         const std::vector<Dataset> &inputs, int64_t batch,
                                         StepRunner *runner) {
  std::vector<Tensor> outs;
  for (const Dataset &d : inputs) {
    auto out = predictTensor(p, m, d.inputs, batch, runner);
    if (!out)
      return out.status();
    // A softmax over each run of classes (the output's last dimension).
    int64_t per = classesPer(p), runs = out->numElements() / std::max<int64_t>(per, 1);
    for (int64_t i = 0; p.num_classes > 0 && i < runs; ++i)
      softmaxInPlace(out->as<float>() + i * per, per);
    outs.push_back(out.take());
  }
  return outs;
}

/// Where `--png DIR` puts the outputs: the model input's image geometry
/// (which each output sample must fill) and the directory.
struct PngOutput {
  std::string dir;
  int64_t channels = 0, height = 0, width = 0;
};

/// The data block's normalisation must be global, per channel or per value
/// of the image for --png to undo it.
Status checkPngNormalisation(const ModelrtDataConfig &d, const PngOutput &png) {
  int64_t n = d.num_norm, values = png.channels * png.height * png.width;
  if (n <= 1 || n == png.channels || n == values)
    return Status::ok();
  return errorf("--png: the data block normalises with %lld means, neither one, one per "
                "channel (%lld) nor one per value (%lld): the images cannot be recovered",
                (long long)n, (long long)png.channels, (long long)values);
}

/// The file name stem of INPUT \p path: its base name without a trailing
/// ".gz" and then without its extension.
std::string inputStem(std::string path) {
  path = path.substr(path.find_last_of('/') + 1);
  if (endsWith(path, ".gz"))
    path.resize(path.size() - 3);
  size_t dot = path.find_last_of('.');
  return dot == std::string::npos || dot == 0 ? path : path.substr(0, dot);
}

/// Two INPUTs whose images would share file names under --png.
Status checkDistinctStems(const CliArgs &a) {
  std::vector<std::string> stems;
  for (const std::string &path : a.positional) {
    std::string s = inputStem(path);
    if (std::find(stems.begin(), stems.end(), s) != stems.end())
      return errorf("--png: two INPUTs would write the same files %s-N.png; rename one",
                    s.c_str());
    stems.push_back(s);
  }
  return Status::ok();
}

/// Checks, before anything is read or written, that --png can write the
/// outputs as images of the model input's geometry; \p pngs stays empty
/// without --png.
Status preparePng(const ModelrtProgram &p, const CliArgs &a, std::vector<PngOutput> &pngs) {
  auto it = a.flags.find("--png");
  if (it == a.flags.end())
    return Status::ok();
  std::vector<int64_t> sample(p.input_shape, p.input_shape + p.input_rank);
  std::vector<int64_t> out(p.output_shape, p.output_shape + p.output_rank);
  PngOutput png;
  png.dir = it->second;
  int64_t outCount = 1;
  for (int64_t d : out)
    outCount *= d;
  if (!imageGeometry(sample, 1, png.channels, png.height, png.width) || png.channels > 4)
    return errorf("--png: the model input %s is not an image (C x H x W with 1 to 4 channels, "
                  "H x W, or a square flat input)", shapeToString(sample).c_str());
  if (outCount == png.channels * png.height * png.width && p.num_classes > 0)
    return errorf("--png: the model is a classifier (%d classes): its outputs are class "
                  "probabilities, not images", int(p.num_classes));
  if (outCount != png.channels * png.height * png.width)
    return errorf("--png: the model's output %s per sample is not an image of its input's size "
                  "(input %s: %lld values); --png writes outputs such as an autoencoder's "
                  "reconstructions", shapeToString(out).c_str(), shapeToString(sample).c_str(),
                  (long long)(png.channels * png.height * png.width));
  MODELRT_TRY(checkPngNormalisation(p.config.data, png));
  MODELRT_TRY(checkDistinctStems(a));
  pngs.push_back(png);
  return Status::ok();
}

/// Output sample \p o as 8-bit interleaved pixels: the data block's input
/// transform (x * scale - mean) / std undone (one mean and std, one per
/// channel, or one per value: checkPngNormalisation), rounded, clamped to
/// 0-255 (NaN becomes 0).
std::vector<uint8_t> outputPixels(const ModelrtDataConfig &d, const PngOutput &png,
                                  const float *o) {
  double scale = d.scale != 0 ? d.scale : 1.0;
  int64_t hw = png.height * png.width;
  std::vector<uint8_t> px(size_t(png.channels * hw));
  for (int64_t c = 0; c < png.channels; ++c)
    for (int64_t i = 0; i < hw; ++i) {
      int64_t k = d.num_norm == png.channels * hw ? c * hw + i : d.num_norm > 1 ? c : 0;
      double mean = d.num_norm > 0 ? d.mean[k] : 0, sd = d.num_norm > 0 ? d.std[k] : 1;
      double v = (double(o[c * hw + i]) * sd + mean) / scale;
      v = std::isnan(v) ? 0 : std::min(255.0, std::max(0.0, std::round(v)));
      px[size_t(i * png.channels + c)] = uint8_t(v);
    }
  return px;
}

/// One image --png wrote: sample \p index of INPUT \p input as \p file.
struct WrittenPng {
  std::string input;
  int64_t index;
  std::string file;
};

/// The line of one written image, as text or JSON.
void printPngLine(const WrittenPng &w, bool json) {
  if (json)
    std::printf("{\"input\": %s, \"index\": %lld, \"image\": %s}\n", jsonQuote(w.input).c_str(),
                (long long)w.index, jsonQuote(w.file).c_str());
  else
    std::printf("%s[%lld]: image %s\n", w.input.c_str(), (long long)w.index, w.file.c_str());
}

/// Writes every output sample as DIR/STEM-i.png (DIR made with its
/// parents), then prints one line per image. On an error the images
/// written so far are removed, and DIR when it was made here.
Status writePngs(const ModelrtProgram &p, const PngOutput &png,
                 const std::vector<Dataset> &inputs, const std::vector<Tensor> &outs, bool json) {
  struct stat st;
  bool made = ::stat(png.dir.c_str(), &st) != 0;
  if (Status s = makeDirectories(png.dir); !s.isOk())
    return errorf("--png: %s", s.message().c_str());
  std::vector<WrittenPng> written;
  for (size_t k = 0; k < inputs.size(); ++k)
    for (int64_t i = 0, n = outs[k].dim(0); i < n; ++i) {
      std::string file = png.dir + "/" + inputStem(inputs[k].name) + "-" + std::to_string(i) +
                         ".png";
      std::vector<uint8_t> px =
          outputPixels(p.config.data, png, outs[k].as<float>() + i * sampleSize(outs[k]));
      if (Status s = writePng(file, px.data(), png.width, png.height, int(png.channels));
          !s.isOk()) {
        for (const WrittenPng &w : written)
          std::remove(w.file.c_str());
        if (made)
          ::rmdir(png.dir.c_str());
        return errorf("--png: %s", s.message().c_str());
      }
      written.push_back({inputs[k].name, i, file});
    }
  for (const WrittenPng &w : written)
    printPngLine(w, json);
  return Status::ok();
}

/// Warns, on stderr, when some samples' outputs are NaN or infinite (the
/// model overflowed on them): how many, and the first.
void warnNonFinite(const CliArgs &a, const std::vector<Dataset> &inputs,
                   const std::vector<Tensor> &outs) {
  int64_t bad = 0, total = 0;
  std::string first;
  for (size_t k = 0; k < inputs.size(); ++k)
    for (int64_t i = 0, n = outs[k].dim(0), per = sampleSize(outs[k]); i < n; ++i, ++total) {
      const float *o = outs[k].as<float>() + i * per;
      if (std::all_of(o, o + per, [](float v) { return std::isfinite(v); }))
        continue;
      if (bad++ == 0)
        first = inputs[k].name + "[" + std::to_string(i) + "]";
    }
  if (bad)
    std::fprintf(stderr,
                 "%s: warning: %lld of %lld samples have outputs that are not finite (NaN or "
                 "infinity), the first %s\n",
                 a.self.c_str(), (long long)bad, (long long)total, first.c_str());
}

} // namespace

Status runPredict(const ModelrtProgram &p, const CliArgs &a) {
  int64_t batch = p.config.batch_size > 0 ? p.config.batch_size : 64, threads;
  MODELRT_TRY(batchFlag(a, batch));
  MODELRT_TRY(applyThreads(p, a, threads));
  if (a.flags.count("--out") && a.positional.size() != 1)
    return errorf("--out writes one NPY file: give exactly one INPUT");
  std::vector<PngOutput> png; // one entry with --png
  MODELRT_TRY(preparePng(p, a, png));
  auto m = loadModel(p, a, a.flags.at("--checkpoint"));
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
  auto outs = predictAll(p, *m, inputs, batch, runner->get());
  if (!outs)
    return outs.status();
  bool json = a.flags.count("--json") > 0;
  if (!png.empty())
    MODELRT_TRY(writePngs(p, png[0], inputs, *outs, json));
  else
    for (size_t k = 0; k < inputs.size(); ++k)
      for (int64_t i = 0, n = (*outs)[k].dim(0); i < n; ++i)
        (p.num_classes > 0 && p.label_rank > 0 ? printPositions : printSample)(
            p, inputs[k].name, i, (*outs)[k].as<float>() + i * sampleSize((*outs)[k]),
            sampleSize((*outs)[k]), json);
  if (a.flags.count("--out"))
    MODELRT_TRY(writeNpy(a.flags.at("--out"), outs->front()));
  warnNonFinite(a, inputs, *outs);
  return Status::ok();
}

} // namespace modelrt
