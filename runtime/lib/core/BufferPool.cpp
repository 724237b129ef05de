//===- BufferPool.cpp - Reusing allocator for the generated code's buffers -===//
//
// Implements BufferPool.h: size-classed LIFO free lists under one mutex.
// Each block carries a 64-byte header (or `alignment` bytes, when larger)
// in front of the pointer handed out, holding the system pointer, the size
// class and a tag that catches frees of pointers the pool never gave out.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/BufferPool.h"

#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <map>
#include <utility>
#include <vector>

namespace modelrt {
namespace {

constexpr size_t kMinAlign = 64;
constexpr uint64_t kTag = 0x6d6f64656c706f6fULL; // "modelpoo"

/// Stored right before every pointer the pool hands out.
struct BlockHeader {
  void *base;       ///< what aligned_alloc returned
  size_t sizeClass; ///< usable bytes
  size_t offset;    ///< header bytes in front of the user pointer
  uint64_t tag;
};

/// The process-wide pool.
struct Pool {
  std::mutex mutex;
  /// Free blocks by (size class, header offset): user pointers.
  std::map<std::pair<size_t, size_t>, std::vector<void *>> freeLists;
  BufferPoolStats stats;
  bool enabled = true;

  Pool() {
    const char *env = std::getenv("MODELRT_BUFFER_POOL");
    enabled = !(env && std::strcmp(env, "0") == 0);
  }
};

Pool &pool() {
  static Pool *p = new Pool(); // never destroyed: kernels may run at exit
  return *p;
}

BlockHeader *headerOf(void *ptr) {
  return reinterpret_cast<BlockHeader *>(static_cast<char *>(ptr) -
                                         sizeof(BlockHeader));
}

std::pair<size_t, size_t> freeListKey(size_t sizeClass, size_t offset) {
  return {sizeClass, offset};
}

/// Blocks from this size on are backed by 2 MiB pages where the kernel
/// allows it (transparent huge pages in "madvise" mode, Debian's default).
constexpr size_t kHugePage = size_t(2) << 20;

/// Gets a new block from the system; null when out of memory. Blocks of
/// 2 MiB or more start on a 2 MiB boundary and are advised MADV_HUGEPAGE:
/// the first touch of a large buffer (the CNN's im2col one) then faults once
/// per 2 MiB instead of once per 4 KiB page. MODELRT_NO_HUGEPAGES=1 turns
/// this off.
void *systemBlock(size_t sizeClass, size_t offset) {
  size_t total = (offset + sizeClass + offset - 1) / offset * offset;
  bool huge = total >= kHugePage && !std::getenv("MODELRT_NO_HUGEPAGES");
  if (huge)
    total = (total + kHugePage - 1) / kHugePage * kHugePage;
  void *base = std::aligned_alloc(huge ? kHugePage : offset, total);
  if (!base)
    return nullptr;
  if (huge)
    madvise(base, total, MADV_HUGEPAGE); // advice only: failure is harmless
  void *user = static_cast<char *>(base) + offset;
  *headerOf(user) = BlockHeader{base, sizeClass, offset, kTag};
  return user;
}

void *allocate(size_t alignment, size_t size) {
  size_t offset = alignment > kMinAlign ? alignment : kMinAlign;
  size_t sizeClass = bufferPoolSizeClass(size ? size : 1);
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  void *user = nullptr;
  auto it = p.enabled ? p.freeLists.find(freeListKey(sizeClass, offset))
                      : p.freeLists.end();
  if (it != p.freeLists.end() && !it->second.empty()) {
    user = it->second.back();
    it->second.pop_back();
    p.stats.reuses++;
    p.stats.bytesCached -= sizeClass;
  } else {
    user = systemBlock(sizeClass, offset);
    if (!user) {
      std::fprintf(stderr, "modelrt: out of memory allocating %zu bytes for "
                           "a kernel buffer\n", size);
      std::abort(); // generated code has no error path for a failed alloc
    }
    p.stats.systemAllocations++;
  }
  p.stats.bytesInUse += sizeClass;
  uint64_t total = p.stats.bytesInUse + p.stats.bytesCached;
  if (total > p.stats.peakBytes)
    p.stats.peakBytes = total;
  return user;
}

} // namespace

size_t bufferPoolSizeClass(size_t size) {
  if (size <= 512)
    return (size + 63) / 64 * 64;
  size_t power = size_t(1) << (63 - __builtin_clzll(size));
  size_t step = power / 8;
  return (size + step - 1) / step * step;
}

BufferPoolStats bufferPoolStats() {
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  return p.stats;
}

void bufferPoolTrim() {
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  for (auto &entry : p.freeLists)
    for (void *user : entry.second)
      std::free(headerOf(user)->base);
  p.freeLists.clear();
  p.stats.bytesCached = 0;
}

} // namespace modelrt

using namespace modelrt;

extern "C" void *_mlir_memref_to_llvm_alloc(size_t size) {
  return allocate(kMinAlign, size);
}

extern "C" void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment,
                                                    size_t size) {
  return allocate(alignment, size);
}

extern "C" void _mlir_memref_to_llvm_free(void *ptr) {
  if (!ptr)
    return;
  BlockHeader *h = headerOf(ptr);
  if (h->tag != kTag) {
    std::fprintf(stderr, "modelrt: internal error: freeing a kernel buffer "
                         "the pool did not allocate (%p)\n", ptr);
    std::abort();
  }
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  p.stats.bytesInUse -= h->sizeClass;
  if (!p.enabled) {
    std::free(h->base);
    return;
  }
  p.freeLists[freeListKey(h->sizeClass, h->offset)].push_back(ptr);
  p.stats.bytesCached += h->sizeClass;
}
