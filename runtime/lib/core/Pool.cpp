//===- Pool.cpp - The pooling functions: the build and the threads --------===//
//
// Implements Pool.h and the dispatch of PoolKernels.h (max pooling with
// codes too): each C function runs
// the build of PoolKernels.cpp for the runtime's level (hostKernels()) over
// the N*C planes, on the calling thread, or, from kParallelLoopWork
// elements read and written on, as two halves of the planes on
// runInTwoParts' team (the threads of the compiled kernels' loops and of
// oneDNN).
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Pool.h"
#include "PoolKernels.h"
#include "modelrt/core/CpuFeatures.h"
#include "modelrt/core/Parallel.h"

namespace modelrt {
namespace {

/// The threads of a call that reads and writes \p work elements: two when
/// that is at least kParallelLoopWork and the process has two cores.
int threadsFor(int64_t work) {
  return work >= kParallelLoopWork && twoPartsInParallel() ? 2 : 1;
}

/// Runs \p part(first, count) over the \p count planes: at once on one
/// thread, or as two halves on runInTwoParts' team.
template <typename Part> void overPlanes(int threads, int64_t count, const Part &part) {
  if (threads < 2 || count < 2) {
    part(0, count);
    return;
  }
  int64_t half = count / 2;
  runInTwoParts([&](int second) { part(second ? half : 0, second ? count - half : half); });
}

/// One call of the C functions: the host's build, on threadsFor's threads.
void poolOnHost(PoolKind kind, const PoolShape &s, const float *a, const float *b, float *out) {
  runPool(hostKernels().level, threadsFor(poolWork(kind, s)), kind, s, a, b, out);
}

/// poolOnHost for max pooling with codes (the work of a forward pooling:
/// one read of the larger planes, one write of the smaller).
void codesOnHost(bool backward, const PoolShape &s, const float *a, uint8_t *codes, float *out) {
  runPoolCodes(hostKernels().level, threadsFor(poolWork(PoolKind::MaxForward, s)), backward, s,
               a, codes, out);
}

} // namespace

PoolBuild poolBuildFor(CpuLevel level) {
#if defined(__x86_64__) && defined(MODELRT_HAVE_WIDE_LEVELS)
  switch (level) {
  case CpuLevel::Avx512:
    return {poolPlanesAvx512, poolPlanesAvx512Codes, poolPlanesAvx512Blocked16,
            poolPlanesAvx512Blocked16Grad, poolPlanesAvx512Blocked16GradBf16};
  case CpuLevel::Avx2:
    return {poolPlanesAvx2, poolPlanesAvx2Codes, poolPlanesAvx2Blocked16,
            poolPlanesAvx2Blocked16Grad};
  case CpuLevel::Baseline:
    break;
  }
#endif
  return {poolPlanesBaseline, poolPlanesBaselineCodes, poolPlanesBaselineBlocked16,
          poolPlanesBaselineBlocked16Grad};
}

int64_t poolWork(PoolKind kind, const PoolShape &s) {
  int64_t in = s.h * s.w, out = s.oh * s.ow;
  return s.n * s.c * (kind == PoolKind::MaxBackward ? 2 * in + out : in + out);
}

void runPool(CpuLevel level, int threads, PoolKind kind, const PoolShape &s, const float *a,
             const float *b, float *out) {
  PoolPlanesFn planes = poolBuildFor(level).planes;
  int64_t in = s.h * s.w, outSize = s.oh * s.ow;
  bool forward = kind == PoolKind::MaxForward || kind == PoolKind::AvgForward;
  int64_t aStep = forward ? in : outSize, outStep = forward ? outSize : in;
  overPlanes(threads, s.n * s.c, [&](int64_t first, int64_t count) {
    planes(kind, s, a + first * aStep, b ? b + first * in : nullptr, out + first * outStep, count);
  });
}

void runPoolCodes(CpuLevel level, int threads, bool backward, const PoolShape &s,
                  const float *a, uint8_t *codes, float *out) {
  PoolCodesFn planes = poolBuildFor(level).codes;
  int64_t in = s.h * s.w, outSize = s.oh * s.ow;
  int64_t aStep = backward ? outSize : in, outStep = backward ? in : outSize;
  overPlanes(threads, s.n * s.c, [&](int64_t first, int64_t count) {
    planes(backward, s, a + first * aStep, codes + first * outSize, out + first * outStep, count);
  });
}

void runPoolBlocked16(CpuLevel level, int threads, const PoolShape &s, const float *x, float *y,
                      uint8_t *codes) {
  PoolBlockedFn blocked = poolBuildFor(level).blocked;
  overPlanes(threads, s.n * ((s.c + 15) / 16), [&](int64_t first, int64_t count) {
    blocked(s, x, y, codes, first, count);
  });
}

void runPoolBlocked16Grad(CpuLevel level, int threads, const PoolShape &s, const float *dy,
                          const uint8_t *codes, float *dx) {
  PoolBlockedGradFn grad = poolBuildFor(level).blockedGrad;
  overPlanes(threads, s.n * ((s.c + 15) / 16), [&](int64_t first, int64_t count) {
    grad(s, dy, codes, dx, first, count);
  });
}

void maxPoolGradBlocked16OnHost(const PoolShape &s, const float *dy, const uint8_t *codes,
                                float *dx) {
  runPoolBlocked16Grad(hostKernels().level, threadsFor(poolWork(PoolKind::MaxBackward, s)), s,
                       dy, codes, dx);
}

bool hostHasBlocked16GradBf16() {
  return poolBuildFor(hostKernels().level).blockedGradBf16 != nullptr;
}

void maxPoolGradBlocked16Bf16OnHost(const PoolShape &s, const float *dy, const uint8_t *codes,
                                    uint16_t *dx) {
  PoolBlockedGradBf16Fn grad = poolBuildFor(hostKernels().level).blockedGradBf16;
  int threads = threadsFor(poolWork(PoolKind::MaxBackward, s));
  overPlanes(threads, s.n * ((s.c + 15) / 16), [&](int64_t first, int64_t count) {
    grad(s, dy, codes, dx, first, count);
  });
}

void maxPoolBlocked16OnHost(const PoolShape &s, const float *x, float *y, uint8_t *codes) {
  runPoolBlocked16(hostKernels().level, threadsFor(poolWork(PoolKind::MaxForward, s)), s, x, y,
                   codes);
}

} // namespace modelrt

