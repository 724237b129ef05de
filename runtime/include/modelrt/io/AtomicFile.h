//===- AtomicFile.h - Files replaced whole or not at all ----------*- C++ -*-===//
//
// Writes a file atomically: a temporary file in the same directory is
// written, fsync'ed and renamed over the target, and the directory fsync'ed,
// so that a failed write (a full disk, a file-size limit, a kill) leaves the
// previous file as it was. Also the clean-up of the temporaries a killed
// process leaves, mkdir -p, and whether two paths name one file.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_IO_ATOMICFILE_H
#define MODELRT_IO_ATOMICFILE_H

#include "modelrt/core/Status.h"

#include <functional>
#include <string>

namespace modelrt {

/// Environment variable: when set, writeFileAtomically kills its own process
/// (SIGKILL) after the temporary file is written and fsync'ed, before the
/// rename. Used only by the crash-safety test.
constexpr const char *kCrashBeforeRenameEnv = "MODELRT_TEST_KILL_BEFORE_RENAME";

/// Writes \p bytes to \p path atomically (temp file `.NAME.tmp.XXXXXX` with
/// a new file's mode, fsync, rename, fsync dir). A \p path that exists and
/// is not a regular file (a device such as /dev/null, a pipe) is written in
/// place: a rename would replace it.
Status writeFileAtomically(const std::string &path, const std::string &bytes);

/// Removes the temporaries writeFileAtomically leaves in \p dir when its
/// process is killed before the rename (`.NAME.tmp.XXXXXX`, a regular file)
/// for the NAMEs \p ownsName accepts; returns how many. The caller holds
/// the directory: another process's file in flight would go too.
int removeStaleTemporaries(const std::string &dir,
                           const std::function<bool(const std::string &)> &ownsName);

/// Creates \p dir and its missing parents (mkdir -p); an error names the
/// first one that cannot be created.
Status makeDirectories(const std::string &dir);

/// Whether paths \p a and \p b name one file or directory (`./a/x.idx` and
/// `a/x.idx`, or two hard links): by device and inode when both exist, else
/// by their text.
bool sameFile(const std::string &a, const std::string &b);

} // namespace modelrt

#endif // MODELRT_IO_ATOMICFILE_H
