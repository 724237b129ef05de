//===- Pool.h - 2-D max and average pooling for compiled models -----------===//
//
// Declares the C functions compiled models call for every f32 2-D max
// and average pooling (NCHW, contiguous) and its gradient, and max pooling
// that keeps each window's arg-max (a byte) for its gradient. x and dx are
// N x C x H x W, y and dy N x C x OH x OW; the window is KH x KW, moved by
// strideH / strideW, over an input padded by padH / padW on each side (2 pad
// <= kernel, so every window holds a real element); the caller passes OH =
// (H + 2 padH - KH) / strideH + 1 (floor), OW likewise, both at least 1.
// N may be 0. Each function overwrites its output. The results are those of
// the loops the compiler generates, which follow PyTorch:
//   - max: each window's real elements are scanned in row-major order, and
//     an element is taken when it is greater than the maximum so far or is
//     NaN (the first maximum wins, a NaN wins, of +0 and -0 the first one);
//     padding never wins. The gradient of an element is +0 plus dy of each
//     window that picks it, in the windows' row-major order;
//   - average: the sum of the window's real elements divided by KH*KW
//     (count_include_pad); the gradient of an element is +0 plus dy / (KH*KW)
//     of each window that contains it, in the same order.
//
// The kernels (lib/core/PoolKernels.cpp) are built for each x86 level and
// chosen by the runtime's level (CpuFeatures.h, capped by MODELRT_CPU_ISA);
// every level gives the same bits. A call that reads and writes at least
// kParallelLoopWork elements (Parallel.h) splits its planes over two
// threads, each plane computed by one, so the bits do not depend on the
// thread count. Nothing here fails or aborts.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CORE_POOL_H
#define MODELRT_CORE_POOL_H

#include <cstdint>

extern "C" {
/// y[N,C,OH,OW] = the maximum of each window of x[N,C,H,W].
void modelrt_max_pool2d_forward(const float *x, float *y, int64_t n, int64_t c, int64_t h,
                                int64_t w, int64_t oh, int64_t ow, int64_t kh, int64_t kw,
                                int64_t strideH, int64_t strideW, int64_t padH, int64_t padW);

/// dx[N,C,H,W] = the gradient of max pooling from dy[N,C,OH,OW] and the
/// forward input x (whose arg-maxes route dy).
void modelrt_max_pool2d_backward(const float *dy, const float *x, float *dx, int64_t n, int64_t c,
                                 int64_t h, int64_t w, int64_t oh, int64_t ow, int64_t kh,
                                 int64_t kw, int64_t strideH, int64_t strideW, int64_t padH,
                                 int64_t padW);

/// modelrt_max_pool2d_forward, which also writes codes[N,C,OH,OW]: the
/// position of each window's maximum in the window, i * KW + j from the
/// window's first row and column (padding counted). KH * KW must be at
/// most 256 (a byte per code: the caller's contract, which the compiler
/// keeps by pairing 2x2 windows only). A training step calls it when the
/// gradient follows (LibraryToCalls).
void modelrt_max_pool2d_forward_codes(const float *x, float *y, uint8_t *codes, int64_t n,
                                      int64_t c, int64_t h, int64_t w, int64_t oh, int64_t ow,
                                      int64_t kh, int64_t kw, int64_t strideH, int64_t strideW,
                                      int64_t padH, int64_t padW);

/// dx[N,C,H,W] from dy and the codes of modelrt_max_pool2d_forward_codes:
/// the bits of modelrt_max_pool2d_backward on the x they came from, without
/// reading x again.
void modelrt_max_pool2d_backward_codes(const float *dy, const uint8_t *codes, float *dx,
                                       int64_t n, int64_t c, int64_t h, int64_t w, int64_t oh,
                                       int64_t ow, int64_t kh, int64_t kw, int64_t strideH,
                                       int64_t strideW, int64_t padH, int64_t padW);

/// y[N,C,OH,OW] = the sum of each window of x[N,C,H,W] / (KH*KW).
void modelrt_avg_pool2d_forward(const float *x, float *y, int64_t n, int64_t c, int64_t h,
                                int64_t w, int64_t oh, int64_t ow, int64_t kh, int64_t kw,
                                int64_t strideH, int64_t strideW, int64_t padH, int64_t padW);

/// dx[N,C,H,W] = the gradient of average pooling from dy[N,C,OH,OW].
void modelrt_avg_pool2d_backward(const float *dy, float *dx, int64_t n, int64_t c, int64_t h,
                                 int64_t w, int64_t oh, int64_t ow, int64_t kh, int64_t kw,
                                 int64_t strideH, int64_t strideW, int64_t padH, int64_t padW);
}

#endif // MODELRT_CORE_POOL_H
