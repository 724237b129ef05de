//===- Parallel.h - Splitting one loop over the two cores ------------------===//
//
// Implements `runInTwoParts`: calls part(0) and part(1) on two threads of
// OpenMP's team (the calling thread and a libgomp worker, the same team that
// runs oneDNN's products, so the runtime never has more busy threads than
// cores), and returns when both are done. Used for the memory-bound loops
// of the runtime (the optimizer's update over every parameter). Runs both
// parts on the caller when the machine has one core or MODELRT_THREADS=1 is
// set.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_PARALLEL_H
#define MODELRT_PARALLEL_H

#include <functional>

namespace modelrt {

/// Runs part(0) here and part(1) on the helper thread, then waits for both.
/// The parts must not touch the same memory.
void runInTwoParts(const std::function<void(int part)> &part);

/// True when runInTwoParts really uses two threads.
bool twoPartsInParallel();

} // namespace modelrt

#endif // MODELRT_PARALLEL_H
