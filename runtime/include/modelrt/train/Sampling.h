//===- Sampling.h - Drawing the next token from a model's logits ----------===//
//
// Declares how `generate` (runtime/lib/cli/GenerateCommand.cpp) picks each
// new token from the logits of the last position: with temperature 0 the
// most likely token (the first one on ties); otherwise a draw from
// softmax(logits / temperature) restricted to the top_k most likely tokens
// (all when top_k is 0; ties at the k-th logit all kept), computed in
// double with the largest logit subtracted. The draw takes one
// uniformDouble() of the run's Rng, so a seed gives the same draws from the
// same logits (the same text on one machine at every thread count).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_TRAIN_SAMPLING_H
#define MODELRT_TRAIN_SAMPLING_H

#include "modelrt/core/Rng.h"

#include <cstdint>

namespace modelrt {

/// How the next token is chosen.
struct SamplingOptions {
  double temperature = 1.0; ///< >= 0; 0 picks the most likely token
  int64_t topK = 0;         ///< keep the k most likely; 0 keeps all
};

/// The token drawn from \p logits (\p count of them, count > 0) as above.
int64_t sampleToken(const float *logits, int64_t count,
                    const SamplingOptions &options, Rng &rng);

} // namespace modelrt

#endif // MODELRT_TRAIN_SAMPLING_H
