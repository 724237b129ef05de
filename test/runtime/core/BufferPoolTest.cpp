//===- BufferPoolTest.cpp - Tests of the kernel buffer pool ---------------===//
//
// Checks BufferPool.h: size classes, alignment, LIFO reuse without new
// system allocations, aligned requests, trimming, and concurrent use.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/BufferPool.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

using namespace modelrt;

TEST(BufferPoolTest, SizeClassesBoundTheWaste) {
  EXPECT_EQ(bufferPoolSizeClass(1), 64u);
  EXPECT_EQ(bufferPoolSizeClass(64), 64u);
  EXPECT_EQ(bufferPoolSizeClass(65), 128u);
  EXPECT_EQ(bufferPoolSizeClass(512), 512u);
  // 1000: power 512, step 64 -> 1024.
  EXPECT_EQ(bufferPoolSizeClass(1000), 1024u);
  // 4097: power 4096, step 512 -> 4608.
  EXPECT_EQ(bufferPoolSizeClass(4097), 4608u);
  for (size_t n = 1; n < (1u << 22); n = n * 3 + 7) {
    size_t c = bufferPoolSizeClass(n);
    EXPECT_GE(c, n);
    EXPECT_LE(c - n, n / 8 + 64) << n;
    EXPECT_EQ(c % 64, 0u);
  }
}

TEST(BufferPoolTest, ReusesFreedBlocksWithoutSystemAllocations) {
  bufferPoolTrim();
  // A "training step": the same buffers every time.
  const size_t sizes[] = {100, 4096, 1 << 20, 3 * 1000 * 1000, 7};
  std::vector<void *> first;
  for (size_t s : sizes) {
    void *p = _mlir_memref_to_llvm_alloc(s);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
    std::memset(p, 0xab, s); // the whole request is usable
    first.push_back(p);
  }
  for (void *p : first)
    _mlir_memref_to_llvm_free(p);
  uint64_t systemBefore = bufferPoolStats().systemAllocations;
  for (int step = 0; step < 10; ++step) {
    std::vector<void *> bufs;
    for (size_t s : sizes)
      bufs.push_back(_mlir_memref_to_llvm_alloc(s));
    for (size_t i = 0; i < bufs.size(); ++i)
      EXPECT_NE(bufs[i], nullptr);
    for (void *p : bufs)
      _mlir_memref_to_llvm_free(p);
  }
  BufferPoolStats stats = bufferPoolStats();
  EXPECT_EQ(stats.systemAllocations, systemBefore);
  EXPECT_GE(stats.reuses, 50u);
  EXPECT_EQ(stats.bytesInUse, 0u);
}

TEST(BufferPoolTest, LastFreedIsFirstReused) {
  void *a = _mlir_memref_to_llvm_alloc(5000);
  void *b = _mlir_memref_to_llvm_alloc(5000);
  _mlir_memref_to_llvm_free(a);
  _mlir_memref_to_llvm_free(b);
  EXPECT_EQ(_mlir_memref_to_llvm_alloc(4900), b); // same size class
  EXPECT_EQ(_mlir_memref_to_llvm_alloc(5000), a);
  _mlir_memref_to_llvm_free(a);
  _mlir_memref_to_llvm_free(b);
}

TEST(BufferPoolTest, HonoursLargeAlignments) {
  for (size_t align : {64u, 128u, 256u, 4096u}) {
    void *p = _mlir_memref_to_llvm_aligned_alloc(align, 1000);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % align, 0u) << align;
    std::memset(p, 1, 1000);
    _mlir_memref_to_llvm_free(p);
    void *q = _mlir_memref_to_llvm_aligned_alloc(align, 1000);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(q) % align, 0u) << align;
    _mlir_memref_to_llvm_free(q);
  }
  _mlir_memref_to_llvm_free(nullptr); // ignored, like free(NULL)
}

TEST(BufferPoolTest, TrimReleasesCachedBlocksOnly) {
  void *kept = _mlir_memref_to_llvm_alloc(1 << 16);
  void *dropped = _mlir_memref_to_llvm_alloc(1 << 16);
  _mlir_memref_to_llvm_free(dropped);
  EXPECT_GT(bufferPoolStats().bytesCached, 0u);
  bufferPoolTrim();
  EXPECT_EQ(bufferPoolStats().bytesCached, 0u);
  std::memset(kept, 2, 1 << 16); // still valid
  _mlir_memref_to_llvm_free(kept);
  EXPECT_EQ(bufferPoolStats().bytesCached, uint64_t(1) << 16);
  bufferPoolTrim();
}

TEST(BufferPoolTest, ConcurrentUseKeepsBlocksDistinct) {
  auto work = [](unsigned char fill) {
    for (int i = 0; i < 2000; ++i) {
      size_t n = 64 + (i * 37) % 5000;
      auto *p = static_cast<unsigned char *>(_mlir_memref_to_llvm_alloc(n));
      std::memset(p, fill, n);
      for (size_t j = 0; j < n; j += 97)
        ASSERT_EQ(p[j], fill);
      _mlir_memref_to_llvm_free(p);
    }
  };
  std::thread t1(work, 1), t2(work, 2);
  t1.join();
  t2.join();
  EXPECT_EQ(bufferPoolStats().bytesInUse, 0u);
}

// Blocks of 2 MiB or more start on a 2 MiB boundary (so that the huge-page
// advice can cover them: BufferPool.cpp), are fully usable, and are reused
// like the others.
TEST(BufferPoolTest, LargeBlocksStartOnHugePageBoundaries) {
  const size_t big = size_t(5) << 20;
  auto *p = static_cast<unsigned char *>(_mlir_memref_to_llvm_alloc(big));
  ASSERT_NE(p, nullptr);
  uintptr_t base = reinterpret_cast<uintptr_t>(p) - 64; // the 64-byte header
  if (!std::getenv("MODELRT_NO_HUGEPAGES"))
    EXPECT_EQ(base % (size_t(2) << 20), 0u);
  std::memset(p, 0xAB, big);
  EXPECT_EQ(p[0], 0xAB);
  EXPECT_EQ(p[big - 1], 0xAB);
  _mlir_memref_to_llvm_free(p);
  EXPECT_EQ(_mlir_memref_to_llvm_alloc(big), p);
  _mlir_memref_to_llvm_free(p);
}
