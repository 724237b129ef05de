//===- DevicePoolTest.cpp - The device pool over a fake backend ------------===//
//
// Checks DevicePool (runtime/lib/cuda/DevicePool.h) without CUDA: size
// classes and their bounded waste, LIFO reuse without backend allocations,
// in-use/cached/peak statistics, trimming, concurrent use, the release-and-retry on
// out-of-memory, the final out-of-memory message, and bad frees.
//
//===----------------------------------------------------------------------===//
#include "cuda/DevicePool.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using namespace modelrt;
using namespace modelrt::cuda;

namespace {

/// A backend with a capacity, over malloc.
class FakeBackend : public DeviceAllocator {
public:
  explicit FakeBackend(uint64_t capacity) : capacity(capacity) {}
  AllocResult allocate(uint64_t bytes, void **ptr, std::string &) override {
    std::lock_guard<std::mutex> lock(mutex);
    attempts++;
    if (used + bytes > capacity)
      return AllocResult::OutOfMemory;
    *ptr = std::malloc(bytes);
    used += bytes;
    sizes[*ptr] = bytes;
    return AllocResult::Ok;
  }
  void release(void *ptr) override {
    std::lock_guard<std::mutex> lock(mutex);
    used -= sizes.at(ptr);
    sizes.erase(ptr);
    std::free(ptr);
    releases++;
  }
  uint64_t freeBytes() override { return capacity - used; }
  void waitIdle() override { waits++; }

  uint64_t capacity, used = 0;
  int attempts = 0, releases = 0, waits = 0;
  std::map<void *, uint64_t> sizes;
  std::mutex mutex;
};

} // namespace

TEST(DevicePoolTest, SizeClassesBoundTheWaste) {
  EXPECT_EQ(DevicePool::sizeClass(0), 256u);
  EXPECT_EQ(DevicePool::sizeClass(1), 256u);
  EXPECT_EQ(DevicePool::sizeClass(256), 256u);
  EXPECT_EQ(DevicePool::sizeClass(257), 512u);
  EXPECT_EQ(DevicePool::sizeClass(4096), 4096u);
  // 4097: power 4096, step 512 -> 4608.
  EXPECT_EQ(DevicePool::sizeClass(4097), 4608u);
  // 1000000: power 524288, step 65536 -> 1048576.
  EXPECT_EQ(DevicePool::sizeClass(1000000), 1048576u);
  for (uint64_t n = 1; n < (uint64_t(1) << 40); n = n * 3 + 7) {
    uint64_t c = DevicePool::sizeClass(n);
    EXPECT_GE(c, n);
    EXPECT_LE(c - n, n / 8 + 255) << n;
    EXPECT_EQ(c % 256, 0u) << n;
  }
}

TEST(DevicePoolTest, ReusesLastFreedBlockFirst) {
  FakeBackend backend(1 << 30);
  {
    DevicePool pool(backend);
    void *a = *pool.allocate(1000);
    void *b = *pool.allocate(1000);
    ASSERT_NE(a, b);
    ASSERT_TRUE(pool.free(a).isOk());
    ASSERT_TRUE(pool.free(b).isOk());
    EXPECT_EQ(*pool.allocate(1000), b); // LIFO
    EXPECT_EQ(*pool.allocate(900), a);  // same class (1024)
    EXPECT_EQ(backend.attempts, 2);
    ASSERT_TRUE(pool.free(a).isOk());
    ASSERT_TRUE(pool.free(b).isOk());
  }
  // The destructor returned the cache to the backend.
  EXPECT_EQ(backend.used, 0u);
  EXPECT_EQ(backend.releases, 2);
}

