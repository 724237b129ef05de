//===- GradCheckTest.cpp - The finite-difference check of gradients -------===//
//
// checkGradients (train/GradCheck.h) on hand-written programs: the softmax
// regression of SoftmaxProgram.h passes; the same with one wrong gradient
// element fails on exactly that element; a program whose loss reads and
// updates its state passes because the state is restored around every call;
// a relu kink within h of the parameter (or at it) is reported as a kink,
// while a wrong gradient where the loss is smooth still fails; a small miss
// is inconclusive only in a check that found a kink. Also the
// sample of elements checked.
//
//===----------------------------------------------------------------------===//
#include "SoftmaxProgram.h"

#include "modelrt/train/GradCheck.h"

#include <set>

using namespace modelrt;
using namespace modelrt_test;

namespace {

/// The first batch of the fixture's training set (16 samples).
Batch firstBatch(const Fixture &fx) {
  auto data = loadTrainingData(fx.prog, fx.prog.config);
  EXPECT_TRUE(data.isOk()) << data.message();
  LoaderConfig lc;
  lc.batchSize = 16, lc.shuffle = false, lc.prefetch = 0;
  DataLoader loader(data->train, lc);
  Batch b;
  EXPECT_TRUE(loader.next(b));
  return b;
}

/// checkGradients of \p prog at its initialisation (seed 7) on \p b.
GradCheckReport check(const ModelrtProgram &prog, const Batch &b, ModelState &m,
                      GradCheckOptions o = {}) {
  auto runner = StepRunner::create(prog, Device::Cpu);
  EXPECT_TRUE(runner.isOk()) << runner.message();
  auto r = checkGradients(prog, **runner, m, b, o);
  EXPECT_TRUE(r.isOk()) << r.message();
  return r.isOk() ? *r : GradCheckReport{};
}

/// The softmax step plus a state tensor: the loss adds 1e-3 * state[0], and
/// every call adds 1 to state[0] (as running statistics change per step).
int statefulTrainStep(void *ctx, float *const *p, float *const *s, const float *x,
                      const void *labels, int64_t n, uint64_t seed, int64_t step, float *loss,
                      float *const *g, double *metrics) {
  int rc = trainStep(ctx, p, s, x, labels, n, seed, step, loss, g, metrics);
  *loss += 1e-3f * s[0][0];
  s[0][0] += 1;
  return rc;
}

const int64_t kOneShape[] = {1};
const ModelrtTensorDesc kCounter[] = {
    {"counter", MODELRT_F32, 1, kOneShape, MODELRT_INIT_CONSTANT, {5, 0}, 0, 0}};

/// L(w) = relu(w0) + w1^2 / 2 (mean over nothing: the batch is ignored).
int kinkTrainStep(void *, float *const *p, float *const *, const float *, const void *, int64_t,
                  uint64_t, int64_t, float *loss, float *const *g, double *) {
  float w0 = p[0][0], w1 = p[0][1];
  *loss = std::max(w0, 0.0f) + 0.5f * w1 * w1;
  g[0][0] = w0 > 0 ? 1.0f : 0.0f;
  g[0][1] = w1;
  return 0;
}
/// kinkTrainStep with w1's gradient 5% too large.
int slightlyWrongKinkTrainStep(void *c, float *const *p, float *const *s, const float *x,
                               const void *y, int64_t n, uint64_t seed, int64_t step,
                               float *loss, float *const *g, double *m) {
  kinkTrainStep(c, p, s, x, y, n, seed, step, loss, g, m);
  g[0][1] *= 1.05f;
  return 0;
}
/// kinkTrainStep with both gradients off by a half.
int wrongKinkTrainStep(void *c, float *const *p, float *const *s, const float *x,
                       const void *y, int64_t n, uint64_t seed, int64_t step, float *loss,
                       float *const *g, double *m) {
  kinkTrainStep(c, p, s, x, y, n, seed, step, loss, g, m);
  g[0][0] *= 0.5f, g[0][1] *= 0.5f;
  return 0;
}

const int64_t kTwoShape[] = {2};
const ModelrtTensorDesc kKinkParams[] = {
    {"w", MODELRT_F32, 1, kTwoShape, MODELRT_INIT_ZEROS, {0, 0}, 0, 0}};

} // namespace

TEST(GradCheck, CorrectGradientsPass) {
  Fixture fx;
  Batch b = firstBatch(fx);
  ModelState m = initModelState(fx.prog, 7);
  ModelState before = m;
  GradCheckReport r = check(fx.prog, b, m);
  ASSERT_EQ(r.tensors.size(), 2u);
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(r.batch, 16);
  EXPECT_EQ(r.tensors[0].name, "w");
  EXPECT_EQ(r.tensors[0].elements.size(), 12u); // fewer than 32: all of them
  EXPECT_EQ(r.tensors[1].elements.size(), 3u);
  for (const GradCheckTensor &t : r.tensors) {
    EXPECT_EQ(t.failures, 0) << t.name;
    EXPECT_EQ(t.kinks, 0) << t.name; // softmax regression is smooth
    EXPECT_LT(t.maxRelError, 1e-2) << t.name;
  }
  EXPECT_EQ(m.params, before.params); // every element put back
}

