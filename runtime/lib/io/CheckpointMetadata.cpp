//===- CheckpointMetadata.cpp - A checkpoint's __metadata__ fields ---------===//
#include "modelrt/io/CheckpointMetadata.h"

#include "modelrt/core/Rng.h"
#include "modelrt/io/Json.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace modelrt {

namespace {
/// Every metadata key, in the order they are written.
const char *const kKeys[] = {"format",
                             "format_version",
                             "abi_version",
                             "model",
                             "fingerprint",
                             "schema",
                             "epoch",
                             "step",
                             "optimizer.kind",
                             "optimizer.steps",
                             "schedule.epoch",
                             "schedule.step",
                             "schedule.plateau_lr",
                             "schedule.best",
                             "schedule.bad_epochs",
                             "schedule.has_best",
                             "early_stop.best",
                             "early_stop.bad_epochs",
                             "early_stop.has_best",
                             "best.loss",
                             "best.has",
                             "data.epoch",
                             "data.batch_index",
                             "data.seed",
                             "rng.state",
                             "partial.loss_sum",
                             "partial.samples",
                             "partial.counted",
                             "partial.metric_sums",
                             "window.loss_sum",
                             "window.batches",
                             "metrics",
                             "classes",
                             "vocab",
                             kChecksumKey};
/// The keys format version 7 added (absent, and refused, in 5 and 6).
const char *const kVersion7Keys[] = {"partial.loss_sum",    "partial.samples", "partial.counted",
                                     "partial.metric_sums", "window.loss_sum", "window.batches"};
constexpr const char *kFormat = "modelrt-checkpoint";
constexpr int32_t kMaxOptimizerKind = 3; // OptimizerKind::RMSprop
constexpr const char *kChecksumPrefix = "\"checksum\":\"0x";

std::string num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}
std::string num(int64_t v) { return std::to_string(v); }
std::string hex64(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)v);
  return buf;
}

/// \p s as 16 lowercase hex digits, exactly.
bool parseHex64(const std::string &s, uint64_t &out) {
  if (s.size() != 16 || s.find_first_not_of("0123456789abcdef") != std::string::npos)
    return false;
  out = std::strtoull(s.c_str(), nullptr, 16);
  return true;
}

/// \p s as a canonical decimal integer (no sign '+', no leading zeros).
bool parseInteger(const std::string &s, int64_t &out) {
  if (s.empty() || s.size() > 20)
    return false;
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (*end || errno == ERANGE)
    return false;
  out = v;
  return std::to_string(v) == s;
}

/// \p s as a double printed by "%.17g" (so it reads back bit-exactly).
bool parseReal(const std::string &s, double &out) {
  if (s.empty())
    return false;
  char *end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return !*end && num(out) == s;
}

/// The "schema" metadata: the parameter and state tables as JSON.
std::string schemaJson(const CheckpointData &d) {
  std::string s = "{";
  for (auto [key, list] : {std::make_pair("params", &d.params), std::make_pair("state", &d.state)}) {
    s += std::string(s.size() > 1 ? "," : "") + "\"" + key + "\":[";
    for (size_t i = 0; i < list->size(); ++i) {
      const auto &[name, t] = (*list)[i];
      s += std::string(i ? "," : "") + "{\"name\":" + jsonQuote(name) + ",\"dtype\":\"" +
           safetensorsDType(t.dtype()) + "\",\"shape\":" + shapeToString(t.shape()) + "}";
    }
    s += "]";
  }
  return s + "}";
}

std::string metricsJson(const std::vector<std::pair<std::string, double>> &metrics) {
  std::string s = "{";
  for (size_t i = 0; i < metrics.size(); ++i)
    s += (i ? "," : "") + jsonQuote(metrics[i].first) + ":" +
         (std::isfinite(metrics[i].second) ? num(metrics[i].second) : "null");
  return s + "}";
}

/// Numbers as a JSON array, each printed with %.17g.
std::string numbersJson(const std::vector<double> &values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? "," : "") + num(values[i]);
  return s + "]";
}

