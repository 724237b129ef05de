//===- conv_max_pool.cpp - A convolution and its max pooling, apart and fused ===//
//
// Times, for the SimpleCNN's two convolution + 2x2 max pooling blocks at
// batch 64 (1 -> 32 channels on 28x28, 32 -> 64 on 14x14; 3x3, padding 1),
// in f32 and bf16: modelrt_conv2d_forward_bias alone, then
// modelrt_max_pool2d_forward_codes alone on its result, then the two calls
// in a row, then modelrt_conv2d_forward_bias_max_pool2d (Conv.h), which
// pools oneDNN's blocked result without reordering it into NCHW. Each call
// starts from cold caches (64 MiB written between calls); the median of
// REPS calls after 5 warm-ups, in ms. It also checks that the fused call
// gives the bits of the two calls. A measurement, not a test.
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

} // namespace

int main(int argc, char **argv) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 41;
  std::vector<float> flush(16 << 20);
  std::printf("     block (NxCxHxW -> O)  |    conv    pool    both   fused | saved | bits\n");
  for (Block b : {Block{64, 1, 28, 32}, Block{64, 32, 14, 64}})
    for (bool bf16 : {false, true})
      timeBlock(b, bf16, reps, flush);
  return 0;
}
