//===- Linker.h - Linking objects into an executable ------------*- C++ -*-===//
//
// Declares the link step: the system C++ compiler driver (`c++` on PATH, or
// the program named by the environment variable MODELC_CXX) links object
// files with the modelc runtime (libmodelrt.a) and its system libraries into
// one executable.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_TARGET_LINKER_H
#define MODELC_TARGET_LINKER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace modelc {

/// What to link and where.
struct LinkOptions {
  /// Inputs handed to the driver in order: objects, archives, or sources the
  /// driver compiles itself (a test harness).
  std::vector<std::string> inputs;
  /// Flags passed to the driver before the inputs (e.g. `-O2` for sources).
  std::vector<std::string> driverFlags;
  /// Directory holding libmodelrt.a; empty links without the runtime.
  std::string runtimeLibDir;
  /// The executable to write.
  std::string outputPath;
  /// System libraries appended after the inputs and the runtime: zlib,
  /// libpng and libjpeg for the data readers, libgomp for the runtime's
  /// two-part loops (runtime/lib/core/Parallel.cpp). (oneDNN and OpenBLAS
  /// are not among them: the runtime opens one at start-up,
  /// runtime/include/modelrt/core/Blas.h.)
  std::vector<std::string> systemLibs = {"-lz", "-lpng16", "-ljpeg", "-lgomp", "-lpthread", "-lm"};
};

/// Returns the runtime library directory for a modelc binary at
/// `executablePath`: `<bindir>/../lib`.
std::string getRuntimeLibDir(llvm::StringRef executablePath);

/// Finds the C++ driver: $MODELC_CXX if set (a name looked up on PATH, or a
/// path), otherwise `c++` on PATH.
llvm::Expected<std::string> findCxxDriver();

/// A link whose output could not be written: a missing directory, a full
/// disk, a file-size or quota limit, a permission, a read-only file
/// system. The machine's failure, not the inputs'.
class OutputError : public llvm::ErrorInfo<OutputError> {
public:
  static char ID;
  /// \p kept: an earlier file at \p path is left as it was.
  OutputError(std::string path, std::string reason, bool kept)
      : path(std::move(path)), reason(std::move(reason)), kept(kept) {}
  /// "cannot write 'PATH': REASON", and " (the existing file is kept)".
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string path, reason;
  bool kept;
};

/// Links an executable at options.outputPath. A regular file is linked
/// beside it and renamed over it once complete, so a failed link leaves an
/// existing file as it was; an output that exists and is not a regular
/// file (/dev/null) is linked in place. An output that cannot be written
/// is an OutputError; other errors name the missing driver or runtime
/// library, or carry the driver's exit status and its complete output.
llvm::Error linkExecutable(const LinkOptions &options);

/// The line of a failed link's message (linkExecutable's) that names a
/// failure to write the output: a full disk, a file-size or quota limit,
/// a permission, a read-only file system. None when the message has no
/// such line (an input the linker cannot read is not one).
std::optional<std::string> environmentFailure(llvm::StringRef linkError);

} // namespace modelc

#endif // MODELC_TARGET_LINKER_H