/// The class names as a JSON array of strings.
std::string classesJson(const std::vector<std::string> &names) {
  std::string s = "[";
  for (size_t i = 0; i < names.size(); ++i)
    s += (i ? "," : "") + jsonQuote(names[i]);
  return s + "]";
}

/// The vocabulary as a JSON array of code points.
std::string vocabJson(const std::vector<uint32_t> &vocab) {
  std::string s = "[";
  for (size_t i = 0; i < vocab.size(); ++i)
    s += (i ? "," : "") + std::to_string(vocab[i]);
  return s + "]";
}

/// The tables of the tensors of \p d (what its fingerprint describes).
uint64_t tensorFingerprint(const CheckpointData &d) {
  std::vector<TensorInfo> tables[2];
  for (int k = 0; k < 2; ++k)
    for (const auto &[name, t] : k ? d.state : d.params)
      tables[k].push_back({name, t.shape(), t.dtype()});
  return modelFingerprint(tables[0], tables[1]);
}
} // namespace

std::vector<std::pair<std::string, std::string>> encodeCheckpointMetadata(const CheckpointData &d) {
  const ScheduleState &s = d.schedule;
  const LoaderPosition &l = d.loader;
  std::vector<std::pair<std::string, std::string>> fields = {
      {"format", kFormat}, {"format_version", std::to_string(kCheckpointVersion)},
      {"abi_version", std::to_string(d.abiVersion)}, {"model", d.modelName},
      {"fingerprint", fingerprintToString(d.fingerprint)}, {"schema", schemaJson(d)},
      {"epoch", num(d.epoch)}, {"step", num(d.step)},
      {"optimizer.kind", std::to_string(d.optimizerKind)},
      {"optimizer.steps", num(d.optimizerSteps)},
      {"schedule.epoch", num(s.epoch)}, {"schedule.step", num(s.step)},
      {"schedule.plateau_lr", num(s.plateauLr)}, {"schedule.best", num(s.best)},
      {"schedule.bad_epochs", num(s.badEpochs)}, {"schedule.has_best", s.hasBest ? "1" : "0"},
      {"early_stop.best", num(d.earlyBest)}, {"early_stop.bad_epochs", num(d.earlyBad)},
      {"early_stop.has_best", d.earlyHasBest ? "1" : "0"},
      {"best.loss", num(d.bestLoss)}, {"best.has", d.hasBestLoss ? "1" : "0"},
      {"data.epoch", num(l.epoch)}, {"data.batch_index", num(l.batchIndex)}};
  if (d.seed)
    fields.push_back({"data.seed", std::to_string(*d.seed)});
  const LossSums &e = d.epochSums;
  fields.insert(fields.end(),
                {{"rng.state", hex64(l.rngState[0]) + "," + hex64(l.rngState[1]) + "," +
                                   hex64(l.rngState[2]) + "," + hex64(l.rngState[3])},
                 {"partial.loss_sum", num(e.loss)},
                 {"partial.samples", num(e.samples)},
                 {"partial.counted", num(e.counted)},
                 {"partial.metric_sums", numbersJson(e.metrics)},
                 {"window.loss_sum", num(d.stepWindow.loss)},
                 {"window.batches", num(d.stepWindow.batches)},
                 {"metrics", metricsJson(d.metrics)},
                 {"classes", classesJson(d.classNames)},
                 {"vocab", vocabJson(d.vocab)},
                 {kChecksumKey, "0x" + std::string(16, '0')}});
  return fields;
}

uint64_t checkpointChecksum(const std::string &bytes, size_t digitsAt) {
  Fnv1a fnv;
  const unsigned char *p = reinterpret_cast<const unsigned char *>(bytes.data());
  for (size_t i = 0; i < bytes.size(); ++i)
    fnv.mixByte(i - digitsAt < 16 ? '0' : p[i]);
  return fnv.hash;
}

