//===- OptimizerDispatch.cpp - Picks the optimizer loop for this CPU -------===//
//
// Implements bestStepLoop (OptimizerLoops.h): the widest build of the loop
// that the running CPU supports, capped by MODELRT_CPU_ISA.
//
//===----------------------------------------------------------------------===//
#include "OptimizerLoops.h"

#include <cstdlib>
#include <cstring>

namespace modelrt {
namespace {

StepLoopFn chooseStepLoop() {
#if defined(__x86_64__) && defined(MODELRT_HAVE_WIDE_LOOPS)
  const char *cap = std::getenv("MODELRT_CPU_ISA");
  bool allowAvx512 = !cap || !std::strcmp(cap, "avx512");
  bool allowAvx2 = allowAvx512 || !std::strcmp(cap, "avx2");
  __builtin_cpu_init();
  if (allowAvx512 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl"))
    return stepLoopAvx512;
  if (allowAvx2 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return stepLoopAvx2;
#endif
  return stepLoopBaseline;
}

} // namespace

StepLoopFn bestStepLoop() {
  static const StepLoopFn fn = chooseStepLoop();
  return fn;
}

} // namespace modelrt
