//===- LibraryHeader.h - The C header of `--emit=lib` ------------*- C++ -*-===//
//
// Writes NAME.h for a model compiled as a library: the sample sizes and
// shapes, the class names, and the typed API NAME_load / NAME_predict /
// NAME_free / NAME_last_error that the library defines (forwarding to
// modelrt/embed/Embed.h), with the link line and the thread-safety rules.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_EXPORT_LIBRARYHEADER_H
#define MODELC_EXPORT_LIBRARYHEADER_H

#include <cstdint>
#include <string>
#include <vector>

namespace modelc {

/// What the header describes.
struct LibraryHeaderInfo {
  /// The functions' prefix (a C identifier), e.g. "net".
  std::string prefix;
  /// The model's name and the source file, for the header's comment.
  std::string modelName, sourceName;
  /// The compiler's version.
  std::string version;
  /// One sample's input and output shapes (without the batch dimension).
  std::vector<int64_t> inputShape, outputShape;
  /// The class names, in class order; empty when the classes have none.
  std::vector<std::string> classNames;
};

/// The text of the header.
std::string libraryHeader(const LibraryHeaderInfo &info);

/// Whether \p name is a C identifier (letters, digits, `_`; not starting
/// with a digit).
bool isCIdentifier(const std::string &name);

} // namespace modelc

#endif // MODELC_EXPORT_LIBRARYHEADER_H
