//===- OptimizerLoops.h - The CPU optimizer loop, one build per x86 level --===//
//
// Declares the CPU loop of the general optimizer step (OptimizerMath.h's
// stepElement over a buffer) in three builds of OptimizerLoops.cpp: the
// x86-64 baseline (SSE2), AVX2 + FMA, and AVX-512. `bestStepLoop()` picks
// the widest one the running CPU supports, once. The update is memory- and
// divide/sqrt-bound, so the vector width decides its speed. All builds use
// -ffp-contract=off and IEEE sqrt and division, so they give bit-identical
// results.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_TRAIN_OPTIMIZERLOOPS_H
#define MODELRT_LIB_TRAIN_OPTIMIZERLOOPS_H

#include "modelrt/train/OptimizerMath.h"

namespace modelrt {

/// Updates \p n elements of \p p with gradients \p grad and moments \p m,
/// \p v (null when the variant does not use them) by \p variant's rule.
using StepLoopFn = void (*)(StepVariant variant, const StepCoeffs &coeffs, int64_t n,
                            float *p, const float *grad, float *m, float *v);

/// The three builds (the wider ones exist only on x86-64).
void stepLoopBaseline(StepVariant, const StepCoeffs &, int64_t, float *, const float *,
                      float *, float *);
void stepLoopAvx2(StepVariant, const StepCoeffs &, int64_t, float *, const float *, float *,
                  float *);
void stepLoopAvx512(StepVariant, const StepCoeffs &, int64_t, float *, const float *, float *,
                    float *);

/// The widest build this CPU runs (MODELRT_CPU_ISA=baseline|avx2|avx512
/// caps it, for tests and comparisons); chosen once.
StepLoopFn bestStepLoop();

} // namespace modelrt

#endif // MODELRT_LIB_TRAIN_OPTIMIZERLOOPS_H
