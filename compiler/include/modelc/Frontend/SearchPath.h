//===- SearchPath.h - Where `import` finds library modules ------*- C++ -*-===//
//
// The import search path: the user's -I directories in order, then the
// standard library installed next to the compiler
// (<bindir>/../share/modelc/stdlib). `import a.b` resolves to the first
// existing `<dir>/a/b.model`.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_FRONTEND_SEARCHPATH_H
#define MODELC_FRONTEND_SEARCHPATH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace modelc {

/// The stdlib directory relative to the directory holding the modelc binary.
inline constexpr llvm::StringLiteral kStdlibRelDir = "../share/modelc/stdlib";

/// The standard library directory for the executable at `executablePath`
/// (as returned by llvm::sys::fs::getMainExecutable).
std::string getDefaultStdlibDir(llvm::StringRef executablePath);

/// The full import search path: `includeDirs` in order, then the default
/// stdlib directory (when `executablePath` is non-empty).
std::vector<std::string>
getImportSearchPath(llvm::ArrayRef<std::string> includeDirs,
                    llvm::StringRef executablePath);

/// Resolves an import path (`{"nn"}` or `{"a", "b"}`) to the first existing
/// file `<dir>/nn.model` / `<dir>/a/b.model`; std::nullopt if none exists.
std::optional<std::string>
resolveImport(llvm::ArrayRef<std::string> importPath,
              llvm::ArrayRef<std::string> searchPath);

} // namespace modelc

#endif // MODELC_FRONTEND_SEARCHPATH_H
