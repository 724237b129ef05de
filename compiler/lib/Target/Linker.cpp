//===- Linker.cpp - Linking objects into an executable --------------------===//
//
// Implements the link step declared in Linker.h by running the system C++
// compiler driver through llvm::sys::ExecuteAndWait (with LC_ALL=C, so that
// system errors read as strerror's English), capturing its output in a
// temporary file so that a failed link reports what the linker said.
//
//===----------------------------------------------------------------------===//
#include "modelc/Target/Linker.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>
#include <optional>
#include <unistd.h>

using namespace llvm;

namespace modelc {

char OutputError::ID = 0;

void OutputError::log(raw_ostream &os) const {
  os << "cannot write '" << path << "': " << reason;
  if (kept)
    os << " (the existing file is kept)";
}

std::string getRuntimeLibDir(StringRef executablePath) {
  SmallString<256> dir(sys::path::parent_path(executablePath));
  sys::path::append(dir, "..", "lib");
  sys::path::remove_dots(dir, /*remove_dot_dot=*/true);
  return std::string(dir);
}

Expected<std::string> findCxxDriver() {
  const char *env = std::getenv("MODELC_CXX");
  std::string name = env && *env ? env : "c++";
  if (sys::path::has_parent_path(name)) {
    if (sys::fs::can_execute(name))
      return name;
    return createStringError(inconvertibleErrorCode(),
                             "linker driver '" + name +
                                 "' (from MODELC_CXX) is not executable");
  }
  ErrorOr<std::string> found = sys::findProgramByName(name);
  if (!found)
    return createStringError(inconvertibleErrorCode(),
                             "linker driver '" + name + "' not found on PATH" +
                                 (env && *env ? " (from MODELC_CXX)" : "") +
                                 "; set MODELC_CXX to a C++ compiler driver");
  return *found;
}

namespace {

/// Builds the driver's argument list (argv[0] included).
std::vector<std::string> buildLinkArgs(const std::string &driver,
                                       const LinkOptions &options,
                                       const std::string &runtimeArchive) {
  std::vector<std::string> args = {driver};
  args.insert(args.end(), options.driverFlags.begin(),
              options.driverFlags.end());
  args.insert(args.end(), options.inputs.begin(), options.inputs.end());
  if (!runtimeArchive.empty())
    args.push_back(runtimeArchive);
  args.insert(args.end(), options.systemLibs.begin(), options.systemLibs.end());
  args.push_back("-o");
  args.push_back(options.outputPath);
  return args;
}

/// This process's environment with LC_ALL=C (and no LANGUAGE): the
/// driver's messages in English whatever the user's locale.
std::vector<std::string> cLocaleEnvironment() {
  std::vector<std::string> env;
  for (char **e = environ; e && *e; ++e) {
    StringRef entry(*e);
    if (!entry.starts_with("LC_ALL=") && !entry.starts_with("LANGUAGE="))
      env.push_back(entry.str());
  }
  env.push_back("LC_ALL=C");
  return env;
}

/// Reads the captured driver output, or a note when it cannot be read.
std::string readOutput(StringRef path) {
  auto buffer = MemoryBuffer::getFile(path);
  if (!buffer)
    return "<linker output unavailable>";
  return (*buffer)->getBuffer().rtrim().str();
}

} // namespace

namespace {

/// How a run of the driver ended: its exit status (negative: it could not
/// run, execError says why) and everything it printed.
struct DriverRun {
  int status = 0;
  std::string output, execError;
};

/// Runs the driver with \p args (argv[0] included) in the C locale.
Expected<DriverRun> runDriver(ArrayRef<std::string> args) {
  SmallString<128> logPath;
  if (std::error_code ec =
          sys::fs::createTemporaryFile("modelc-link", "log", logPath))
    return createStringError(ec, "link: cannot create a temporary file");
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                          StringRef(logPath)};
  std::vector<std::string> env = cLocaleEnvironment();
  SmallVector<StringRef> envRefs(env.begin(), env.end());
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  DriverRun run;
  run.status =
      sys::ExecuteAndWait(args[0], argRefs, ArrayRef<StringRef>(envRefs),
                          redirects, 0, 0, &run.execError);
  run.output = readOutput(logPath);
  sys::fs::remove(logPath);
  return run;
}

/// libmodelrt.a in \p dir ("" for none), or an error when it is missing.
Expected<std::string> runtimeArchiveIn(StringRef dir) {
  if (dir.empty())
    return "";
  SmallString<256> archive(dir);
  sys::path::append(archive, "libmodelrt.a");
  if (!sys::fs::exists(archive))
    return createStringError(inconvertibleErrorCode(),
                             "runtime library not found: " + archive.str());
  return std::string(archive);
}

} // namespace

Error linkExecutable(const LinkOptions &options) {
  const std::string &out = options.outputPath;
  if (out.empty())
    return createStringError(inconvertibleErrorCode(),
                             "link: no output path given");
  Expected<std::string> runtimeArchive =
      runtimeArchiveIn(options.runtimeLibDir);
  if (!runtimeArchive)
    return runtimeArchive.takeError();
  Expected<std::string> driver = findCxxDriver();
  if (!driver)
    return driver.takeError();
  sys::fs::file_status outStatus;
  bool inPlace = !sys::fs::status(out, outStatus) &&
                 outStatus.type() != sys::fs::file_type::regular_file;
  SmallString<128> linked(out);
  if (!inPlace)
    if (std::error_code ec =
            sys::fs::createUniqueFile(out + ".link-%%%%%%", linked))
      return make_error<OutputError>(out, ec.message(), sys::fs::exists(out));
  FileRemover linkedRemover(linked, /*deleteIt=*/!inPlace);
  LinkOptions beside = options;
  beside.outputPath = linked.str().str();
  std::vector<std::string> args =
      buildLinkArgs(*driver, beside, *runtimeArchive);
  Expected<DriverRun> run = runDriver(args);
  if (!run)
    return run.takeError();
  bool kept = !inPlace && sys::fs::exists(out);
  if (run->status == 0) {
    std::error_code ec =
        inPlace ? std::error_code() : sys::fs::rename(linked, out);
    return ec ? make_error<OutputError>(out, ec.message(), kept)
              : Error::success();
  }
  std::string command = join(args, " ");
  if (run->status < 0)
    return createStringError(inconvertibleErrorCode(),
                             "link: cannot run '" + command +
                                 "': " + run->execError);
  if (std::optional<std::string> why = environmentFailure(run->output))
    return make_error<OutputError>(out, *why, kept);
  return createStringError(inconvertibleErrorCode(),
                           "link failed (exit status " +
                               std::to_string(run->status) + "): " + command +
                               "\n" + run->output);
}

std::optional<std::string> environmentFailure(StringRef linkError) {
  // strerror's text (LC_ALL=C) of ENOSPC, EFBIG, EDQUOT, EACCES and EROFS,
  // on a line about the output (GNU ld, gold and lld name it so), not an
  // input such as an unreadable archive.
  static const char *const kReasons[] = {
      "No space left on device", "File too large", "Disk quota exceeded",
      "Permission denied", "Read-only file system"};
  static const char *const kOutput[] = {"final link failed", "output file",
                                        "failed to write output",
                                        "cannot write output"};
  SmallVector<StringRef> lines;
  linkError.split(lines, '\n');
  for (StringRef line : lines)
    for (const char *reason : kReasons)
      if (line.contains(reason) && llvm::any_of(kOutput, [&](const char *o) {
            return line.contains(o);
          }))
        return line.trim().str();
  return std::nullopt;
}

} // namespace modelc
