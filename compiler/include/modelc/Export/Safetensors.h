//===- Safetensors.h - Reading a checkpoint's tensors ------------*- C++
//-*-===//
//
// A checkpoint's tensors for the exporters (docs/checkpoints.md): every
// tensor's dtype, shape and bytes, and the `__metadata__` strings, read by
// the runtime's own checkpoint reader, which the compiler links, so that
// the format and its checks are defined once.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_EXPORT_SAFETENSORS_H
#define MODELC_EXPORT_SAFETENSORS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace modelc {

/// One tensor of a safetensors file.
struct StoredTensor {
  /// The safetensors dtype name: F32, F64, I32, I64 or U8.
  std::string dtype;
  std::vector<int64_t> shape;
  /// The raw little-endian bytes, row-major.
  std::string bytes;
};

/// The contents of a safetensors file.
struct SafetensorsContents {
  std::map<std::string, StoredTensor> tensors;
  std::map<std::string, std::string> metadata;
};

/// Reads the checkpoint at \p path once (modelrt::readCheckpointFile).
/// Errors name the file and what is wrong: unreadable or not a regular
/// file, truncated, a malformed header, tensors that overlap, repeat or
/// disagree with their shape and dtype, another format version, a checksum
/// mismatch.
llvm::Expected<SafetensorsContents> readSafetensors(llvm::StringRef path);

} // namespace modelc

#endif // MODELC_EXPORT_SAFETENSORS_H
