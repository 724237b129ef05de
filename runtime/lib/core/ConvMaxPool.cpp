//===- ConvMaxPool.cpp - A convolution whose result only a max pooling reads -===//
//
// Implements the `_max_pool2d` forms of Conv.h: the convolution with its
// bias, then 2x2 / 2 max pooling of its result (with codes, or without).
// Where the direct loops take the convolution (ConvDirect.h), they pool its
// result in registers, and y is not written. On the oneDNN path whose result is in nChw16c f32 (ConvBackends.h,
// BlockedResult) the pooling reads that buffer (PoolKernels.h,
// PoolBlockedFn), and y is not written: the reorder into NCHW, a read and a
// write of the whole result, is not made. Otherwise the convolution writes
// y and the pooling functions of Pool.h read it. Both give the bits of the
// separate calls.
//
//===----------------------------------------------------------------------===//
#include "ConvBackends.h"
#include "ConvDirect.h"
#include "PoolKernels.h"
#include "modelrt/core/Conv.h"
#include "modelrt/core/Pool.h"

namespace {

using modelrt::ConvShape;
using modelrt::PoolShape;

/// The convolution \p s of x and w plus the bias, then its max pooling
/// into \p pooled (and \p codes when not null); \p y is scratch.
void convMaxPool(const ConvShape &s, bool bf16, const float *x, const float *w,
                 const float *bias, float *y, float *pooled, uint8_t *codes) {
  if (modelrt::directConvolutionMaxPool(s, x, w, bias, pooled, codes, bf16)) {
    modelrt::startConvolution(s); // what runConvolution notes otherwise
    return;
  }
  PoolShape p{s.n, s.o, s.oh, s.ow, s.oh / 2, s.ow / 2, 2, 2, 2, 2, 0, 0};
  modelrt::BlockedResult blocked{[&](const float *result) {
    modelrt::maxPoolBlocked16OnHost(p, result, pooled, codes);
  }};
  bool poolable = p.oh > 0 && p.ow > 0;
  modelrt::runConvolution(modelrt::ConvKind::Forward, s, x, w, y, bf16, bias,
                          poolable ? &blocked : nullptr);
  if (blocked.taken)
    return;
  if (codes)
    modelrt_max_pool2d_forward_codes(y, pooled, codes, p.n, p.c, p.h, p.w, p.oh, p.ow, p.kh,
                                     p.kw, p.strideH, p.strideW, p.padH, p.padW);
  else
    modelrt_max_pool2d_forward(y, pooled, p.n, p.c, p.h, p.w, p.oh, p.ow, p.kh, p.kw, p.strideH,
                               p.strideW, p.padH, p.padW);
}

} // namespace

#define MODELRT_CONV_MAX_POOL(NAME, BF16)                                                     \
  extern "C" void NAME(const float *x, const float *w, const float *bias, float *y,           \
                       float *pooled, uint8_t *codes, int64_t n, int64_t c, int64_t h,        \
                       int64_t w_, int64_t o, int64_t kh, int64_t kw, int64_t oh, int64_t ow, \
                       int64_t strideH, int64_t strideW, int64_t padH, int64_t padW,          \
                       int64_t dilH, int64_t dilW) {                                          \
    ConvShape s{n, c, h, w_, o, kh, kw, oh, ow, strideH, strideW, padH, padW, dilH, dilW};    \
    convMaxPool(s, BF16, x, w, bias, y, pooled, codes);                                       \
  }
MODELRT_CONV_MAX_POOL(modelrt_conv2d_forward_bias_max_pool2d, false)
MODELRT_CONV_MAX_POOL(modelrt_conv2d_forward_bias_max_pool2d_bf16, true)
#undef MODELRT_CONV_MAX_POOL
