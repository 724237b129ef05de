//===- Conv.h - 2-D convolutions and their adjoints for compiled models ----===//
//
// Declares the three C functions compiled models call for every 2-D
// convolution (NCHW activations, OIHW weights, f32, contiguous, one group)
// and its two adjoints, and what the user is told about them. Padding is
// `padH`/`padW` zeros on each side, dilation `dilH`/`dilW` (1 = none), and
// the caller passes the output size, OH = (H + 2 padH - dilH (KH-1) - 1) /
// strideH + 1 (floor), OW likewise, both at least 1. The `_bias` forms
// also add a bias per output channel.
//
// The path follows the library cblas_sgemm forwards to (Blas.h):
//   - oneDNN: its convolution primitives (ConvOneDnn.cpp), with the layouts
//     and kernels oneDNN chooses for the CPU's features (capped by
//     MODELRT_CPU_ISA), made once per shape and thread count and reused;
//     a convolution of at least 1M multiply-adds runs on every core
//     (OpenMP threads), a smaller one on one, unless OMP_NUM_THREADS is set;
//   - OpenBLAS, or a shape oneDNN refuses: per image, im2col + cblas_sgemm
//     (forward, weights) or cblas_sgemm + col2im (data).
// Either path gives the same bits for the same inputs and thread count.
// A forward 3x3 convolution of stride 1 whose input has 1 to 4 channels
// runs first on the runtime's own direct loops, on AVX2 and AVX-512 hosts,
// whatever the library (lib/core/ConvDirect.h says their order of sums).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CORE_CONV_H
#define MODELRT_CORE_CONV_H

#include <cstdint>
#include <string>

namespace modelrt {

/// What the convolutions run on: "oneDNN 2.6.3 primitives: jit:avx512_core,
/// x64:gemm:jit" (the implementations of the primitives made so far; none
/// before the first), "im2col + sgemm (OpenBLAS)", and the shapes that fell
/// back from oneDNN, if any. Empty before a BLAS library is opened (this
/// opens none).
std::string convolutionKernels();

/// True once any of the three functions below has been called.
bool convolutionsRan();

} // namespace modelrt

