//===- decode_check.cpp - A program's decoding step against its predict ---===//
//
// Linked with an object from `modelc --emit=obj --no-main` and the runtime:
// initialises the exported `modelc_program`'s parameters and state (seed 7),
// draws SEQUENCES sequences of f32 inputs from a fixed LCG, runs predict on
// all of them at once, then decodes each with a modelrt::Decoder, position
// 0, 1, ..., and checks each position's output against predict's there:
// |decode - predict| <= 2e-5 (1 + |predict|) (the same kernels, but
// attention sums its keys in another order). Stepping a position again
// after the whole sequence must rewind to it and give the same bits as the
// first time. Prints the largest deviation and "decode OK", or, for a
// program without a decoding step, "no decoding step".
// With --time N it also times, over N repetitions on one sequence, predict
// on the whole window (what generating one position costs without the
// step) and one decoding step (averaged over the positions).
// Usage: decode_check [SEQUENCES] [--time N].
//
//===----------------------------------------------------------------------===//

#include "modelrt/core/Model.h"
#include "modelrt/train/Decoder.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" const ModelrtProgram modelc_program;

namespace {
uint64_t state = 42;
/// Uniform in [-1, 1) from a 64-bit LCG (Knuth's MMIX constants).
float next() {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return float(double(state >> 11) / double(1ull << 53) * 2 - 1);
}

int64_t count(const int64_t *shape, int32_t rank) {
  int64_t n = 1;
  for (int32_t i = 0; i < rank; ++i)
    n *= shape[i];
  return n;
}

double seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

/// Decodes sequence `x` (length() positions) into `out`; false on error.
bool decodeAll(modelrt::Decoder &d, const float *x, float *out) {
  d.reset();
  for (int64_t pos = 0; pos < d.length(); ++pos) {
    modelrt::Expected<const float *> y = d.step(x + pos * d.inputSize(), pos);
    if (!y)
      return std::fprintf(stderr, "error: %s\n", y.message().c_str()), false;
    std::memcpy(out + pos * d.outputSize(), *y, size_t(d.outputSize()) * sizeof(float));
  }
  return true;
}

/// Decodes each of the `sequences` sequences of `x` and returns the largest
/// |decode - predict| / (1 + |predict|) against `want`, or -1 on an error;
/// `got` holds the last sequence's outputs.
double compareWithPredict(modelrt::Decoder &d, const std::vector<float> &x,
                          const std::vector<float> &want, int64_t sequences,
                          std::vector<float> &got) {
  int64_t in = int64_t(x.size()) / sequences, out = int64_t(got.size());
  double worst = 0;
  for (int64_t s = 0; s < sequences; ++s) {
    if (!decodeAll(d, x.data() + s * in, got.data()))
      return -1;
    for (int64_t i = 0; i < out; ++i) {
      double w = want[size_t(s * out + i)];
      worst = std::max(worst, std::fabs(got[size_t(i)] - w) / (1 + std::fabs(w)));
    }
  }
  return worst;
}

/// Times predict over the window and the decoding step, `reps` times each.
void timeSteps(const ModelrtProgram &p, modelrt::ModelState &m, modelrt::Decoder &d,
               const std::vector<float> &x, int reps) {
  std::vector<float> out(size_t(count(p.output_shape, p.output_rank)));
  double t0 = seconds();
  for (int r = 0; r < reps; ++r)
    p.predict(p.context, m.paramPtrs.data(), m.statePtrs.data(), x.data(), 1, out.data());
  double window = (seconds() - t0) / reps;
  t0 = seconds();
  for (int r = 0; r < reps; ++r)
    decodeAll(d, x.data(), out.data());
  double step = (seconds() - t0) / reps / double(d.length());
  std::printf("predict over the window (%lld positions): %.1f us = %.0f new positions/s\n",
              (long long)d.length(), window * 1e6, 1 / window);
  std::printf("decoding step (mean over the positions): %.1f us = %.0f new positions/s\n",
              step * 1e6, 1 / step);
}
} // namespace

int main(int argc, char **argv) {
  const ModelrtProgram &p = modelc_program;
  int64_t sequences = argc > 1 && argv[1][0] != '-' ? std::atoll(argv[1]) : 3;
  int reps = 0;
  for (int i = 1; i + 1 < argc; ++i)
    if (!std::strcmp(argv[i], "--time"))
      reps = std::atoi(argv[i + 1]);
  if (!p.decode_step)
    return std::printf("%s: no decoding step\n", p.name), 0;
  modelrt::ModelState model = modelrt::initModelState(p, 7);
  modelrt::Expected<modelrt::Decoder> made = modelrt::Decoder::create(p, model);
  if (!made)
    return std::fprintf(stderr, "error: %s\n", made.message().c_str()), 1;
  modelrt::Decoder d = made.take();
  std::printf("%s: %lld positions, %d caches\n", p.name, (long long)d.length(), p.num_caches);
  int64_t in = count(p.input_shape, p.input_rank), outSize = count(p.output_shape, p.output_rank);
  std::vector<float> x(size_t(sequences * in)), want(size_t(sequences * outSize));
  for (float &v : x)
    v = next();
  if (p.predict(p.context, model.paramPtrs.data(), model.statePtrs.data(), x.data(), sequences,
                want.data()))
    return std::fprintf(stderr, "error: predict failed\n"), 1;
  std::vector<float> got(static_cast<size_t>(outSize));
  double worst = compareWithPredict(d, x, want, sequences, got);
  if (worst < 0)
    return 1;
  std::printf("max |decode - predict| / (1 + |predict|) over %lld sequences: %.2g\n",
              (long long)sequences, worst);
  // Rewind the last sequence to its middle position: the same bits again.
  int64_t mid = d.length() / 2;
  const float *again = *d.step(x.data() + (sequences - 1) * in + mid * d.inputSize(), mid);
  bool same = !std::memcmp(again, got.data() + mid * d.outputSize(),
                           size_t(d.outputSize()) * sizeof(float));
  std::printf("rewound to position %lld: %s\n", (long long)mid,
              same ? "the same bits" : "DIFFERENT");
  if (reps > 0)
    timeSteps(p, model, d, std::vector<float>(x.begin(), x.begin() + in), reps);
  bool ok = worst <= 2e-5 && same;
  std::printf("%s\n", ok ? "decode OK" : "MISMATCH");
  return ok ? 0 : 1;
}
