//===- CudnnGpuCheck.cpp - The cuDNN convolutions on a real GPU ------------===//
//
// The cuDNN part of the device check (CudaGpuCheck): each
// modelrt_cuda_conv2d_* entry point (three directions, f32 / TF32 / bf16)
// on a few shapes (stride 2 with padding, one input channel with
// dilation, a batch of 3) against a float64 direct convolution of the
// unrounded operands. The error of an output, divided by the sum of the
// magnitudes of its K products, is bounded by: f32 (FMA math): 2^-16, which
// allows for the transforms of the Winograd and FFT algorithms cuDNN may
// choose (a direct or GEMM algorithm stays within gamma(K) = K 2^-24 /
// (1 - K 2^-24), about 2^-19 here); TF32: 2 * 2^-10 (each operand off by at
// most one TF32 ulp of itself, whatever the rounding mode) + gamma(K); bf16:
// 2 * 2^-7 + 2^-7 (the bf16 result's rounding) + gamma(K). TF32 and bf16
// must also err more than 4 times f32's worst: the operands were rounded. With
// timing, the CNN's second convolution at batch 512 in each arithmetic.
//
//===----------------------------------------------------------------------===//
#include "modelrt/cuda/Cuda.h"
#include "modelrt/cuda/GpuAbi.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

using namespace modelrt;
using namespace modelrt::cuda;

namespace {

using ConvEntry = decltype(&modelrt_cuda_conv2d_forward);

struct ConvShape {
  int64_t n, c, h, w, o, kh, kw, stride, pad, dil;
  int64_t oh() const { return (h + 2 * pad - dil * (kh - 1) - 1) / stride + 1; }
  int64_t ow() const { return (w + 2 * pad - dil * (kw - 1) - 1) / stride + 1; }
  int64_t size(int which) const { // 0 x, 1 w, 2 y
    return which == 0 ? n * c * h * w : which == 1 ? o * c * kh * kw : n * o * oh() * ow();
  }
};

/// Operands (a, b) and result of each direction, as indices of ConvShape::size.
constexpr int kOperands[3][3] = {{0, 1, 2}, {2, 1, 0}, {0, 2, 1}};

/// The worst |out - ref| / sum |products| of direction \p d.
double worstError(const ConvShape &s, int d, const std::vector<float> &a,
                  const std::vector<float> &b, const std::vector<float> &out) {
  std::vector<double> ref(out.size()), scale(out.size());
  for (int64_t n = 0; n < s.n; ++n)
    for (int64_t o = 0; o < s.o; ++o)
      for (int64_t i = 0; i < s.oh(); ++i)
        for (int64_t j = 0; j < s.ow(); ++j)
          for (int64_t c = 0; c < s.c; ++c)
            for (int64_t p = 0; p < s.kh; ++p)
              for (int64_t q = 0; q < s.kw; ++q) {
                int64_t y = i * s.stride - s.pad + p * s.dil, x = j * s.stride - s.pad + q * s.dil;
                if (y < 0 || y >= s.h || x < 0 || x >= s.w)
                  continue;
                int64_t idx[3] = {((n * s.c + c) * s.h + y) * s.w + x,
                                  ((o * s.c + c) * s.kh + p) * s.kw + q,
                                  ((n * s.o + o) * s.oh() + i) * s.ow() + j};
                double t = double(a[size_t(idx[kOperands[d][0]])]) * b[size_t(idx[kOperands[d][1]])];
                ref[size_t(idx[kOperands[d][2]])] += t;
                scale[size_t(idx[kOperands[d][2]])] += std::fabs(t);
              }
  double worst = 0;
  for (size_t i = 0; i < out.size(); ++i)
    worst = std::max(worst, std::fabs(out[i] - ref[i]) / std::max(scale[i], 1e-30));
  return worst;
}

/// Runs \p entry (direction \p d) on random operands on the device; its
/// worst error, or 1e9 when a copy or the call failed.
double convCase(ConvEntry entry, const ConvShape &s, int d, std::mt19937 &rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> host[3];
  std::vector<DeviceBuffer> dev;
  for (int k = 0; k < 3; ++k) {
    host[k].resize(size_t(s.size(kOperands[d][k])));
    for (float &v : host[k])
      v = k < 2 ? dist(rng) : 0.0f;
    Expected<DeviceBuffer> buf = DeviceBuffer::allocate(host[k].size() * 4);
    if (!buf || !uploadFloats(*buf, host[k].data(), host[k].size()))
      return 1e9;
    dev.push_back(std::move(*buf));
  }
  entry(dev[0].floats(), dev[1].floats(), dev[2].floats(), s.n, s.c, s.h, s.w, s.o, s.kh, s.kw,
        s.oh(), s.ow(), s.stride, s.stride, s.pad, s.pad, s.dil, s.dil);
  if (!downloadFloats(host[2].data(), dev[2], host[2].size()) || modelrt_cuda_status() != 0)
    return 1e9;
  return worstError(s, d, host[0], host[1], host[2]);
}

const ConvShape kShapes[] = {
    {2, 3, 9, 8, 4, 3, 3, 2, 1, 1}, {3, 1, 8, 7, 5, 3, 3, 1, 0, 2}, {3, 16, 14, 14, 8, 3, 3, 1, 1, 1}};

struct Arithmetic {
  const char *name;
  ConvEntry entries[3];
  bool rounds;          ///< the operands are rounded (not f32)
  double roundingBound; ///< of the operands and the result, per sum |p|
};
const Arithmetic kArithmetics[] = {
    {"f32",
     {modelrt_cuda_conv2d_forward, modelrt_cuda_conv2d_backward_data,
      modelrt_cuda_conv2d_backward_weights},
     false,
     std::ldexp(1.0, -16)},
    {"tf32",
     {modelrt_cuda_conv2d_forward_tf32, modelrt_cuda_conv2d_backward_data_tf32,
      modelrt_cuda_conv2d_backward_weights_tf32},
     true,
     2 * std::ldexp(1.0, -10)},
    {"bf16",
     {modelrt_cuda_conv2d_forward_bf16, modelrt_cuda_conv2d_backward_data_bf16,
      modelrt_cuda_conv2d_backward_weights_bf16},
     true,
     3 * std::ldexp(1.0, -7)}};

/// The longest reduction of the shapes (a weight gradient's N OH OW).
int64_t longestReduction() {
  int64_t k = 0;
  for (const ConvShape &s : kShapes)
    k = std::max({k, s.c * s.kh * s.kw, s.o * s.kh * s.kw, s.n * s.oh() * s.ow()});
  return k;
}

/// The CNN's second convolution (32 -> 64 channels, 3x3, 14x14) at batch
/// 512, forward, 20 times.
void timeCudnn(const Arithmetic &a, std::vector<std::string> &lines) {
  ConvShape s{512, 32, 14, 14, 64, 3, 3, 1, 1, 1};
  std::vector<DeviceBuffer> dev;
  for (int k = 0; k < 3; ++k) {
    Expected<DeviceBuffer> buf = DeviceBuffer::allocate(size_t(s.size(k)) * 4);
    if (!buf)
      return;
    dev.push_back(std::move(*buf));
  }
  auto run = [&] {
    a.entries[0](dev[0].floats(), dev[1].floats(), dev[2].floats(), s.n, s.c, s.h, s.w, s.o,
                 s.kh, s.kw, s.oh(), s.ow(), 1, 1, 1, 1, 1, 1);
  };
  run(); // the plan, the workspace
  synchronize();
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 20; ++i)
    run();
  bool ok = synchronize().isOk();
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double flops = 20 * 2.0 * double(s.size(2)) * double(s.c * s.kh * s.kw);
  char line[160];
  std::snprintf(line, sizeof(line), "%s cuDNN conv forward %s 512x32x14x14*64x3x3: %.1f TFLOP/s",
                ok ? "INFO" : "FAIL", a.name, flops / secs / 1e12);
  lines.push_back(line);
}

} // namespace

