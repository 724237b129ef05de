//===- ConvDirect.cpp - The direct convolutions: shapes, operands, threads ===//
//
// Implements ConvDirect.h: checks the shape and the host, puts the weights
// in the loops' tap order (rounded to bf16 for a bf16 convolution, as is a
// copy of x), and runs the loops of ConvDirectKernels.h for the host's
// level (AVX-512 or AVX2) over the images in two fixed halves, on
// runInTwoParts' team from kParallelLoopWork multiply-adds, else one after
// the other on the calling thread.
//
//===----------------------------------------------------------------------===//
#include "ConvDirect.h"
#include "ConvDirectKernels.h"
#include "modelrt/core/Bf16.h"
#include "modelrt/core/CpuFeatures.h"
#include "modelrt/core/Parallel.h"
#include "modelrt/core/Profile.h"

#include <atomic>
#include <vector>

namespace modelrt {
namespace {

std::atomic<int64_t> calls{0};

} // namespace

bool directConvolutionShape(const ConvShape &s) {
  return s.n >= 1 && s.o >= 1 && s.c >= 1 && s.c <= kDirectMaxChannels && s.strideH == 1 &&
         s.strideW == 1 && s.dilH == 1 && s.dilW == 1 && s.kh == kDirectKernel &&
         s.kw == kDirectKernel && s.padH >= 0 && s.padH < s.kh && s.padW >= 0 &&
         s.padW < s.kw &&
         s.oh == s.h + 2 * s.padH - s.kh + 1 && s.ow == s.w + 2 * s.padW - s.kw + 1 &&
         s.oh >= 1 && s.ow >= 1;
}

#if defined(MODELRT_HAVE_CONV_DIRECT)

namespace {

/// The loops of the host's level; null below AVX2.
const DirectLoops *hostLoops() {
  switch (hostKernels().level) {
  case CpuLevel::Avx512:
    return &kDirectLoopsAvx512;
  case CpuLevel::Avx2:
    return &kDirectLoopsAvx2;
  case CpuLevel::Baseline:
    break;
  }
  return nullptr;
}

/// The operands of one call in the loops' form; x and w rounded for bf16.
class DirectOperands {
public:
  DirectOperands(const ConvShape &s, const float *x, const float *w, const float *bias,
                 bool bf16) {
    conv.s = s;
    conv.x = x;
    conv.bias = bias;
    if (bf16) { // pairs of channels, the odd one first: {1, 0, 3, 2} or {1, 0, 2}
      for (int32_t k = 0; k < s.c; ++k)
        conv.channelOrder[k] = k % 2 ? k - 1 : (k + 1 < s.c ? k + 1 : k);
      int64_t size = s.n * s.c * s.h * s.w;
      roundedX.resize(size_t(size));
      roundMatrixThroughBf16(x, size, 1, size, roundedX.data());
      conv.x = roundedX.data();
    }
    if (w) {
      taps.resize(size_t(s.o * s.kh * s.kw * s.c));
      for (int64_t o = 0; o < s.o; ++o)
        for (int64_t ij = 0; ij < s.kh * s.kw; ++ij)
          for (int64_t t = 0; t < s.c; ++t) {
            float v = w[(o * s.c + conv.channelOrder[t]) * s.kh * s.kw + ij];
            taps[size_t((o * s.kh * s.kw + ij) * s.c + t)] = bf16 ? roundThroughBf16(v) : v;
          }
      conv.taps = taps.data();
    }
  }

