//===- DevicePool.h - Caching allocator for device memory (internal) -------===//
//
// Declares DevicePool: size-classed LIFO free lists over a DeviceAllocator
// backend (cuMemAlloc in production, a fake in tests), so that from the second
// training step on no cuMemAlloc happens. Blocks are reused in stream order:
// all generated work runs on the one compute stream, so a block freed by a
// kernel enqueued earlier is safe to hand to work enqueued later. On
// out-of-memory the pool releases its cache and retries once. The blocks a
// captured CUDA graph uses stay reserved for it (beginCapture/endCapture).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_CUDA_DEVICEPOOL_H
#define MODELRT_LIB_CUDA_DEVICEPOOL_H

#include "modelrt/cuda/Cuda.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace modelrt {
namespace cuda {

/// What a backend allocation returned.
enum class AllocResult { Ok, OutOfMemory, Failed };

/// The memory the pool caches: device memory, or a fake in tests.
class DeviceAllocator {
public:
  virtual ~DeviceAllocator() = default;
  /// Allocates \p bytes into \p ptr; on Failed, \p error says why.
  virtual AllocResult allocate(uint64_t bytes, void **ptr,
                               std::string &error) = 0;
  /// Frees a block \p allocate returned.
  virtual void release(void *ptr) = 0;
  /// The free memory of the device, for out-of-memory messages.
  virtual uint64_t freeBytes() = 0;
  /// Waits for pending work before blocks are released to the backend.
  virtual void waitIdle() = 0;
};

/// The caching allocator. Thread-safe.
class DevicePool {
public:
  explicit DevicePool(DeviceAllocator &backend) : backend(backend) {}
  /// Releases the cached blocks (blocks still in use are the owners' job).
  ~DevicePool() { trim(); }
  /// The size class of a request: a multiple of 256 up to 4 KiB, above that
  /// \p bytes rounded up to an eighth of its power of two.
  static uint64_t sizeClass(uint64_t bytes);
  /// A block of at least \p bytes (0 counts as 1).
  Expected<void *> allocate(uint64_t bytes);
  /// Returns \p ptr to the cache; an error for a pointer it never gave out.
  Status free(void *ptr);
  /// Releases every cached block to the backend.
  void trim();
  /// True when \p ptr is a block currently handed out.
  bool owns(void *ptr);
  DevicePoolStats stats();
  /// Starts a new peak measurement: peakInUse = bytesInUse.
  void resetPeak();
  /// A graph capture begins: remember every block allocated or freed from
  /// now on (the graph will use them at every replay).
  void beginCapture();
  /// The capture ended: the remembered blocks that are free now are handed
  /// out again, to the graph, and returned; free them when the graph is
  /// destroyed. No other user can get them while the graph may replay.
  std::vector<void *> endCapture();

private:
  void *takeCached(uint64_t sizeClass);
  void trimLocked();
  AllocResult allocateFromBackend(uint64_t sizeClass, void **ptr,
                                  std::string &error);

  DeviceAllocator &backend;
  std::mutex mutex;
  std::map<uint64_t, std::vector<void *>> freeLists;
  std::unordered_map<void *, uint64_t> inUse; ///< block -> size class
  DevicePoolStats counters;
  bool capturing = false;
  std::vector<void *> captured; ///< blocks touched during the capture
};

/// The process's pool over cuMemAlloc (of the context initCuda() made).
DevicePool &devicePool();

} // namespace cuda
} // namespace modelrt

#endif // MODELRT_LIB_CUDA_DEVICEPOOL_H
