//===- ConvDirectKernels.h - Direct loops for convolutions of few channels -===//
//
// Declares, for ConvDirect.cpp and the tests, the loops of the direct
// convolutions, built once per instruction set (ConvDirectKernels.cpp for
// AVX-512, ConvDirectKernelsAvx2.cpp for AVX2 and FMA; each run only on
// hosts of its level), which give the same bits: a 3x3
// convolution of stride 1 and no dilation whose input has few channels,
// computed from NCHW x without any copy of its result in another layout,
// over a range of the images. Each output element is +0 plus one fused
// multiply-add per tap in the order of DirectConv::channelOrder within
// each kernel row and column (kernel row outermost; taps that fall in the
// padding skipped), then plus the bias. The 2x2 max pooling of that result
// is taken in registers, so the convolution's result is never stored; the
// weights' gradient from a pooling's gradient and its codes reads only the
// pooled elements.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_CORE_CONVDIRECTKERNELS_H
#define MODELRT_LIB_CORE_CONVDIRECTKERNELS_H

#include "ConvBackends.h"

#include <cstdint>

namespace modelrt {

/// The most input channels, and the kernel side, the loops take.
constexpr int64_t kDirectMaxChannels = 4;
constexpr int64_t kDirectKernel = 3;

/// The lanes of the weights' gradient's partial sums: the AVX-512 loops'
/// vectors of 16 pooled columns (the AVX2 loops fill them 8 at a time).
constexpr int64_t kDirectLanes = 16;

/// One call's operands (x and w already rounded for a bf16 convolution).
struct DirectConv {
  ConvShape s;
  const float *x = nullptr;       ///< N x C x H x W
  /// O x 3 x 3 x C: the weight of output channel o, kernel row i and
  /// column j, and input channel channelOrder[t], at ((o * 3 + i) * 3 + j)
  /// * C + t (the forward loops only).
  const float *taps = nullptr;
  const float *bias = nullptr; ///< O values, or null
  /// The order in which each kernel row and column adds its channels.
  int32_t channelOrder[kDirectMaxChannels] = {0, 1, 2, 3};
};

/// The loops of one instruction set.
struct DirectLoops {
  const char *isa; ///< "avx512" or "avx2"

  /// The floats of scratch memory each concurrent call of the loops below
  /// needs for a shape.
  int64_t (*scratchFloats)(const ConvShape &s);

  /// y[N,O,OH,OW] (NCHW) of images [first, first + count).
  void (*forward)(const DirectConv &d, float *y, float *scratch, int64_t first, int64_t count);

  /// The 2x2 / 2 max pooling of the result into pooled[N,O,OH/2,OW/2], and
  /// the codes of Pool.h's max pooling (0..3: the window's row * 2 +
  /// column) when \p codes is not null, of images [first, first + count).
  /// The pooling scans each window in row-major order and takes v when v >
  /// m or v is NaN, as the pooling functions do.
  void (*forwardMaxPool)(const DirectConv &d, float *pooled, uint8_t *codes, float *scratch,
                         int64_t first, int64_t count);

  /// The weights' gradient from the gradient of that pooling, for images
  /// [first, first + count): adds into \p sums (O x C x 3 x 3 vectors of
  /// kDirectLanes partial sums; pooled column pw adds into lane pw %
  /// kDirectLanes) pooledGrad[n,o,ph,pw] * x at each tap of the window
  /// element its code names, which is the output gradient of the
  /// convolution there, and 0 * x at the taps of the window's three other
  /// elements. Per image and kDirectLanes pooled columns, each lane's sum
  /// starts at +0 and takes one fused multiply-add per row of windows and
  /// window element, in order, and is then added to \p sums. The weights
  /// and bias of \p d are not read.
  void (*weightsFromMaxPool)(const DirectConv &d, const float *pooledGrad,
                             const uint8_t *codes, float *sums, float *scratch, int64_t first,
                             int64_t count);
};

/// The AVX-512 loops (vectors of 16 columns), on x86-64 builds.
extern const DirectLoops kDirectLoopsAvx512;
/// The AVX2 loops (vectors of 8 columns), on x86-64 builds.
extern const DirectLoops kDirectLoopsAvx2;

} // namespace modelrt

#endif // MODELRT_LIB_CORE_CONVDIRECTKERNELS_H
