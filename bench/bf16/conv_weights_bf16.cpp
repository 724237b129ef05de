//===- conv_weights_bf16.cpp - A weight gradient's time in f32 and bf16 ---===//
//
// Times modelrt_conv2d_backward_weights (f32) and
// modelrt_conv2d_backward_weights_bf16 (the host's bf16 path; MODELRT_BF16
// narrows it) for a 3x3 convolution (stride 1, padding 1) at batch 64 over
// 1 to 32 input channels, at 32 channels out of 28x28 and 64 out of 14x14
// (the SimpleCNN's two sizes). Each call starts from cold caches (64 MiB
// written between calls), as in training, where dy was written long
// before; the median of REPS calls after 3 warm-ups, in ms. The bf16 call
// rounds x and dy to bf16 copies first: for few input channels that pass
// over dy is most of the work. A measurement, not a test;
// modelsupport::kF32WeightGradientChannels (Precision.h) comes from it.
//
// Build (from the repository root, after `ninja -C build`):
//   g++ -O2 -std=c++17 -I runtime/include bench/bf16/conv_weights_bf16.cpp \
//       build/lib/libmodelrt.a -lgomp -ldl -lz -lpthread -o /tmp/conv_weights_bf16
//   /tmp/conv_weights_bf16 [REPS]
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Conv.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <vector>

namespace {

/// Evicts the caches: writes one byte per line of 64 MiB.
void evictCaches() {
  static std::vector<char> junk(64 << 20);
  for (size_t i = 0; i < junk.size(); i += 64)
    ++junk[i];
}

/// The median ms of \p reps cold calls of \p f after 3 warm-ups.
double medianMs(int reps, const std::function<void()> &f) {
  for (int i = 0; i < 3; ++i)
    f();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    evictCaches();
    auto start = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 21;
  const int64_t n = 64;
  std::printf("%4s %4s %6s %10s %10s %8s\n", "C", "O", "HxW", "f32 ms", "bf16 ms", "bf16/f32");
  for (int64_t c : {1, 3, 4, 8, 16, 32})
    for (auto [o, hw] : {std::pair<int64_t, int64_t>{32, 28}, {64, 14}}) {
      std::vector<float> x(size_t(n * c * hw * hw)), dy(size_t(n * o * hw * hw)), dw(size_t(o * c * 9));
      std::mt19937 gen(1);
      std::normal_distribution<float> normal;
      for (float &v : x)
        v = normal(gen);
      for (float &v : dy)
        v = normal(gen);
      auto call = [&](bool bf16) {
        auto fn = bf16 ? modelrt_conv2d_backward_weights_bf16 : modelrt_conv2d_backward_weights;
        return [&, fn] {
          fn(x.data(), dy.data(), dw.data(), n, c, hw, hw, o, 3, 3, hw, hw, 1, 1, 1, 1, 1, 1);
        };
      };
      double f32 = medianMs(reps, call(false)), bf16 = medianMs(reps, call(true));
      std::printf("%4lld %4lld %3lldx%-2lld %10.3f %10.3f %8.2f\n", (long long)c, (long long)o,
                  (long long)hw, (long long)hw, f32, bf16, bf16 / f32);
    }
  return 0;
}