TEST(GradCheck, AWrongGradientElementFails) {
  Fixture fx;
  fx.prog.train_step = wrongTrainStep;
  Batch b = firstBatch(fx);
  ModelState m = initModelState(fx.prog, 7);
  GradCheckReport r = check(fx.prog, b, m);
  EXPECT_FALSE(r.passed());
  ASSERT_EQ(r.tensors.size(), 2u);
  EXPECT_EQ(r.tensors[0].failures, 1);
  EXPECT_TRUE(r.tensors[1].passed());
  for (const GradCheckElement &e : r.tensors[0].elements) {
    EXPECT_EQ(e.verdict == GradCheckVerdict::Fail, e.index == 5) << e.index;
    if (e.index == 5) {
      EXPECT_NEAR(e.analytic, 2 * e.numeric, 1e-2 * std::fabs(e.analytic)) << e.relError;
    }
  }
  // The report names the element and the failing tensor.
  testing::internal::CaptureStdout();
  printGradCheckReport(stdout, r);
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("  FAIL w[1, 2]: analytic "), std::string::npos) << out;
  EXPECT_NE(out.find("gradcheck: FAIL: 1 of 2 parameter tensors differ from their f32 central "
                     "differences beyond 0.01 (w)"), std::string::npos) << out;
}

TEST(GradCheck, StateIsRestoredAroundEveryCall) {
  Fixture fx;
  fx.prog.train_step = statefulTrainStep;
  fx.prog.num_state = 1, fx.prog.state = kCounter;
  Batch b = firstBatch(fx);
  ModelState m = initModelState(fx.prog, 7);
  ASSERT_EQ(m.state[0][0], 5.0f);
  GradCheckReport r = check(fx.prog, b, m);
  EXPECT_TRUE(r.passed()); // a drifting counter would shift L(p - h) by 1e-3
  EXPECT_EQ(m.state[0][0], 5.0f);
}

TEST(GradCheck, AKinkWithinTheStepIsReportedAndLeftOut) {
  Fixture fx;
  fx.prog.params = kKinkParams, fx.prog.num_params = 1;
  fx.prog.train_step = kinkTrainStep;
  Batch b = firstBatch(fx);
  ModelState m = initModelState(fx.prog, 7);
  m.params[0] = {0.003f, 0.7f}; // relu's kink at 0 lies within h = 0.01 of w0
  GradCheckReport r = check(fx.prog, b, m);
  ASSERT_EQ(r.tensors.size(), 1u);
  const GradCheckTensor &t = r.tensors[0];
  ASSERT_EQ(t.elements.size(), 2u);
  EXPECT_EQ(t.elements[0].verdict, GradCheckVerdict::Kink);
  EXPECT_NEAR(t.elements[0].central, 0.65, 1e-4);     // half the slopes of each side
  EXPECT_NEAR(t.elements[0].centralHalf, 0.8, 1e-4);  // fewer of the wrong side's
  EXPECT_NEAR(t.elements[0].forward, 1.0, 1e-3);      // the slope on w0's side
  EXPECT_NEAR(t.elements[0].backward, 0.3, 1e-3);     // the kink's mix
  EXPECT_EQ(t.elements[1].verdict, GradCheckVerdict::Pass);
  EXPECT_EQ(t.kinks, 1);
  EXPECT_TRUE(r.passed());
  testing::internal::CaptureStdout();
  printGradCheckReport(stdout, r);
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("  kink w[0]: analytic 1, central 0.6"), std::string::npos) << out;
  EXPECT_NE(out.find("gradcheck: PASS: 1 of 2 elements of 1 parameter tensors match their "
                     "f32 central differences within 0.01, 1 kink(s) left out"), std::string::npos)
      << out;
  // Wrong gradients: at the kink the check says nothing; where the loss is
  // smooth, a failure.
  fx.prog.train_step = wrongKinkTrainStep;
  r = check(fx.prog, b, m);
  EXPECT_EQ(r.tensors[0].elements[0].verdict, GradCheckVerdict::Kink);
  EXPECT_EQ(r.tensors[0].elements[1].verdict, GradCheckVerdict::Fail);
  EXPECT_FALSE(r.passed());
  // A kink at w0 = 0 itself: the central differences agree (the mean of
  // the slopes) but the one-sided gaps do not shrink with the step.
  fx.prog.train_step = kinkTrainStep;
  m.params[0] = {0.0f, 0.7f};
  r = check(fx.prog, b, m);
  EXPECT_EQ(r.tensors[0].elements[0].verdict, GradCheckVerdict::Kink);
  EXPECT_NEAR(r.tensors[0].elements[0].centralHalf, 0.5, 1e-4);
}

