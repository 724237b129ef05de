//===- OptimizerLoops.cpp - One build of the CPU optimizer loop ------------===//
//
// Compiled once per x86 level (runtime/CMakeLists.txt defines
// MODELRT_STEP_LOOP_NAME and the -m flags of each build): the branch-free
// loop of each step variant, vectorised by the compiler at that width.
// -fno-math-errno lets std::sqrt become one instruction; without it GCC
// keeps a scalar errno path in the loop.
//
//===----------------------------------------------------------------------===//
#include "OptimizerLoops.h"

#ifndef MODELRT_STEP_LOOP_NAME
#error "MODELRT_STEP_LOOP_NAME names this build's function"
#endif

namespace modelrt {
namespace {
/// One variant over a whole buffer: the flags are template parameters, so
/// each instantiation is a branch-free loop. Unused state pointers may be
/// null: they are not read.
struct StepLoop {
  template <bool Second, bool NormaliseFirst, bool First, bool Nesterov, bool Adam>
  static void run(const StepCoeffs &coeffs, int64_t n, float *__restrict p,
                  const float *__restrict grad, float *__restrict m, float *__restrict v) {
    const StepCoeffs c = coeffs; // a local copy: no aliasing with the buffers
    float zero = 0;
    for (int64_t i = 0; i < n; ++i)
      stepElement<Second, NormaliseFirst, First, Nesterov, Adam>(
          c, p[i], grad[i], First ? m[i] : zero, Second ? v[i] : zero);
  }
};
} // namespace

void MODELRT_STEP_LOOP_NAME(StepVariant variant, const StepCoeffs &coeffs, int64_t n,
                            float *p, const float *grad, float *m, float *v) {
  dispatchStepVariant<StepLoop>(variant, coeffs, n, p, grad, m, v);
}

} // namespace modelrt
