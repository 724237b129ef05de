//===- Conv.cpp - The convolution functions, their dispatch and fallback ---===//
//
// Implements Conv.h: the three C functions, which open the BLAS library
// if needed (Blas.h), then run on oneDNN's primitives when it is the active
// library (ConvOneDnn.cpp, with the thread count chosen from the work as for
// products) and otherwise, or for a shape oneDNN refused, per image as
// im2col + cblas_sgemm. im2col copies each image's patches into a matrix of
// C*KH*KW rows and OH*OW columns (zeros where the kernel covers padding):
// forward is W[O, CKK] x col, the weights' gradient accumulates dY[O, OHW]
// x col^T over the images, and the data's gradient is col = W^T x dY
// scattered back by col2im. Every sum runs in a fixed order, so the same
// inputs give the same bits. The `_bf16` functions round their inputs to
// bf16 and accumulate in f32 (Bf16.h): oneDNN's bf16 primitives on the
// host's bf16 path, else the inputs rounded and convolved in f32. The
// `_bias` ones add an f32 bias per output channel: in oneDNN's primitive,
// or after im2col's products. `modelrt_conv2d_backward` runs both gradients
// of one convolution, sharing oneDNN's reorder of dy between them.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Conv.h"
#include "BlasBackends.h"
#include "ConvBackends.h"
#include "ConvDirect.h"
#include "OneDnn.h"
#include "modelrt/core/Bf16.h"
#include "modelrt/core/Blas.h"
#include "modelrt/core/FrozenParameters.h"
#include "modelrt/core/Profile.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <vector>

