//===- BufferPool.h - Reusing allocator for the generated code's buffers ---===//
//
// Declares the caching allocator behind the compiled kernels' temporary
// buffers. The CPU pipeline lowers memref.alloc / memref.dealloc to the
// generic MLIR entry points `_mlir_memref_to_llvm_alloc`,
// `_mlir_memref_to_llvm_aligned_alloc` and `_mlir_memref_to_llvm_free`,
// which this pool defines. Freed blocks are kept in size classes (at most
// 1/8 over the request) and handed out again last-in first-out, so from the
// second training step on a step allocates nothing from the system: its
// buffers come back warm in cache and without page faults. Every block is
// 64-byte aligned. `MODELRT_BUFFER_POOL=0` in the environment turns caching
// off (each call goes to the system allocator; useful under sanitizers).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CORE_BUFFERPOOL_H
#define MODELRT_CORE_BUFFERPOOL_H

#include <cstddef>
#include <cstdint>

extern "C" {
/// memref.alloc without alignment: a block of at least \p size bytes.
void *_mlir_memref_to_llvm_alloc(size_t size);
/// memref.alloc with an alignment attribute (a power of two).
void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size);
/// memref.dealloc: returns the block to the pool (null is ignored).
void _mlir_memref_to_llvm_free(void *ptr);
}

namespace modelrt {

/// Counters of the pool since the start (or the last trim).
struct BufferPoolStats {
  uint64_t systemAllocations = 0; ///< blocks obtained from the system
  uint64_t reuses = 0;            ///< requests served from a free list
  uint64_t bytesInUse = 0;        ///< in blocks handed out, not yet freed
  uint64_t bytesCached = 0;       ///< in blocks on the free lists
  uint64_t peakBytes = 0;         ///< largest bytesInUse + bytesCached
};

/// A snapshot of the pool's counters.
BufferPoolStats bufferPoolStats();

/// Returns every cached (free) block to the system. Blocks in use stay
/// valid and return to the pool when freed.
void bufferPoolTrim();

/// The size class a request of \p size bytes is served from: a multiple of
/// 64 below 512 bytes, else \p size rounded up to an eighth of its power of
/// two.
size_t bufferPoolSizeClass(size_t size);

} // namespace modelrt

#endif // MODELRT_CORE_BUFFERPOOL_H
