//===- DevicePool.cpp - Caching allocator for device memory ----------------===//
//
// Implements DevicePool.h: size classes with at most 1/8 waste (or 255 bytes
// for small blocks), LIFO reuse, statistics, and one cache release and retry
// on out-of-memory before reporting the needed and the free bytes.
//
//===----------------------------------------------------------------------===//
#include "DevicePool.h"

#include <algorithm>
#include <cstdio>

namespace modelrt {
namespace cuda {

uint64_t DevicePool::sizeClass(uint64_t bytes) {
  if (bytes == 0)
    bytes = 1;
  if (bytes <= 4096)
    return (bytes + 255) / 256 * 256;
  uint64_t power = uint64_t(1) << (63 - __builtin_clzll(bytes));
  uint64_t step = power / 8;
  return (bytes + step - 1) / step * step;
}

void *DevicePool::takeCached(uint64_t cls) {
  auto it = freeLists.find(cls);
  if (it == freeLists.end() || it->second.empty())
    return nullptr;
  void *ptr = it->second.back();
  it->second.pop_back();
  counters.bytesCached -= cls;
  counters.reuses++;
  return ptr;
}

AllocResult DevicePool::allocateFromBackend(uint64_t cls, void **ptr,
                                            std::string &error) {
  AllocResult r = backend.allocate(cls, ptr, error);
  if (r != AllocResult::OutOfMemory || counters.bytesCached == 0)
    return r;
  trimLocked(); // release the cache and retry once
  return backend.allocate(cls, ptr, error);
}

/// "2.0 MiB" or "1.50 GiB".
static std::string humanBytes(uint64_t bytes) {
  char text[64];
  if (bytes >= (uint64_t(1) << 30))
    std::snprintf(text, sizeof(text), "%.2f GiB", bytes / 1073741824.0);
  else
    std::snprintf(text, sizeof(text), "%.1f MiB", bytes / 1048576.0);
  return text;
}

/// The message for a request the device cannot hold even without the cache.
static std::string outOfMemory(uint64_t bytes, uint64_t freeBytes,
                               uint64_t inUse) {
  return "out of GPU memory: " + std::to_string(bytes) + " bytes needed (" +
         humanBytes(bytes) + "), " + std::to_string(freeBytes) +
         " bytes free on the device (" + humanBytes(freeBytes) + "), " +
         std::to_string(inUse) + " in use by modelrt";
}

Expected<void *> DevicePool::allocate(uint64_t bytes) {
  uint64_t cls = sizeClass(bytes);
  std::lock_guard<std::mutex> lock(mutex);
  void *ptr = takeCached(cls);
  if (!ptr) {
    std::string error;
    AllocResult r = allocateFromBackend(cls, &ptr, error);
    if (r == AllocResult::OutOfMemory)
      return Status::error(outOfMemory(bytes, backend.freeBytes(),
                                       counters.bytesInUse));
    if (r == AllocResult::Failed)
      return Status::error(error);
    counters.backendAllocations++;
  }
  inUse[ptr] = cls;
  if (capturing)
    captured.push_back(ptr);
  counters.bytesInUse += cls;
  if (counters.bytesInUse > counters.peakInUse)
    counters.peakInUse = counters.bytesInUse;
  uint64_t reserved = counters.bytesInUse + counters.bytesCached;
  if (reserved > counters.peakReserved)
    counters.peakReserved = reserved;
  return ptr;
}

Status DevicePool::free(void *ptr) {
  if (!ptr)
    return Status::ok();
  std::lock_guard<std::mutex> lock(mutex);
  auto it = inUse.find(ptr);
  if (it == inUse.end()) {
    char text[128];
    std::snprintf(text, sizeof(text),
                  "freeing device pointer %p that the pool did not allocate "
                  "(or freed twice)", ptr);
    return Status::error(text);
  }
  uint64_t cls = it->second;
  inUse.erase(it);
  counters.bytesInUse -= cls;
  counters.bytesCached += cls;
  freeLists[cls].push_back(ptr);
  if (capturing)
    captured.push_back(ptr);
  return Status::ok();
}

void DevicePool::beginCapture() {
  std::lock_guard<std::mutex> lock(mutex);
  capturing = true;
  captured.clear();
}

std::vector<void *> DevicePool::endCapture() {
  std::lock_guard<std::mutex> lock(mutex);
  capturing = false;
  std::vector<void *> held;
  for (auto &entry : freeLists) {
    std::vector<void *> &list = entry.second;
    for (size_t i = 0; i < list.size();) {
      if (std::find(captured.begin(), captured.end(), list[i]) == captured.end()) {
        ++i;
        continue;
      }
      held.push_back(list[i]);
      inUse[list[i]] = entry.first;
      counters.bytesCached -= entry.first;
      counters.bytesInUse += entry.first;
      list.erase(list.begin() + long(i));
    }
  }
  captured.clear();
  return held;
}

void DevicePool::trimLocked() {
  if (counters.bytesCached == 0)
    return;
  backend.waitIdle();
  for (auto &entry : freeLists)
    for (void *ptr : entry.second)
      backend.release(ptr);
  freeLists.clear();
  counters.bytesCached = 0;
}

void DevicePool::trim() {
  std::lock_guard<std::mutex> lock(mutex);
  trimLocked();
}

bool DevicePool::owns(void *ptr) {
  std::lock_guard<std::mutex> lock(mutex);
  return inUse.count(ptr) != 0;
}

void DevicePool::resetPeak() {
  std::lock_guard<std::mutex> lock(mutex);
  counters.peakInUse = counters.bytesInUse;
}

DevicePoolStats DevicePool::stats() {
  std::lock_guard<std::mutex> lock(mutex);
  return counters;
}

} // namespace cuda
} // namespace modelrt
