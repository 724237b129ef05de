//===- CheckpointStore.cpp - A run's checkpoint directory ------------------===//
#include "modelrt/io/CheckpointStore.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

namespace modelrt {

std::string epochCheckpointName(int64_t epoch) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "epoch-%06lld.safetensors", (long long)epoch);
  return buf;
}

/// Whether \p n names an epoch checkpoint as epochCheckpointName writes
/// it: epoch-, six digits or more, .safetensors.
static bool isEpochCheckpointName(const std::string &n) {
  const std::string prefix = "epoch-", suffix = ".safetensors";
  if (n.size() < prefix.size() + 6 + suffix.size() || n.rfind(prefix, 0) != 0 ||
      n.compare(n.size() - suffix.size(), suffix.size(), suffix) != 0)
    return false;
  return std::all_of(n.begin() + prefix.size(), n.end() - suffix.size(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

bool isRunCheckpointName(const std::string &name) {
  return name == "last.safetensors" || name == "best.safetensors" || isEpochCheckpointName(name);
}

std::vector<std::string> listEpochCheckpoints(const std::string &dir) {
  std::vector<std::string> names;
  DIR *d = ::opendir(dir.c_str());
  if (!d)
    return names;
  while (struct dirent *e = ::readdir(d)) {
    std::string n = e->d_name;
    if (isEpochCheckpointName(n))
      names.push_back(n);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end()); // zero-padded epochs sort by number
  return names;
}

/// Atomically makes \p link name the same file as \p target (same directory):
/// a hard link under a temporary name renamed over \p link; a copy when the
/// file system refuses hard links.
static Status replaceWithLink(const std::string &dir, const std::string &target,
                              const std::string &link, const std::string &bytes) {
  std::string tmp = dir + "/." + link + ".link." + std::to_string(::getpid());
  ::unlink(tmp.c_str());
  if (::link((dir + "/" + target).c_str(), tmp.c_str()) != 0)
    return writeFileAtomically(dir + "/" + link, bytes);
  if (::rename(tmp.c_str(), (dir + "/" + link).c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return errorf("%s/%s: cannot replace: %s (the previous file is kept)", dir.c_str(),
                  link.c_str(), std::strerror(err));
  }
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return Status::ok();
}

Status saveEpochCheckpoint(const CheckpointPolicy &policy, const CheckpointData &data,
                           bool isBest) {
  std::string bytes = encodeCheckpoint(data);
  std::string name = epochCheckpointName(data.epoch);
  MODELRT_TRY(writeFileAtomically(policy.dir + "/" + name, bytes));
  MODELRT_TRY(replaceWithLink(policy.dir, name, "last.safetensors", bytes));
  if (isBest)
    MODELRT_TRY(replaceWithLink(policy.dir, name, "best.safetensors", bytes));
  if (policy.keep > 0) {
    std::vector<std::string> names = listEpochCheckpoints(policy.dir);
    for (size_t i = 0; i + size_t(policy.keep) < names.size(); ++i)
      if (::unlink((policy.dir + "/" + names[i]).c_str()) != 0 && errno != ENOENT)
        return errorf("%s/%s: cannot remove an old checkpoint: %s", policy.dir.c_str(),
                      names[i].c_str(), std::strerror(errno));
  }
  return Status::ok();
}

Status saveMidEpochCheckpoint(const CheckpointPolicy &policy, const CheckpointData &data) {
  return writeFileAtomically(policy.dir + "/last.safetensors", encodeCheckpoint(data));
}

} // namespace modelrt
