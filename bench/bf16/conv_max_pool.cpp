//===- conv_max_pool.cpp - A convolution and its max pooling, apart and fused -===//
//
// Times, for the SimpleCNN's two convolution + 2x2 max pooling blocks at
// batch 64 (1 -> 32 channels on 28x28, 32 -> 64 on 14x14; 3x3, padding 1),
// in f32 and bf16: modelrt_conv2d_forward_bias alone, then
// modelrt_max_pool2d_forward_codes alone on its result, then the two calls
// in a row, then modelrt_conv2d_forward_bias_max_pool2d (Conv.h), which
// pools oneDNN's blocked result without reordering it into NCHW. Then the
// backward in f32: modelrt_max_pool2d_backward_codes, the convolution's
// gradients (the first block's weights alone, as in the SimpleCNN), both,
// and modelrt_conv2d_backward(_weights)_from_max_pool2d, which writes dy
// in oneDNN's blocks. Each call starts from cold caches (64 MiB written
// between calls); the median of REPS calls after 5 warm-ups, in ms. It also
// checks that each fused call gives the bits of the calls it replaces (the
// first block's weight gradient on the direct loops of few input channels
// sums in another order: it prints the largest difference relative to the
// largest |dw|). A measurement, not a test.
//
// Build (from the repository root, after `ninja -C build`):
//   g++ -O2 -std=c++17 -I runtime/include bench/bf16/conv_max_pool.cpp \
//       build/lib/libmodelrt.a -lgomp -ldl -lz -lpthread -o /tmp/conv_max_pool
//   /tmp/conv_max_pool [REPS]
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Conv.h"
#include "modelrt/core/Pool.h"

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