TEST(DevicePoolTest, StepsAfterTheFirstAllocateNothing) {
  FakeBackend backend(1 << 30);
  DevicePool pool(backend);
  const uint64_t sizes[] = {4, 4, 5000, 123456, 7 << 20};
  for (int step = 0; step < 10; ++step) {
    std::set<void *> blocks;
    for (uint64_t s : sizes)
      blocks.insert(*pool.allocate(s));
    EXPECT_EQ(blocks.size(), 5u); // distinct blocks
    for (void *p : blocks)
      ASSERT_TRUE(pool.free(p).isOk());
  }
  DevicePoolStats stats = pool.stats();
  EXPECT_EQ(stats.backendAllocations, 5u);
  EXPECT_EQ(stats.reuses, 45u);
  EXPECT_EQ(stats.bytesInUse, 0u);
  uint64_t total = 256 + 256 + 5120 + 131072 + (7 << 20);
  EXPECT_EQ(stats.bytesCached, total);
  EXPECT_EQ(stats.peakInUse, total);
  EXPECT_EQ(stats.peakReserved, total);
  pool.trim();
  EXPECT_EQ(backend.releases, 5);
  EXPECT_EQ(backend.used, 0u);
  EXPECT_EQ(pool.stats().bytesCached, 0u);
}

TEST(DevicePoolTest, OutOfMemoryReleasesTheCacheAndRetriesOnce) {
  FakeBackend backend(3 << 20);
  DevicePool pool(backend);
  void *a = *pool.allocate(1 << 20);
  void *b = *pool.allocate(1 << 20);
  ASSERT_TRUE(pool.free(a).isOk());
  ASSERT_TRUE(pool.free(b).isOk());
  // 2 MiB cached + 2 MiB requested > 3 MiB: the cache goes, then it fits.
  Expected<void *> big = pool.allocate(2 << 20);
  ASSERT_TRUE(big.isOk()) << big.message();
  EXPECT_EQ(backend.waits, 1);
  EXPECT_EQ(backend.releases, 2);
  EXPECT_EQ(pool.stats().bytesCached, 0u);
  EXPECT_EQ(pool.stats().bytesInUse, uint64_t(2) << 20);
  ASSERT_TRUE(pool.free(*big).isOk());
}

TEST(DevicePoolTest, OutOfMemoryAfterTheRetryNamesTheBytes) {
  FakeBackend backend(3 << 20);
  DevicePool pool(backend);
  void *held = *pool.allocate(2 << 20);
  Expected<void *> big = pool.allocate(2 << 20);
  ASSERT_FALSE(big.isOk());
  EXPECT_EQ(big.message(),
            "out of GPU memory: 2097152 bytes needed (2.0 MiB), 1048576 bytes "
            "free on the device (1.0 MiB), 2097152 in use by modelrt");
  EXPECT_EQ(backend.attempts, 2); // no retry: nothing was cached
  ASSERT_TRUE(pool.free(held).isOk());
}

TEST(DevicePoolTest, BadFreesAreErrors) {
  FakeBackend backend(1 << 20);
  DevicePool pool(backend);
  void *a = *pool.allocate(10);
  EXPECT_TRUE(pool.owns(a));
  ASSERT_TRUE(pool.free(a).isOk());
  EXPECT_FALSE(pool.owns(a));
  Status twice = pool.free(a);
  EXPECT_FALSE(twice.isOk());
  EXPECT_NE(twice.message().find("did not allocate (or freed twice)"),
            std::string::npos);
  EXPECT_TRUE(pool.free(nullptr).isOk());
  pool.trim();
}

TEST(DevicePoolTest, ConcurrentUseKeepsTheCountsExact) {
  FakeBackend backend(1 << 30);
  DevicePool pool(backend);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&pool, t] {
      for (int i = 0; i < 500; ++i) {
        Expected<void *> p = pool.allocate(1000 * (t + 1) + i % 7);
        ASSERT_TRUE(p.isOk());
        *static_cast<char *>(*p) = char(i); // the block is usable
        ASSERT_TRUE(pool.free(*p).isOk());
      }
    });
  for (std::thread &t : threads)
    t.join();
  DevicePoolStats stats = pool.stats();
  EXPECT_EQ(stats.bytesInUse, 0u);
  EXPECT_EQ(stats.backendAllocations + stats.reuses, 2000u);
  // Each thread has its own class (1024, 2048, 3072, 4096) and one block.
  EXPECT_EQ(stats.backendAllocations, 4u);
}
