//===- ConvFromMaxPool.cpp - Convolution gradients from pooling's --------===//
//
// Implements modelrt_conv2d_backward_from_max_pool2d and its weights-only
// form (Conv.h): the gradient
// of a 2x2 / 2 max pooling from its codes, which is the output gradient dy
// of the convolution before it, then that convolution's f32 gradients. On
// oneDNN's path where both primitives take dy in nChw16c f32
// (ConvBackends.h, BlockedGradient), the pooling's gradient writes dy there
// (PoolKernels.h, PoolBlockedGradFn) and the scratch dy is not written: no
// NCHW dy, and no reorder of it. Otherwise the functions of Pool.h and the
// convolution's write and read the scratch dy. Both give the bits of the
// separate calls. The `_bf16` forms do the same with the bf16 gradients:
// the pooling's gradient writes dy in bf16 blocks, rounded as oneDNN's
// reorder rounds it (PoolKernels.h, PoolBlockedGradBf16Fn), where the
// primitives take dy so and the host's build has that loop. The
// weights-only f32 form, where the direct loops take the
// convolution (ConvDirect.h), multiplies each pooled gradient into the
// taps of the element its code names instead: no dy at all, and the same
// sums in another order.
//
//===----------------------------------------------------------------------===//
#include "ConvBackends.h"
#include "ConvDirect.h"
#include "PoolKernels.h"
#include "modelrt/core/Conv.h"
#include "modelrt/core/Pool.h"

using modelrt::ConvKind;
using modelrt::ConvShape;
using modelrt::PoolShape;

namespace {

/// The pooling's gradient into dy, then the convolution's gradients: dx
/// and dw, or dw alone when \p dx is null; bf16 ones with \p bf16.
void gradientsFromMaxPool(const ConvShape &s, const float *pooledGrad, const uint8_t *codes,
                          const float *x, const float *w, float *dy, float *dx, float *dw,
                          bool bf16) {
  if (!dx && !bf16 && modelrt::directWeightsFromMaxPool(s, pooledGrad, codes, x, dw)) {
    modelrt::startConvolution(s); // what runConvolution notes otherwise
    return;
  }
  PoolShape p{s.n, s.o, s.oh, s.ow, s.oh / 2, s.ow / 2, 2, 2, 2, 2, 0, 0};
  modelrt::BlockedGradient fill = [&](void *blocked) {
    if (bf16)
      modelrt::maxPoolGradBlocked16Bf16OnHost(p, pooledGrad, codes,
                                              static_cast<uint16_t *>(blocked));
    else
      modelrt::maxPoolGradBlocked16OnHost(p, pooledGrad, codes, static_cast<float *>(blocked));
  };
  bool fillable = p.oh > 0 && p.ow > 0 && (!bf16 || modelrt::hostHasBlocked16GradBf16());
  if (fillable && modelrt::runConvolutionBackwardFilled(s, fill, x, w, dx, dw, bf16))
    return;
  modelrt_max_pool2d_backward_codes(pooledGrad, codes, dy, p.n, p.c, p.h, p.w, p.oh, p.ow, p.kh,
                                    p.kw, p.strideH, p.strideW, p.padH, p.padW);
  if (dx)
    modelrt::runConvolutionBackward(s, dy, x, w, dx, dw, bf16);
  else
    modelrt::runConvolution(ConvKind::BackwardWeights, s, x, dy, dw, bf16);
}

} // namespace

#define MODELRT_FROM_MAX_POOL(NAME, BF16)                                                     \
  extern "C" void NAME(const float *pooledGrad, const uint8_t *codes, const float *x,         \
                       const float *w, float *dy, float *dx, float *dw, int64_t n, int64_t c, \
                       int64_t h, int64_t w_, int64_t o, int64_t kh, int64_t kw, int64_t oh,  \
                       int64_t ow, int64_t strideH, int64_t strideW, int64_t padH,            \
                       int64_t padW, int64_t dilH, int64_t dilW) {                            \
    ConvShape s{n, c, h, w_, o, kh, kw, oh, ow, strideH, strideW, padH, padW, dilH, dilW};    \
    gradientsFromMaxPool(s, pooledGrad, codes, x, w, dy, dx, dw, BF16);                       \
  }
MODELRT_FROM_MAX_POOL(modelrt_conv2d_backward_from_max_pool2d, false)
MODELRT_FROM_MAX_POOL(modelrt_conv2d_backward_from_max_pool2d_bf16, true)
#undef MODELRT_FROM_MAX_POOL

#define MODELRT_WEIGHTS_FROM_MAX_POOL(NAME, BF16)                                             \
  extern "C" void NAME(const float *pooledGrad, const uint8_t *codes, const float *x,         \
                       float *dy, float *dw, int64_t n, int64_t c, int64_t h, int64_t w_,     \
                       int64_t o, int64_t kh, int64_t kw, int64_t oh, int64_t ow,             \
                       int64_t strideH, int64_t strideW, int64_t padH, int64_t padW,          \
                       int64_t dilH, int64_t dilW) {                                          \
    ConvShape s{n, c, h, w_, o, kh, kw, oh, ow, strideH, strideW, padH, padW, dilH, dilW};    \
    gradientsFromMaxPool(s, pooledGrad, codes, x, nullptr, dy, nullptr, dw, BF16);            \
  }
MODELRT_WEIGHTS_FROM_MAX_POOL(modelrt_conv2d_backward_weights_from_max_pool2d, false)
MODELRT_WEIGHTS_FROM_MAX_POOL(modelrt_conv2d_backward_weights_from_max_pool2d_bf16, true)
#undef MODELRT_WEIGHTS_FROM_MAX_POOL
