//===- runtime_conv.cpp - Times the runtime's three convolution functions -===//
//
// Times modelrt_conv2d_forward, _backward_data and _backward_weights
// (runtime/include/modelrt/core/Conv.h) on the Fashion-MNIST CNN's
// convolutions (3x3, padding 1: conv1 1->32 at 28x28, conv2 32->64 at
// 14x14), at batch 64 and 1, through oneDNN's primitives and through
// im2col + sgemm on OpenBLAS: the median of 50 calls after 5 warm-ups, in
// ms and GFLOP/s (2*N*O*OH*OW*C*KH*KW per call). A measurement, not a test.
//
// Build (from the repository root, after `ninja -C build-rt modelrt`):
//   g++ -O2 -std=c++17 -I runtime/include bench/conv/runtime_conv.cpp \
//       build-rt/lib/libmodelrt.a -lgomp -ldl -lz -lpthread -o /tmp/runtime_conv
//   /tmp/runtime_conv
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Blas.h"
#include "modelrt/core/Conv.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

/// One convolution: N x C x H x W input, O filters of 3x3, padding 1.
struct Shape {
  const char *name;
  int64_t n, c, h, w, o;
};

/// Which of the three functions.
enum Kind { Forward, BackwardData, BackwardWeights };

/// Calls \p kind once on \p s with the buffers \p x, \p wt, \p y.
void call(Kind kind, const Shape &s, std::vector<float> &x, std::vector<float> &wt,
          std::vector<float> &y) {
  int64_t k = 3, pad = 1, oh = s.h, ow = s.w;
  switch (kind) {
  case Forward:
    modelrt_conv2d_forward(x.data(), wt.data(), y.data(), s.n, s.c, s.h, s.w, s.o, k, k, oh, ow,
                           1, 1, pad, pad, 1, 1);
    break;
  case BackwardData:
    modelrt_conv2d_backward_data(y.data(), wt.data(), x.data(), s.n, s.c, s.h, s.w, s.o, k, k,
                                 oh, ow, 1, 1, pad, pad, 1, 1);
    break;
  case BackwardWeights:
    modelrt_conv2d_backward_weights(x.data(), y.data(), wt.data(), s.n, s.c, s.h, s.w, s.o, k,
                                    k, oh, ow, 1, 1, pad, pad, 1, 1);
    break;
  }
}

/// The median time in ms of 50 calls of \p kind on \p s after 5 warm-ups.
double medianMs(Kind kind, const Shape &s) {
  std::vector<float> x(size_t(s.n * s.c * s.h * s.w)), wt(size_t(s.o * s.c * 9)),
      y(size_t(s.n * s.o * s.h * s.w));
  for (std::vector<float> *v : {&x, &wt, &y})
    for (size_t i = 0; i < v->size(); ++i)
      (*v)[i] = std::sin(0.37f * float(i)) * 0.5f;
  for (int i = 0; i < 5; ++i)
    call(kind, s, x, wt, y);
  std::vector<double> ms;
  for (int i = 0; i < 50; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    call(kind, s, x, wt, y);
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::nth_element(ms.begin(), ms.begin() + 25, ms.end());
  return ms[25];
}

} // namespace

int main() {
  const Shape shapes[] = {{"conv1 1->32 28x28", 64, 1, 28, 28, 32},
                          {"conv2 32->64 14x14", 64, 32, 14, 14, 64},
                          {"conv1 1->32 28x28", 1, 1, 28, 28, 32},
                          {"conv2 32->64 14x14", 1, 32, 14, 14, 64}};
  const char *kinds[] = {"forward", "backward data", "backward weights"};
  for (modelrt::BlasLibrary lib : {modelrt::BlasLibrary::OneDnn, modelrt::BlasLibrary::OpenBlas}) {
    if (modelrt::Status st = modelrt::useBlasLibrary(lib); !st.isOk()) {
      std::fprintf(stderr, "runtime_conv: %s\n", st.message().c_str());
      return 1;
    }
    std::vector<double> results;
    for (const Shape &s : shapes)
      for (int kind = 0; kind < 3; ++kind)
        results.push_back(medianMs(Kind(kind), s));
    std::printf("%s\n", modelrt::convolutionKernels().c_str());
    std::printf("  %-20s %4s  %-17s %10s %9s\n", "shape", "N", "function", "ms", "GFLOP/s");
    size_t at = 0;
    for (const Shape &s : shapes)
      for (int kind = 0; kind < 3; ++kind) {
        double flops = 2.0 * s.n * s.o * s.h * s.w * s.c * 9, ms = results[at++];
        std::printf("  %-20s %4lld  %-17s %10.3f %9.2f\n", s.name, (long long)s.n, kinds[kind],
                    ms, flops / (ms * 1e-3) * 1e-9);
      }
  }
  return 0;
}
