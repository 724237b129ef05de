//===- DataCache.cpp - Checked data blocks kept between analyses ----------===//
//
// Implements the data-block cache: entries keyed by the block's directory
// and text, validated against the size and modification time of every file
// of its splits (and, for a folder of images, of each class folder), their
// source locations kept as offsets from the block's start.
//
//===----------------------------------------------------------------------===//

#include "modelc/Sema/DataCache.h"

#include "llvm/Support/FileSystem.h"

#include <chrono>

using namespace modelc;
using namespace modelc::sema;

/// The key of a block: its directory and its text.
static std::string keyOf(const DataDecl &decl, llvm::StringRef baseDir) {
  llvm::SMRange r = decl.getRange();
  if (!r.isValid() || r.End.getPointer() < r.Start.getPointer())
    return "";
  return baseDir.str() + '\0' +
         std::string(r.Start.getPointer(),
                     r.End.getPointer() - r.Start.getPointer());
}

/// The locations of `c` that point into its block.
static std::vector<llvm::SMLoc *> locsOf(DataConfig &c) {
  return {&c.loc, &c.labelNoteLoc, &c.transformLoc, &c.augmentLoc};
}

/// Appends the stamp of `path`, and for a folder those of its sub-folders.
static void stampPath(
    const std::string &path, bool folders,
    std::vector<std::pair<std::string, llvm::sys::fs::file_status>> &out) {
  llvm::sys::fs::file_status st;
  if (llvm::sys::fs::status(path, st))
    return out.push_back({path, st});
  out.push_back({path, st});
  if (!folders || st.type() != llvm::sys::fs::file_type::directory_file)
    return;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(path, ec), end; it != end && !ec;
       it.increment(ec))
    stampPath(it->path(), /*folders=*/false, out);
}

std::vector<DataCache::FileStamp>
DataCache::stampFiles(const DataConfig &config) {
  std::vector<std::pair<std::string, llvm::sys::fs::file_status>> found;
  for (const std::optional<DataSplit> *split : {&config.train, &config.test})
    if (*split)
      for (const std::string &path : (*split)->paths)
        stampPath(path, /*folders=*/true, found);
  std::vector<FileStamp> stamps;
  for (const auto &[path, st] : found)
    stamps.push_back({path, st.getSize(),
                      std::chrono::duration_cast<std::chrono::nanoseconds>(
                          st.getLastModificationTime().time_since_epoch())
                          .count()});
  return stamps;
}

std::optional<DataConfig> DataCache::lookup(const DataDecl &decl,
                                            llvm::StringRef baseDir) {
  std::string key = keyOf(decl, baseDir);
  std::lock_guard<std::mutex> lock(mutex);
  auto it = entries.find(key);
  if (key.empty() || it == entries.end())
    return std::nullopt;
  if (!(stampFiles(it->second.config) == it->second.files)) {
    entries.erase(it);
    return std::nullopt;
  }
  DataConfig config = it->second.config;
  std::vector<llvm::SMLoc *> locs = locsOf(config);
  const char *start = decl.getRange().Start.getPointer();
  for (size_t i = 0; i < locs.size(); ++i)
    *locs[i] = it->second.offsets[i] < 0
                   ? llvm::SMLoc()
                   : llvm::SMLoc::getFromPointer(start + it->second.offsets[i]);
  ++hits;
  return config;
}

void DataCache::store(const DataDecl &decl, llvm::StringRef baseDir,
                      const DataConfig &config) {
  std::string key = keyOf(decl, baseDir);
  if (key.empty())
    return;
  Entry entry;
  entry.config = config;
  llvm::SMRange r = decl.getRange();
  for (llvm::SMLoc *loc : locsOf(entry.config)) {
    bool inside = loc->isValid() && r.Start.getPointer() <= loc->getPointer() &&
                  loc->getPointer() <= r.End.getPointer();
    entry.offsets.push_back(inside ? loc->getPointer() - r.Start.getPointer()
                                   : -1);
    *loc = llvm::SMLoc();
  }
  entry.files = stampFiles(config);
  std::lock_guard<std::mutex> lock(mutex);
  if (entries.size() >= kMaxEntries)
    entries.clear();
  entries[key] = std::move(entry);
}
