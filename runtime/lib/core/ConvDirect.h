//===- ConvDirect.h - Direct convolutions of inputs with few channels ------===//
//
// Declares, for the convolution functions (Conv.cpp, ConvMaxPool.cpp,
// ConvFromMaxPool.cpp) and the tests, the path they take first for a
// 3x3 convolution whose input has at most kDirectMaxChannels channels (a
// network's first layer: grey or colour images), stride 1, no dilation and
// padding 0..2: the runtime's own loops (ConvDirectKernels.h), on hosts whose
// kernels are AVX2 or AVX-512 (CpuFeatures.h, capped by MODELRT_CPU_ISA;
// both builds give the same bits), whatever the BLAS library. For such an input, a library's convolution is limited
// by memory, not arithmetic: it writes its result in its own layout and
// reorders it, where these loops write NCHW directly, or pool it in
// registers without writing it at all.
//
// The sums: each output element is +0, then one fused multiply-add per tap
// in the order kernel row, kernel column, channel (bf16: the channels in
// pairs, the odd one first, as a vdpbf16ps instruction adds them), then
// the bias. For bf16, x and w are rounded to bf16 first and multiplied in
// f32, exactly. That is the order of oneDNN's f32 (jit:avx512_core) and
// bf16 (jit_bf16:avx512_core_bf16) primitives for these shapes, whose
// bits these loops give (but for subnormal values, which vdpbf16ps flushes
// to zero and these loops keep); other paths (AMX, im2col) sum in their
// own.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_CORE_CONVDIRECT_H
#define MODELRT_LIB_CORE_CONVDIRECT_H

#include "ConvBackends.h"

#include <cstdint>

namespace modelrt {

/// True when \p s is a shape the direct loops take (the conditions above,
/// at least one image), whatever the host.
bool directConvolutionShape(const ConvShape &s);

/// True when the host runs the direct loops (AVX2 or AVX-512 kernels).
bool directConvolutionsOnHost();

/// The instruction set of the loops the host runs: "avx512", "avx2", or
/// "" when it runs none.
const char *directConvolutionIsa();

/// y = conv(x, w) (+ bias) on the direct loops, in NCHW; false, having
/// written nothing, where they do not take \p s or the host.
bool directConvolutionForward(const ConvShape &s, const float *x, const float *w,
                              const float *bias, float *y, bool bf16);

/// The same convolution (with its bias) pooled by a 2x2 / 2 max pooling
/// into pooled[N,O,OH/2,OW/2] (and its codes when \p codes is not null),
/// without storing the convolution's result: the bits of
/// directConvolutionForward then Pool.h's max pooling. False, having
/// written nothing, where the loops do not take \p s, or OH or OW is 1.
bool directConvolutionMaxPool(const ConvShape &s, const float *x, const float *w,
                              const float *bias, float *pooled, uint8_t *codes, bool bf16);

/// dw[O,C,KH,KW] = the f32 gradient of the convolution's weights when its
/// output gradient is that of a 2x2 / 2 max pooling (pooledGrad[N,O,OH/2,
/// OW/2] routed by its codes; zeros elsewhere), summed over the images
/// without forming that output gradient (the zeros of a last row or column
/// no window covers are not multiplied at all). The sum of each weight: the
/// images in two fixed halves, each summed as directWeightsFromMaxPoolImages
/// does (ConvDirectKernels.h), then lane by lane the two halves added, then
/// the 16 lanes in order from +0; the same bits on one thread or two.
/// False, having written nothing, where the loops do not take \p s.
bool directWeightsFromMaxPool(const ConvShape &s, const float *pooledGrad, const uint8_t *codes,
                              const float *x, float *dw);

/// How many calls took the direct loops so far (for convolutionKernels()
/// and the tests).
int64_t directConvolutionCalls();

} // namespace modelrt

#endif // MODELRT_LIB_CORE_CONVDIRECT_H
