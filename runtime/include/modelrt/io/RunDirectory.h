//===- RunDirectory.h - A training run's claim on its directories --------===//
//
// Before a run writes, it claims its checkpoint and log directories: it
// locks each (one run at a time; the lock goes with the process, however it
// ends), removes the temporaries an interrupted run of its own left, and a
// fresh run refuses a directory that holds an earlier run's checkpoints or
// metrics logs unless told to delete them (--overwrite), so that starting a
// run never silently replaces another's best checkpoint or mixes two runs'
// logs.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_IO_RUNDIRECTORY_H
#define MODELRT_IO_RUNDIRECTORY_H

#include "modelrt/core/Status.h"

#include <cstdio>
#include <string>
#include <vector>

namespace modelrt {

/// Whether \p name is a file a run writes: a checkpoint
/// (isRunCheckpointName) or a metrics log (isMetricsLogName).
bool isRunOutputName(const std::string &name);

/// The run outputs in \p dir (names only, sorted).
std::vector<std::string> listRunOutputs(const std::string &dir);

/// An exclusive lock on a directory, held until destroyed.
class DirectoryLock {
public:
  DirectoryLock() = default;
  explicit DirectoryLock(int fd) : fd(fd) {}
  DirectoryLock(DirectoryLock &&other) noexcept : fd(other.fd) { other.fd = -1; }
  DirectoryLock &operator=(DirectoryLock &&other) noexcept;
  DirectoryLock(const DirectoryLock &) = delete;
  DirectoryLock &operator=(const DirectoryLock &) = delete;
  ~DirectoryLock();

private:
  int fd = -1;
};

/// The name of the lock file lockRunDirectory keeps in a directory.
extern const char *const kRunLockName;

/// Locks \p dir (which must exist) for one run: an error names the
/// directory when another process holds it.
Expected<DirectoryLock> lockRunDirectory(const std::string &dir);

/// What a run needs to claim its directories.
struct RunDirectories {
  std::string checkpointDir, logDir;
  bool fresh = true;      ///< not resuming: an earlier run's outputs are in the way
  bool overwrite = false; ///< delete them instead of refusing
};

/// Creates and locks the directories of \p dirs, removes stale temporaries
/// of run outputs, and for a fresh run refuses (or, with overwrite,
/// deletes) an earlier run's outputs, saying on \p console what it removed.
/// The returned locks must live as long as the run writes.
Expected<std::vector<DirectoryLock>> claimRunDirectories(const RunDirectories &dirs, FILE *console);

} // namespace modelrt

#endif // MODELRT_IO_RUNDIRECTORY_H