size_t findChecksumDigits(const std::string &bytes) {
  if (bytes.size() < 8)
    return std::string::npos;
  uint64_t n = headerLength(bytes.data());
  if (n > bytes.size() - 8)
    return std::string::npos;
  std::string header = bytes.substr(8, n);
  size_t at = header.find(kChecksumPrefix);
  if (at == std::string::npos || header.find(kChecksumPrefix, at + 1) != std::string::npos)
    return std::string::npos;
  size_t digits = at + std::strlen(kChecksumPrefix);
  uint64_t ignored;
  if (digits + 17 > header.size() || header[digits + 16] != '"' ||
      !parseHex64(header.substr(digits, 16), ignored))
    return std::string::npos;
  return 8 + digits;
}

void sealCheckpointChecksum(std::string &bytes) {
  size_t at = findChecksumDigits(bytes);
  if (at == std::string::npos)
    return;
  std::string digits = hex64(checkpointChecksum(bytes, at));
  bytes.replace(at, 16, digits);
}

Status checkCheckpointFormat(const SafetensorsFile &f, const std::string &path) {
  const std::string *version = f.meta("format_version");
  if (!version)
    return errorf("%s: __metadata__ lacks field 'format_version'", path.c_str());
  int64_t v = 0;
  if (!parseInteger(*version, v) || v < kOldestCheckpointVersion || v > kCheckpointVersion)
    return errorf("%s: checkpoint format version %s, this runtime reads versions %u to %u",
                  path.c_str(), version->c_str(), kOldestCheckpointVersion, kCheckpointVersion);
  const std::string *format = f.meta("format");
  if (!format)
    return errorf("%s: __metadata__ lacks field 'format'", path.c_str());
  if (*format != kFormat)
    return errorf("%s: __metadata__ field 'format' = '%s' is not '%s'", path.c_str(),
                  format->c_str(), kFormat);
  return Status::ok();
}

Status verifyCheckpointChecksum(const std::string &bytes, const SafetensorsFile &f,
                                const std::string &path) {
  const std::string *value = f.meta(kChecksumKey);
  if (!value)
    return errorf("%s: __metadata__ lacks field '%s'", path.c_str(), kChecksumKey);
  size_t at = findChecksumDigits(bytes);
  uint64_t stored = 0;
  if (at == std::string::npos || value->size() != 18 || value->compare(0, 2, "0x") != 0 ||
      !parseHex64(value->substr(2), stored) || bytes.compare(at - 2, 18, *value) != 0)
    return errorf("%s: __metadata__ field '%s' = '%s' is not \"0x\" and 16 hex digits, once",
                  path.c_str(), kChecksumKey, value->c_str());
  uint64_t actual = checkpointChecksum(bytes, at);
  if (actual != stored)
    return errorf("%s: checksum mismatch: __metadata__ field '%s' = %s, the file's bytes "
                  "hash to 0x%s: the file is corrupt or was modified",
                  path.c_str(), kChecksumKey, value->c_str(), hex64(actual).c_str());
  return Status::ok();
}

namespace {
/// Reads metadata fields, checking each value before it is stored; keeps
/// the first problem.
class FieldReader {
public:
  FieldReader(const SafetensorsFile &f, const std::string &path) : f(f), path(path) {}
  const Status &status() const { return err; }
  bool ok() const { return err.isOk(); }

