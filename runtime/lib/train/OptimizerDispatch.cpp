//===- OptimizerDispatch.cpp - Picks the optimizer loop for this CPU -------===//
//
// Implements bestStepLoop (OptimizerLoops.h): the widest build of the loop
// at the level chosen for the running CPU (CpuFeatures.h: its features,
// capped by MODELRT_CPU_ISA).
//
//===----------------------------------------------------------------------===//
#include "OptimizerLoops.h"
#include "modelrt/core/CpuFeatures.h"

namespace modelrt {
namespace {

StepLoopFn chooseStepLoop() {
#if defined(__x86_64__) && defined(MODELRT_HAVE_WIDE_LEVELS)
  switch (hostKernels().level) {
  case CpuLevel::Avx512:
    return stepLoopAvx512;
  case CpuLevel::Avx2:
    return stepLoopAvx2;
  case CpuLevel::Baseline:
    break;
  }
#endif
  return stepLoopBaseline;
}
} // namespace

StepLoopFn bestStepLoop() {
  static const StepLoopFn fn = chooseStepLoop();
  return fn;
}

} // namespace modelrt
