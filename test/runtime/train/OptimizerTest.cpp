//===- OptimizerTest.cpp - Optimizers, clipping, accumulation --------------===//
//
// Reference values come from PyTorch 1.13 (ref/optimizer_ref.py, whose output
// is pasted below): 5 steps on the quadratic with gradient g = 2*p*c + b.
//
//===----------------------------------------------------------------------===//
#include "modelrt/train/Optimizer.h"
#include "train/OptimizerLoops.h" // runtime/lib: the per-ISA builds

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>

using namespace modelrt;

static const std::map<std::string, std::vector<float>> kTorch = {
  {"sgd", {0.294064015f, 0.0125120003f, 0.172391996f}},
  {"sgd_momentum_wd", {-0.0843860656f, 1.61632097f, 0.0313839279f}},
  {"sgd_nesterov", {-0.00485387677f, 0.548095882f, 0.0318026245f}},
  {"sgd_dampening", {0.215669051f, 1.34346712f, 0.17875433f}},
  {"adam", {0.950043857f, -1.95002198f, 0.450058579f}},
  {"adam_wd", {0.900359452f, -1.90017867f, 0.400500774f}},
  {"adamw", {0.890645623f, -1.88058913f, 0.395686358f}},
  {"rmsprop", {0.695373893f, -1.68531013f, 0.202355891f}},
  {"rmsprop_momentum_wd", {0.825045228f, -1.82298231f, 0.326532662f}},
};

static std::vector<float> run(const OptimizerConfig &cfg) {
  EXPECT_TRUE(validateOptimizerConfig(cfg).isOk());
  std::vector<float> p = {1.0f, -2.0f, 0.5f}, g(3);
  const float c[] = {1, 3, 0.5f}, b[] = {0.1f, -0.2f, 0.3f};
  Optimizer opt(cfg, {3});
  float *ps[] = {p.data()};
  const float *gs[] = {g.data()};
  for (int s = 0; s < 5; ++s) {
    for (int i = 0; i < 3; ++i)
      g[i] = 2 * p[i] * c[i] + b[i];
    opt.step(ps, gs, cfg.lr);
  }
  EXPECT_EQ(opt.stepCount(), 5);
  return p;
}

static void expectTorch(const std::string &name, const OptimizerConfig &cfg) {
  std::vector<float> got = run(cfg);
  const std::vector<float> &want = kTorch.at(name);
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(got[i], want[i], 2e-6 * (1 + std::fabs(want[i]))) << name << "[" << i << "]";
}

TEST(Optimizer, SgdVariantsMatchPyTorch) {
  OptimizerConfig c;
  c.lr = 0.1;
  expectTorch("sgd", c);
  c.lr = 0.05, c.momentum = 0.9, c.weightDecay = 0.01;
  expectTorch("sgd_momentum_wd", c);
  c = OptimizerConfig{};
  c.lr = 0.05, c.momentum = 0.8, c.nesterov = true;
  expectTorch("sgd_nesterov", c);
  c = OptimizerConfig{};
  c.lr = 0.05, c.momentum = 0.9, c.dampening = 0.5;
  expectTorch("sgd_dampening", c);
}

TEST(Optimizer, AdamVariantsMatchPyTorch) {
  OptimizerConfig c;
  c.kind = OptimizerKind::Adam;
  c.lr = 0.01;
  expectTorch("adam", c);
  c.lr = 0.02, c.beta1 = 0.8, c.beta2 = 0.99, c.eps = 1e-6, c.weightDecay = 0.1;
  expectTorch("adam_wd", c);
  c = OptimizerConfig{};
  c.kind = OptimizerKind::AdamW;
  c.lr = 0.02, c.weightDecay = 0.1;
  expectTorch("adamw", c);
}

TEST(Optimizer, RmspropMatchesPyTorch) {
  OptimizerConfig c;
  c.kind = OptimizerKind::RMSprop;
  c.lr = 0.01;
  expectTorch("rmsprop", c);
  c.alpha = 0.9, c.momentum = 0.5, c.weightDecay = 0.05;
  expectTorch("rmsprop_momentum_wd", c);
}

TEST(Optimizer, ValidationErrors) {
  OptimizerConfig c;
  c.lr = -1;
  EXPECT_FALSE(validateOptimizerConfig(c).isOk());
  c = OptimizerConfig{};
  c.nesterov = true;
  EXPECT_NE(validateOptimizerConfig(c).message().find("Nesterov"), std::string::npos);
  c = OptimizerConfig{};
  c.beta2 = 1.0;
  EXPECT_FALSE(validateOptimizerConfig(c).isOk());
}

TEST(Optimizer, ClipGradNormMatchesPyTorch) {
  // torch.nn.utils.clip_grad_norm_ on [3, 4] and [12] with max 6.5:
  // norm 13.0, grads [1.4999998807907104, 1.9999998807907104] [5.999999523162842].
  std::vector<float> a = {3, 4}, b = {12};
  float *gs[] = {a.data(), b.data()};
  EXPECT_DOUBLE_EQ(clipGradNorm(gs, {2, 1}, 6.5), 13.0);
  EXPECT_FLOAT_EQ(a[0], 1.4999998807907104f);
  EXPECT_FLOAT_EQ(a[1], 1.9999998807907104f);
  EXPECT_FLOAT_EQ(b[0], 5.999999523162842f);
  // Below the threshold nothing changes.
  EXPECT_NEAR(clipGradNorm(gs, {2, 1}, 100), 6.5, 1e-5);
  EXPECT_FLOAT_EQ(b[0], 5.999999523162842f);
}

