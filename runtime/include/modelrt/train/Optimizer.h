//===- Optimizer.h - SGD, Adam, AdamW, RMSprop over flat float buffers -----===//
//
// Implements `Optimizer`: one general per-element update (tinygrad style)
// of which SGD (momentum, dampening, Nesterov, weight decay), Adam, AdamW
// and RMSprop are thin variants chosen by coefficients, with PyTorch's
// semantics. Also global-norm gradient clipping and gradient accumulation.
// Parameters are a list of flat f32 buffers; state is one or two buffers
// of the same sizes per parameter (first and second moments).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_TRAIN_OPTIMIZER_H
#define MODELRT_TRAIN_OPTIMIZER_H

#include "modelrt/core/Status.h"

#include <cstdint>
#include <vector>

namespace modelrt {

/// Optimizer kinds; values are those of the C ABI (Program.h).
enum class OptimizerKind : int32_t { SGD = 0, Adam = 1, AdamW = 2, RMSprop = 3 };

/// Hyperparameters; unused fields are ignored by a kind.
struct OptimizerConfig {
  OptimizerKind kind = OptimizerKind::SGD;
  double lr = 0.01;
  double momentum = 0;     ///< SGD, RMSprop
  double dampening = 0;    ///< SGD
  bool nesterov = false;   ///< SGD
  double beta1 = 0.9;      ///< Adam(W)
  double beta2 = 0.999;    ///< Adam(W)
  double eps = 1e-8;       ///< Adam(W), RMSprop
  double alpha = 0.99;     ///< RMSprop smoothing
  double weightDecay = 0;  ///< L2 (coupled) except AdamW (decoupled)
};

/// Checks the hyperparameters (positive lr, betas in [0,1), ...).
Status validateOptimizerConfig(const OptimizerConfig &config);

/// An optimizer over parameters of the given element counts.
class Optimizer {
public:
  Optimizer(OptimizerConfig config, std::vector<int64_t> sizes);

  /// Applies one update with learning rate \p lr to every parameter.
  void step(float *const *params, const float *const *grads, double lr);

  const OptimizerConfig &config() const { return cfg; }
  const std::vector<int64_t> &sizes() const { return paramSizes; }
  /// Updates done so far.
  int64_t stepCount() const { return steps; }
  /// State buffers: first moment (momentum) and second moment per parameter;
  /// a vector is empty when the kind does not use it.
  std::vector<std::vector<float>> &firstMoments() { return m; }
  std::vector<std::vector<float>> &secondMoments() { return v; }
  /// Restores the step count (with the moments, from a checkpoint).
  void setStepCount(int64_t n) { steps = n; }
  /// Lets step() split large updates over two threads (runInTwoParts; on by
  /// default). The results are the same either way.
  void setParallelUpdates(bool on) { parallelUpdates = on; }

private:
  OptimizerConfig cfg;
  std::vector<int64_t> paramSizes;
  std::vector<std::vector<float>> m, v;
  int64_t steps = 0;
  bool parallelUpdates = true;
};

/// The L2 norm of all gradients together.
double globalGradNorm(const float *const *grads, const std::vector<int64_t> &sizes);
/// Scales all gradients by maxNorm / (norm + 1e-6) when their global norm
/// exceeds \p maxNorm (PyTorch's clip_grad_norm_); returns the norm before.
double clipGradNorm(float *const *grads, const std::vector<int64_t> &sizes, double maxNorm);

/// Sums gradients over k micro-batches and yields their mean.
class GradAccumulator {
public:
  GradAccumulator(std::vector<int64_t> sizes, int64_t k);
  /// Adds one micro-batch's gradients; true when k have been added. With
  /// k == 1 nothing is copied: mean() returns \p grads themselves, which
  /// must stay valid (and may be scaled in place by clipping) until reset().
  bool add(const float *const *grads);
  /// Mean gradient buffers (valid after add() returned true).
  float *const *mean();
  /// Clears the sums for the next k micro-batches.
  void reset();
  int64_t pending() const { return count; }

private:
  std::vector<std::vector<float>> sums;
  std::vector<float *> ptrs;
  int64_t k, count = 0;
};

} // namespace modelrt

#endif // MODELRT_TRAIN_OPTIMIZER_H
