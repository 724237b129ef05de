//===- runtime_pool.cpp - Times the runtime's four pooling functions ------===//
//
// Times modelrt_max_pool2d_forward / _backward and modelrt_avg_pool2d_forward
// / _backward (runtime/include/modelrt/core/Pool.h) on a CNN's poolings:
// 2x2 stride 2 after conv1 (32 x 28x28) and conv2 (64 x 14x14) at batch 64
// and 1, and ResNet's 3x3 stride 2 padding 1 (64 x 56x56) at batch 64: the
// median of 50 calls after 5 warm-ups, in ms and GB/s (bytes read and
// written per call / time), next to the median of plain per-window scalar
// loops over the same data, for comparison. A measurement, not a test.
//
// Build (from the repository root, after `ninja -C build-rt modelrt`):
//   g++ -O2 -std=c++17 -I runtime/include bench/conv/runtime_pool.cpp \
//       build-rt/lib/libmodelrt.a -lgomp -ldl -lz -lpthread -o /tmp/runtime_pool
//   /tmp/runtime_pool        (MODELRT_THREADS=1, MODELRT_CPU_ISA=avx2 ... to compare)
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/CpuFeatures.h"
#include "modelrt/core/Parallel.h"
#include "modelrt/core/Pool.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <vector>

namespace {

/// One pooling: N x C x H x W input, a K x K window, stride S, padding P.
struct Shape {
  const char *name;
  int64_t n, c, h, w, k, s, p;
  int64_t oh() const { return (h + 2 * p - k) / s + 1; }
  int64_t ow() const { return (w + 2 * p - k) / s + 1; }
  int64_t in() const { return n * c * h * w; }
  int64_t out() const { return n * c * oh() * ow(); }
};

/// Which of the four functions.
enum Kind { MaxForward, MaxBackward, AvgForward, AvgBackward };

/// The buffers of one shape: x, y (or dy) and dx.
struct Buffers {
  std::vector<float> x, y, dx;
  explicit Buffers(const Shape &s) : x(size_t(s.in())), y(size_t(s.out())), dx(size_t(s.in())) {
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = std::sin(0.37f * float(i)) * 0.5f;
    for (size_t i = 0; i < y.size(); ++i)
      y[i] = std::cos(0.21f * float(i));
  }
};

/// Calls the runtime's function of \p kind once.
void callRuntime(Kind kind, const Shape &s, Buffers &b) {
  int64_t oh = s.oh(), ow = s.ow();
  switch (kind) {
  case MaxForward:
    return modelrt_max_pool2d_forward(b.x.data(), b.y.data(), s.n, s.c, s.h, s.w, oh, ow, s.k, s.k,
                                      s.s, s.s, s.p, s.p);
  case MaxBackward:
    return modelrt_max_pool2d_backward(b.y.data(), b.x.data(), b.dx.data(), s.n, s.c, s.h, s.w, oh,
                                       ow, s.k, s.k, s.s, s.s, s.p, s.p);
  case AvgForward:
    return modelrt_avg_pool2d_forward(b.x.data(), b.y.data(), s.n, s.c, s.h, s.w, oh, ow, s.k, s.k,
                                      s.s, s.s, s.p, s.p);
  case AvgBackward:
    return modelrt_avg_pool2d_backward(b.y.data(), b.dx.data(), s.n, s.c, s.h, s.w, oh, ow, s.k,
                                       s.k, s.s, s.s, s.p, s.p);
  }
}

/// The rows (or columns) [begin, end) of a window from \p start of \p k
/// inside [0, \p size).
struct Span {
  int64_t begin, end;
};
Span inside(int64_t start, int64_t k, int64_t size) {
  return {std::max<int64_t>(0, start), std::min(size, start + k)};
}

/// The plain loops of \p kind: per window of every plane, a scan or a sum,
/// the gradients added into zeros.
void callNaive(Kind kind, const Shape &s, Buffers &b) {
  int64_t oh = s.oh(), ow = s.ow(), in = s.h * s.w;
  float area = float(s.k * s.k);
  if (kind == MaxBackward || kind == AvgBackward)
    std::fill(b.dx.begin(), b.dx.end(), 0.0f);
  for (int64_t p = 0; p < s.n * s.c; ++p)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x) {
        const float *plane = b.x.data() + p * in;
        float *grad = b.dx.data() + p * in, &out = b.y[size_t((p * oh + y) * ow + x)];
        Span rows = inside(y * s.s - s.p, s.k, s.h), cols = inside(x * s.s - s.p, s.k, s.w);
        float m = -INFINITY, sum = 0.0f;
        int64_t at = rows.begin * s.w + cols.begin;
        for (int64_t i = rows.begin; i < rows.end; ++i)
          for (int64_t j = cols.begin; j < cols.end; ++j) {
            float v = plane[i * s.w + j];
            if (kind == AvgForward) {
              sum += v;
            } else if (kind == AvgBackward) {
              grad[i * s.w + j] += out / area;
            } else if (v > m || v != v) {
              m = v;
              at = i * s.w + j;
            }
          }
        if (kind == MaxForward)
          out = m;
        else if (kind == AvgForward)
          out = sum / area;
        else if (kind == MaxBackward)
          grad[at] += out;
      }
}

/// The median time in ms of 50 calls of \p fn after 5 warm-ups.
double medianMs(const std::function<void()> &fn) {
  for (int i = 0; i < 5; ++i)
    fn();
  std::vector<double> ms;
  for (int i = 0; i < 50; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    fn();
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::nth_element(ms.begin(), ms.begin() + 25, ms.end());
  return ms[25];
}

/// The bytes one call of \p kind reads and writes.
double bytesMoved(Kind kind, const Shape &s) {
  double in = double(s.in()), out = double(s.out());
  return 4.0 * (kind == MaxBackward ? 2 * in + out : in + out);
}

} // namespace

int main() {
  const Shape shapes[] = {{"32x28x28 2x2/2", 64, 32, 28, 28, 2, 2, 0},
                          {"64x14x14 2x2/2", 64, 64, 14, 14, 2, 2, 0},
                          {"32x28x28 2x2/2", 1, 32, 28, 28, 2, 2, 0},
                          {"64x14x14 2x2/2", 1, 64, 14, 14, 2, 2, 0},
                          {"64x56x56 3x3/2 p1", 64, 64, 56, 56, 3, 2, 1}};
  const char *kinds[] = {"max forward", "max backward", "avg forward", "avg backward"};
  std::printf("kernels: %s; %s\n", modelrt::cpuLevelName(modelrt::hostKernels().level),
              modelrt::twoPartsInParallel() ? "two threads from kParallelLoopWork elements moved on"
                                            : "one thread");
  std::printf("  %-18s %4s  %-13s %9s %8s %10s %9s %8s\n", "shape", "N", "function", "ms", "GB/s",
              "naive ms", "GB/s", "speedup");
  for (const Shape &s : shapes)
    for (int kind = 0; kind < 4; ++kind) {
      Buffers b(s);
      double ms = medianMs([&] { callRuntime(Kind(kind), s, b); });
      double naive = medianMs([&] { callNaive(Kind(kind), s, b); });
      double bytes = bytesMoved(Kind(kind), s);
      std::printf("  %-18s %4lld  %-13s %9.4f %8.2f %10.4f %9.2f %7.1fx\n", s.name, (long long)s.n,
                  kinds[kind], ms, bytes / (ms * 1e-3) * 1e-9, naive, bytes / (naive * 1e-3) * 1e-9,
                  naive / ms);
    }
  return 0;
}
