//===- OutputFile.cpp - Writing the driver's output files -----------------===//
//
// Implements writeOutput (OutputFile.h) with llvm::sys::fs::TempFile: the
// temporary is created beside the target and kept (renamed) over it only
// once everything is written and flushed.
//
//===----------------------------------------------------------------------===//
#include "OutputFile.h"

#include "llvm/Support/FileSystem.h"

using namespace modelc;

/// Emits into `os` and flushes it; a write error is the user's, naming
/// `what`.
static int emitTo(llvm::raw_fd_ostream &os, const llvm::Twine &what,
                  llvm::function_ref<bool(llvm::raw_ostream &)> emit,
                  llvm::function_ref<int(const llvm::Twine &)> fail) {
  if (!emit(os))
    return 1;
  os.flush();
  if (std::error_code ec = os.error()) {
    os.clear_error();
    return fail("cannot write " + what + ": " + ec.message());
  }
  return 0;
}

int modelc::writeOutput(llvm::StringRef path,
                        llvm::function_ref<bool(llvm::raw_ostream &)> emit,
                        llvm::function_ref<int(const llvm::Twine &)> fail) {
  if (path == "-")
    return emitTo(llvm::outs(), "to standard output", emit, fail);
  llvm::sys::fs::file_status status;
  if (!llvm::sys::fs::status(path, status) &&
      status.type() != llvm::sys::fs::file_type::regular_file) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return fail("cannot write '" + path + "': " + ec.message());
    return emitTo(os, "'" + path + "'", emit, fail);
  }
  llvm::Expected<llvm::sys::fs::TempFile> temp =
      llvm::sys::fs::TempFile::create(path + ".tmp-%%%%%%");
  if (!temp)
    return fail("cannot write '" + path +
                "': " + llvm::toString(temp.takeError()));
  std::error_code written;
  bool ok;
  {
    llvm::raw_fd_ostream os(temp->FD, /*shouldClose=*/false);
    ok = emit(os);
    os.flush();
    written = os.error();
    os.clear_error();
  }
  llvm::Error kept = !ok || written ? llvm::Error::success() : temp->keep(path);
  if (!ok || written || kept) {
    llvm::consumeError(temp->discard());
    if (!ok)
      return 1;
    std::string why =
        written ? written.message() : llvm::toString(std::move(kept));
    bool existed = llvm::sys::fs::exists(path);
    return fail("cannot write '" + path + "': " + why +
                (existed ? " (the existing file is kept)" : ""));
  }
  return 0;
}
