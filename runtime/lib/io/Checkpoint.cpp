//===- Checkpoint.cpp - Checkpoints in the safetensors layout --------------===//
#include "modelrt/io/Checkpoint.h"

#include "modelrt/io/CheckpointMetadata.h"
#include "modelrt/io/Json.h"
#include "modelrt/io/Safetensors.h"

#include <algorithm>
#include <cerrno>
#include <dirent.h>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

namespace modelrt {

uint64_t modelFingerprint(const std::vector<TensorInfo> &params,
                          const std::vector<TensorInfo> &state) {
  Fnv1a fnv;
  auto mix = [&](const void *p, size_t n) { fnv.mix(p, n); };
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
  return fnv.hash;
}

std::string fingerprintToString(uint64_t fp) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%016llx", (unsigned long long)fp);
  return buf;
}

namespace {
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
  f.metadata = encodeCheckpointMetadata(d);
  std::string bytes = encodeSafetensors(f);
  sealCheckpointChecksum(bytes);
  return bytes;
}

namespace {
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

/// An error naming the first parameter or state value that is NaN or
/// infinite: training stops before it would write one.
static Status checkFiniteValues(const SafetensorsFile &f, const std::string &path) {
  for (const auto &[name, t] : f.tensors) {
    if (t.dtype() != DType::F32 || (name.rfind("param/", 0) != 0 && name.rfind("state/", 0) != 0))
      continue;
    const float *v = t.as<float>();
    for (int64_t i = 0; i < t.numElements(); ++i)
      if (!std::isfinite(v[i]))
        return errorf("%s: tensor '%s' element %lld is %s; training never writes a "
                      "non-finite value, so the file was changed after it was written",
                      path.c_str(), name.c_str(), (long long)i,
                      std::isnan(v[i]) ? "NaN" : "infinite");
  }
  return Status::ok();
}

/// The safetensors layout of checkpoint \p bytes, after the checks of the
/// file as a whole: the layout, the format's version, the checksum, finite
/// parameters and state.
static Expected<SafetensorsFile> decodeCheckpointFile(const std::string &bytes,
                                                      const std::string &path) {
  auto f = decodeSafetensors(bytes, path);
  if (!f)
    return f.status();
  MODELRT_TRY(checkCheckpointFormat(*f, path));
  MODELRT_TRY(verifyCheckpointChecksum(bytes, *f, path));
  MODELRT_TRY(checkFiniteValues(*f, path));
  return f;
}

Expected<CheckpointData> decodeCheckpoint(const std::string &bytes, const std::string &path) {
  auto f = decodeCheckpointFile(bytes, path);
  if (!f)
    return f.status();
  CheckpointData d;
  MODELRT_TRY(routeTensors(*f, path, d));
  MODELRT_TRY(decodeCheckpointMetadata(*f, path, d));
  return d;
}

Status writeCheckpoint(const std::string &path, const CheckpointData &data) {
  return writeFileAtomically(path, encodeCheckpoint(data));
}

/// Reads \p n bytes at offset \p at of \p fd (fewer at its end) into \p out.
static Status readAt(int fd, uint64_t at, size_t n, std::string &out, const std::string &path) {
  size_t done = out.size();
  out.resize(done + n);
  while (n > 0) {
    ssize_t got = ::pread(fd, &out[done], n, off_t(at));
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      return errorf("%s: cannot read checkpoint: %s", path.c_str(), std::strerror(errno));
    if (got == 0)
      break;
    done += size_t(got), at += uint64_t(got), n -= size_t(got);
  }
  out.resize(done);
  return Status::ok();
}

/// The checkpoint's bytes, read with pread(2), so that a failing read is an
/// error, not an exception. Opened without blocking (a FIFO is refused, not
/// waited on). A file whose first 8 bytes give a header length no
/// safetensors file has (checkHeaderLength) is refused before the rest is
/// read; a file whose size stat cannot tell (under /proc) is read to its end.
static Expected<std::string> readCheckpointBytes(const std::string &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return errorf("%s: cannot open checkpoint: %s", path.c_str(), std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st;
  if (::fstat(fd, &st) != 0)
    return errorf("%s: cannot open checkpoint: %s", path.c_str(), std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    return errorf("%s: cannot read checkpoint: not a regular file (%s)", path.c_str(),
                  S_ISDIR(st.st_mode) ? "a directory" : "a device, pipe or socket");
  uint64_t size = uint64_t(st.st_size);
  std::string bytes;
  bytes.reserve(size_t(size));
  MODELRT_TRY(readAt(fd, 0, size >= 8 ? 8 : 0, bytes, path));
  if (bytes.size() == 8) {
    MODELRT_TRY(checkHeaderLength(headerLength(bytes.data()), size, path));
    MODELRT_TRY(readAt(fd, 8, size_t(size - 8), bytes, path));
  }
  std::string more; // past stat's size: a growing or /proc file
  for (size_t chunk = 1 << 16;; chunk = std::min<size_t>(chunk * 2, 1 << 26)) {
    more.clear();
    MODELRT_TRY(readAt(fd, bytes.size(), chunk, more, path));
    bytes += more;
    if (more.size() < chunk)
      return bytes;
  }
}

Expected<CheckpointData> readCheckpoint(const std::string &path) {
  auto bytes = readCheckpointBytes(path);
  if (!bytes)
    return bytes.status();
  return decodeCheckpoint(*bytes, path);
}

Expected<SafetensorsFile> readCheckpointFile(const std::string &path) {
  auto bytes = readCheckpointBytes(path);
  if (!bytes)
    return bytes.status();
  return decodeCheckpointFile(*bytes, path);
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
