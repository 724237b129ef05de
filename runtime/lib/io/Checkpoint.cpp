//===- Checkpoint.cpp - Checkpoints in the safetensors layout --------------===//
#include "modelrt/io/Checkpoint.h"

#include "modelrt/io/Json.h"
#include "modelrt/io/Safetensors.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <map>
#include <unistd.h>

namespace modelrt {

uint64_t modelFingerprint(const std::vector<TensorInfo> &params,
                          const std::vector<TensorInfo> &state) {
  uint64_t h = 0xcbf29ce484222325ULL;
  auto mix = [&](const void *p, size_t n) {
    for (size_t i = 0; i < n; ++i)
      h = (h ^ static_cast<const unsigned char *>(p)[i]) * 0x100000001b3ULL;
  };
  for (const auto *table : {&params, &state}) {
    uint64_t count = table->size();
    mix(&count, 8);
    for (const TensorInfo &t : *table) {
      mix(t.name.data(), t.name.size() + 1);
      int32_t dt = static_cast<int32_t>(t.dtype);
      mix(&dt, 4);
      uint64_t rank = t.shape.size();
      mix(&rank, 8);
      mix(t.shape.data(), t.shape.size() * 8);
    }
  }
  return h;
}

std::string fingerprintToString(uint64_t fp) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%016llx", (unsigned long long)fp);
  return buf;
}

namespace {
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

std::string metricsJson(const CheckpointData &d) {
  std::string s = "{";
  for (size_t i = 0; i < d.metrics.size(); ++i)
    s += (i ? "," : "") + jsonQuote(d.metrics[i].first) + ":" +
         (std::isfinite(d.metrics[i].second) ? num(d.metrics[i].second) : "null");
  return s + "}";
}

Tensor floatTensor(const std::vector<float> &v, const std::vector<int64_t> &shape) {
  Tensor t(DType::F32, shape);
  std::copy(v.begin(), v.end(), t.as<float>());
  return t;
}
} // namespace

std::string encodeCheckpoint(const CheckpointData &d) {
  SafetensorsFile f;
  for (const auto &[name, t] : d.params)
    f.tensors.emplace_back("param/" + name, t);
  for (const auto &[name, t] : d.state)
    f.tensors.emplace_back("state/" + name, t);
  for (size_t i = 0; i < d.firstMoments.size() && i < d.params.size(); ++i) {
    const auto &[name, t] = d.params[i];
    if (!d.firstMoments[i].empty())
      f.tensors.emplace_back("optim/" + name + "/m", floatTensor(d.firstMoments[i], t.shape()));
    if (i < d.secondMoments.size() && !d.secondMoments[i].empty())
      f.tensors.emplace_back("optim/" + name + "/v", floatTensor(d.secondMoments[i], t.shape()));
  }
  const ScheduleState &s = d.schedule;
  const LoaderPosition &l = d.loader;
  f.metadata = {
      {"format", "modelrt-checkpoint"}, {"format_version", std::to_string(kCheckpointVersion)},
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
      {"data.epoch", num(l.epoch)}, {"data.batch_index", num(l.batchIndex)},
      {"rng.state", hex64(l.rngState[0]) + "," + hex64(l.rngState[1]) + "," +
                        hex64(l.rngState[2]) + "," + hex64(l.rngState[3])},
      {"metrics", metricsJson(d)}};
  return encodeSafetensors(f);
}