namespace modelrt {
namespace {

enum { RowMajor = 101, NoTrans = 111, Trans = 112 };

/// Set by the first call of any of the three functions.
std::atomic<bool> ran{false};

/// The output columns [begin, end) whose input column ox * stride + offset
/// lies inside [0, width).
struct ColumnRange {
  int64_t begin, end;
};

ColumnRange insideColumns(int64_t offset, int64_t stride, int64_t width, int64_t outWidth) {
  int64_t begin = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  int64_t end = width > offset ? (width - offset + stride - 1) / stride : 0;
  end = std::min(end, outWidth);
  return {std::min(begin, end), end};
}

/// col[(c*KH + i)*KW + j][oy*OW + ox] = x[c][oy*sH - pH + i*dH][ox*sW - pW + j*dW],
/// 0 where that falls in the padding. \p x is one image.
void im2col(const ConvShape &s, const float *x, float *col) {
  int64_t spatial = s.oh * s.ow;
  for (int64_t c = 0; c < s.c; ++c)
    for (int64_t i = 0; i < s.kh; ++i)
      for (int64_t j = 0; j < s.kw; ++j) {
        const float *plane = x + c * s.h * s.w;
        float *row = col + ((c * s.kh + i) * s.kw + j) * spatial;
        int64_t offset = j * s.dilW - s.padW;
        ColumnRange r = insideColumns(offset, s.strideW, s.w, s.ow);
        for (int64_t oy = 0; oy < s.oh; ++oy) {
          float *out = row + oy * s.ow;
          int64_t iy = oy * s.strideH - s.padH + i * s.dilH;
          if (iy < 0 || iy >= s.h) {
            std::fill(out, out + s.ow, 0.0f);
            continue;
          }
          const float *in = plane + iy * s.w;
          std::fill(out, out + r.begin, 0.0f);
          if (s.strideW == 1)
            for (int64_t ox = r.begin; ox < r.end; ++ox)
              out[ox] = in[ox + offset];
          else
            for (int64_t ox = r.begin; ox < r.end; ++ox)
              out[ox] = in[ox * s.strideW + offset];
          std::fill(out + r.end, out + s.ow, 0.0f);
        }
      }
}

/// The adjoint of im2col: dx = 0, then dx[c][iy][ix] += col[...] for every
/// element im2col would have read from there. \p dx is one image.
void col2im(const ConvShape &s, const float *col, float *dx) {
  int64_t spatial = s.oh * s.ow;
  std::fill(dx, dx + s.c * s.h * s.w, 0.0f);
  for (int64_t c = 0; c < s.c; ++c)
    for (int64_t i = 0; i < s.kh; ++i)
      for (int64_t j = 0; j < s.kw; ++j) {
        float *plane = dx + c * s.h * s.w;
        const float *row = col + ((c * s.kh + i) * s.kw + j) * spatial;
        int64_t offset = j * s.dilW - s.padW;
        ColumnRange r = insideColumns(offset, s.strideW, s.w, s.ow);
        for (int64_t oy = 0; oy < s.oh; ++oy) {
          int64_t iy = oy * s.strideH - s.padH + i * s.dilH;
          if (iy < 0 || iy >= s.h)
            continue;
          const float *in = row + oy * s.ow;
          float *out = plane + iy * s.w;
          if (s.strideW == 1)
            for (int64_t ox = r.begin; ox < r.end; ++ox)
              out[ox + offset] += in[ox];
          else
            for (int64_t ox = r.begin; ox < r.end; ++ox)
              out[ox * s.strideW + offset] += in[ox];
        }
      }
}

/// The calling thread's im2col matrix, grown to \p elements.
float *columnBuffer(size_t elements) {
  thread_local std::vector<float> col;
  if (col.size() < elements)
    col.resize(elements);
  return col.data();
}

/// The element counts of \p kind's two inputs.
struct ConvKindInputs {
  int64_t sizeA, sizeB;
};

ConvKindInputs inputsOf(ConvKind kind, const ConvShape &s) {
  int64_t image = s.n * s.c * s.h * s.w, weights = s.o * s.c * s.kh * s.kw,
          output = s.n * s.o * s.oh * s.ow;
  switch (kind) {
  case ConvKind::Forward:
    return {image, weights};
  case ConvKind::BackwardData:
    return {output, weights};
  case ConvKind::BackwardWeights:
    break;
  }
  return {image, output};
}

/// y[n][o][*] += bias[o]: the bias of a forward convolution whose path
/// does not add it.
void addBias(const ConvShape &s, const float *bias, float *y) {
  int64_t spatial = s.oh * s.ow;
  for (int64_t n = 0; n < s.n; ++n)
    for (int64_t o = 0; o < s.o; ++o) {
      float *plane = y + (n * s.o + o) * spatial;
      for (int64_t i = 0; i < spatial; ++i)
        plane[i] += bias[o];
    }
}

/// Which paths ran bf16 convolutions (for convolutionKernels()).
std::atomic<bool> ranBf16OneDnn{false}, ranBf16Emulated{false};

} // namespace

int startConvolution(const ConvShape &s) {
  ran = true;
  requireBlas();
  return oneDnnThreadsForWork(convolutionMacs(s), kConvMacsForAllCores);
}

void runConvolution(ConvKind kind, const ConvShape &s, const float *a, const float *b,
                    float *out, bool bf16, const float *bias, BlockedResult *blocked) {
  int threads = startConvolution(s);
  if (s.n == 0) {
    if (kind == ConvKind::BackwardWeights)
      std::fill(out, out + s.o * s.c * s.kh * s.kw, 0.0f);
    return;
  }
  if (kind == ConvKind::Forward && directConvolutionForward(s, a, b, bias, out, bf16))
    return;
  bool oneDnn = activeBlasLibrary() == BlasLibrary::OneDnn;
  Bf16Path path = bf16 ? bf16ProductPath() : Bf16Path::Emulated;
  if (path != Bf16Path::Emulated &&
      oneDnnConvolution(kind, s, threads, a, b, out, /*bf16=*/true, bias, blocked)) {
    ranBf16OneDnn = true;
    noteProductRun(true, path);
    return;
  }
  noteProductRun(bf16, Bf16Path::Emulated);
  thread_local std::vector<float> roundedA, roundedB;
  if (bf16) { // the emulation: the inputs rounded, then an f32 convolution
    ranBf16Emulated = true;
    const ConvKindInputs in = inputsOf(kind, s);
    a = roundedThroughBf16(a, in.sizeA, 1, in.sizeA, roundedA);
    b = roundedThroughBf16(b, in.sizeB, 1, in.sizeB, roundedB);
  }
  if (oneDnn && oneDnnConvolution(kind, s, threads, a, b, out, /*bf16=*/false, bias, blocked))
    return;
  im2colConvolution(kind, s, a, b, out);
  if (bias)
    addBias(s, bias, out);
}

namespace {

/// Calls run(threads) where runConvolution would run oneDNN's primitives
/// for \p s in this precision (not bf16 on the emulation, not f32 without
/// oneDNN), and notes the run when it returns true; false where it would
/// not, or where run returns false (its primitives refused or failed).
template <typename Run> bool onOneDnnPath(const ConvShape &s, bool bf16, const Run &run) {
  int threads = startConvolution(s);
  Bf16Path path = bf16 ? bf16ProductPath() : Bf16Path::Emulated;
  if (bf16 ? path == Bf16Path::Emulated : activeBlasLibrary() != BlasLibrary::OneDnn)
    return false;
  if (!run(threads))
    return false;
  if (bf16)
    ranBf16OneDnn = true;
  noteProductRun(bf16, path);
  return true;
}

} // namespace

void runConvolutionBackward(const ConvShape &s, const float *dy, const float *x, const float *w,
                            float *dx, float *dw, bool bf16) {
  if (s.n > 0 && onOneDnnPath(s, bf16, [&](int threads) {
        return oneDnnConvolutionBackward(s, threads, dy, x, w, dx, dw, bf16);
      }))
    return;
  runConvolution(ConvKind::BackwardData, s, dy, w, dx, bf16);
  runConvolution(ConvKind::BackwardWeights, s, x, dy, dw, bf16);
}

bool runConvolutionBackwardFilled(const ConvShape &s, const BlockedGradient &dy, const float *x,
                                  const float *w, float *dx, float *dw, bool bf16) {
  return s.n > 0 && onOneDnnPath(s, bf16, [&](int threads) {
           // bf16 blocks are filled as vcvtneps2bf16 rounds: the bits of
           // oneDNN's own reorder only where its kernels have that
           // instruction.
           const std::string &isa = oneDnnLibrary().isa;
           if (bf16 && isa.find("bf16") == std::string::npos &&
               isa.find("amx") == std::string::npos)
             return false;
           return oneDnnConvolutionBackwardFilled(s, threads, dy, x, w, dx, dw, bf16);
         });
}

double convolutionMacs(const ConvShape &s) {
  return double(s.n) * double(s.o) * double(s.oh * s.ow) * double(s.c * s.kh * s.kw);
}

void im2colConvolution(ConvKind kind, const ConvShape &s, const float *a, const float *b,
                       float *out) {
  int64_t image = s.c * s.h * s.w, spatial = s.oh * s.ow, patch = s.c * s.kh * s.kw;
  int O = int(s.o), OHW = int(spatial), CKK = int(patch);
  float *col = columnBuffer(size_t(patch) * size_t(spatial));
  for (int64_t n = 0; n < s.n; ++n) {
    const float *dy = (kind == ConvKind::BackwardData ? a : b) + n * s.o * spatial;
    switch (kind) {
    case ConvKind::Forward: // y_n = W col
      im2col(s, a + n * image, col);
      cblas_sgemm(RowMajor, NoTrans, NoTrans, O, OHW, CKK, 1.0f, b, CKK, col, OHW, 0.0f,
                  out + n * s.o * spatial, OHW);
      break;
    case ConvKind::BackwardData: // dx_n = col2im(W^T dy_n)
      cblas_sgemm(RowMajor, Trans, NoTrans, CKK, OHW, O, 1.0f, b, CKK, dy, OHW, 0.0f, col, OHW);
      col2im(s, col, out + n * image);
      break;
    case ConvKind::BackwardWeights: // dW (+)= dy_n col^T
      im2col(s, a + n * image, col);
      cblas_sgemm(RowMajor, NoTrans, Trans, O, CKK, OHW, 1.0f, dy, OHW, col, OHW,
                  n ? 1.0f : 0.0f, out, CKK);
      break;
    }
  }
}

namespace {

/// What the library's path runs on (convolutionKernels() without the
/// direct loops).
std::string libraryConvolutionKernels(BlasLibrary which) {
  if (which == BlasLibrary::OpenBlas)
    return "im2col + sgemm (OpenBLAS)";
  const OneDnnLibrary &lib = oneDnnLibrary();
  if (!lib.convStatus.isOk())
    return "im2col + sgemm (" + lib.version + " sgemm; " + lib.convStatus.message() + ")";
  std::string text = lib.version + " primitives";
  std::string impls = oneDnnConvolutionImpls();
  if (!impls.empty())
    text += ": " + impls;
  if (int64_t refused = oneDnnRefusedShapes())
    text += "; im2col + sgemm for " + std::to_string(refused) +
            (refused == 1 ? " shape" : " shapes") + " oneDNN refused";
  if (ranBf16OneDnn.load())
    text += std::string("; bf16 on ") + bf16PathName(hostBf16Choice().path);
  if (ranBf16Emulated.load())
    text += "; bf16 emulated (rounded inputs, f32)";
  return text;
}

} // namespace

std::string convolutionKernels() {
  std::optional<BlasLibrary> which = activeBlasLibrary();
  if (!which)
    return "";
  std::string text = libraryConvolutionKernels(*which);
  if (directConvolutionCalls() > 0)
    text += std::string("; direct ") + (std::string(directConvolutionIsa()) == "avx2" ? "AVX2" : "AVX-512") +
            " loops for inputs of few channels";
  return text;
}

bool convolutionsRan() { return ran.load(); }

} // namespace modelrt

