//===- Parallel.h - Splitting one loop over the two cores ------------------===//
//
// Implements `runInTwoParts`: calls part(0) and part(1) on two threads of
// OpenMP's team (the calling thread and a libgomp worker, the same team that
// runs oneDNN's products, so the runtime never has more busy threads than
// cores), and returns when both are done. Used for the memory-bound loops
// of the runtime (the optimizer's update, the one-row product of Gemv.cpp,
// pooling) and, through modelrt_parallel_for, the compiled kernels' parallel
// loops.
// Runs both parts on the caller when the process has one core or
// MODELRT_THREADS=1 is set.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CORE_PARALLEL_H
#define MODELRT_CORE_PARALLEL_H

#include <cstdint>
#include <functional>

namespace modelrt {

/// Runs part(0) here and part(1) on the helper thread, then waits for both.
/// The parts must not touch the same memory.
void runInTwoParts(const std::function<void(int part)> &part);

/// True when runInTwoParts really uses two threads.
bool twoPartsInParallel();

/// The cores this process may run on (its CPU affinity mask, as taskset or a
/// container's cpuset sets it; at least 1).
int usableCores();

/// The work (iterations times operations per iteration, as the compiler
/// estimates it) from which modelrt_parallel_for splits a loop.
constexpr int64_t kParallelLoopWork = int64_t(1) << 18;

} // namespace modelrt

extern "C" {
/// Runs fn(ctx, b, e) over [begin, end): once over the whole range, or,
/// when \p work is at least modelrt::kParallelLoopWork, the range has two
/// iterations or more and runInTwoParts has two threads, over its two
/// halves on two threads. Compiled kernels call it for their parallel
/// loops (compiler/lib/Transforms/CPU/ParallelKernelCalls.cpp); every iteration
/// writes its own elements, so the split gives the same bits.
void modelrt_parallel_for(void (*fn)(void *ctx, int64_t begin, int64_t end), void *ctx,
                          int64_t begin, int64_t end, int64_t work);
}

#endif // MODELRT_CORE_PARALLEL_H