  DirectConv conv;

private:
  std::vector<float> roundedX, taps;
};

/// The calling thread's scratch memory for \p s (ConvDirectKernels.h), at
/// a 64-byte boundary.
float *scratchFor(const ConvShape &s) {
  thread_local std::vector<float> scratch;
  size_t size = size_t(hostLoops()->scratchFloats(s)) + 16;
  if (scratch.size() < size)
    scratch.resize(size);
  uintptr_t at = reinterpret_cast<uintptr_t>(scratch.data());
  return reinterpret_cast<float *>((at + 63) & ~uintptr_t(63));
}

/// Runs part(half, first, count) over the two fixed halves of the images.
template <typename Part> void overImageHalves(const ConvShape &s, const Part &part) {
  int64_t half = s.n / 2;
  if (half > 0 && convolutionMacs(s) >= double(kParallelLoopWork) && twoPartsInParallel()) {
    runInTwoParts([&](int second) { second ? part(1, half, s.n - half) : part(0, 0, half); });
    return;
  }
  part(0, 0, half);
  part(1, half, s.n - half);
}

/// The checks and bookkeeping every direct call shares.
bool takes(const ConvShape &s) { return directConvolutionShape(s) && directConvolutionsOnHost(); }

void noteCall(bool bf16) {
  calls.fetch_add(1, std::memory_order_relaxed);
  noteProductRun(bf16, Bf16Path::Emulated);
}

} // namespace

bool directConvolutionForward(const ConvShape &s, const float *x, const float *w,
                              const float *bias, float *y, bool bf16) {
  if (!takes(s))
    return false;
  DirectOperands ops(s, x, w, bias, bf16);
  overImageHalves(s, [&](int, int64_t first, int64_t count) {
    hostLoops()->forward(ops.conv, y, scratchFor(s), first, count);
  });
  noteCall(bf16);
  return true;
}

bool directConvolutionMaxPool(const ConvShape &s, const float *x, const float *w,
                              const float *bias, float *pooled, uint8_t *codes, bool bf16) {
  if (!takes(s) || s.oh < 2 || s.ow < 2)
    return false;
  DirectOperands ops(s, x, w, bias, bf16);
  overImageHalves(s, [&](int, int64_t first, int64_t count) {
    hostLoops()->forwardMaxPool(ops.conv, pooled, codes, scratchFor(s), first, count);
  });
  noteCall(bf16);
  return true;
}

bool directWeightsFromMaxPool(const ConvShape &s, const float *pooledGrad, const uint8_t *codes,
                              const float *x, float *dw) {
  if (!takes(s) || s.oh < 2 || s.ow < 2)
    return false;
  DirectOperands ops(s, x, nullptr, nullptr, /*bf16=*/false);
  size_t weights = size_t(s.o * s.c * s.kh * s.kw);
  std::vector<float> sums[2];
  overImageHalves(s, [&](int half, int64_t first, int64_t count) {
    sums[half].assign(weights * kDirectLanes, 0.0f);
    hostLoops()->weightsFromMaxPool(ops.conv, pooledGrad, codes, sums[half].data(),
                                    scratchFor(s), first, count);
  });
  for (size_t v = 0; v < weights; ++v) {
    float sum = 0.0f;
    for (int64_t l = 0; l < kDirectLanes; ++l)
      sum += sums[0][v * kDirectLanes + l] + sums[1][v * kDirectLanes + l];
    dw[v] = sum;
  }
  noteCall(false);
  return true;
}

bool directConvolutionsOnHost() { return hostLoops() != nullptr; }

const char *directConvolutionIsa() {
  const DirectLoops *loops = hostLoops();
  return loops ? loops->isa : "";
}

#else // no build of the loops (not x86-64)

bool directConvolutionsOnHost() { return false; }
const char *directConvolutionIsa() { return ""; }

bool directConvolutionForward(const ConvShape &, const float *, const float *, const float *,
                              float *, bool) {
  return false;
}
bool directConvolutionMaxPool(const ConvShape &, const float *, const float *, const float *,
                              float *, uint8_t *, bool) {
  return false;
}
bool directWeightsFromMaxPool(const ConvShape &, const float *, const uint8_t *, const float *,
                              float *) {
  return false;
}

#endif

int64_t directConvolutionCalls() { return calls.load(std::memory_order_relaxed); }

} // namespace modelrt
