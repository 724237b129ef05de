//===- RunDirectory.cpp - A training run's claim on its directories ------===//
//
// Implements RunDirectory.h: flock(2) on a lock file per directory, the
// run's output names from CheckpointStore.h and MetricsLog.h, and the
// refusal checked before any directory is created.
//
//===----------------------------------------------------------------------===//
#include "modelrt/io/RunDirectory.h"
#include "modelrt/io/TensorBoard.h"

#include "modelrt/io/AtomicFile.h"
#include "modelrt/io/CheckpointStore.h"
#include "modelrt/io/MetricsLog.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace modelrt {

const char *const kRunLockName = ".modelrt-run.lock";

bool isRunOutputName(const std::string &name) {
  return isRunCheckpointName(name) || isMetricsLogName(name) || isEventFileName(name);
}

std::vector<std::string> listRunOutputs(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = ::opendir(dir.c_str())) {
    while (const dirent *e = ::readdir(d))
      if (isRunOutputName(e->d_name))
        names.push_back(e->d_name);
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

DirectoryLock &DirectoryLock::operator=(DirectoryLock &&other) noexcept {
  std::swap(fd, other.fd);
  return *this;
}

DirectoryLock::~DirectoryLock() {
  if (fd >= 0)
    ::close(fd); // releases the flock
}

Expected<DirectoryLock> lockRunDirectory(const std::string &dir) {
  std::string path = dir + "/" + kRunLockName;
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return errorf("%s: cannot create the run's lock file: %s", path.c_str(), std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int err = errno;
    ::close(fd);
    if (err == EWOULDBLOCK)
      return errorf("%s: another training run is writing to this directory (it holds %s); "
                    "wait for it to finish, or choose another directory",
                    dir.c_str(), kRunLockName);
    return errorf("%s: cannot lock the run's lock file: %s", path.c_str(), std::strerror(err));
  }
  return DirectoryLock(fd);
}

namespace {
/// "last.safetensors, metrics.csv and 3 more".
std::string describeNames(const std::vector<std::string> &names) {
  std::string text;
  size_t shown = std::min<size_t>(names.size(), 3);
  for (size_t i = 0; i < shown; ++i)
    text += (i ? ", " : "") + names[i];
  if (names.size() > shown)
    text += " and " + std::to_string(names.size() - shown) + " more";
  return text;
}

/// A fresh run's check of \p dir, the run's \p option (--checkpoint-dir or
/// --log-dir): an error when it holds an earlier run's outputs.
Status refuseEarlierRun(const std::string &dir, const char *option) {
  std::vector<std::string> names = listRunOutputs(dir);
  if (names.empty())
    return Status::ok();
  bool last = std::find(names.begin(), names.end(), "last.safetensors") != names.end();
  std::string resume = last ? "continue that run with --resume " + dir + "/last.safetensors, " : "";
  return errorf("%s: holds an earlier run's outputs (%s); %sstart over with --overwrite "
                "(which deletes them), or choose another %s",
                dir.c_str(), describeNames(names).c_str(), resume.c_str(), option);
}

/// Deletes the run outputs in \p dir (--overwrite); returns how many.
Expected<int> deleteRunOutputs(const std::string &dir) {
  std::vector<std::string> names = listRunOutputs(dir);
  for (const std::string &name : names)
    if (::unlink((dir + "/" + name).c_str()) != 0 && errno != ENOENT)
      return errorf("%s/%s: cannot remove (--overwrite): %s", dir.c_str(), name.c_str(),
                    std::strerror(errno));
  return int(names.size());
}
} // namespace

Expected<std::vector<DirectoryLock>> claimRunDirectories(const RunDirectories &dirs,
                                                         FILE *console) {
  std::vector<std::pair<std::string, const char *>> unique{
      {dirs.checkpointDir, "--checkpoint-dir"}};
  if (dirs.logDir != dirs.checkpointDir && !sameFile(dirs.logDir, dirs.checkpointDir))
    unique.push_back({dirs.logDir, "--log-dir"});
  // Refused before anything is created; checked again under the locks.
  if (dirs.fresh && !dirs.overwrite)
    for (const auto &[dir, option] : unique)
      MODELRT_TRY(refuseEarlierRun(dir, option));
  std::vector<DirectoryLock> locks;
  for (size_t i = 0; i < unique.size(); ++i) {
    MODELRT_TRY(makeDirectories(unique[i].first));
    if (i > 0 && sameFile(unique[i].first, unique[0].first))
      continue; // a log dir created as the checkpoint dir's other name
    auto lock = lockRunDirectory(unique[i].first);
    if (!lock)
      return lock.status();
    locks.push_back(lock.take());
  }
  int temps = 0, removed = 0;
  for (const auto &[dir, option] : unique) {
    temps += removeStaleTemporaries(dir, isRunOutputName);
    if (!dirs.fresh)
      continue;
    if (!dirs.overwrite) {
      MODELRT_TRY(refuseEarlierRun(dir, option));
      continue;
    }
    auto n = deleteRunOutputs(dir);
    if (!n)
      return n.status();
    removed += *n;
  }
  if (temps > 0)
    std::fprintf(console, "removed %d temporary file(s) left by an interrupted run\n", temps);
  if (removed > 0)
    std::fprintf(console, "--overwrite: removed %d file(s) of an earlier run\n", removed);
  return locks;
}

} // namespace modelrt