using modelrt::PoolKind;
using modelrt::PoolShape;

extern "C" void modelrt_max_pool2d_forward(const float *x, float *y, int64_t n, int64_t c,
                                           int64_t h, int64_t w, int64_t oh, int64_t ow, int64_t kh,
                                           int64_t kw, int64_t strideH, int64_t strideW,
                                           int64_t padH, int64_t padW) {
  PoolShape s{n, c, h, w, oh, ow, kh, kw, strideH, strideW, padH, padW};
  modelrt::poolOnHost(PoolKind::MaxForward, s, x, nullptr, y);
}

extern "C" void modelrt_max_pool2d_backward(const float *dy, const float *x, float *dx, int64_t n,
                                            int64_t c, int64_t h, int64_t w, int64_t oh, int64_t ow,
                                            int64_t kh, int64_t kw, int64_t strideH,
                                            int64_t strideW, int64_t padH, int64_t padW) {
  PoolShape s{n, c, h, w, oh, ow, kh, kw, strideH, strideW, padH, padW};
  modelrt::poolOnHost(PoolKind::MaxBackward, s, dy, x, dx);
}

extern "C" void modelrt_max_pool2d_forward_codes(const float *x, float *y, uint8_t *codes,
                                                 int64_t n, int64_t c, int64_t h, int64_t w,
                                                 int64_t oh, int64_t ow, int64_t kh, int64_t kw,
                                                 int64_t strideH, int64_t strideW, int64_t padH,
                                                 int64_t padW) {
  PoolShape s{n, c, h, w, oh, ow, kh, kw, strideH, strideW, padH, padW};
  modelrt::codesOnHost(false, s, x, codes, y);
}

extern "C" void modelrt_max_pool2d_backward_codes(const float *dy, const uint8_t *codes,
                                                  float *dx, int64_t n, int64_t c, int64_t h,
                                                  int64_t w, int64_t oh, int64_t ow, int64_t kh,
                                                  int64_t kw, int64_t strideH, int64_t strideW,
                                                  int64_t padH, int64_t padW) {
  PoolShape s{n, c, h, w, oh, ow, kh, kw, strideH, strideW, padH, padW};
  // PoolCodesFn's one codes pointer is written forwards only.
  modelrt::codesOnHost(true, s, dy, const_cast<uint8_t *>(codes), dx);
}

extern "C" void modelrt_avg_pool2d_forward(const float *x, float *y, int64_t n, int64_t c,
                                           int64_t h, int64_t w, int64_t oh, int64_t ow, int64_t kh,
                                           int64_t kw, int64_t strideH, int64_t strideW,
                                           int64_t padH, int64_t padW) {
  PoolShape s{n, c, h, w, oh, ow, kh, kw, strideH, strideW, padH, padW};
  modelrt::poolOnHost(PoolKind::AvgForward, s, x, nullptr, y);
}

extern "C" void modelrt_avg_pool2d_backward(const float *dy, float *dx, int64_t n, int64_t c,
                                            int64_t h, int64_t w, int64_t oh, int64_t ow,
                                            int64_t kh, int64_t kw, int64_t strideH,
                                            int64_t strideW, int64_t padH, int64_t padW) {
  PoolShape s{n, c, h, w, oh, ow, kh, kw, strideH, strideW, padH, padW};
  modelrt::poolOnHost(PoolKind::AvgBackward, s, dy, nullptr, dx);
}
