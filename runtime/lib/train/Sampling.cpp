//===- Sampling.cpp - Drawing the next token from a model's logits --------===//
//
// Implements sampleToken (Sampling.h): greedy at temperature 0, else a draw
// from the tempered softmax over the top-k logits.
//
//===----------------------------------------------------------------------===//
#include "modelrt/train/Sampling.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace modelrt {

/// The k-th largest of \p logits (the smallest one kept by top-k); the
/// lowest float when every logit is kept.
static float topKThreshold(const float *logits, int64_t count, int64_t k) {
  if (k <= 0 || k >= count)
    return -INFINITY;
  std::vector<float> sorted(logits, logits + count);
  std::nth_element(sorted.begin(), sorted.begin() + (k - 1), sorted.end(),
                   [](float a, float b) { return a > b; });
  return sorted[k - 1];
}

int64_t sampleToken(const float *logits, int64_t count,
                    const SamplingOptions &options, Rng &rng) {
  int64_t best = std::max_element(logits, logits + count) - logits;
  if (options.temperature <= 0)
    return best;
  float threshold = topKThreshold(logits, count, options.topK);
  std::vector<double> weight(count, 0.0);
  double total = 0;
  for (int64_t i = 0; i < count; ++i)
    if (logits[i] >= threshold) {
      weight[i] =
          std::exp((double(logits[i]) - logits[best]) / options.temperature);
      total += weight[i];
    }
  double u = rng.uniformDouble() * total;
  for (int64_t i = 0; i < count; ++i) {
    if (weight[i] > 0 && u < weight[i])
      return i;
    u -= weight[i];
  }
  return best; // rounding left u at the end: the most likely token
}

} // namespace modelrt
