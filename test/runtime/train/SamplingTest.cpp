//===- SamplingTest.cpp - Drawing tokens from logits ---------------------===//
//
// sampleToken (runtime/include/modelrt/train/Sampling.h): temperature 0
// takes the first most likely token, top-k 1 the most likely ones (ties
// kept); draws follow softmax(logits / T)
// (frequencies over many seeded draws against the probabilities worked out
// here); top-k never draws outside the k most likely; the same seed gives
// the same draws.
//
//===----------------------------------------------------------------------===//
#include "modelrt/train/Sampling.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace modelrt;

namespace {

const std::vector<float> kLogits = {0.5f, 2.0f, -1.0f, 1.0f, 2.0f, 0.0f};

/// Frequencies of each token over `n` draws.
std::vector<double> frequencies(const SamplingOptions &o, int n, uint64_t seed) {
  Rng rng(seed);
  std::vector<double> f(kLogits.size(), 0.0);
  for (int i = 0; i < n; ++i)
    f[sampleToken(kLogits.data(), kLogits.size(), o, rng)] += 1.0 / n;
  return f;
}

TEST(Sampling, GreedyTakesTheFirstMostLikely) {
  Rng rng(1);
  EXPECT_EQ(sampleToken(kLogits.data(), kLogits.size(), {0.0, 0}, rng), 1);
  // Top-1 keeps the two tied most likely tokens and nothing else.
  std::vector<double> f = frequencies({1.0, 1}, 20000, 2);
  EXPECT_NEAR(f[1], 0.5, 0.02);
  EXPECT_NEAR(f[4], 0.5, 0.02);
}

TEST(Sampling, DrawsFollowTheTemperedSoftmax) {
  for (double t : {1.0, 0.5, 2.0}) {
    std::vector<double> p(kLogits.size());
    double z = 0;
    for (size_t i = 0; i < p.size(); ++i)
      z += p[i] = std::exp(kLogits[i] / t);
    std::vector<double> f = frequencies({t, 0}, 200000, 3);
    for (size_t i = 0; i < p.size(); ++i)
      EXPECT_NEAR(f[i], p[i] / z, 0.005) << "temperature " << t << " token " << i;
  }
}

TEST(Sampling, TopKKeepsTheKMostLikely) {
  std::vector<double> f = frequencies({1.0, 3}, 50000, 4);
  double z = std::exp(2.0) * 2 + std::exp(1.0);
  EXPECT_EQ(f[0] + f[2] + f[5], 0.0);
  EXPECT_NEAR(f[1], std::exp(2.0) / z, 0.01);
  EXPECT_NEAR(f[3], std::exp(1.0) / z, 0.01);
}

TEST(Sampling, TheSameSeedGivesTheSameDraws) {
  EXPECT_EQ(frequencies({0.8, 0}, 1000, 9), frequencies({0.8, 0}, 1000, 9));
  EXPECT_NE(frequencies({0.8, 0}, 1000, 9), frequencies({0.8, 0}, 1000, 10));
}

} // namespace