namespace {

/// One block: N x C x H x H images, O output channels, 3x3, padding 1.
struct Block {
  int64_t n, c, h, o;
};

/// The median time of \p reps calls of \p f after 5 warm-ups, in ms, each
/// after writing \p flush.
double medianMs(int reps, std::vector<float> &flush, const std::function<void()> &f) {
  std::vector<double> times;
  for (int i = 0; i < reps + 5; ++i) {
    for (float &v : flush)
      v += 1;
    auto start = std::chrono::steady_clock::now();
    f();
    auto end = std::chrono::steady_clock::now();
    if (i >= 5)
      times.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

using ConvFn = decltype(&modelrt_conv2d_forward_bias);
using FusedFn = decltype(&modelrt_conv2d_forward_bias_max_pool2d);

/// Times \p b with \p conv and \p fused; prints one line.
void timeBlock(const Block &b, bool bf16, int reps, std::vector<float> &flush) {
  ConvFn conv = bf16 ? modelrt_conv2d_forward_bias_bf16 : modelrt_conv2d_forward_bias;
  FusedFn fused =
      bf16 ? modelrt_conv2d_forward_bias_max_pool2d_bf16 : modelrt_conv2d_forward_bias_max_pool2d;
  int64_t h = b.h, oh = h / 2;
  std::vector<float> x(b.n * b.c * h * h), w(b.o * b.c * 9), bias(b.o), y(b.n * b.o * h * h);
  std::vector<float> pooled(b.n * b.o * oh * oh), fusedPooled(pooled.size());
  std::vector<uint8_t> codes(pooled.size()), fusedCodes(pooled.size());
  std::mt19937 rng(7);
  std::normal_distribution<float> normal;
  for (std::vector<float> *v : {&x, &w, &bias})
    for (float &e : *v)
      e = normal(rng);
  auto runConv = [&] { conv(x.data(), w.data(), bias.data(), y.data(), b.n, b.c, h, h, b.o, 3, 3, h, h, 1, 1, 1, 1, 1, 1); };
  auto runPool = [&] {
    modelrt_max_pool2d_forward_codes(y.data(), pooled.data(), codes.data(), b.n, b.o, h, h, oh,
                                     oh, 2, 2, 2, 2, 0, 0);
  };
  auto runFused = [&] {
    fused(x.data(), w.data(), bias.data(), y.data(), fusedPooled.data(), fusedCodes.data(), b.n,
          b.c, h, h, b.o, 3, 3, h, h, 1, 1, 1, 1, 1, 1);
  };
  double tConv = medianMs(reps, flush, runConv);
  double tPool = medianMs(reps, flush, runPool);
  double tBoth = medianMs(reps, flush, [&] { runConv(); runPool(); });
  double tFused = medianMs(reps, flush, runFused);
  bool same = std::memcmp(pooled.data(), fusedPooled.data(), pooled.size() * sizeof(float)) == 0 &&
              codes == fusedCodes;
  std::printf("%-4s %3lldx%2lldx%2lldx%2lld -> %2lld | %7.3f %7.3f %7.3f %7.3f | %5.1f%% | %s\n",
              bf16 ? "bf16" : "f32", (long long)b.n, (long long)b.c, (long long)h, (long long)h,
              (long long)b.o, tConv, tPool, tBoth, tFused, 100 * (tBoth - tFused) / tBoth,
              same ? "same bits" : "BITS DIFFER");
}

/// Times \p b's backward in f32: modelrt_max_pool2d_backward_codes then
/// the convolution's gradients (both, or the weights' alone when \p withDx
/// is false), against modelrt_conv2d_backward(_weights)_from_max_pool2d;
/// prints one line.
void timeBackward(const Block &b, bool withDx, int reps, std::vector<float> &flush) {
  int64_t h = b.h, oh = h / 2;
  std::vector<float> x(b.n * b.c * h * h), w(b.o * b.c * 9), pooledGrad(b.n * b.o * oh * oh);
  std::vector<float> dy(b.n * b.o * h * h), dx(x.size()), dw(w.size()), fusedDx(x.size()),
      fusedDw(w.size());
  std::vector<uint8_t> codes(pooledGrad.size());
  std::mt19937 rng(7);
  std::normal_distribution<float> normal;
  for (std::vector<float> *v : {&x, &w, &pooledGrad})
    for (float &e : *v)
      e = normal(rng);
  for (uint8_t &code : codes)
    code = uint8_t(rng() % 4);
  auto runPool = [&] {
    modelrt_max_pool2d_backward_codes(pooledGrad.data(), codes.data(), dy.data(), b.n, b.o, h, h,
                                      oh, oh, 2, 2, 2, 2, 0, 0);
  };
  auto runConv = [&] {
    if (withDx)
      modelrt_conv2d_backward(dy.data(), x.data(), w.data(), dx.data(), dw.data(), b.n, b.c, h, h,
                              b.o, 3, 3, h, h, 1, 1, 1, 1, 1, 1);
    else
      modelrt_conv2d_backward_weights(x.data(), dy.data(), dw.data(), b.n, b.c, h, h, b.o, 3, 3,
                                      h, h, 1, 1, 1, 1, 1, 1);
  };
  auto runFused = [&] {
    if (withDx)
      modelrt_conv2d_backward_from_max_pool2d(pooledGrad.data(), codes.data(), x.data(),
                                              w.data(), dy.data(), fusedDx.data(),
                                              fusedDw.data(), b.n, b.c, h, h, b.o, 3, 3, h, h, 1,
                                              1, 1, 1, 1, 1);
    else
      modelrt_conv2d_backward_weights_from_max_pool2d(pooledGrad.data(), codes.data(), x.data(),
                                                      dy.data(), fusedDw.data(), b.n, b.c, h, h,
                                                      b.o, 3, 3, h, h, 1, 1, 1, 1, 1, 1);
  };
  double tPool = medianMs(reps, flush, runPool);
  double tConv = medianMs(reps, flush, runConv);
  double tBoth = medianMs(reps, flush, [&] { runPool(); runConv(); });
  double tFused = medianMs(reps, flush, runFused);
  bool same = std::memcmp(dw.data(), fusedDw.data(), dw.size() * sizeof(float)) == 0 &&
              (!withDx || std::memcmp(dx.data(), fusedDx.data(), dx.size() * sizeof(float)) == 0);
  // The direct loops (few input channels, weights alone) sum dw in another
  // order: the largest difference relative to the largest |dw|.
  double largest = 0, differs = 0;
  for (size_t i = 0; i < dw.size(); ++i) {
    largest = std::max(largest, double(std::fabs(dw[i])));
    differs = std::max(differs, double(std::fabs(dw[i] - fusedDw[i])));
  }
  char bits[64];
  std::snprintf(bits, sizeof bits, same ? "same bits" : "dw within %.1e", differs / largest);
  std::printf("f32  %3lldx%2lldx%2lldx%2lld -> %2lld %s | %7.3f %7.3f %7.3f %7.3f | %5.1f%% | %s\n",
              (long long)b.n, (long long)b.c, (long long)h, (long long)h, (long long)b.o,
              withDx ? "dx+dw" : "dw   ", tPool, tConv, tBoth, tFused,
              100 * (tBoth - tFused) / tBoth, bits);
}

} // namespace

int main(int argc, char **argv) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 41;
  std::vector<float> flush(16 << 20);
  std::printf("     block (NxCxHxW -> O)  |    conv    pool    both   fused | saved | bits\n");
  for (Block b : {Block{64, 1, 28, 32}, Block{64, 32, 14, 64}})
    for (bool bf16 : {false, true})
      timeBlock(b, bf16, reps, flush);
  std::printf("\nbackward, block (NxCxHxW -> O)   | pool gr  conv gr  both   fused | saved | bits\n");
  timeBackward(Block{64, 1, 28, 32}, false, reps, flush);
  timeBackward(Block{64, 32, 14, 64}, true, reps, flush);
  return 0;
}
