//===- DataCache.h - Checked data blocks kept between analyses --*- C++ -*-===//
//
// Checking a data block opens its files (IDX headers, whole CSV tables and
// text corpora). A tool that analyses the same program again and again, the
// language server after each keystroke, keeps the checked blocks here and
// reuses one while the block's text, its directory and its files (size and
// modification time) are unchanged. Only blocks checked without errors are
// kept. Safe to share between threads.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_SEMA_DATACACHE_H
#define MODELC_SEMA_DATACACHE_H

#include "modelc/Frontend/AST.h"
#include "modelc/Sema/Program.h"

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace modelc {
namespace sema {

/// Data blocks checked before.
class DataCache {
public:
  /// The configuration checked for a block with `decl`'s text in `baseDir`,
  /// if its files are unchanged; its locations point into `decl`.
  std::optional<DataConfig> lookup(const DataDecl &decl,
                                   llvm::StringRef baseDir);
  /// Keeps `config`, checked without errors from `decl` in `baseDir`.
  void store(const DataDecl &decl, llvm::StringRef baseDir,
             const DataConfig &config);
  /// How many lookups found their block.
  unsigned getHits() const { return hits; }

private:
  /// A file's size and modification time, as the block was checked.
  struct FileStamp {
    std::string path;
    uint64_t size = 0;
    int64_t modified = 0;
    bool operator==(const FileStamp &o) const {
      return path == o.path && size == o.size && modified == o.modified;
    }
  };
  struct Entry {
    DataConfig config;
    /// The offsets of config's locations from the block's start (-1: none).
    std::vector<int64_t> offsets;
    std::vector<FileStamp> files;
  };

  static std::vector<FileStamp> stampFiles(const DataConfig &config);

  /// The most blocks kept; the cache starts over beyond.
  static constexpr size_t kMaxEntries = 32;
  std::mutex mutex;
  std::map<std::string, Entry> entries;
  unsigned hits = 0;
};

} // namespace sema
} // namespace modelc

#endif // MODELC_SEMA_DATACACHE_H
