//===- MappedArray.cpp - An NPY array read in place through mmap -----------===//
//
// Implements MappedArray.h: the file is stat'ed (regular files only), mapped
// whole with PROT_READ and MAP_PRIVATE, its header checked by
// parseNpyLayout (NpyReader.cpp) against the mapping's length; elements are
// converted with static_cast as they are read.
//
//===----------------------------------------------------------------------===//
#include "modelrt/data/MappedArray.h"

#include "modelrt/data/Readers.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace modelrt {

/// Maps the \p size bytes of \p path read-only; null (with \p error set)
/// when it cannot.
static void *mapFile(const std::string &path, size_t size, std::string &error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return nullptr;
  }
  void *p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED)
    error = std::strerror(errno);
  ::close(fd); // the mapping keeps the file
  return p == MAP_FAILED ? nullptr : p;
}

Expected<std::shared_ptr<const MappedArray>> MappedArray::open(const std::string &path) {
  auto size = statDataFile(path, kMaxMappedBytes);
  if (!size)
    return size.status();
  std::shared_ptr<MappedArray> m(new MappedArray());
  m->file = path;
  if (*size > 0) {
    std::string error;
    m->base = mapFile(path, size_t(*size), error);
    if (!m->base)
      return errorf("%s: cannot map: %s", path.c_str(), error.c_str());
    m->length = size_t(*size);
  }
  auto layout = parseNpyLayout(static_cast<const unsigned char *>(m->base), m->length, path,
                               kMaxMappedElements, kMaxMappedBytes);
  if (!layout)
    return layout.status();
  m->stored = layout->dtype;
  m->dims = layout->shape;
  m->data = static_cast<const unsigned char *>(m->base) + layout->dataStart;
  return std::shared_ptr<const MappedArray>(std::move(m));
}

MappedArray::~MappedArray() {
  if (base)
    ::munmap(base, length);
}

int64_t MappedArray::rowElements() const {
  return dims.empty() ? 1 : shapeNumElements(std::vector<int64_t>(dims.begin() + 1, dims.end()));
}

/// Converts \p n elements of type \p From at \p src to \p To at \p dst.
template <typename From, typename To>
static void convertRun(const unsigned char *src, int64_t n, void *dst) {
  To *out = static_cast<To *>(dst);
  for (int64_t i = 0; i < n; ++i) {
    From v;
    std::memcpy(&v, src + size_t(i) * sizeof(From), sizeof(From)); // no alignment assumed
    out[i] = static_cast<To>(v);
  }
}

/// convertRun for the stored type \p from.
template <typename To>
static void convertFrom(DType from, const unsigned char *src, int64_t n, void *dst) {
  switch (from) {
  case DType::F32:
    return convertRun<float, To>(src, n, dst);
  case DType::F64:
    return convertRun<double, To>(src, n, dst);
  case DType::I32:
    return convertRun<int32_t, To>(src, n, dst);
  case DType::I64:
    return convertRun<int64_t, To>(src, n, dst);
  case DType::U8:
    return convertRun<uint8_t, To>(src, n, dst);
  }
}

/// convertFrom for the requested type \p to.
static void convertTo(DType from, DType to, const unsigned char *src, int64_t count, void *dst) {
  if (to == from) {
    std::memcpy(dst, src, size_t(count) * dtypeSize(from));
    return;
  }
  switch (to) {
  case DType::F32:
    return convertFrom<float>(from, src, count, dst);
  case DType::F64:
    return convertFrom<double>(from, src, count, dst);
  case DType::I32:
    return convertFrom<int32_t>(from, src, count, dst);
  case DType::I64:
    return convertFrom<int64_t>(from, src, count, dst);
  case DType::U8:
    return convertFrom<uint8_t>(from, src, count, dst);
  }
}

void MappedArray::read(int64_t first, int64_t count, DType to, void *dst) const {
  size_t bytes = size_t(count) * dtypeSize(stored);
  convertTo(stored, to, data + size_t(first) * dtypeSize(stored), count, dst);
  if (readSinceDrop.fetch_add(bytes, std::memory_order_relaxed) + bytes >= kReadBudget) {
    readSinceDrop.store(0, std::memory_order_relaxed);
    release(0, numElements());
  }
}

void MappedArray::release(int64_t first, int64_t count) const {
  // Whole pages around the range: a page shared with a neighbouring range
  // is read again from the page cache if it is touched later.
  uintptr_t page = uintptr_t(::sysconf(_SC_PAGESIZE));
  auto down = [&](uintptr_t a) { return a & ~(page - 1); };
  uintptr_t lo = down(uintptr_t(data + size_t(first) * dtypeSize(stored)));
  uintptr_t hi = down(uintptr_t(data + size_t(first + count) * dtypeSize(stored)) + page - 1);
  hi = std::min(hi, down(uintptr_t(base) + length + page - 1));
  if (hi > lo)
    ::madvise(reinterpret_cast<void *>(lo), hi - lo, MADV_DONTNEED);
}

} // namespace modelrt
