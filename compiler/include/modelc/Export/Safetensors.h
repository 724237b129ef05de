//===- Safetensors.h - Reading a checkpoint's tensors ------------*- C++ -*-===//
//
// A reader of safetensors files (docs/checkpoints.md), the container of
// modelc's checkpoints, for the exporters: every tensor's dtype, shape and
// bytes, and the `__metadata__` strings. The format is a little-endian u64
// header length, a JSON header and the packed tensor data, so the compiler
// reads it with llvm::json instead of linking the runtime.
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

/// Reads the safetensors file at \p path. Errors name the file and what is
/// wrong (unreadable, truncated, a malformed header, a tensor whose bytes
/// fall outside the data or disagree with its shape and dtype).
llvm::Expected<SafetensorsContents> readSafetensors(llvm::StringRef path);

} // namespace modelc

#endif // MODELC_EXPORT_SAFETENSORS_H