  /// Records "PATH: __metadata__ field 'KEY' = VALUE WHAT" (the first one).
  void fail(const char *key, const std::string &value, const std::string &what) {
    if (err.isOk())
      err = errorf("%s: __metadata__ field '%s' = %s %s", path.c_str(), key, value.c_str(),
                   what.c_str());
  }
  const std::string *get(const char *key) {
    const std::string *v = f.meta(key);
    if (!v && err.isOk())
      err = errorf("%s: __metadata__ lacks field '%s'", path.c_str(), key);
    return v;
  }
  /// An integer in [lo, hi].
  template <typename T> void integer(const char *key, T &out, int64_t lo, int64_t hi) {
    const std::string *v = get(key);
    int64_t x = 0;
    if (!v)
      return;
    if (!parseInteger(*v, x))
      return fail(key, "'" + *v + "'", "is not a decimal integer");
    if (x < 0 && lo == 0 && hi == INT64_MAX)
      return fail(key, *v, "is negative");
    if (x < lo || x > hi)
      return fail(key, *v, "is outside [" + num(lo) + ", " + num(hi) + "]");
    out = T(x);
  }
  /// A non-negative counter.
  void counter(const char *key, int64_t &out) { integer(key, out, 0, INT64_MAX); }
  /// A double, NaN only when \p nanOk.
  void real(const char *key, double &out, bool nanOk) {
    const std::string *v = get(key);
    if (v && !parseReal(*v, out))
      fail(key, "'" + *v + "'", "is not a number printed with %.17g");
    else if (v && !nanOk && std::isnan(out))
      fail(key, *v, "is not a number (NaN)");
  }
  void flag(const char *key, bool &out) {
    const std::string *v = get(key);
    if (v && *v != "0" && *v != "1")
      fail(key, "'" + *v + "'", "is not 0 or 1");
    out = v && *v == "1";
  }
  /// An optional unsigned 64-bit decimal (a seed); \p out stays empty
  /// when the field is absent.
  void optionalSeed(const char *key, std::optional<uint64_t> &out) {
    const std::string *v = f.meta(key);
    uint64_t x = 0;
    if (!v)
      return;
    if (!parseSeed(*v, x) || std::to_string(x) != *v) // canonical: no leading zeros
      return fail(key, "'" + *v + "'", "is not an unsigned decimal integer");
    out = x;
  }
  /// Requires field \p key (value \p v) to equal field \p other (value \p w).
  void same(const char *key, int64_t v, const char *other, int64_t w) {
    if (v != w)
      fail(key, num(v), std::string("differs from field '") + other + "' = " + num(w));
  }
  /// Requires \p value of field \p key to be 0 when flag \p flagKey is 0.
  void zeroUnless(const char *key, double value, const char *flagKey, bool flag) {
    if (!flag && value != 0)
      fail(key, num(value), std::string("with field '") + flagKey + "' = 0 (must be 0)");
  }

private:
  const SafetensorsFile &f;
  const std::string &path;
  Status err = Status::ok();
};

/// Every key is known and appears once.
Status checkKeys(const SafetensorsFile &f, const std::string &path) {
  for (size_t i = 0; i < f.metadata.size(); ++i) {
    const std::string &k = f.metadata[i].first;
    if (std::none_of(std::begin(kKeys), std::end(kKeys), [&](const char *key) { return k == key; }))
      return errorf("%s: __metadata__ has an unknown field '%s'", path.c_str(), k.c_str());
    for (size_t j = 0; j < i; ++j)
      if (f.metadata[j].first == k)
        return errorf("%s: __metadata__ field '%s' appears twice", path.c_str(), k.c_str());
  }
  return Status::ok();
}

/// abi_version, model, fingerprint and schema (against the tensors of \p d).
void readIdentity(FieldReader &m, CheckpointData &d) {
  m.integer("abi_version", d.abiVersion, 1, UINT32_MAX);
  if (const std::string *name = m.get("model"); name && name->empty())
    m.fail("model", "''", "is empty");
  else if (name)
    d.modelName = *name;
  if (const std::string *fp = m.get("fingerprint")) {
    if (fp->size() != 18 || fp->compare(0, 2, "0x") != 0 ||
        !parseHex64(fp->substr(2), d.fingerprint))
      m.fail("fingerprint", "'" + *fp + "'", "is not \"0x\" and 16 hex digits");
    else if (d.fingerprint != tensorFingerprint(d))
      m.fail("fingerprint", *fp, "is not the fingerprint of the file's tensors, " +
                                     fingerprintToString(tensorFingerprint(d)));
  }
  if (const std::string *schema = m.get("schema"); schema && *schema != schemaJson(d))
    m.fail("schema", "'" + *schema + "'",
           "does not describe the file's tensors, " + schemaJson(d));
}

/// epoch, step, optimizer.* and schedule.*; the counters agree.
void readProgress(FieldReader &m, CheckpointData &d) {
  m.counter("epoch", d.epoch), m.counter("step", d.step);
  m.integer("optimizer.kind", d.optimizerKind, 0, kMaxOptimizerKind);
  m.counter("optimizer.steps", d.optimizerSteps);
  ScheduleState &s = d.schedule;
  m.counter("schedule.epoch", s.epoch), m.counter("schedule.step", s.step);
  m.real("schedule.plateau_lr", s.plateauLr, false);
  if (m.ok() && !(std::isfinite(s.plateauLr) && s.plateauLr >= 0))
    m.fail("schedule.plateau_lr", num(s.plateauLr), "is not a finite non-negative rate");
  m.real("schedule.best", s.best, false);
  m.integer("schedule.bad_epochs", s.badEpochs, 0, d.epoch);
  m.flag("schedule.has_best", s.hasBest);
  if (!m.ok())
    return;
  m.same("optimizer.steps", d.optimizerSteps, "step", d.step);
  m.same("schedule.step", s.step, "step", d.step);
  m.same("schedule.epoch", s.epoch, "epoch", d.epoch);
  m.zeroUnless("schedule.best", s.best, "schedule.has_best", s.hasBest);
}

/// early_stop.*, best.*, data.* and rng.state.
void readPosition(FieldReader &m, CheckpointData &d) {
  m.real("early_stop.best", d.earlyBest, false);
  m.integer("early_stop.bad_epochs", d.earlyBad, 0, d.epoch);
  m.flag("early_stop.has_best", d.earlyHasBest);
  m.real("best.loss", d.bestLoss, true);
  m.flag("best.has", d.hasBestLoss);
  m.zeroUnless("early_stop.best", d.earlyBest, "early_stop.has_best", d.earlyHasBest);
  m.zeroUnless("best.loss", d.bestLoss, "best.has", d.hasBestLoss);
  m.counter("data.epoch", d.loader.epoch);
  m.counter("data.batch_index", d.loader.batchIndex);
  if (m.ok())
    m.same("data.epoch", d.loader.epoch, "epoch", d.epoch);
  m.optionalSeed("data.seed", d.seed);
  const std::string *rng = m.get("rng.state");
  if (!rng)
    return;
  bool good = rng->size() == 67;
  for (int k = 0; k < 4 && good; ++k)
    good = parseHex64(rng->substr(17 * k, 16), d.loader.rngState[k]) &&
           (k == 3 || (*rng)[17 * k + 16] == ',');
  if (!good)
    m.fail("rng.state", "'" + *rng + "'", "is not 4 comma-separated words of 16 hex digits");
  else if (d.loader.rngState == std::array<uint64_t, 4>{})
    m.fail("rng.state", *rng, "is all zero (not a xoshiro256** state)");
}

/// window.*: the steps.csv window in progress (required from format 7 on;
/// zero before): a finite sum, 0 over no batch.
void readStepWindow(FieldReader &m, CheckpointData &d) {
  StepWindow &w = d.stepWindow;
  m.real("window.loss_sum", w.loss, false);
  if (m.ok() && !std::isfinite(w.loss))
    m.fail("window.loss_sum", num(w.loss), "is not finite");
  m.counter("window.batches", w.batches);
  m.zeroUnless("window.loss_sum", w.loss, "window.batches", w.batches > 0);
}

/// partial.* and window.*: the sums of the epoch and the steps.csv window
/// in progress (required from format 7 on; absent before, and zero).
/// partial.* is finite, and all zero at an epoch's start (batch index 0).
void readEpochSums(FieldReader &m, const std::string &path, const SafetensorsFile &f,
                   CheckpointData &d) {
  int64_t version = 0; // checked by checkCheckpointFormat
  parseInteger(*f.meta("format_version"), version);
  if (version < 7) {
    for (const char *key : kVersion7Keys)
      if (const std::string *v = f.meta(key))
        m.fail(key, "'" + *v + "'",
               "is not a field of format version " + num(version) + " (it came with 7)");
    return;
  }
  readStepWindow(m, d);
  LossSums &e = d.epochSums;
  m.real("partial.loss_sum", e.loss, false);
  if (m.ok() && !std::isfinite(e.loss))
    m.fail("partial.loss_sum", num(e.loss), "is not finite");
  m.counter("partial.samples", e.samples), m.counter("partial.counted", e.counted);
  const std::string *text = m.get("partial.metric_sums");
  if (!text)
    return;
  auto j = parseJson(*text, path + ": __metadata__ field 'partial.metric_sums'");
  bool good = j && j->kind == JsonValue::Kind::Array;
  for (size_t i = 0; good && i < j->items.size(); ++i) {
    good = j->items[i].kind == JsonValue::Kind::Number && std::isfinite(j->items[i].number);
    e.metrics.push_back(j->items[i].number);
  }
  if (!good || numbersJson(e.metrics) != *text)
    return m.fail("partial.metric_sums", "'" + *text + "'",
                  "is not an array of finite numbers printed with %.17g");
  bool zero = e.loss == 0 && e.samples == 0 && e.counted == 0 && e.metrics.empty();
  if (m.ok() && d.loader.batchIndex == 0 && !zero)
    m.fail("data.batch_index", "0",
           "with sums of an epoch in progress (partial.*): an epoch's start has none (0, and "
           "partial.metric_sums [])");
  else if (m.ok() && d.loader.batchIndex > 0 && e.samples == 0)
    m.fail("data.batch_index", num(d.loader.batchIndex),
           "with field 'partial.samples' = 0: the batches trained on hold samples");
}

/// metrics: a JSON object of numbers and nulls (non-finite values).
void readMetrics(FieldReader &m, const std::string &path, CheckpointData &d) {
  const std::string *text = m.get("metrics");
  if (!text)
    return;
  auto j = parseJson(*text, path + ": __metadata__ field 'metrics'");
  if (!j)
    return m.fail("metrics", "'" + *text + "'", "is not JSON: " + j.message());
  bool good = j->kind == JsonValue::Kind::Object;
  for (const auto &[k, v] : j->members) {
    good = good && !k.empty() &&
           (v.kind == JsonValue::Kind::Number || v.kind == JsonValue::Kind::Null);
    d.metrics.emplace_back(k, v.kind == JsonValue::Kind::Number ? v.number : NAN);
  }
  if (!good || metricsJson(d.metrics) != *text)
    m.fail("metrics", "'" + *text + "'",
           "is not an object of named numbers (null for non-finite ones)");
}

/// classes: a JSON array of strings (empty: the program has no class
/// names).
void readClasses(FieldReader &m, const std::string &path, CheckpointData &d) {
  const std::string *text = m.get("classes");
  if (!text)
    return;
  auto j = parseJson(*text, path + ": __metadata__ field 'classes'");
  bool good = j && j->kind == JsonValue::Kind::Array;
  if (good)
    for (const JsonValue &v : j->items) {
      good = good && v.kind == JsonValue::Kind::String;
      d.classNames.push_back(v.text);
    }
  if (!good || classesJson(d.classNames) != *text)
    m.fail("classes", "'" + *text + "'", "is not an array of class names (strings)");
}

/// vocab: a JSON array of code points, strictly increasing (empty: the
/// program has no vocabulary).
void readVocab(FieldReader &m, const std::string &path, CheckpointData &d) {
  const std::string *text = m.get("vocab");
  if (!text)
    return;
  auto j = parseJson(*text, path + ": __metadata__ field 'vocab'");
  bool good = j && j->kind == JsonValue::Kind::Array;
  if (good)
    for (const JsonValue &v : j->items) {
      good = good && v.isIndex() && v.number <= 0x10ffff &&
             (d.vocab.empty() || v.number > d.vocab.back());
      d.vocab.push_back(good ? uint32_t(v.number) : 0);
    }
  if (!good || vocabJson(d.vocab) != *text)
    m.fail("vocab", "'" + *text + "'",
           "is not an increasing array of code points (integers in [0, 1114111])");
}
} // namespace