namespace {
/// Reads typed values out of the metadata, remembering the first problem.
struct MetaReader {
  const SafetensorsFile &f;
  const std::string &path;
  Status err = Status::ok();
  const std::string *get(const char *key) {
    const std::string *v = f.meta(key);
    if (!v && err.isOk())
      err = errorf("%s: checkpoint metadata lacks '%s'", path.c_str(), key);
    return v;
  }
  template <typename T> void integer(const char *key, T &out) {
    const std::string *v = get(key);
    char *end = nullptr;
    if (v && (out = T(std::strtoll(v->c_str(), &end, 10)), v->empty() || *end) && err.isOk())
      err = errorf("%s: metadata '%s' = '%s' is not an integer", path.c_str(), key, v->c_str());
  }
  void real(const char *key, double &out) {
    const std::string *v = get(key);
    char *end = nullptr;
    if (v && (out = std::strtod(v->c_str(), &end), v->empty() || *end) && err.isOk())
      err = errorf("%s: metadata '%s' = '%s' is not a number", path.c_str(), key, v->c_str());
  }
  void flag(const char *key, bool &out) {
    int64_t v = 0;
    integer(key, v);
    out = v != 0;
  }
};

Status decodeMetadata(const SafetensorsFile &f, const std::string &path, CheckpointData &d) {
  MetaReader m{f, path};
  const std::string *version = m.get("format_version");
  if (version && *version != std::to_string(kCheckpointVersion))
    return errorf("%s: checkpoint format version %s, this runtime reads version %u",
                  path.c_str(), version->c_str(), kCheckpointVersion);
  if (const std::string *name = m.get("model"))
    d.modelName = *name;
  if (const std::string *fp = m.get("fingerprint"))
    d.fingerprint = std::strtoull(fp->c_str(), nullptr, 16);
  m.integer("abi_version", d.abiVersion);
  m.integer("epoch", d.epoch), m.integer("step", d.step);
  m.integer("optimizer.kind", d.optimizerKind), m.integer("optimizer.steps", d.optimizerSteps);
  ScheduleState &s = d.schedule;
  m.integer("schedule.epoch", s.epoch), m.integer("schedule.step", s.step);
  m.real("schedule.plateau_lr", s.plateauLr), m.real("schedule.best", s.best);
  m.integer("schedule.bad_epochs", s.badEpochs), m.flag("schedule.has_best", s.hasBest);
  m.real("early_stop.best", d.earlyBest), m.integer("early_stop.bad_epochs", d.earlyBad);
  m.flag("early_stop.has_best", d.earlyHasBest);
  m.real("best.loss", d.bestLoss), m.flag("best.has", d.hasBestLoss);
  m.integer("data.epoch", d.loader.epoch), m.integer("data.batch_index", d.loader.batchIndex);
  const std::string *rng = m.get("rng.state");
  if (rng && std::sscanf(rng->c_str(), "%16llx,%16llx,%16llx,%16llx",
                         (unsigned long long *)&d.loader.rngState[0],
                         (unsigned long long *)&d.loader.rngState[1],
                         (unsigned long long *)&d.loader.rngState[2],
                         (unsigned long long *)&d.loader.rngState[3]) != 4)
    return errorf("%s: metadata 'rng.state' = '%s' is not 4 hex words", path.c_str(),
                  rng->c_str());
  if (const std::string *metrics = m.get("metrics")) {
    auto j = parseJson(*metrics, path + ": metadata 'metrics'");
    if (!j)
      return j.status();
    for (const auto &[k, v] : j->members)
      d.metrics.emplace_back(k, v.kind == JsonValue::Kind::Number ? v.number : NAN);
  }
  return m.err;
}

/// Moves the tensors into \p d by prefix; optimizer moments by parameter name.
Status routeTensors(SafetensorsFile &f, const std::string &path, CheckpointData &d) {
  std::map<std::string, std::pair<Tensor *, Tensor *>> moments;
  for (auto &[name, t] : f.tensors) {
    if (name.rfind("param/", 0) == 0)
      d.params.emplace_back(name.substr(6), std::move(t));
    else if (name.rfind("state/", 0) == 0)
      d.state.emplace_back(name.substr(6), std::move(t));
    else if (name.rfind("optim/", 0) == 0 && name.size() > 8 &&
             (name.compare(name.size() - 2, 2, "/m") == 0 ||
              name.compare(name.size() - 2, 2, "/v") == 0)) {
      auto &slot = moments[name.substr(6, name.size() - 8)];
      (name.back() == 'm' ? slot.first : slot.second) = &t;
    } else
      return errorf("%s: unexpected tensor '%s' (not param/, state/ or optim/NAME/{m,v})",
                    path.c_str(), name.c_str());
  }
  d.firstMoments.assign(d.params.size(), {});
  d.secondMoments.assign(d.params.size(), {});
  for (auto &[pname, slot] : moments) {
    size_t i = 0;
    while (i < d.params.size() && d.params[i].first != pname)
      ++i;
    if (i == d.params.size())
      return errorf("%s: unexpected tensor 'optim/%s/...': no parameter 'param/%s'",
                    path.c_str(), pname.c_str(), pname.c_str());
    for (auto [src, dst] : {std::make_pair(slot.first, &d.firstMoments[i]),
                            std::make_pair(slot.second, &d.secondMoments[i])})
      if (src) {
        if (src->dtype() != DType::F32 || src->shape() != d.params[i].second.shape())
          return errorf("%s: tensor 'optim/%s/%c' must be F32 of the parameter's shape %s",
                        path.c_str(), pname.c_str(), src == slot.first ? 'm' : 'v',
                        shapeToString(d.params[i].second.shape()).c_str());
        dst->assign(src->as<float>(), src->as<float>() + src->numElements());
      }
  }
  return Status::ok();
}
} // namespace

