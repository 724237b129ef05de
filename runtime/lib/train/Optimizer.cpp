//===- Optimizer.cpp - SGD, Adam, AdamW, RMSprop over flat float buffers ---===//
//
// The per-element math lives in OptimizerMath.h (shared with the CUDA
// kernels); this file picks the variant and its coefficients, runs the CPU
// loops, and implements clipping and accumulation. The general step, per
// element, with g the gradient:
//   g  += coupledWd * p                 (L2 weight decay)
//   p  *= 1 - lr * decoupledWd          (AdamW)
//   if second moment: v = b2*v + (1-b2)*g^2
//   if normaliseFirst (RMSprop): g = g / (sqrt(v) + eps)
//   if first moment:  m = b1*m + d1*g;  d = nesterov ? g + b1*m : m
//   else d = g
//   if Adam: d = (d / bc1) / (sqrt(v / bc2) + eps)
//   p  -= lr * d
//
//===----------------------------------------------------------------------===//
#include "modelrt/train/Optimizer.h"
#include "OptimizerLoops.h"
#include "modelrt/core/Parallel.h"
#include "modelrt/train/OptimizerMath.h"

#include <algorithm>
#include <cmath>

namespace modelrt {

Status validateOptimizerConfig(const OptimizerConfig &c) {
  if (!(c.lr >= 0) || !std::isfinite(c.lr))
    return errorf("optimizer: learning rate must be >= 0, got %g", c.lr);
  if (c.momentum < 0 || c.dampening < 0 || c.weightDecay < 0)
    return errorf("optimizer: momentum, dampening and weight decay must be >= 0");
  if (c.nesterov && (c.momentum <= 0 || c.dampening != 0))
    return errorf("optimizer: Nesterov momentum needs momentum > 0 and zero dampening");
  if (!(c.beta1 >= 0 && c.beta1 < 1) || !(c.beta2 >= 0 && c.beta2 < 1))
    return errorf("optimizer: betas must be in [0, 1), got %g, %g", c.beta1, c.beta2);
  if (!(c.eps > 0) || !(c.alpha >= 0 && c.alpha < 1))
    return errorf("optimizer: eps must be > 0 and alpha in [0, 1)");
  return Status::ok();
}

Optimizer::Optimizer(OptimizerConfig config, std::vector<int64_t> sizes)
    : cfg(config), paramSizes(std::move(sizes)), m(paramSizes.size()), v(paramSizes.size()) {
  bool first = cfg.kind != OptimizerKind::SGD && cfg.kind != OptimizerKind::RMSprop
                   ? true
                   : cfg.momentum > 0;
  bool second = cfg.kind != OptimizerKind::SGD;
  for (size_t i = 0; i < paramSizes.size(); ++i) {
    if (first)
      m[i].assign(paramSizes[i], 0.0f);
    if (second)
      v[i].assign(paramSizes[i], 0.0f);
  }
}

StepVariant stepVariantFor(const OptimizerConfig &c) {
  if (c.kind == OptimizerKind::Adam || c.kind == OptimizerKind::AdamW)
    return StepVariant::Adam;
  if (c.kind == OptimizerKind::RMSprop)
    return c.momentum > 0 ? StepVariant::RmspropMomentum : StepVariant::Rmsprop;
  if (!(c.momentum > 0))
    return StepVariant::Sgd;
  return c.nesterov ? StepVariant::SgdNesterov : StepVariant::SgdMomentum;
}

StepCoeffs stepCoeffsFor(const OptimizerConfig &cfg, int64_t step, double lr) {
  StepCoeffs c{};
  c.lr = static_cast<float>(lr);
  c.eps = static_cast<float>(cfg.eps);
  bool isAdamW = cfg.kind == OptimizerKind::AdamW;
  c.coupledWd = isAdamW ? 0.0f : static_cast<float>(cfg.weightDecay);
  c.decay = 1.0f - c.lr * (isAdamW ? static_cast<float>(cfg.weightDecay) : 0.0f);
  c.bc1 = 1.0f;
  c.sqrtBc2 = 1.0f;
  if (cfg.kind == OptimizerKind::Adam || isAdamW) {
    c.b1 = static_cast<float>(cfg.beta1);
    c.d1 = 1.0f - c.b1;
    c.b2 = static_cast<float>(cfg.beta2);
    c.bc1 = static_cast<float>(1.0 - std::pow(cfg.beta1, double(step)));
    c.sqrtBc2 = std::sqrt(static_cast<float>(1.0 - std::pow(cfg.beta2, double(step))));
    return c;
  }
  c.b1 = static_cast<float>(cfg.momentum);
  // PyTorch SGD starts the momentum buffer at g (no dampening on step 1).
  bool sgdFirst = cfg.kind == OptimizerKind::SGD && step == 1;
  c.d1 = sgdFirst || cfg.kind == OptimizerKind::RMSprop ? 1.0f
                                                        : static_cast<float>(1.0 - cfg.dampening);
  c.b2 = static_cast<float>(cfg.alpha);
  return c;
}


void Optimizer::step(float *const *params, const float *const *grads, double lr) {
  ++steps;
  StepCoeffs c = stepCoeffsFor(cfg, steps, lr);
  StepVariant variant = stepVariantFor(cfg);
  StepLoopFn loop = bestStepLoop();
  int64_t total = 0;
  for (int64_t n : paramSizes)
    total += n;
  // Part k of 2 updates the k-th half of every tensor (split at a multiple
  // of 16 floats, one cache line): the update is elementwise, so the result
  // does not depend on the split.
  auto part = [&](int k, int parts) {
    for (size_t i = 0; i < paramSizes.size(); ++i) {
      int64_t n = paramSizes[i], half = (n / parts + 15) / 16 * 16;
      int64_t begin = std::min(n, k * half), end = k + 1 == parts ? n : std::min(n, begin + half);
      if (begin >= end)
        continue;
      float *mi = m[i].empty() ? nullptr : m[i].data() + begin;
      float *vi = v[i].empty() ? nullptr : v[i].data() + begin;
      loop(variant, c, end - begin, params[i] + begin, grads[i] + begin, mi, vi);
    }
  };
  // From 64k parameters on, the update is split over two threads of the
  // OpenMP team that also runs the products (Parallel.h): its worker is
  // already awake after the backward pass's last product, and the update
  // streams from L3 faster on two cores than on one.
  if (parallelUpdates && total >= (int64_t(1) << 16))
    runInTwoParts([&](int k) { part(k, 2); });
  else
    part(0, 1);
}

double globalGradNorm(const float *const *grads, const std::vector<int64_t> &sizes) {
  double sum = 0;
  for (size_t i = 0; i < sizes.size(); ++i)
    for (int64_t j = 0; j < sizes[i]; ++j)
      sum += double(grads[i][j]) * grads[i][j];
  return std::sqrt(sum);
}

double clipGradNorm(float *const *grads, const std::vector<int64_t> &sizes, double maxNorm) {
  double norm = globalGradNorm(grads, sizes);
  if (norm > maxNorm) {
    float scale = static_cast<float>(maxNorm / (norm + 1e-6));
    for (size_t i = 0; i < sizes.size(); ++i)
      for (int64_t j = 0; j < sizes[i]; ++j)
        grads[i][j] *= scale;
  }
  return norm;
}

GradAccumulator::GradAccumulator(std::vector<int64_t> sizes, int64_t k) : k(k < 1 ? 1 : k) {
  ptrs.assign(sizes.size(), nullptr);
  if (this->k == 1)
    return; // no sums: mean() hands back the buffers given to add()
  for (int64_t s : sizes)
    sums.emplace_back(s, 0.0f);
  for (size_t i = 0; i < sums.size(); ++i)
    ptrs[i] = sums[i].data();
}

bool GradAccumulator::add(const float *const *grads) {
  if (k == 1) {
    // The caller's gradient buffers are its own, rewritten every step: the
    // optimizer (and clipping, in place) reads them directly instead of a
    // copy (saves a copy and a clear of every gradient per step).
    for (size_t i = 0; i < ptrs.size(); ++i)
      ptrs[i] = const_cast<float *>(grads[i]);
    return ++count >= k;
  }
  for (size_t i = 0; i < sums.size(); ++i)
    for (size_t j = 0; j < sums[i].size(); ++j)
      sums[i][j] += grads[i][j];
  return ++count >= k;
}

float *const *GradAccumulator::mean() {
  float inv = 1.0f / static_cast<float>(count);
  if (count > 1)
    for (auto &s : sums)
      for (float &x : s)
        x *= inv;
  count = 1; // now holds the mean of one "batch"
  return ptrs.data();
}

void GradAccumulator::reset() {
  for (auto &s : sums) // empty when k == 1
    std::fill(s.begin(), s.end(), 0.0f);
  count = 0;
}

} // namespace modelrt