using modelrt::ConvKind;
using modelrt::ConvShape;

extern "C" void modelrt_conv2d_forward(const float *x, const float *w, float *y, int64_t n,
                                       int64_t c, int64_t h, int64_t w_, int64_t o, int64_t kh,
                                       int64_t kw, int64_t oh, int64_t ow, int64_t strideH,
                                       int64_t strideW, int64_t padH, int64_t padW, int64_t dilH,
                                       int64_t dilW) {
  ConvShape s{n, c, h, w_, o, kh, kw, oh, ow, strideH, strideW, padH, padW, dilH, dilW};
  modelrt::runConvolution(ConvKind::Forward, s, x, w, y);
}

extern "C" void modelrt_conv2d_forward_bias(const float *x, const float *w, const float *bias,
                                            float *y, int64_t n, int64_t c, int64_t h,
                                            int64_t w_, int64_t o, int64_t kh, int64_t kw,
                                            int64_t oh, int64_t ow, int64_t strideH,
                                            int64_t strideW, int64_t padH, int64_t padW,
                                            int64_t dilH, int64_t dilW) {
  ConvShape s{n, c, h, w_, o, kh, kw, oh, ow, strideH, strideW, padH, padW, dilH, dilW};
  modelrt::runConvolution(ConvKind::Forward, s, x, w, y, /*bf16=*/false, bias);
}

