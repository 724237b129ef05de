//===- CudnnConv.cpp - modelrt_cuda_conv2d_*: convolutions through cuDNN --===//
//
// Implements the modelrt_cuda_conv2d_* entry points of GpuAbi.h: the CPU's
// modelrt_conv2d_* (modelrt/core/Conv.h) on device buffers, through cuDNN 9
// (Cudnn.h), on the compute stream, in three arithmetics: f32 (FMA only),
// TF32 (tensor cores on the f32 buffers) and bf16 (the two operands
// converted to bf16 by ConvertKernels.cu into blocks of the device pool,
// the convolution on bf16 tensors with f32 accumulation into a bf16 result,
// converted back to f32). Each call is one `--profile` entry, "cuDNN conv
// <direction> <arithmetic> NxCxHxW*OxKHxKW". Errors are sticky.
//
//===----------------------------------------------------------------------===//
#include "CudaDriver.h"
#include "Cudnn.h"
#include "modelrt/cuda/ConvertKernels.h"

#include <algorithm>
#include <climits>
#include <string>

namespace modelrt {
namespace cuda {
namespace {

/// The conversion kernels' module, loaded (lazily, by the mgpu shim) once.
void *convertModule() {
  static void *module = embeddedModule(modelrt_convert_ptx);
  return module;
}

const char *directionName(ConvDirection dir) {
  switch (dir) {
  case ConvDirection::Forward:
    return "forward";
  case ConvDirection::BackwardData:
    return "backward data";
  case ConvDirection::BackwardWeights:
    return "backward weights";
  }
  return "";
}

const char *mathName(ConvMath math) {
  switch (math) {
  case ConvMath::F32:
    return "f32";
  case ConvMath::Tf32:
    return "tf32";
  case ConvMath::Bf16:
    return "bf16";
  }
  return "";
}

/// The elements of x, w and y.
int64_t inputElements(const GpuConvShape &s) { return s.n * s.c * s.h * s.w; }
int64_t weightElements(const GpuConvShape &s) { return s.o * s.c * s.kh * s.kw; }
int64_t outputElements(const GpuConvShape &s) { return s.n * s.o * s.oh * s.ow; }

/// The elements of \p dir's two operands and result.
void operandElements(ConvDirection dir, const GpuConvShape &s, int64_t sizes[3]) {
  int64_t x = inputElements(s), w = weightElements(s), y = outputElements(s);
  const int64_t bySize[3][3] = {{x, w, y}, {y, w, x}, {x, y, w}};
  std::copy(bySize[int(dir)], bySize[int(dir)] + 3, sizes);
}

/// An error naming \p caller when \p s is not a convolution cuDNN takes:
/// a size below 1 (the batch may be 0), one above 2^31 - 1, or an output
/// size other than the convolution's.
std::string shapeError(const GpuConvShape &s) {
  const int64_t sizes[] = {s.c, s.h, s.w, s.o, s.kh, s.kw, s.oh, s.ow,
                           s.strideH, s.strideW, s.dilH, s.dilW};
  for (int64_t v : sizes)
    if (v < 1 || v > INT_MAX)
      return "a size, stride or dilation is outside 1..2^31-1";
  if (s.n < 0 || s.n > INT_MAX || s.padH < 0 || s.padW < 0 || s.padH > INT_MAX ||
      s.padW > INT_MAX)
    return "the batch or a padding is outside 0..2^31-1";
  int64_t oh = (s.h + 2 * s.padH - s.dilH * (s.kh - 1) - 1) / s.strideH + 1;
  int64_t ow = (s.w + 2 * s.padW - s.dilW * (s.kw - 1) - 1) / s.strideW + 1;
  if (oh != s.oh || ow != s.ow)
    return "the output is " + std::to_string(s.oh) + "x" + std::to_string(s.ow) +
           ", the convolution's is " + std::to_string(oh) + "x" + std::to_string(ow);
  return "";
}

/// Launches the conversion \p kernel of \p n elements on the compute stream.
bool convert(CudaState &s, const char *kernel, const void *in, void *out, int64_t n) {
  auto fn = static_cast<CUfunction>(mgpuModuleGetFunction(convertModule(), kernel));
  if (!fn) {
    setStickyError(-1, std::string("cannot load the conversion kernel ") + kernel);
    return false;
  }
  void *params[] = {&in, &out, &n};
  int64_t blocks = std::min<int64_t>((n + kConvertThreads - 1) / kConvertThreads,
                                     kConvertMaxBlocks);
  return checkCu(driverApi()->cuLaunchKernel(fn, unsigned(blocks), 1, 1, kConvertThreads, 1, 1,
                                             0, s.compute, params, nullptr),
                 kernel);
}

/// \p n bf16 elements rounded up to whole 128-byte lines, so that each
/// tensor of a staging block starts as aligned as the block.
int64_t alignedElements(int64_t n) { return (n + 63) / 64 * 64; }

/// The bf16 convolution of f32 operands: both converted into one block of
/// the pool with room for the bf16 result, which is converted back.
bool runBf16(CudaState &s, const char *caller, ConvDirection dir, const GpuConvShape &shape,
             const float *a, const float *b, float *out) {
  int64_t n[3];
  operandElements(dir, shape, n);
  int64_t bOffset = alignedElements(n[0]), outOffset = bOffset + alignedElements(n[1]);
  auto *block = static_cast<uint16_t *>(
      mgpuMemAlloc(uint64_t(outOffset + n[2]) * sizeof(uint16_t), s.compute, false));
  if (!block)
    return false; // the allocation recorded why
  uint16_t *a16 = block, *b16 = block + bOffset, *out16 = block + outOffset;
  bool ok = convert(s, kF32ToBf16Kernel, a, a16, n[0]) &&
            convert(s, kF32ToBf16Kernel, b, b16, n[1]) &&
            runCudnnConvolution(caller, dir, ConvMath::Bf16, shape, a16, b16, out16) &&
            convert(s, kBf16ToF32Kernel, out16, out, n[2]);
  mgpuMemFree(block, s.compute);
  return ok;
}

/// The `--profile` label of a convolution.
const char *convLabel(ConvDirection dir, ConvMath math, const GpuConvShape &s) {
  auto dims = [](std::initializer_list<int64_t> v) {
    std::string text;
    for (int64_t d : v)
      text += (text.empty() ? "" : "x") + std::to_string(d);
    return text;
  };
  return profileLabel(std::string("cuDNN conv ") + directionName(dir) + " " + mathName(math) +
                      " " + dims({s.n, s.c, s.h, s.w}) + "*" + dims({s.o, s.kh, s.kw}));
}

/// One entry point: \p dir of \p shape in \p math, out = conv(a, b).
void gpuConvolution(const char *caller, ConvDirection dir, ConvMath math,
                    const GpuConvShape &shape, const float *a, const float *b, float *out) {
  if (hasStickyError())
    return;
  std::string bad = shapeError(shape);
  if (!bad.empty()) {
    setStickyError(-1, std::string(caller) + ": " + bad);
    return;
  }
  CudaState *s = requireCuda(caller);
  if (!s)
    return;
  if (shape.n == 0) { // no images: nothing, or zero weight gradients
    if (dir == ConvDirection::BackwardWeights)
      checkCu(driverApi()->cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(out), 0,
                                            size_t(weightElements(shape)), s->compute),
              "cuMemsetD32Async");
    return;
  }
  bool timed = profileStart(s->compute);
  if (math == ConvMath::Bf16)
    runBf16(*s, caller, dir, shape, a, b, out);
  else
    runCudnnConvolution(caller, dir, math, shape, a, b, out);
  if (timed)
    profileEnd(s->compute, convLabel(dir, math, shape),
               2.0 * double(outputElements(shape)) * double(shape.c * shape.kh * shape.kw));
}

} // namespace
} // namespace cuda
} // namespace modelrt