Status decodeCheckpointMetadata(const SafetensorsFile &f, const std::string &path,
                                CheckpointData &d) {
  MODELRT_TRY(checkCheckpointFormat(f, path));
  MODELRT_TRY(checkKeys(f, path));
  FieldReader m(f, path);
  readIdentity(m, d);
  readProgress(m, d);
  readPosition(m, d);
  readEpochSums(m, path, f, d);
  readMetrics(m, path, d);
  readClasses(m, path, d);
  readVocab(m, path, d);
  return m.status();
}

namespace {
/// A mid-epoch checkpoint's position and sums against the run \p t: a
/// step's end, the run's batch size, its labels and metrics.
Status checkEpochInProgress(const CheckpointData &d, const ResumeTarget &t,
                            const std::string &path) {
  const char *p = path.c_str();
  const LossSums &e = d.epochSums;
  long long index = d.loader.batchIndex, samples = e.samples, counted = e.counted;
  if (index % std::max<int64_t>(t.accumulate, 1) != 0)
    return errorf("%s: __metadata__ field 'data.batch_index' = %lld is not the end of a step "
                  "(%lld batches each, accumulate): the run was stopped with another "
                  "accumulate",
                  p, index, (long long)t.accumulate);
  if (samples != index * t.batchSize) {
    std::string hint = samples % index == 0
                           ? "; resume with --batch " + std::to_string(samples / index)
                           : std::string();
    return errorf("%s: __metadata__ field 'partial.samples' = %lld is not data.batch_index "
                  "(%lld) batches of this run's %lld samples: the epoch was begun with another "
                  "batch size%s",
                  p, samples, index, (long long)t.batchSize, hint.c_str());
  }
  long long labels = samples * t.labelsPerSample;
  if (counted > labels || (!t.labelsMayBeIgnored && counted != labels))
    return errorf("%s: __metadata__ field 'partial.counted' = %lld does not fit the %lld "
                  "labels of partial.samples = %lld samples",
                  p, counted, labels, samples);
  if (int64_t(e.metrics.size()) != t.numMetrics)
    return errorf("%s: __metadata__ field 'partial.metric_sums' has %zu values, the program "
                  "has %lld metrics",
                  p, e.metrics.size(), (long long)t.numMetrics);
  return Status::ok();
}
} // namespace

