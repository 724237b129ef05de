//===- AtomicFile.cpp - Files replaced whole or not at all ----------------===//
//
// Implements AtomicFile.h with POSIX calls: mkstemp beside the target,
// write, fsync, rename, fsync of the directory.
//
//===----------------------------------------------------------------------===//
#include "modelrt/io/AtomicFile.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace modelrt {

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

/// The process's umask, read without changing it (umask(2) would change it
/// for every thread for a moment): /proc/self/status, else 022.
static mode_t currentUmask() {
  static const mode_t mask = [] {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
      if (line.rfind("Umask:", 0) == 0)
        return mode_t(std::strtoul(line.c_str() + 6, nullptr, 8));
    return mode_t(022);
  }();
  return mask;
}

int removeStaleTemporaries(const std::string &dir,
                           const std::function<bool(const std::string &)> &ownsName) {
  DIR *d = ::opendir(dir.c_str());
  if (!d)
    return 0;
  int removed = 0;
  while (const dirent *e = ::readdir(d)) {
    std::string name = e->d_name;
    size_t at = name.rfind(".tmp.");
    bool temp = name.size() > 12 && name[0] == '.' && at != std::string::npos &&
                at + 11 == name.size(); // ".NAME.tmp." + six mkstemp characters
    if (!temp || !ownsName(name.substr(1, at - 1)))
      continue;
    std::string path = dir + "/" + name;
    struct stat st;
    if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::unlink(path.c_str()) == 0)
      ++removed;
  }
  ::closedir(d);
  return removed;
}

/// Writes \p bytes over the existing non-regular file \p path (a device, a
/// pipe), which a rename would replace.
static Status writeInPlace(const std::string &path, const std::string &bytes) {
  int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0)
    return errorf("%s: cannot open for writing: %s", path.c_str(), std::strerror(errno));
  size_t done = 0;
  int err = writeAll(fd, bytes, done);
  if (::close(fd) != 0 && !err)
    err = errno;
  if (err)
    return errorf("%s: write failed after %zu of %zu bytes: %s", path.c_str(), done, bytes.size(),
                  std::strerror(err));
  return Status::ok();
}

Status writeFileAtomically(const std::string &path, const std::string &bytes) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
    return writeInPlace(path, bytes);
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
  // mkstemp creates the file 0600; the result gets a new file's mode.
  int err = ::fchmod(fd, 0666 & ~currentUmask()) != 0 ? errno : 0;
  if (!err)
    err = writeAll(fd, bytes, done);
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

Status makeDirectories(const std::string &dir) {
  for (size_t i = 1; i <= dir.size(); ++i)
    if (i == dir.size() || dir[i] == '/')
      if (::mkdir(dir.substr(0, i).c_str(), 0777) != 0 && errno != EEXIST)
        return errorf("%s: cannot create the directory: %s", dir.substr(0, i).c_str(),
                      std::strerror(errno));
  return Status::ok();
}

bool sameFile(const std::string &a, const std::string &b) {
  struct stat x, y;
  if (::stat(a.c_str(), &x) == 0 && ::stat(b.c_str(), &y) == 0)
    return x.st_dev == y.st_dev && x.st_ino == y.st_ino;
  return a == b;
}

} // namespace modelrt
