//===- Safetensors.h - The safetensors container --------------------------===//
//
// Implements the generic safetensors layout used by checkpoints: an 8-byte
// little-endian header length N, N bytes of JSON header (padded with spaces
// to a multiple of 8) mapping each tensor name to {"dtype", "shape",
// "data_offsets": [begin, end]} (offsets relative to the data section) plus
// an optional "__metadata__" object of string -> string, then the tensors'
// raw little-endian bytes, packed in header order without holes.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_IO_SAFETENSORS_H
#define MODELRT_IO_SAFETENSORS_H

#include "modelrt/core/Status.h"
#include "modelrt/core/Tensor.h"

#include <string>
#include <utility>
#include <vector>

namespace modelrt {

/// The contents of one safetensors file, in file order.
struct SafetensorsFile {
  std::vector<std::pair<std::string, Tensor>> tensors;
  std::vector<std::pair<std::string, std::string>> metadata;

  /// The metadata value of \p key, or null.
  const std::string *meta(const std::string &key) const;
};

/// The safetensors dtype name of \p dtype ("F32", "F64", "I32", "I64", "U8").
const char *safetensorsDType(DType dtype);

/// Serialises \p file.
std::string encodeSafetensors(const SafetensorsFile &file);
/// Parses and validates safetensors bytes (bounds, dtypes, sizes, no
/// overlaps or holes); errors name \p path and the byte offset.
Expected<SafetensorsFile> decodeSafetensors(const std::string &bytes, const std::string &path);
/// The header length a safetensors file's first 8 bytes \p first8 give (a
/// little-endian u64).
uint64_t headerLength(const char *first8);
/// Checks a safetensors file's header length \p headerLength (its first 8
/// bytes) against the file's \p fileSize bytes: at least 2 (a JSON object)
/// and within the file. decodeSafetensors applies it; a reader may apply it
/// before reading the rest.
Status checkHeaderLength(uint64_t headerLength, uint64_t fileSize, const std::string &path);

} // namespace modelrt

#endif // MODELRT_IO_SAFETENSORS_H