extern "C" void modelrt_conv2d_forward_bias_bf16(const float *x, const float *w,
                                                 const float *bias, float *y, int64_t n,
                                                 int64_t c, int64_t h, int64_t w_, int64_t o,
                                                 int64_t kh, int64_t kw, int64_t oh, int64_t ow,
                                                 int64_t strideH, int64_t strideW, int64_t padH,
                                                 int64_t padW, int64_t dilH, int64_t dilW) {
  ConvShape s{n, c, h, w_, o, kh, kw, oh, ow, strideH, strideW, padH, padW, dilH, dilW};
  modelrt::runConvolution(ConvKind::Forward, s, x, w, y, /*bf16=*/true, bias);
}

extern "C" void modelrt_conv2d_backward_data(const float *dy, const float *w, float *dx,
                                             int64_t n, int64_t c, int64_t h, int64_t w_,
                                             int64_t o, int64_t kh, int64_t kw, int64_t oh,
                                             int64_t ow, int64_t strideH, int64_t strideW,
                                             int64_t padH, int64_t padW, int64_t dilH,
                                             int64_t dilW) {
  ConvShape s{n, c, h, w_, o, kh, kw, oh, ow, strideH, strideW, padH, padW, dilH, dilW};
  modelrt::runConvolution(ConvKind::BackwardData, s, dy, w, dx);
}

