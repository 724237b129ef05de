//===- SourceFile.cpp - Reading a source file with a size limit -----------===//
//
// Implements readSourceFile (SourceFile.h): a regular file's size is checked
// before it is read; anything else (a pipe, standard input, a device) is
// read in chunks until its end or until it passes the limit.
//
//===----------------------------------------------------------------------===//
#include "modelc/Frontend/SourceFile.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"

using namespace llvm;

namespace modelc {

namespace {

/// The error for a source larger than \p maxBytes.
Error tooLarge(uint64_t maxBytes) {
  std::string limit = maxBytes % (1 << 20) == 0
                          ? std::to_string(maxBytes >> 20) + " MiB"
                          : std::to_string(maxBytes) + " bytes";
  return createStringError(std::make_error_code(std::errc::file_too_large),
                           Twine("it holds more than ") + limit +
                               ", the most a source file may hold");
}

/// Reads \p file to its end into \p text, or until it holds more than
/// \p maxBytes.
Error readBounded(sys::fs::file_t file, uint64_t maxBytes,
                  SmallVectorImpl<char> &text) {
  constexpr size_t kChunk = 1 << 16;
  for (;;) {
    size_t size = text.size();
    text.resize_for_overwrite(size + kChunk);
    Expected<size_t> got = sys::fs::readNativeFile(
        file, MutableArrayRef(text.data() + size, kChunk));
    if (!got)
      return got.takeError();
    text.truncate(size + *got);
    if (*got == 0)
      return Error::success();
    if (text.size() > maxBytes)
      return tooLarge(maxBytes);
  }
}

} // namespace

Expected<std::unique_ptr<MemoryBuffer>> readSourceFile(StringRef path,
                                                       uint64_t maxBytes) {
  bool stdinPath = path == "-";
  sys::fs::file_t file = sys::fs::getStdinHandle();
  if (!stdinPath) {
    Expected<sys::fs::file_t> opened =
        sys::fs::openNativeFileForRead(path, sys::fs::OF_Text);
    if (!opened)
      return opened.takeError();
    file = *opened;
  }
  scope_exit close([&] {
    if (!stdinPath)
      sys::fs::closeFile(file);
  });
  sys::fs::file_status status;
  if (std::error_code ec = sys::fs::status(file, status))
    return errorCodeToError(ec);
  if (status.type() == sys::fs::file_type::directory_file)
    return errorCodeToError(std::make_error_code(std::errc::is_a_directory));
  if (status.type() == sys::fs::file_type::regular_file &&
      status.getSize() > maxBytes)
    return tooLarge(maxBytes);
  SmallVector<char, 0> text;
  if (Error error = readBounded(file, maxBytes, text))
    return std::move(error);
  return MemoryBuffer::getMemBufferCopy(StringRef(text.data(), text.size()),
                                        stdinPath ? "<stdin>" : path);
}

} // namespace modelc
