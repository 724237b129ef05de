//===- SourceFile.h - Reading a source file with a size limit ---*- C++ -*-===//
//
// Declares readSourceFile: a .model file (or standard input) read whole,
// refused past kMaxSourceBytes, so that a device that never ends
// (/dev/zero) or a huge file is an error, not a compiler that reads until
// memory runs out.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_FRONTEND_SOURCEFILE_H
#define MODELC_FRONTEND_SOURCEFILE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>

namespace modelc {

/// The most bytes a source file may hold (64 MiB; generated programs of
/// tens of thousands of statements take a few MiB).
constexpr uint64_t kMaxSourceBytes = uint64_t(64) << 20;

/// Reads \p path ("-": standard input, named "<stdin>") whole. The error
/// says why it cannot be read, or that it holds more than \p maxBytes.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readSourceFile(llvm::StringRef path, uint64_t maxBytes = kMaxSourceBytes);

} // namespace modelc

#endif // MODELC_FRONTEND_SOURCEFILE_H