extern "C" void modelrt_conv2d_backward_weights(const float *x, const float *dy, float *dw,
                                                int64_t n, int64_t c, int64_t h, int64_t w_,
                                                int64_t o, int64_t kh, int64_t kw, int64_t oh,
                                                int64_t ow, int64_t strideH, int64_t strideW,
                                                int64_t padH, int64_t padW, int64_t dilH,
                                                int64_t dilW) {
  ConvShape s{n, c, h, w_, o, kh, kw, oh, ow, strideH, strideW, padH, padW, dilH, dilW};
  modelrt::runConvolution(ConvKind::BackwardWeights, s, x, dy, dw);
}

extern "C" void modelrt_conv2d_backward(const float *dy, const float *x, const float *w,
                                        float *dx, float *dw, int64_t n, int64_t c, int64_t h,
                                        int64_t w_, int64_t o, int64_t kh, int64_t kw,
                                        int64_t oh, int64_t ow, int64_t strideH,
                                        int64_t strideW, int64_t padH, int64_t padW,
                                        int64_t dilH, int64_t dilW) {
  ConvShape s{n, c, h, w_, o, kh, kw, oh, ow, strideH, strideW, padH, padW, dilH, dilW};
  modelrt::runConvolutionBackward(s, dy, x, w, dx, dw, /*bf16=*/false);
}

extern "C" void modelrt_conv2d_backward_bf16(const float *dy, const float *x, const float *w,
                                             float *dx, float *dw, int64_t n, int64_t c,
                                             int64_t h, int64_t w_, int64_t o, int64_t kh,
                                             int64_t kw, int64_t oh, int64_t ow,
                                             int64_t strideH, int64_t strideW, int64_t padH,
                                             int64_t padW, int64_t dilH, int64_t dilW) {
  ConvShape s{n, c, h, w_, o, kh, kw, oh, ow, strideH, strideW, padH, padW, dilH, dilW};
  modelrt::runConvolutionBackward(s, dy, x, w, dx, dw, /*bf16=*/true);
}

#define MODELRT_CONV_BF16(NAME, KIND, A, B, OUT)                                             \
  extern "C" void NAME(const float *A, const float *B, float *OUT, int64_t n, int64_t c,      \
                       int64_t h, int64_t w_, int64_t o, int64_t kh, int64_t kw, int64_t oh,  \
                       int64_t ow, int64_t strideH, int64_t strideW, int64_t padH,            \
                       int64_t padW, int64_t dilH, int64_t dilW) {                            \
    ConvShape s{n, c, h, w_, o, kh, kw, oh, ow, strideH, strideW, padH, padW, dilH, dilW};    \
    modelrt::runConvolution(ConvKind::KIND, s, A, B, OUT, /*bf16=*/true);                     \
  }
MODELRT_CONV_BF16(modelrt_conv2d_forward_bf16, Forward, x, w, y)
MODELRT_CONV_BF16(modelrt_conv2d_backward_data_bf16, BackwardData, dy, w, dx)
MODELRT_CONV_BF16(modelrt_conv2d_backward_weights_bf16, BackwardWeights, x, dy, dw)
#undef MODELRT_CONV_BF16