TEST(GradCheck, SmallMissesAreInconclusiveOnlyWhereKinksWereFound) {
  Fixture fx;
  fx.prog.params = kKinkParams, fx.prog.num_params = 1;
  fx.prog.train_step = slightlyWrongKinkTrainStep;
  Batch b = firstBatch(fx);
  ModelState m = initModelState(fx.prog, 7);
  // w0 within h of relu's kink: w1's 5% miss is inconclusive, the check passes.
  m.params[0] = {0.003f, 0.7f};
  GradCheckReport r = check(fx.prog, b, m);
  ASSERT_EQ(r.tensors[0].elements.size(), 2u);
  EXPECT_EQ(r.tensors[0].elements[0].verdict, GradCheckVerdict::Kink);
  EXPECT_EQ(r.tensors[0].elements[1].verdict, GradCheckVerdict::Inconclusive);
  EXPECT_NEAR(r.tensors[0].elements[1].relError, 0.05 / 1.05, 1e-3);
  EXPECT_EQ(r.tensors[0].inconclusive, 1);
  EXPECT_TRUE(r.passed());
  // No element of w passed: nothing verified it.
  EXPECT_FALSE(r.verified());
  testing::internal::CaptureStdout();
  printGradCheckReport(stdout, r);
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("  inconclusive w[1]: analytic 0.735"), std::string::npos) << out;
  EXPECT_NE(out.find("gradcheck: INCONCLUSIVE: no checked element of w matched its f32 central "
                     "difference: each sits near a kink, 1 kink(s) and 1 inconclusive left "
                     "out; try another --batch, --checkpoint or more --samples"),
            std::string::npos) << out;
  // w0 far from the kink: the loss is smooth and the same miss fails.
  m.params[0] = {0.5f, 0.7f};
  r = check(fx.prog, b, m);
  EXPECT_EQ(r.tensors[0].elements[0].verdict, GradCheckVerdict::Pass);
  EXPECT_EQ(r.tensors[0].elements[1].verdict, GradCheckVerdict::Fail);
  EXPECT_FALSE(r.passed());
  // Beyond kInconclusiveFactor tolerances a miss fails even with the kink
  // (wrongKinkTrainStep's halves, above).
}

namespace {
/// L(a, b) = relu(a) + b^2 / 2 over two tensors, b's gradient 5% too large.
int twoTensorTrainStep(void *, float *const *p, float *const *, const float *, const void *,
                       int64_t, uint64_t, int64_t, float *loss, float *const *g, double *) {
  float a = p[0][0], b = p[1][0];
  *loss = std::max(a, 0.0f) + 0.5f * b * b;
  g[0][0] = a > 0 ? 1.0f : 0.0f;
  g[1][0] = 1.05f * b;
  return 0;
}
const int64_t kScalarShape[] = {1};
const ModelrtTensorDesc kTwoTensors[] = {
    {"a", MODELRT_F32, 1, kScalarShape, MODELRT_INIT_ZEROS, {0, 0}, 0, 0},
    {"b", MODELRT_F32, 1, kScalarShape, MODELRT_INIT_ZEROS, {0, 0}, 0, 0}};
} // namespace

TEST(GradCheck, AKinkInOneTensorExcusesNothingInAnother) {
  Fixture fx;
  fx.prog.params = kTwoTensors, fx.prog.num_params = 2;
  fx.prog.train_step = twoTensorTrainStep;
  Batch b = firstBatch(fx);
  ModelState m = initModelState(fx.prog, 7);
  m.params[0] = {0.003f}, m.params[1] = {0.7f}; // a within h of relu's kink
  GradCheckReport r = check(fx.prog, b, m);
  ASSERT_EQ(r.tensors.size(), 2u);
  EXPECT_EQ(r.tensors[0].elements[0].verdict, GradCheckVerdict::Kink);
  EXPECT_EQ(r.tensors[1].elements[0].verdict, GradCheckVerdict::Fail);
  EXPECT_FALSE(r.passed());
}

TEST(GradCheck, TheSampleIsDeterministicSpreadAndComplete) {
  EXPECT_EQ(gradCheckIndices(5, 32, 0), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  std::vector<int64_t> s = gradCheckIndices(1000, 32, 3);
  ASSERT_EQ(s.size(), 32u);
  EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
  EXPECT_EQ(std::set<int64_t>(s.begin(), s.end()).size(), 32u);
  EXPECT_GE(s.front(), 0);
  EXPECT_LT(s.back(), 1000);
  EXPECT_EQ(gradCheckIndices(1000, 32, 3), s); // the same on every run
  EXPECT_NE(gradCheckIndices(1000, 32, 4), s); // another tensor, another sample
  // Of a [100, 10] weight, the sample reaches most of the 10 columns.
  std::set<int64_t> columns;
  for (int64_t i : s)
    columns.insert(i % 10);
  EXPECT_GE(columns.size(), 6u);
  EXPECT_EQ(gradCheckStep(0.25f), 1e-2);
  EXPECT_EQ(gradCheckStep(-4.0f), 4e-2);
}

TEST(GradCheck, BadOptionsAreErrors) {
  Fixture fx;
  Batch b = firstBatch(fx);
  ModelState m = initModelState(fx.prog, 7);
  auto runner = StepRunner::create(fx.prog, Device::Cpu);
  ASSERT_TRUE(runner.isOk());
  GradCheckOptions o;
  o.samples = 0;
  auto r = checkGradients(fx.prog, **runner, m, b, o);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.message(), "gradcheck: samples must be >= 1 and the tolerance > 0");
}
