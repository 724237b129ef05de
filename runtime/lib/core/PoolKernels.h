//===- PoolKernels.h - The pooling loops, one build per x86 level ---------===//
//
// Declares, for Pool.cpp and the tests, the loops behind the pooling
// functions of Pool.h (modelrt/core/Pool.h says what they compute): the
// loop over a range of the N*C planes in three builds of PoolKernels.cpp,
// for the x86-64 baseline (SSE2), AVX2 and AVX-512, and runPool(), which
// runs one call with a given build on one or two threads; the same for max
// pooling that keeps each window's arg-max as a byte (runPoolCodes). Every build gives
// the same bits: max pooling only compares and copies, and each sum of the
// average pooling adds its terms in one order in every build and path.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_CORE_POOLKERNELS_H
#define MODELRT_LIB_CORE_POOLKERNELS_H

#include "modelrt/core/CpuFeatures.h"

#include <cstdint>

namespace modelrt {

/// Which of the four functions.
enum class PoolKind { MaxForward, MaxBackward, AvgForward, AvgBackward };

/// One call's sizes: N x C planes of H x W (x, dx) and of OH x OW (y, dy),
/// the window KH x KW, its stride and the padding on each side.
struct PoolShape {
  int64_t n = 0, c = 0, h = 0, w = 0, oh = 0, ow = 0, kh = 1, kw = 1;
  int64_t strideH = 1, strideW = 1, padH = 0, padW = 0;
};

/// Runs \p kind over \p planes consecutive planes. \p a is x (forwards) or
/// dy (backwards), \p b is x for MaxBackward (unused otherwise), \p out is
/// y or dx; each points at the first plane of the range.
using PoolPlanesFn = void (*)(PoolKind kind, const PoolShape &s, const float *a, const float *b,
                              float *out, int64_t planes);

/// The three builds (the wider ones exist only on x86-64).
void poolPlanesBaseline(PoolKind, const PoolShape &, const float *, const float *, float *,
                        int64_t);
void poolPlanesAvx2(PoolKind, const PoolShape &, const float *, const float *, float *, int64_t);
void poolPlanesAvx512(PoolKind, const PoolShape &, const float *, const float *, float *, int64_t);


/// Max pooling with codes over \p planes consecutive planes. Forwards
/// (\p backward false): y (\p out) from x (\p a), as MaxForward, and
/// codes[N,C,OH,OW] = the position of each window's maximum in the window,
/// i * KW + j from its first row and column (padding counted); KH * KW <=
/// 256. Backwards: dx (\p out) from dy (\p a) and the codes, the bits of
/// MaxBackward on the x the codes came from.
using PoolCodesFn = void (*)(bool backward, const PoolShape &s, const float *a, uint8_t *codes,
                             float *out, int64_t planes);

/// The three builds of the codes' loops.
void poolPlanesBaselineCodes(bool, const PoolShape &, const float *, uint8_t *, float *, int64_t);
void poolPlanesAvx2Codes(bool, const PoolShape &, const float *, uint8_t *, float *, int64_t);
void poolPlanesAvx512Codes(bool, const PoolShape &, const float *, uint8_t *, float *, int64_t);

/// 2x2 / 2 max pooling without padding of x in oneDNN's nChw16c layout (a
/// convolution's result: N x ceil(C/16) blocks of H x W pixels of 16
/// channels, those past C padding), blocks [\p first, \p first + \p count)
/// (block n * ceil(C/16) + cb): y[N,C,OH,OW] as MaxForward on the NCHW x,
/// and, when \p codes is not null, the codes as PoolCodesFn writes them.
/// OH = H / 2 and OW = W / 2 (floor).
using PoolBlockedFn = void (*)(const PoolShape &s, const float *x, float *y, uint8_t *codes,
                               int64_t first, int64_t count);

/// The three builds of the blocked loop.
void poolPlanesBaselineBlocked16(const PoolShape &, const float *, float *, uint8_t *, int64_t,
                                 int64_t);
void poolPlanesAvx2Blocked16(const PoolShape &, const float *, float *, uint8_t *, int64_t,
                             int64_t);
void poolPlanesAvx512Blocked16(const PoolShape &, const float *, float *, uint8_t *, int64_t,
                               int64_t);

/// The gradient of a 2x2 / 2 max pooling without padding from its codes
/// (dy[N,C,OH,OW] and codes as PoolCodesFn writes them) into dx in
/// nChw16c, blocks [\p first, \p first + \p count): the bits of
/// MaxBackward's dx in that layout, zeros in the channels past C.
using PoolBlockedGradFn = void (*)(const PoolShape &s, const float *dy, const uint8_t *codes,
                                   float *dx, int64_t first, int64_t count);

/// The three builds of the blocked gradient.
void poolPlanesBaselineBlocked16Grad(const PoolShape &, const float *, const uint8_t *, float *,
                                     int64_t, int64_t);
void poolPlanesAvx2Blocked16Grad(const PoolShape &, const float *, const uint8_t *, float *,
                                 int64_t, int64_t);
void poolPlanesAvx512Blocked16Grad(const PoolShape &, const float *, const uint8_t *, float *,
                                   int64_t, int64_t);

/// PoolBlockedGradFn with dx in bf16 (nChw16c, 16-bit elements), each
/// element rounded as vcvtneps2bf16 rounds it (subnormals to zero): the
/// bits of MaxBackward's dx reordered into bf16 by oneDNN.
using PoolBlockedGradBf16Fn = void (*)(const PoolShape &s, const float *dy,
                                       const uint8_t *codes, uint16_t *dx, int64_t first,
                                       int64_t count);

/// The AVX-512 build's (the only one: a host with bf16 convolutions has
/// AVX-512).
void poolPlanesAvx512Blocked16GradBf16(const PoolShape &, const float *, const uint8_t *,
                                       uint16_t *, int64_t, int64_t);

/// One build's loops (blockedGradBf16 null but in the AVX-512 build).
struct PoolBuild {
  PoolPlanesFn planes;
  PoolCodesFn codes;
  PoolBlockedFn blocked;
  PoolBlockedGradFn blockedGrad;
  PoolBlockedGradBf16Fn blockedGradBf16 = nullptr;
};

/// The build for \p level (the baseline where the wider ones are not built).
PoolBuild poolBuildFor(CpuLevel level);

/// The elements one call reads and writes, the work modelrt_parallel_for's
/// threshold (Parallel.h, kParallelLoopWork) is compared with.
int64_t poolWork(PoolKind kind, const PoolShape &s);

/// Runs one call with the build for \p level on \p threads threads (1, or 2
/// on runInTwoParts' team, each taking half of the planes: every plane is
/// computed by one thread, so the bits do not depend on the count).
void runPool(CpuLevel level, int threads, PoolKind kind, const PoolShape &s, const float *a,
             const float *b, float *out);

/// runPool for max pooling with codes (PoolCodesFn): \p codes is written
/// forwards and read backwards.
void runPoolCodes(CpuLevel level, int threads, bool backward, const PoolShape &s,
                  const float *a, uint8_t *codes, float *out);

/// Runs PoolBlockedFn over every block with the build for \p level on
/// \p threads threads (each block computed by one).
void runPoolBlocked16(CpuLevel level, int threads, const PoolShape &s, const float *x, float *y,
                      uint8_t *codes);

/// runPoolBlocked16 with the host's build and the threads of the C
/// functions (ConvMaxPool.cpp calls it on a convolution's blocked result).
void maxPoolBlocked16OnHost(const PoolShape &s, const float *x, float *y, uint8_t *codes);

/// Runs PoolBlockedGradFn over every block with the build for \p level on
/// \p threads threads (each block computed by one).
void runPoolBlocked16Grad(CpuLevel level, int threads, const PoolShape &s, const float *dy,
                          const uint8_t *codes, float *dx);

/// runPoolBlocked16Grad with the host's build and the threads of the C
/// functions (ConvFromMaxPool.cpp calls it into a convolution's dy).
void maxPoolGradBlocked16OnHost(const PoolShape &s, const float *dy, const uint8_t *codes,
                                float *dx);

/// True when the host's build has PoolBlockedGradBf16Fn.
bool hostHasBlocked16GradBf16();

/// The same into bf16 blocks (PoolBlockedGradBf16Fn), with the host's
/// build, which must have it (hostHasBlocked16GradBf16).
void maxPoolGradBlocked16Bf16OnHost(const PoolShape &s, const float *dy, const uint8_t *codes,
                                    uint16_t *dx);

} // namespace modelrt

#endif // MODELRT_LIB_CORE_POOLKERNELS_H
