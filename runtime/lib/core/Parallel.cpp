//===- Parallel.cpp - runInTwoParts on OpenMP's team -----------------------===//
//
// Implements Parallel.h with one OpenMP parallel region of two threads. The
// runtime's loops and oneDNN's products (BlasOneDnn.cpp, also built on
// libgomp) then share one team of threads: libgomp keeps the calling
// thread's workers between regions, so the two never oversubscribe the
// cores, and a worker that has just run a product starts the next part at
// once.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Parallel.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <sched.h>
#include <thread>

// libgomp's entry points (declared here: clang's driver has no omp.h of
// GNU OpenMP).
extern "C" int omp_get_num_threads();
extern "C" int omp_get_thread_num();

namespace modelrt {
namespace {

bool decideParallel() {
  const char *env = std::getenv("MODELRT_THREADS");
  if (env && std::strcmp(env, "1") == 0)
    return false;
  return usableCores() >= 2;
}

} // namespace

int usableCores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    return std::max(1, CPU_COUNT(&set));
  return int(std::max(1u, std::thread::hardware_concurrency()));
}

bool twoPartsInParallel() {
  static const bool parallel = decideParallel();
  return parallel;
}

void runInTwoParts(const std::function<void(int part)> &part) {
  if (!twoPartsInParallel()) {
    part(0);
    part(1);
    return;
  }
#pragma omp parallel num_threads(2)
  {
    // OMP_THREAD_LIMIT or a nested region may leave one thread: it runs both.
    int threads = omp_get_num_threads(), self = omp_get_thread_num();
    if (threads == 1) {
      part(0);
      part(1);
    } else if (self < 2) {
      part(self);
    }
  }
}

} // namespace modelrt

extern "C" void modelrt_parallel_for(void (*fn)(void *, int64_t, int64_t), void *ctx,
                                     int64_t begin, int64_t end, int64_t work) {
  if (work < modelrt::kParallelLoopWork || end - begin < 2 || !modelrt::twoPartsInParallel()) {
    fn(ctx, begin, end);
    return;
  }
  int64_t mid = begin + (end - begin) / 2;
  modelrt::runInTwoParts([&](int part) { part ? fn(ctx, mid, end) : fn(ctx, begin, mid); });
}
