//===- Linker.cpp - Linking objects into an executable --------------------===//
//
// Implements the link step declared in Linker.h by running the system C++
// compiler driver through llvm::sys::ExecuteAndWait, capturing its output in
// a temporary file so that a failed link reports what the linker said.
//
//===----------------------------------------------------------------------===//
#include "modelc/Target/Linker.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>
#include <optional>

using namespace llvm;

namespace modelc {

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

/// Reads the captured driver output, or a note when it cannot be read.
std::string readOutput(StringRef path) {
  auto buffer = MemoryBuffer::getFile(path);
  if (!buffer)
    return "<linker output unavailable>";
  return (*buffer)->getBuffer().rtrim().str();
}

} // namespace

Error linkExecutable(const LinkOptions &options) {
  if (options.outputPath.empty())
    return createStringError(inconvertibleErrorCode(),
                             "link: no output path given");
  std::string runtimeArchive;
  if (!options.runtimeLibDir.empty()) {
    SmallString<256> archive(options.runtimeLibDir);
    sys::path::append(archive, "libmodelrt.a");
    if (!sys::fs::exists(archive))
      return createStringError(inconvertibleErrorCode(),
                               "runtime library not found: " + archive.str());
    runtimeArchive = std::string(archive);
  }
  Expected<std::string> driver = findCxxDriver();
  if (!driver)
    return driver.takeError();
  std::vector<std::string> args = buildLinkArgs(*driver, options, runtimeArchive);
  SmallVector<StringRef> argRefs(args.begin(), args.end());

  SmallString<128> logPath;
  if (std::error_code ec =
          sys::fs::createTemporaryFile("modelc-link", "log", logPath))
    return createStringError(ec, "link: cannot create a temporary file");
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                          StringRef(logPath)};
  std::string execError;
  int status = sys::ExecuteAndWait(*driver, argRefs, std::nullopt, redirects,
                                   0, 0, &execError);
  std::string output = readOutput(logPath);
  sys::fs::remove(logPath);
  if (status == 0)
    return Error::success();
  std::string command = join(args, " ");
  if (status < 0)
    return createStringError(inconvertibleErrorCode(),
                             "link: cannot run '" + command + "': " + execError);
  return createStringError(inconvertibleErrorCode(),
                           "link failed (exit status " +
                               std::to_string(status) + "): " + command +
                               "\n" + output);
}

} // namespace modelc
