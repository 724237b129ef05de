//===- FormatCommand.cpp - The `modelc fmt` subcommand --------------------===//
//
// Reads each file (or standard input for `-`), formats it, and prints the
// result, rewrites the file (-i), or with --check prints a unified diff for
// each file that is not formatted. A file with a syntax error gets the
// compiler's located diagnostic and is never written; neither is a result
// that fails the formatter's own verification.
//
//===----------------------------------------------------------------------===//

#include "FormatCommand.h"

#include "modelc/Format/Format.h"
#include "modelc/Format/UnifiedDiff.h"
#include "modelc/Frontend/Lexer.h"
#include "modelc/Frontend/SourceFile.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace modelc;
namespace cl = llvm::cl;

namespace {
/// The options of `modelc fmt`.
struct FormatCommandOptions {
  cl::OptionCategory category{"modelc fmt options"};
  cl::list<std::string> inputs{cl::Positional, cl::desc("<.model files>"),
                               cl::cat(category)};
  cl::opt<bool> check{
      "check",
      cl::desc("Change nothing; print a diff for each file that is not "
               "formatted and exit with 1 if there is one"),
      cl::cat(category)};
  cl::opt<bool> inPlace{"in-place",
                        cl::desc("Rewrite the files instead of printing (also -i)"),
                        cl::cat(category)};
  cl::alias inPlaceShort{"i", cl::desc("Alias for --in-place"),
                         cl::aliasopt(inPlace), cl::cat(category)};
  cl::opt<std::string> debugCorrupt{
      "debug-fmt-corrupt", cl::Hidden,
      cl::desc("Test hook: damage the result before verification "
               "(ast|comment)"),
      cl::cat(category)};
};
} // namespace

/// Prints "modelc: error: <message>" and returns `code`.
static int fail(const llvm::Twine &message, int code = 1) {
  llvm::WithColor::error(llvm::errs(), "modelc") << message << "\n";
  return code;
}

/// Rewrites the file `real` (named `path` on the command line) in place
/// with `text`. The space for it is reserved before the first byte changes,
/// so a full disk leaves the file as it was.
static int writeInPlace(llvm::StringRef path, llvm::StringRef real,
                        llvm::StringRef text) {
  int fd = ::open(real.str().c_str(), O_WRONLY | O_CLOEXEC);
  int err = fd < 0 ? errno : ::posix_fallocate(fd, 0, off_t(text.size()));
  for (size_t done = 0; !err && done < text.size();) {
    ssize_t n = ::pwrite(fd, text.data() + done, text.size() - done, off_t(done));
    if (n < 0 && errno != EINTR)
      err = errno;
    done += n > 0 ? size_t(n) : 0;
  }
  if (!err && ::ftruncate(fd, off_t(text.size())) != 0)
    err = errno;
  if (fd >= 0 && ::close(fd) != 0 && !err)
    err = errno;
  return err ? fail("cannot write '" + path + "': " + std::strerror(err)) : 0;
}

/// Writes `text` over the file `path` names, keeping what the file is: a
/// symbolic link stays a link (its target is rewritten), and the file keeps
/// its permissions and owner (a temporary file created with them, then
/// renamed over it). A file with other hard links is rewritten in place, so
/// that every name keeps seeing it.
static int writeFile(llvm::StringRef path, llvm::StringRef text) {
  llvm::SmallString<256> real;
  struct stat st;
  if (std::error_code ec = llvm::sys::fs::real_path(path, real))
    return fail("cannot write '" + path + "': " + ec.message());
  if (::stat(real.c_str(), &st) != 0)
    return fail("cannot write '" + path + "': " + std::strerror(errno));
  if (st.st_nlink > 1)
    return writeInPlace(path, real, text);
  llvm::Expected<llvm::sys::fs::TempFile> temp =
      llvm::sys::fs::TempFile::create(real + ".fmt-%%%%%%", st.st_mode & 07777);
  if (!temp)
    return fail("cannot write '" + path + "': " + toString(temp.takeError()));
  std::error_code written;
  {
    llvm::raw_fd_ostream os(temp->FD, /*shouldClose=*/false);
    os << text;
    os.flush();
    written = os.error();
    os.clear_error();
  }
  // The mode again (create applies the umask), and the owner where allowed.
  (void)::fchmod(temp->FD, st.st_mode & 07777);
  (void)!::fchown(temp->FD, st.st_uid, st.st_gid);
  llvm::Error error =
      written ? llvm::errorCodeToError(written) : temp->keep(real);
  if (!error)
    return 0;
  llvm::consumeError(temp->discard()); // nothing of it is left behind
  return fail("cannot write '" + path + "': " + toString(std::move(error)));
}

/// Formats one file as the options say; returns its exit code.
static int formatFile(const FormatCommandOptions &opts, llvm::StringRef path) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      readSourceFile(path);
  if (!buffer)
    return fail("cannot read '" + path +
                "': " + llvm::toString(buffer.takeError()));
  std::string original = (*buffer)->getBuffer().str();
  llvm::SourceMgr sourceMgr;
  unsigned id = sourceMgr.AddNewSourceBuffer(
      withoutByteOrderMark(std::move(*buffer)), llvm::SMLoc());
  DiagnosticEngine diags(sourceMgr);
  FormatOptions options;
  options.debugCorrupt = opts.debugCorrupt;
  llvm::Expected<std::string> text = formatBuffer(diags, id, options);
  if (!text) {
    std::string why = toString(text.takeError());
    if (diags.hasErrors())
      return 1; // The syntax errors are already reported.
    return fail(path + ": " + why + "; the file is left unchanged (this is "
                "a bug in the formatter: please report it)",
                2);
  }
  if (llvm::StringRef(original).starts_with(kByteOrderMark))
    text->insert(0, kByteOrderMark.str()); // the file's encoding mark stays
  if (opts.check) {
    std::string label = path == "-" ? "<stdin>" : path.str();
    llvm::outs() << unifiedDiff(original, *text, label,
                                label + " (formatted)");
    return original == *text ? 0 : 1;
  }
  if (!opts.inPlace) {
    llvm::outs() << *text;
    return 0;
  }
  return original == *text ? 0 : writeFile(path, *text);
}

int runFormatCommand(int argc, char **argv) {
  FormatCommandOptions opts;
  cl::HideUnrelatedOptions(opts.category);
  std::vector<const char *> args{"modelc fmt"};
  args.insert(args.end(), argv + 2, argv + argc);
  if (!cl::ParseCommandLineOptions(
          args.size(), args.data(),
          "modelc fmt: formats .model files in the canonical layout\n",
          &llvm::errs()))
    return 1;
  if (opts.inputs.empty())
    return fail("no input file (usage: modelc fmt [--check | -i] "
                "FILE.model...)");
  if (opts.check && opts.inPlace)
    return fail("--check and --in-place cannot be combined");
  if (opts.inPlace && llvm::is_contained(opts.inputs, "-"))
    return fail("--in-place cannot rewrite standard input");
  int status = 0;
  for (const std::string &path : opts.inputs)
    status = std::max(status, formatFile(opts, path));
  return status;
}