using namespace modelrt::cuda;

/// The nine entry points: NAME(A, B, OUT, the sizes) runs DIR in MATH.
#define MODELRT_CUDA_CONV(NAME, DIR, MATH, A, B, OUT)                                        \
  extern "C" void NAME(const float *A, const float *B, float *OUT, int64_t n, int64_t c,      \
                       int64_t h, int64_t w_, int64_t o, int64_t kh, int64_t kw, int64_t oh,  \
                       int64_t ow, int64_t strideH, int64_t strideW, int64_t padH,            \
                       int64_t padW, int64_t dilH, int64_t dilW) {                            \
    GpuConvShape s{n, c, h, w_, o, kh, kw, oh, ow, strideH, strideW, padH, padW, dilH, dilW}; \
    gpuConvolution(#NAME, ConvDirection::DIR, ConvMath::MATH, s, A, B, OUT);                  \
  }
MODELRT_CUDA_CONV(modelrt_cuda_conv2d_forward, Forward, F32, x, w, y)
MODELRT_CUDA_CONV(modelrt_cuda_conv2d_backward_data, BackwardData, F32, dy, w, dx)
MODELRT_CUDA_CONV(modelrt_cuda_conv2d_backward_weights, BackwardWeights, F32, x, dy, dw)
MODELRT_CUDA_CONV(modelrt_cuda_conv2d_forward_tf32, Forward, Tf32, x, w, y)
MODELRT_CUDA_CONV(modelrt_cuda_conv2d_backward_data_tf32, BackwardData, Tf32, dy, w, dx)
MODELRT_CUDA_CONV(modelrt_cuda_conv2d_backward_weights_tf32, BackwardWeights, Tf32, x, dy, dw)
MODELRT_CUDA_CONV(modelrt_cuda_conv2d_forward_bf16, Forward, Bf16, x, w, y)
MODELRT_CUDA_CONV(modelrt_cuda_conv2d_backward_data_bf16, BackwardData, Bf16, dy, w, dx)
MODELRT_CUDA_CONV(modelrt_cuda_conv2d_backward_weights_bf16, BackwardWeights, Bf16, x, dy, dw)
#undef MODELRT_CUDA_CONV