/// Runs the cuDNN checks (and, with \p timing, the timings); prints one line
/// per check and returns the number of failures.
int checkCudnnConvolutions(bool timing) {
  int failures = 0;
  const double u = std::ldexp(1.0, -24), k = double(longestReduction());
  const double gamma = k * u / (1 - k * u);
  double f32Worst = 0;
  for (const Arithmetic &a : kArithmetics) {
    std::mt19937 rng(17);
    double worst = 0;
    for (const ConvShape &s : kShapes)
      for (int d = 0; d < 3; ++d)
        worst = std::max(worst, convCase(a.entries[d], s, d, rng));
    if (!a.rounds)
      f32Worst = worst;
    double bound = a.rounds ? a.roundingBound + gamma : a.roundingBound;
    double floor = a.rounds ? 4 * f32Worst : 0;
    bool ok = worst <= bound && worst > floor;
    std::printf("%s modelrt_cuda_conv2d_* %s: 9 cases, worst error / sum|p| %.2e (in (%.2g, "
                "%.2g])%s\n",
                ok ? "PASS" : "FAIL", a.name, worst, floor, bound,
                ok ? "" : (std::string(": ") + modelrt_cuda_error_message()).c_str());
    failures += ok ? 0 : 1;
  }
  if (timing) {
    std::vector<std::string> lines;
    for (const Arithmetic &a : kArithmetics)
      timeCudnn(a, lines);
    for (const std::string &line : lines) {
      std::printf("%s\n", line.c_str());
      failures += line.rfind("FAIL", 0) == 0 ? 1 : 0;
    }
  }
  return failures;
}
