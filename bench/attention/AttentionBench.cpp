//===- AttentionBench.cpp - Times the runtime's attention functions -------===//
//
// Times modelrt_attention_forward and modelrt_attention_backward
// (runtime/include/modelrt/core/Attention.h) on batch 16, heads 4, widths
// 32 and 64, contexts (queries = keys) 128 and 512, causal and not: the
// median of --reps calls of each after 3 warm-ups, in ms and GFLOP/s.
// FLOPs (a multiply-add counts 2): 4 B H Tq Tk W forwards (the two
// products), 10 B H Tq Tk W backwards (five products), both halved with the
// causal mask; the softmax and the recomputation of the backward's
// log-sum-exp are not counted. Prints the CPU line of the runtime (its
// level and features) and then one JSON object per shape, for
// bench/attention/run.py. A measurement, not a test.
//
//   bench-attention [--reps N] [--widths 32,64] [--contexts 128,512] [--causal 0|1]
//   MODELRT_THREADS=1 / MODELRT_CPU_ISA=avx2|baseline to compare.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Attention.h"
#include "modelrt/core/CpuFeatures.h"
#include "modelrt/core/Parallel.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

/// One benchmarked call.
struct Shape {
  int64_t batch, heads, context, width;
  bool causal;
  size_t size() const { return size_t(batch * heads * context * width); }
  /// FLOPs of the forward's two products (halved when causal).
  double forwardFlops() const {
    return 4.0 * double(batch * heads) * double(context * context) * double(width) /
           (causal ? 2 : 1);
  }
};

/// Values in [-1, 1) from a fixed stream.
std::vector<float> values(size_t n, uint32_t seed) {
  std::vector<float> out(n);
  uint32_t x = seed * 2654435761u + 1;
  for (float &f : out) {
    x = x * 1664525u + 1013904223u;
    f = float(x >> 8) / float(1 << 24) * 2.0f - 1.0f;
  }
  return out;
}

/// The median of \p reps timings of \p call in ms, after 3 warm-ups.
double medianMs(int reps, const std::function<void()> &call) {
  for (int i = 0; i < 3; ++i)
    call();
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    call();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                     .count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

/// Times one shape and prints its JSON line.
void timeShape(const Shape &s, int reps) {
  std::vector<float> q = values(s.size(), 1), k = values(s.size(), 2), v = values(s.size(), 3),
                     dout = values(s.size(), 4), out(s.size()), dqkv(3 * s.size());
  int64_t b = s.batch, h = s.heads, t = s.context, w = s.width;
  double fwd = medianMs(reps, [&] {
    modelrt_attention_forward(q.data(), k.data(), v.data(), out.data(), b, h, t, t, w, s.causal);
  });
  double bwd = medianMs(reps, [&] {
    modelrt_attention_backward(q.data(), k.data(), v.data(), out.data(), dout.data(),
                               dqkv.data(), b, h, t, t, w, s.causal);
  });
  double ff = s.forwardFlops(), bf = 2.5 * ff;
  std::printf("{\"batch\": %lld, \"heads\": %lld, \"context\": %lld, \"width\": %lld, "
              "\"causal\": %s, \"forward_ms\": %.4f, \"backward_ms\": %.4f, "
              "\"forward_gflops\": %.2f, \"backward_gflops\": %.2f, \"total_gflops\": %.2f}\n",
              (long long)b, (long long)h, (long long)t, (long long)w, s.causal ? "true" : "false",
              fwd, bwd, ff / fwd * 1e-6, bf / bwd * 1e-6, (ff + bf) / (fwd + bwd) * 1e-6);
  std::fflush(stdout);
}

/// "32,64" as numbers.
std::vector<int64_t> numbers(const char *list) {
  std::vector<int64_t> out;
  for (const char *p = list; *p;) {
    out.push_back(std::atoll(p));
    p = std::strchr(p, ',');
    p = p ? p + 1 : "";
  }
  return out;
}

} // namespace

int main(int argc, char **argv) {
  int reps = 20;
  std::vector<int64_t> widths = {32, 64}, contexts = {128, 512}, masks = {1, 0};
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--reps"))
      reps = std::max(1, std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--widths"))
      widths = numbers(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--contexts"))
      contexts = numbers(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--causal"))
      masks = numbers(argv[i + 1]);
    else {
      std::fprintf(stderr, "bench-attention: unknown option '%s'\n", argv[i]);
      return 2;
    }
  }
  using namespace modelrt;
  std::printf("{\"cpu\": \"%s\", \"threads\": %d}\n",
              describeCpu(hostCpuFeatures(), hostKernels()).c_str(),
              twoPartsInParallel() ? 2 : 1);
  for (int64_t t : contexts)
    for (int64_t w : widths)
      for (int64_t causal : masks)
        timeShape({16, 4, t, w, causal != 0}, reps);
  return 0;
}
