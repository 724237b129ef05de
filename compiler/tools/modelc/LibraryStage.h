//===- LibraryStage.h - The driver's `--emit=lib` stage ----------*- C++ -*-===//
//
// `modelc NET.model --emit=lib -o libNET.a|libNET.so`: the model compiled
// without main, with the library API NET_load / NET_predict / NET_free /
// NET_last_error, as a static archive (the runtime's objects included) or a
// shared library, and the header NET.h beside it.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_TOOLS_MODELC_LIBRARYSTAGE_H
#define MODELC_TOOLS_MODELC_LIBRARYSTAGE_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace modelc {

struct Compilation;

/// The library API's prefix for an output path: `libnet.so` -> "net"; ""
/// when the path is not lib<C identifier>.a or .so.
std::string libraryPrefix(llvm::StringRef outputPath);

/// Writes the library at \p outputPath and its header; false after
/// reporting an error.
bool writeLibrary(Compilation &c, llvm::StringRef outputPath);

} // namespace modelc

#endif // MODELC_TOOLS_MODELC_LIBRARYSTAGE_H