Status checkResumeTarget(const CheckpointData &d, const ResumeTarget &t, const std::string &path) {
  const char *p = path.c_str();
  if (d.fingerprint != t.fingerprint)
    return errorf("%s: __metadata__ field 'fingerprint' = %s is not the program's fingerprint %s",
                  p, fingerprintToString(d.fingerprint).c_str(),
                  fingerprintToString(t.fingerprint).c_str());
  if (d.abiVersion != t.abiVersion)
    return errorf("%s: __metadata__ field 'abi_version' = %u is not the program's ABI version %u",
                  p, d.abiVersion, t.abiVersion);
  if (d.optimizerKind != t.optimizerKind)
    return errorf("%s: __metadata__ field 'optimizer.kind' = %d is not the configured optimizer "
                  "(kind %d)", p, d.optimizerKind, t.optimizerKind);
  if (d.epoch > t.epochs)
    return errorf("%s: __metadata__ field 'epoch' = %lld exceeds the configured epochs (%lld)",
                  p, (long long)d.epoch, (long long)t.epochs);
  if (d.loader.batchIndex > 0) // another batch size is named before the range
    MODELRT_TRY(checkEpochInProgress(d, t, path));
  if (d.loader.batchIndex >= t.batchesPerEpoch)
    return errorf("%s: __metadata__ field 'data.batch_index' = %lld is outside [0, %lld) (the "
                  "training set's batches per epoch)",
                  p, (long long)d.loader.batchIndex, (long long)t.batchesPerEpoch);
  if (d.seed && *d.seed != t.seed)
    return errorf("%s: __metadata__ field 'data.seed' = %llu is not this run's seed %llu: the "
                  "seed drives the run's validation split, data order, augmentation and "
                  "dropout; resume with --seed %llu",
                  p, (unsigned long long)*d.seed, (unsigned long long)t.seed,
                  (unsigned long long)*d.seed);
  return Status::ok();
}

} // namespace modelrt