TEST(Optimizer, AccumulationAveragesMicroBatches) {
  GradAccumulator acc({2}, 3);
  std::vector<float> g = {1, 2};
  const float *gs[] = {g.data()};
  EXPECT_FALSE(acc.add(gs));
  g = {4, -2};
  EXPECT_FALSE(acc.add(gs));
  g = {1, 9};
  EXPECT_TRUE(acc.add(gs));
  float *const *m = acc.mean();
  EXPECT_FLOAT_EQ(m[0][0], 2.0f);
  EXPECT_FLOAT_EQ(m[0][1], 3.0f);
  acc.reset();
  EXPECT_EQ(acc.pending(), 0);
  EXPECT_FALSE(acc.add(gs));
}

// Large updates are split over two threads (runInTwoParts): every variant
// gives bit for bit the parameters and moments of the one-thread update,
// on sizes that are not multiples of the split (1100001, 33, 1048579).
TEST(Optimizer, TwoThreadUpdateEqualsOneThread) {
  std::vector<int64_t> sizes = {1100001, 33, 1048579}; // over 2^21 in all
  for (OptimizerKind kind : {OptimizerKind::SGD, OptimizerKind::Adam, OptimizerKind::AdamW,
                             OptimizerKind::RMSprop}) {
    OptimizerConfig cfg;
    cfg.kind = kind;
    cfg.momentum = kind == OptimizerKind::Adam ? 0 : 0.9;
    cfg.weightDecay = 0.01;
    std::vector<std::vector<float>> p1, p2, g;
    for (int64_t n : sizes) {
      std::vector<float> p(n), gi(n);
      for (int64_t j = 0; j < n; ++j) {
        p[j] = std::sin(0.001f * float(j)) + 0.5f;
        gi[j] = std::cos(0.0007f * float(j)) * 0.1f;
      }
      p1.push_back(p), p2.push_back(p), g.push_back(gi);
    }
    Optimizer one(cfg, sizes), two(cfg, sizes);
    one.setParallelUpdates(false);
    std::vector<float *> pp1, pp2;
    std::vector<const float *> gp;
    for (size_t i = 0; i < sizes.size(); ++i)
      pp1.push_back(p1[i].data()), pp2.push_back(p2[i].data()), gp.push_back(g[i].data());
    for (int s = 0; s < 3; ++s) {
      one.step(pp1.data(), gp.data(), 0.01);
      two.step(pp2.data(), gp.data(), 0.01);
    }
    EXPECT_EQ(p1, p2) << "kind " << int(kind);
    EXPECT_EQ(one.firstMoments(), two.firstMoments()) << "kind " << int(kind);
    EXPECT_EQ(one.secondMoments(), two.secondMoments()) << "kind " << int(kind);
  }
}

// Each build of the CPU loop (OptimizerLoops.h: x86-64 baseline, AVX2,
// AVX-512) gives bit for bit the baseline's parameters and moments, for every
// variant, on lengths around the vector widths (1, 7, 15, 17, 63, 65, 1000).
// Builds this CPU cannot run are skipped, named in the output.
TEST(Optimizer, EveryIsaBuildEqualsBaseline) {
  std::vector<std::pair<const char *, StepLoopFn>> builds = {{"baseline", stepLoopBaseline}};
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    builds.push_back({"avx2", stepLoopAvx2});
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl"))
    builds.push_back({"avx512", stepLoopAvx512});
#endif
  if (builds.size() < 3)
    std::printf("note: %zu of 3 builds run on this CPU\n", builds.size());
  OptimizerConfig cfg;
  cfg.weightDecay = 0.01;
  cfg.momentum = 0.9;
  for (StepVariant variant : {StepVariant::Sgd, StepVariant::SgdMomentum,
                              StepVariant::SgdNesterov, StepVariant::Rmsprop,
                              StepVariant::RmspropMomentum, StepVariant::Adam}) {
    cfg.kind = variant == StepVariant::Adam ? OptimizerKind::Adam
               : variant == StepVariant::Rmsprop || variant == StepVariant::RmspropMomentum
                   ? OptimizerKind::RMSprop
                   : OptimizerKind::SGD;
    cfg.momentum = variant == StepVariant::Sgd || variant == StepVariant::Rmsprop ? 0 : 0.9;
    cfg.nesterov = variant == StepVariant::SgdNesterov;
    for (int64_t n : {1, 7, 15, 17, 63, 65, 1000}) {
      std::vector<std::vector<float>> ref;
      for (auto [name, loop] : builds) {
        std::vector<float> p(n), g(n), m(n, 0.01f), v(n, 0.02f);
        for (int64_t j = 0; j < n; ++j) {
          p[j] = std::sin(0.37f * float(j)) + 0.5f;
          g[j] = std::cos(0.11f * float(j)) * 0.3f;
        }
        for (int64_t step = 1; step <= 3; ++step)
          loop(variant, stepCoeffsFor(cfg, step, 0.01), n, p.data(), g.data(), m.data(),
               v.data());
        std::vector<float> all = p;
        all.insert(all.end(), m.begin(), m.end());
        all.insert(all.end(), v.begin(), v.end());
        if (ref.empty())
          ref.push_back(all);
        for (size_t j = 0; j < all.size(); ++j)
          ASSERT_EQ(all[j], ref[0][j]) << name << " variant " << int(variant) << " n=" << n
                                       << " element " << j;
      }
    }
  }
}

// The loop the optimizer uses is one of the builds, and MODELRT_CPU_ISA caps
// it (read once per process, so only checked against the uncapped choice).
TEST(Optimizer, BestStepLoopIsABuild) {
  StepLoopFn best = bestStepLoop();
  EXPECT_TRUE(best == stepLoopBaseline || best == stepLoopAvx2 || best == stepLoopAvx512);
}
