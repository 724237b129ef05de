//===- SearchPath.cpp - Where `import` finds library modules --------------===//
//
// Computes the import search path (-I directories, then the stdlib next to
// the compiler binary) and resolves dotted import paths to files.
//
//===----------------------------------------------------------------------===//

#include "modelc/Frontend/SearchPath.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace modelc;

std::string modelc::getDefaultStdlibDir(llvm::StringRef executablePath) {
  llvm::SmallString<256> dir(llvm::sys::path::parent_path(executablePath));
  llvm::sys::path::append(dir, kStdlibRelDir);
  llvm::sys::path::remove_dots(dir, /*remove_dot_dot=*/true);
  return std::string(dir);
}

std::vector<std::string>
modelc::getImportSearchPath(llvm::ArrayRef<std::string> includeDirs,
                            llvm::StringRef executablePath) {
  std::vector<std::string> path(includeDirs.begin(), includeDirs.end());
  if (!executablePath.empty())
    path.push_back(getDefaultStdlibDir(executablePath));
  return path;
}

std::optional<std::string>
modelc::resolveImport(llvm::ArrayRef<std::string> importPath,
                      llvm::ArrayRef<std::string> searchPath) {
  if (importPath.empty())
    return std::nullopt;
  for (const std::string &dir : searchPath) {
    llvm::SmallString<256> file(dir);
    for (const std::string &segment : importPath)
      llvm::sys::path::append(file, segment);
    file += ".model";
    if (llvm::sys::fs::is_regular_file(file))
      return std::string(file);
  }
  return std::nullopt;
}
