//===- DataFile.cpp - Checks shared by the data-file readers ---------------===//
//
// Before a reader opens a file it stats it: only regular files are read, so a
// FIFO, device or directory is refused without blocking. Before a reader
// allocates a tensor it checks the element count and byte size its header
// claims, with overflow-checked 64-bit products, against the stated limits
// and against the bytes the file actually holds.
//
//===----------------------------------------------------------------------===//
#include "modelrt/data/Readers.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

namespace modelrt {

Expected<uint64_t> statDataFile(const std::string &path, uint64_t maxBytes) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return errorf("%s: cannot open: %s", path.c_str(), std::strerror(errno));
  if (S_ISDIR(st.st_mode))
    return errorf("%s: is a directory, not a data file", path.c_str());
  if (!S_ISREG(st.st_mode))
    return errorf("%s: not a regular file (a FIFO, socket or device); data files must be "
                  "regular files", path.c_str());
  if (uint64_t(st.st_size) > maxBytes)
    return errorf("%s: file of %llu bytes exceeds the limit of %llu bytes", path.c_str(),
                  (unsigned long long)st.st_size, (unsigned long long)maxBytes);
  return uint64_t(st.st_size);
}

Expected<uint64_t> checkedDataBytes(const std::vector<int64_t> &shape, uint64_t elemSize,
                                    uint64_t available, const std::string &path,
                                    uint64_t maxElements, uint64_t maxBytes) {
  const char *p = path.c_str();
  uint64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0)
      return errorf("%s: shape %s has a negative dimension", p, shapeToString(shape).c_str());
    if (d != 0 && n > maxElements / uint64_t(d))
      return errorf("%s: shape %s holds more than the limit of %llu elements", p,
                    shapeToString(shape).c_str(), (unsigned long long)maxElements);
    n *= uint64_t(d);
  }
  uint64_t bytes = n * elemSize; // n <= 2^40 and elemSize <= 8: no overflow
  if (bytes > maxBytes)
    return errorf("%s: shape %s needs %llu bytes, over the limit of %llu", p,
                  shapeToString(shape).c_str(), (unsigned long long)bytes,
                  (unsigned long long)maxBytes);
  if (bytes > available)
    return errorf("%s: shape %s claims %llu elements (%llu bytes) but the file can hold at "
                  "most %llu", p, shapeToString(shape).c_str(), (unsigned long long)n,
                  (unsigned long long)bytes, (unsigned long long)available);
  return bytes;
}

Expected<std::vector<unsigned char>> readDataFile(const std::string &path) {
  auto size = statDataFile(path);
  if (!size)
    return size.status();
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    return errorf("%s: cannot open: %s", path.c_str(), std::strerror(errno));
  std::vector<unsigned char> bytes(*size);
  size_t got = bytes.empty() ? 0 : std::fread(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
  if (got != bytes.size())
    return errorf("%s: read error after %zu of %llu bytes", path.c_str(), got,
                  (unsigned long long)*size);
  return bytes;
}

} // namespace modelrt