Expected<CheckpointData> decodeCheckpoint(const std::string &bytes, const std::string &path) {
  auto f = decodeSafetensors(bytes, path);
  if (!f)
    return f.status();
  CheckpointData d;
  MODELRT_TRY(decodeMetadata(*f, path, d));
  MODELRT_TRY(routeTensors(*f, path, d));
  return d;
}

namespace {
/// Writes all of \p bytes to \p fd; returns 0 or an errno value.
int writeAll(int fd, const std::string &bytes, size_t &done) {
  done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return n < 0 ? errno : ENOSPC;
    done += static_cast<size_t>(n);
  }
  return 0;
}
} // namespace

Status writeFileAtomically(const std::string &path, const std::string &bytes) {
  size_t slash = path.find_last_of('/');
  std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string tmpl = dir + "/." + base + ".tmp.XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = mkstemp(name.data());
  if (fd < 0)
    return errorf("%s: cannot create a temporary file in '%s': %s", path.c_str(), dir.c_str(),
                  std::strerror(errno));
  size_t done = 0;
  int err = writeAll(fd, bytes, done);
  if (!err && ::fsync(fd) != 0)
    err = errno;
  if (::close(fd) != 0 && !err)
    err = errno;
  if (!err && std::getenv(kCrashBeforeRenameEnv))
    ::raise(SIGKILL); // test hook: a crash between the write and the rename
  if (!err && ::rename(name.data(), path.c_str()) != 0)
    err = errno;
  if (err) {
    ::unlink(name.data());
    return errorf("%s: write failed after %zu of %zu bytes: %s (the previous file is kept)",
                  path.c_str(), done, bytes.size(), std::strerror(err));
  }
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return Status::ok();
}

Status writeCheckpoint(const std::string &path, const CheckpointData &data) {
  return writeFileAtomically(path, encodeCheckpoint(data));
}

Expected<CheckpointData> readCheckpoint(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return errorf("%s: cannot open checkpoint: %s", path.c_str(), std::strerror(errno));
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return decodeCheckpoint(bytes, path);
}

/// Appends one line per mismatch between \p have (prefix/NAME) and \p want.
static void compareTable(const std::vector<std::pair<std::string, Tensor>> &have,
                         const std::vector<TensorInfo> &want, const std::string &prefix,
                         std::vector<std::string> &problems) {
  for (const TensorInfo &w : want) {
    auto it = std::find_if(have.begin(), have.end(), [&](auto &h) { return h.first == w.name; });
    if (it == have.end())
      problems.push_back("missing tensor '" + prefix + w.name + "' (" + dtypeName(w.dtype) +
                         " " + shapeToString(w.shape) + ")");
    else if (it->second.shape() != w.shape || it->second.dtype() != w.dtype)
      problems.push_back("tensor '" + prefix + w.name + "' is " + dtypeName(it->second.dtype()) +
                         " " + shapeToString(it->second.shape()) + " in the checkpoint, the "
                         "model needs " + dtypeName(w.dtype) + " " + shapeToString(w.shape));
  }
  for (const auto &[name, t] : have)
    if (std::none_of(want.begin(), want.end(), [&](auto &w) { return w.name == name; }))
      problems.push_back("unexpected tensor '" + prefix + name + "' (" + dtypeName(t.dtype()) +
                         " " + shapeToString(t.shape()) + ")");
}

Status checkCheckpointFits(const CheckpointData &d, const std::vector<TensorInfo> &params,
                           const std::vector<TensorInfo> &state, const std::string &modelName,
                           const std::string &path) {
  std::vector<std::string> problems;
  compareTable(d.params, params, "param/", problems);
  compareTable(d.state, state, "state/", problems);
  if (problems.empty())
    return Status::ok();
  std::string msg = path + ": checkpoint of model '" + d.modelName + "' (fingerprint " +
                    fingerprintToString(d.fingerprint) + ") does not fit model '" + modelName +
                    "' (fingerprint " + fingerprintToString(modelFingerprint(params, state)) +
                    "): " + std::to_string(problems.size()) + " problem(s):";
  for (const std::string &p : problems)
    msg += "\n  " + p;
  return Status::error(msg);
}

} // namespace modelrt
