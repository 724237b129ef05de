//===- gemm_bf16.cpp - Times the runtime's f32 and bf16 products -----------===//
//
// Times cblas_sgemm (f32, oneDNN's sgemm), modelrt_gemm_bf16 (the host's
// bf16 path: AMX or AVX512-BF16 oneDNN matmul; MODELRT_BF16 narrows it) and
// the emulation (emulatedGemmBf16: operands rounded, then f32 sgemm) on
// square products and the Fashion-MNIST MLP's and CNN's training shapes:
// the median of REPS calls after 3 warm-ups, in GFLOP/s (2 M N K per
// call). Prints the bf16 path and oneDNN's implementations. A measurement,
// not a test; bench/bf16/torch_gemm.py times PyTorch on the same shapes.
//
// Build (from the repository root, after `ninja -C build`):
//   g++ -O2 -std=c++17 -I runtime/include -I support/include bench/bf16/gemm_bf16.cpp \
//       build/lib/libmodelrt.a -lgomp -ldl -lz -lpthread -o /tmp/gemm_bf16
//   /tmp/gemm_bf16 [REPS]
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Bf16.h"
#include "modelrt/core/Blas.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

struct Shape {
  const char *name;
  int m, n, k;
};

/// The median seconds of \p reps calls of \p f after 3 warm-ups.
double medianSeconds(int reps, const std::function<void()> &f) {
  for (int i = 0; i < 3; ++i)
    f();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    auto start = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  using namespace modelrt;
  int reps = argc > 1 ? std::atoi(argv[1]) : 20;
  const Shape shapes[] = {{"square 2048", 2048, 2048, 2048},
                          {"square 512", 512, 512, 512},
                          {"MLP fc1 fwd 128x256x784", 128, 256, 784},
                          {"MLP fc1 dW 784x256x128", 784, 256, 128},
                          {"CNN conv2 as GEMM 64x12544x288", 64, 12544, 288},
                          {"CNN fc1 fwd 64x128x3136", 64, 128, 3136}};
  std::printf("%-32s %10s %10s %10s %8s\n", "shape (MxNxK)", "f32", "bf16", "emulated",
              "bf16/f32");
  for (const Shape &s : shapes) {
    std::vector<float> a(size_t(s.m) * s.k, 0.5f), b(size_t(s.k) * s.n, 0.25f),
        c(size_t(s.m) * s.n);
    for (size_t i = 0; i < a.size(); ++i)
      a[i] = float(i % 97) / 97.0f - 0.5f;
    double flop = 2.0 * s.m * s.n * s.k;
    double f32 = medianSeconds(reps, [&] {
      cblas_sgemm(101, 111, 111, s.m, s.n, s.k, 1.0f, a.data(), s.k, b.data(), s.n, 0.0f,
                  c.data(), s.n);
    });
    double bf16 = medianSeconds(reps, [&] {
      modelrt_gemm_bf16(101, 111, 111, s.m, s.n, s.k, 1.0f, a.data(), s.k, b.data(), s.n, 0.0f,
                        c.data(), s.n);
    });
    double emulated = medianSeconds(std::max(3, reps / 4), [&] {
      emulatedGemmBf16(false, false, s.m, s.n, s.k, 1.0f, a.data(), s.k, b.data(), s.n, 0.0f,
                       c.data(), s.n);
    });
    std::printf("%-32s %10.1f %10.1f %10.1f %7.2fx\n", s.name, flop / f32 / 1e9,
                flop / bf16 / 1e9, flop / emulated / 1e9, f32 / bf16);
  }
  std::printf("(GFLOP/s) f32: %s; %s\n", blasKernels().c_str(), bf16Kernels().c_str());
  return 0;
}
