//===- ConvBackends.h - The two paths behind the convolution functions -----===//
//
// Declares, for Conv.cpp (and the tests), a convolution's kind and sizes,
// the oneDNN path (ConvOneDnn.cpp: primitives cached per kind, shape,
// precision, bias and thread count) and the im2col + sgemm path
// (Conv.cpp). A forward convolution may add a bias per output channel.
//
// The two operands and the result of each kind, in the order of the C
// functions of Conv.h:
//   Forward:         (x, w)  -> y
//   BackwardData:    (dy, w) -> dx
//   BackwardWeights: (x, dy) -> dw
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_CORE_CONVBACKENDS_H
#define MODELRT_LIB_CORE_CONVBACKENDS_H

#include <cstdint>
#include <functional>
#include <string>

namespace modelrt {

/// The three functions of Conv.h.
enum class ConvKind { Forward, BackwardData, BackwardWeights };

/// The sizes the C functions take, in their order.
struct ConvShape {
  int64_t n, c, h, w, o, kh, kw, oh, ow, strideH, strideW, padH, padW, dilH, dilW;
};

/// What a forward convolution's caller may do with its result in oneDNN's
/// 16-channel blocked layout (nChw16c, f32: N x ceil(O/16) blocks of OH x OW
/// pixels of 16 channels, those past O padding) instead of having it
/// reordered into y: `take` is called with that buffer once the primitive
/// ran, and then y is not written. oneDNN paths whose result has another
/// layout, and the im2col path, write y and leave `taken` false.
struct BlockedResult {
  std::function<void(const float *blocked)> take;
  bool taken = false;
};

/// What every convolution function does first: notes that one ran, opens
/// the BLAS library (aborting without one) and returns the thread count of
/// \p s's oneDNN primitives.
int startConvolution(const ConvShape &s);

/// Runs \p kind in f32: nothing (zeros for the weights' gradient) without
/// images, else oneDNN's primitives when oneDNN is active and takes the
/// shape, else im2col + sgemm. Opens the BLAS library first (aborting with
/// its error when none opens). With \p bf16, the inputs are rounded to bf16
/// and accumulated in f32: by oneDNN's bf16 primitives on the host's bf16
/// path (Bf16.h), else emulated (the inputs rounded, then in f32). A
/// Forward one the direct loops take runs on them (ConvDirect.h).
/// A Forward one with \p bias (O values, f32, never rounded) adds it to
/// every element of its output channel. A Forward one with \p blocked
/// hands its result to it where it can (BlockedResult).
void runConvolution(ConvKind kind, const ConvShape &s, const float *a, const float *b,
                    float *out, bool bf16 = false, const float *bias = nullptr,
                    BlockedResult *blocked = nullptr);

/// BackwardData (dy, w -> dx), then BackwardWeights (x, dy -> dw), as two
/// runConvolution calls would, with their bits; on oneDNN's primitives
/// dy is reordered once when both take it in one layout
/// (oneDnnConvolutionBackward).
void runConvolutionBackward(const ConvShape &s, const float *dy, const float *x, const float *w,
                            float *dx, float *dw, bool bf16);

/// N*O*OH*OW*C*KH*KW: the multiply-adds of each kind.
double convolutionMacs(const ConvShape &s);

/// Runs \p kind by oneDNN primitives with \p threads OpenMP threads (0: the
/// calling thread's current count), making them first if this kind, shape
/// and count are new. Returns false, having written nothing that counts,
/// when oneDNN has no convolutions or refused the shape (then the caller
/// runs im2colConvolution). Needs N >= 1. With \p bf16, the two inputs are
/// rounded to bf16 and multiplied with f32 accumulation (Bf16.h).
/// A Forward one adds \p bias (when not null) in the primitive, and hands
/// its result to \p blocked (when not null) if it is in nChw16c f32.
bool oneDnnConvolution(ConvKind kind, const ConvShape &s, int threads, const float *a,
                       const float *b, float *out, bool bf16 = false,
                       const float *bias = nullptr, BlockedResult *blocked = nullptr);

/// oneDnnConvolution's BackwardData then BackwardWeights on one dy (bf16 or
/// f32 inputs, no bias): the second reads the first's reorder of dy when
/// their primitives take dy in the same layout. False when oneDNN has no
/// convolutions or refused either kind, or failed (the caller then runs
/// the two kinds apart, which overwrites dx and dw). Needs N >= 1.
bool oneDnnConvolutionBackward(const ConvShape &s, int threads, const float *dy, const float *x,
                               const float *w, float *dx, float *dw, bool bf16);

/// Writes a convolution's output gradient into the buffer it is given, in
/// nChw16c (N x ceil(O/16) blocks of OH x OW pixels of 16 channels, zeros
/// past O): f32 elements, or bf16 ones (uint16_t) for bf16 gradients.
using BlockedGradient = std::function<void(void *blocked)>;

/// The gradients of oneDnnConvolutionBackward (BackwardData only when
/// \p dx is not null; \p w is read only then) with dy written by \p dy
/// straight into the buffer both primitives read it from, when they take it
/// in nChw16c (f32, or bf16 with \p bf16); no reorder of dy is made. False
/// when oneDNN has no convolutions, refused either kind or takes dy in
/// another layout (then \p dy is not called), or failed after it (then dx
/// and dw are to be computed again). Needs N >= 1.
bool oneDnnConvolutionBackwardFilled(const ConvShape &s, int threads, const BlockedGradient &dy,
                                     const float *x, const float *w, float *dx, float *dw,
                                     bool bf16);

/// runConvolutionBackward's gradients (or the weights' alone without
/// \p dx) on oneDNN's primitives with dy from \p dy
/// (oneDnnConvolutionBackwardFilled); false where that is not the path
/// runConvolution would take or it returns false (nothing then counts).
/// bf16 ones only where oneDNN's kernels convert with vcvtneps2bf16 (an
/// AVX512-BF16 or AMX instruction set), whose rounding \p dy's writer
/// copies.
bool runConvolutionBackwardFilled(const ConvShape &s, const BlockedGradient &dy, const float *x,
                                  const float *w, float *dx, float *dw, bool bf16);

/// How many oneDnnConvolutionBackward calls so far gave the weights'
/// gradient the data gradient's reorder of dy (for tests and benchmarks).
int64_t oneDnnSharedBackwardInputs();

/// The distinct implementations of the primitives made so far, in the
/// order first made ("jit:avx512_core, x64:gemm:jit"); empty before any.
std::string oneDnnConvolutionImpls();

/// How many shapes (a kind and its sizes) oneDNN refused so far, each
/// counted once whatever its precision, bias or thread count.
int64_t oneDnnRefusedShapes();

/// For tests: makes the oneDNN path treat shapes for which \p refuse
/// returns true as refused, as when oneDNN fails to make a primitive (for
/// shapes not yet cached; null: none).
void setOneDnnConvRefusalForTesting(bool (*refuse)(const ConvShape &));

/// Runs \p kind per image as im2col + cblas_sgemm (forward, weights, the
/// latter accumulating over images) or cblas_sgemm + col2im (data).
void im2colConvolution(ConvKind kind, const ConvShape &s, const float *a, const float *b,
                       float *out);

} // namespace modelrt

#endif // MODELRT_LIB_CORE_CONVBACKENDS_H
