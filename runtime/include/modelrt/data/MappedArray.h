//===- MappedArray.h - An NPY array read in place through mmap -------------===//
//
// Implements `MappedArray`: an NPY file (the header rules of
// modelsupport/Npy.h: little-endian f4/f8/i4/i8/u1, C order) mapped
// read-only and never copied whole. Rows are converted to the element type
// the caller asks for as they are read, so a training set larger than the
// machine's memory is read a batch at a time; the kernel's page cache holds
// the file, and release() drops pages from this process once a scan has
// used them. Reads drop every page of the array once kReadBudget bytes
// have been read since the last drop, so the pages a process holds stay
// under that budget however large the file and however long it trains.
// The header and the data's size are checked when the file is opened (a
// truncated file, a header that claims more or fewer bytes than the file
// holds, an object or pickled dtype, Fortran order are errors that name
// the file). It does not read gzip or any other format.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_DATA_MAPPEDARRAY_H
#define MODELRT_DATA_MAPPEDARRAY_H

#include "modelrt/core/Status.h"
#include "modelrt/core/Tensor.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace modelrt {

/// The most elements a mapped NPY array may hold (2^40).
constexpr uint64_t kMaxMappedElements = uint64_t(1) << 40;
/// The most bytes a mapped NPY file may hold (8 TiB).
constexpr uint64_t kMaxMappedBytes = uint64_t(1) << 43;
/// Bytes read from a mapped array after which its pages are dropped (64 MiB).
constexpr uint64_t kReadBudget = uint64_t(64) << 20;

/// An NPY file's array, mapped read-only.
class MappedArray {
public:
  /// Maps \p path after checking its header and that the data fills the
  /// file exactly.
  static Expected<std::shared_ptr<const MappedArray>> open(const std::string &path);
  ~MappedArray();
  MappedArray(const MappedArray &) = delete;
  MappedArray &operator=(const MappedArray &) = delete;

  const std::string &path() const { return file; }
  /// The element type stored in the file.
  DType dtype() const { return stored; }
  const std::vector<int64_t> &shape() const { return dims; }
  int64_t numElements() const { return shapeNumElements(dims); }
  /// The leading dimension (1 for a scalar).
  int64_t rows() const { return dims.empty() ? 1 : dims[0]; }
  /// Elements per row (the product of the dimensions after the first).
  int64_t rowElements() const;

  /// Converts the \p count elements from element \p first on to \p to
  /// (F32, I32 or I64, as static_cast does) into \p dst; safe to call
  /// from several threads.
  void read(int64_t first, int64_t count, DType to, void *dst) const;
  /// Drops the whole pages inside elements [first, first + count) from this
  /// process's memory; a later read maps them again from the file.
  void release(int64_t first, int64_t count) const;

private:
  MappedArray() = default;

  std::string file;
  DType stored = DType::F32;
  std::vector<int64_t> dims;
  void *base = nullptr;              ///< the mapping (whole file)
  size_t length = 0;                 ///< bytes mapped
  const unsigned char *data = nullptr; ///< the first element
  mutable std::atomic<uint64_t> readSinceDrop{0};
};

/// Calls \p fn(first, count) over elements [0, n) of \p array in chunks of
/// 2^18 elements (at most 2 MiB) or one row when larger, releasing each
/// chunk's pages after it; stops at the first error \p fn returns.
template <typename Fn> Status scanMapped(const MappedArray &array, Fn fn) {
  int64_t n = array.numElements();
  int64_t chunk = std::max<int64_t>(int64_t(1) << 18, array.rowElements());
  for (int64_t first = 0; first < n; first += chunk) {
    int64_t count = std::min(chunk, n - first);
    Status s = fn(first, count);
    array.release(first, count);
    if (!s.isOk())
      return s;
  }
  return Status::ok();
}

} // namespace modelrt

#endif // MODELRT_DATA_MAPPEDARRAY_H