extern "C" {
/// y[N,O,OH,OW] = conv(x[N,C,H,W], w[O,C,KH,KW]); y is overwritten. Like
/// cblas_sgemm, prints loadBlas()'s error and aborts when no library can be
/// opened; nothing else aborts.
void modelrt_conv2d_forward(const float *x, const float *w, float *y, int64_t n, int64_t c,
                            int64_t h, int64_t w_, int64_t o, int64_t kh, int64_t kw, int64_t oh,
                            int64_t ow, int64_t strideH, int64_t strideW, int64_t padH,
                            int64_t padW, int64_t dilH, int64_t dilW);

/// y = conv(x, w) + bias[o] on every element of output channel o (bias: O
/// f32 values); the same aborts.
void modelrt_conv2d_forward_bias(const float *x, const float *w, const float *bias, float *y,
                                 int64_t n, int64_t c, int64_t h, int64_t w_, int64_t o,
                                 int64_t kh, int64_t kw, int64_t oh, int64_t ow, int64_t strideH,
                                 int64_t strideW, int64_t padH, int64_t padW, int64_t dilH,
                                 int64_t dilW);

/// dx[N,C,H,W] = the gradient of that convolution with respect to x, from
/// dy[N,O,OH,OW] and w; dx is overwritten. Aborts as the forward one.
void modelrt_conv2d_backward_data(const float *dy, const float *w, float *dx, int64_t n,
                                  int64_t c, int64_t h, int64_t w_, int64_t o, int64_t kh,
                                  int64_t kw, int64_t oh, int64_t ow, int64_t strideH,
                                  int64_t strideW, int64_t padH, int64_t padW, int64_t dilH,
                                  int64_t dilW);

/// dw[O,C,KH,KW] = the gradient with respect to w, from x[N,C,H,W] and
/// dy[N,O,OH,OW], summed over the images; dw is overwritten (zeros when N
/// is 0). Aborts as the forward one.
void modelrt_conv2d_backward_weights(const float *x, const float *dy, float *dw, int64_t n,
                                     int64_t c, int64_t h, int64_t w_, int64_t o, int64_t kh,
                                     int64_t kw, int64_t oh, int64_t ow, int64_t strideH,
                                     int64_t strideW, int64_t padH, int64_t padW, int64_t dilH,
                                     int64_t dilW);

/// The four functions above with their two inputs rounded to bf16 and f32
/// accumulation (Bf16.h: AMX or AVX512-BF16 oneDNN primitives, else
/// emulated); the result is f32, and a bias stays f32.
void modelrt_conv2d_forward_bf16(const float *x, const float *w, float *y, int64_t n,
                                 int64_t c, int64_t h, int64_t w_, int64_t o, int64_t kh,
                                 int64_t kw, int64_t oh, int64_t ow, int64_t strideH,
                                 int64_t strideW, int64_t padH, int64_t padW, int64_t dilH,
                                 int64_t dilW);
void modelrt_conv2d_forward_bias_bf16(const float *x, const float *w, const float *bias,
                                      float *y, int64_t n, int64_t c, int64_t h, int64_t w_,
                                      int64_t o, int64_t kh, int64_t kw, int64_t oh, int64_t ow,
                                      int64_t strideH, int64_t strideW, int64_t padH,
                                      int64_t padW, int64_t dilH, int64_t dilW);
void modelrt_conv2d_backward_data_bf16(const float *dy, const float *w, float *dx, int64_t n,
                                       int64_t c, int64_t h, int64_t w_, int64_t o,
                                       int64_t kh, int64_t kw, int64_t oh, int64_t ow,
                                       int64_t strideH, int64_t strideW, int64_t padH,
                                       int64_t padW, int64_t dilH, int64_t dilW);
void modelrt_conv2d_backward_weights_bf16(const float *x, const float *dy, float *dw,
                                          int64_t n, int64_t c, int64_t h, int64_t w_,
                                          int64_t o, int64_t kh, int64_t kw, int64_t oh,
                                          int64_t ow, int64_t strideH, int64_t strideW,
                                          int64_t padH, int64_t padW, int64_t dilH,
                                          int64_t dilW);

/// modelrt_conv2d_backward_data(dy, w, dx) then
/// modelrt_conv2d_backward_weights(x, dy, dw) on the same sizes, with the
/// bits of the two calls: on oneDNN's primitives, dy is reordered into
/// their layout once for both. The compiler calls it for the two gradients
/// of one convolution (LibraryToCalls).
void modelrt_conv2d_backward(const float *dy, const float *x, const float *w, float *dx,
                             float *dw, int64_t n, int64_t c, int64_t h, int64_t w_, int64_t o,
                             int64_t kh, int64_t kw, int64_t oh, int64_t ow, int64_t strideH,
                             int64_t strideW, int64_t padH, int64_t padW, int64_t dilH,
                             int64_t dilW);

/// The same with the bf16 gradients (the `_bf16` functions above).
void modelrt_conv2d_backward_bf16(const float *dy, const float *x, const float *w, float *dx,
                                  float *dw, int64_t n, int64_t c, int64_t h, int64_t w_,
                                  int64_t o, int64_t kh, int64_t kw, int64_t oh, int64_t ow,
                                  int64_t strideH, int64_t strideW, int64_t padH, int64_t padW,
                                  int64_t dilH, int64_t dilW);

/// modelrt_max_pool2d_backward_codes(pooledGrad, codes, dy) for the 2x2 /
/// 2 max pooling of this convolution's output, then the convolution's f32
/// gradients from that dy, modelrt_conv2d_backward(dy, x, w, dx, dw): the
/// bits of those calls. dy is scratch, left unwritten where oneDNN takes it
/// in 16-channel blocks, which the pooling's gradient then writes directly
/// (ConvFromMaxPool.cpp). The compiler calls it for a pooling's gradient
/// that only the convolution's gradients read (LibraryToCalls).
void modelrt_conv2d_backward_from_max_pool2d(const float *pooledGrad, const uint8_t *codes,
                                             const float *x, const float *w, float *dy,
                                             float *dx, float *dw, int64_t n, int64_t c,
                                             int64_t h, int64_t w_, int64_t o, int64_t kh,
                                             int64_t kw, int64_t oh, int64_t ow,
                                             int64_t strideH, int64_t strideW, int64_t padH,
                                             int64_t padW, int64_t dilH, int64_t dilW);

/// The same for a convolution with no input gradient: dw alone, as
/// modelrt_conv2d_backward_weights(x, dy, dw). Where the direct loops take
/// the convolution (few input channels), dw is the same sum in another
/// order and dy is not written (lib/core/ConvDirect.h).
void modelrt_conv2d_backward_weights_from_max_pool2d(
    const float *pooledGrad, const uint8_t *codes, const float *x, float *dy, float *dw,
    int64_t n, int64_t c, int64_t h, int64_t w_, int64_t o, int64_t kh, int64_t kw, int64_t oh,
    int64_t ow, int64_t strideH, int64_t strideW, int64_t padH, int64_t padW, int64_t dilH,
    int64_t dilW);

/// The same two with the bf16 gradients (modelrt_conv2d_backward_bf16,
/// modelrt_conv2d_backward_weights_bf16): where oneDNN's bf16 primitives
/// take dy in 16-channel blocks, the pooling's gradient writes it there in
/// bf16, rounded as oneDNN's reorder rounds it (subnormals to zero), and
/// dy is not written; the bits of the separate calls.
void modelrt_conv2d_backward_from_max_pool2d_bf16(
    const float *pooledGrad, const uint8_t *codes, const float *x, const float *w, float *dy,
    float *dx, float *dw, int64_t n, int64_t c, int64_t h, int64_t w_, int64_t o, int64_t kh,
    int64_t kw, int64_t oh, int64_t ow, int64_t strideH, int64_t strideW, int64_t padH,
    int64_t padW, int64_t dilH, int64_t dilW);
void modelrt_conv2d_backward_weights_from_max_pool2d_bf16(
    const float *pooledGrad, const uint8_t *codes, const float *x, float *dy, float *dw,
    int64_t n, int64_t c, int64_t h, int64_t w_, int64_t o, int64_t kh, int64_t kw, int64_t oh,
    int64_t ow, int64_t strideH, int64_t strideW, int64_t padH, int64_t padW, int64_t dilH,
    int64_t dilW);

/// modelrt_conv2d_forward_bias, then 2x2 / 2 max pooling without padding of
/// its result into pooled[N,O,OH/2,OW/2] (modelrt_max_pool2d_forward), with
/// its codes (modelrt_max_pool2d_forward_codes) when \p codes is not null:
/// the bits of the two calls. y is scratch that only the pooling reads: it
/// is left unwritten where oneDNN's result is in 16-channel blocks, which
/// the pooling then reads instead of their NCHW reorder (ConvMaxPool.cpp),
/// and where the direct loops pool the result in registers.
/// The compiler calls it for a convolution whose result nothing else reads
/// (LibraryToCalls).
void modelrt_conv2d_forward_bias_max_pool2d(const float *x, const float *w, const float *bias,
                                            float *y, float *pooled, uint8_t *codes, int64_t n,
                                            int64_t c, int64_t h, int64_t w_, int64_t o,
                                            int64_t kh, int64_t kw, int64_t oh, int64_t ow,
                                            int64_t strideH, int64_t strideW, int64_t padH,
                                            int64_t padW, int64_t dilH, int64_t dilW);

/// The same with the bf16 convolution (modelrt_conv2d_forward_bias_bf16).
void modelrt_conv2d_forward_bias_max_pool2d_bf16(const float *x, const float *w,
                                                 const float *bias, float *y, float *pooled,
                                                 uint8_t *codes, int64_t n, int64_t c, int64_t h,
                                                 int64_t w_, int64_t o, int64_t kh, int64_t kw,
                                                 int64_t oh, int64_t ow, int64_t strideH,
                                                 int64_t strideW, int64_t padH, int64_t padW,
                                                 int64_t dilH, int64_t dilW);
}

#endif // MODELRT_CORE_CONV_H
