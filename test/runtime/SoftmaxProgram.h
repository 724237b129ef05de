//===- SoftmaxProgram.h - A hand-written program implementing the C ABI ----===//
//
// Softmax regression (logits = x W + b) with analytic gradients, on a
// synthetic 3-class data set of 4 features written as NPY files; shared by
// the trainer, CLI and TensorBoard tests. predict returns the logits.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_TEST_SOFTMAXPROGRAM_H
#define MODELRT_TEST_SOFTMAXPROGRAM_H

#include "TestUtil.h"
#include "modelrt/core/Program.h"
#include "modelrt/core/Rng.h"
#include "modelrt/data/Readers.h"
#include "modelrt/train/Trainer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>

namespace modelrt_test {
using namespace modelrt;

const int64_t kF = 4, kC = 3;
const int64_t wShape[] = {kF, kC}, bShape[] = {kC}, inShape[] = {kF}, outShape[] = {kC};
const ModelrtTensorDesc kParams[] = {
    {"w", MODELRT_F32, 2, wShape, MODELRT_INIT_XAVIER_UNIFORM, {0, 0}, kF, kC},
    {"b", MODELRT_F32, 1, bShape, MODELRT_INIT_ZEROS, {0, 0}, 0, 0}};
inline const char *kMetrics[] = {"accuracy"};
inline bool gPoison = false; // makes train_step return a NaN gradient at step 3
inline float gPoisonWith = NAN; // the value gPoison writes
/// Set by train_step, as SIGINT would set it, during the step with index
/// gStopAtStep (then disarmed: -1); RunOptions::stop of the stop tests.
inline std::atomic<bool> gStopRequest{false};
inline int64_t gStopAtStep = -1;
inline std::function<void()> gOnStop; ///< run when gStopAtStep sets the request
/// The train_step of this step index makes the next eval_step set
/// gStopRequest: a stop asked for during the validation after it.
inline int64_t gStopInEvalAfter = -1;
inline bool gStopInEval = false;

/// Softmax probabilities of sample \p x; returns the argmax.
inline int64_t forward(float *const *p, const float *x, double *prob) {
  double mx = -1e300;
  for (int64_t c = 0; c < kC; ++c) {
    prob[c] = p[1][c];
    for (int64_t f = 0; f < kF; ++f)
      prob[c] += double(x[f]) * p[0][f * kC + c];
    mx = std::max(mx, prob[c]);
  }
  double z = 0;
  int64_t best = 0;
  for (int64_t c = 0; c < kC; ++c) {
    if (prob[c] > prob[best])
      best = c;
    z += (prob[c] = std::exp(prob[c] - mx));
  }
  for (int64_t c = 0; c < kC; ++c)
    prob[c] /= z;
  return best;
}

inline int evalStep(void *, float *const *p, float *const *, const float *x, const void *labels,
             int64_t n, float *loss, double *metrics) {
  const int64_t *y = static_cast<const int64_t *>(labels);
  if (gStopInEval)
    gStopRequest = true, gStopInEval = false;
  double total = 0, prob[kC];
  for (int64_t i = 0; i < n; ++i) {
    metrics[0] += forward(p, x + i * kF, prob) == y[i];
    total -= std::log(prob[y[i]]);
  }
  *loss = float(total / n);
  return 0;
}

inline int trainStep(void *ctx, float *const *p, float *const *s, const float *x, const void *labels,
              int64_t n, uint64_t, int64_t step, float *loss, float *const *g, double *metrics) {
  const int64_t *y = static_cast<const int64_t *>(labels);
  std::fill(g[0], g[0] + kF * kC, 0.0f);
  std::fill(g[1], g[1] + kC, 0.0f);
  double prob[kC];
  for (int64_t i = 0; i < n; ++i) {
    forward(p, x + i * kF, prob);
    for (int64_t c = 0; c < kC; ++c) {
      double d = (prob[c] - (c == y[i])) / n; // d(mean CE)/d logit
      g[1][c] += float(d);
      for (int64_t f = 0; f < kF; ++f)
        g[0][f * kC + c] += float(d * x[i * kF + f]);
    }
  }
  if (gPoison && step == 2)
    g[1][1] = gPoisonWith;
  if (step == gStopAtStep) {
    gStopRequest = true, gStopAtStep = -1;
    if (gOnStop)
      gOnStop();
  }
  if (step == gStopInEvalAfter)
    gStopInEval = true, gStopInEvalAfter = -1;
  return evalStep(ctx, p, s, x, labels, n, loss, metrics);
}

inline int predictFn(void *, float *const *p, float *const *, const float *x, int64_t n, float *out) {
  double prob[kC];
  for (int64_t i = 0; i < n; ++i) {
    forward(p, x + i * kF, prob); // outputs are logits: log-probabilities
    for (int64_t c = 0; c < kC; ++c)
      out[i * kC + c] = float(std::log(prob[c]));
  }
  return 0;
}

/// Writes N samples: class c centred at 2*e_c (features 0..2), noise 0.5.
inline void writeData(const TempDir &dir, const std::string &stem, int64_t n, uint64_t seed) {
  Tensor x(DType::F32, {n, kF}), y(DType::I64, {n});
  Rng rng(seed);
  for (int64_t i = 0; i < n; ++i) {
    int64_t c = i % kC;
    y.as<int64_t>()[i] = c;
    for (int64_t f = 0; f < kF; ++f)
      x.as<float>()[i * kF + f] = float((f == c ? 2.0 : 0.0) + 0.5 * rng.normal());
  }
  ASSERT_TRUE(writeNpy(dir.path(stem + "_x.npy"), x).isOk());
  ASSERT_TRUE(writeNpy(dir.path(stem + "_y.npy"), y).isOk());
}

struct Fixture {
  TempDir dir;
  std::string trainX, trainY, testX, testY;
  ModelrtProgram prog{};
  Fixture() {
    writeData(dir, "train", 120, 1);
    writeData(dir, "test", 30, 2);
    trainX = dir.path("train_x.npy"), trainY = dir.path("train_y.npy");
    testX = dir.path("test_x.npy"), testY = dir.path("test_y.npy");
    prog.abi_version = MODELRT_ABI_VERSION;
    prog.name = "softmax";
    prog.num_params = 2, prog.params = kParams;
    prog.input_rank = 1, prog.input_shape = inShape;
    prog.label_dtype = MODELRT_I64, prog.num_classes = kC;
    prog.output_rank = 1, prog.output_shape = outShape;
    prog.num_metrics = 1, prog.metric_names = kMetrics;
    prog.train_step = trainStep, prog.eval_step = evalStep, prog.predict = predictFn;
    ModelrtTrainConfig &c = prog.config;
    c.optimizer.kind = MODELRT_OPT_ADAM, c.optimizer.lr = 0.05;
    c.schedule.kind = MODELRT_SCHED_COSINE, c.schedule.warmup_steps = 3;
    c.schedule.total_steps = 48; // fixed, so shorter runs follow the same schedule
    c.data.format = MODELRT_DATA_NPY;
    c.data.train_inputs = trainX.c_str(), c.data.train_labels = trainY.c_str();
    c.data.test_inputs = testX.c_str(), c.data.test_labels = testY.c_str();
    c.epochs = 6, c.batch_size = 16, c.seed = 7;
  }
  RunOptions out(const std::string &sub) {
    RunOptions o;
    o.checkpointDir = dir.path(sub);
    o.console = std::fopen("/dev/null", "w");
    return o;
  }
};

inline std::vector<float> flat(const ModelState &m) {
  std::vector<float> v;
  for (const auto &p : m.params)
    v.insert(v.end(), p.begin(), p.end());
  return v;
}

inline std::string slurp(const std::string &p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// trainStep with w's gradient element 5 doubled (for gradcheck's failures).
inline int wrongTrainStep(void *ctx, float *const *p, float *const *s, const float *x,
                          const void *labels, int64_t n, uint64_t seed, int64_t step,
                          float *loss, float *const *g, double *metrics) {
  int rc = trainStep(ctx, p, s, x, labels, n, seed, step, loss, g, metrics);
  g[0][5] *= 2;
  return rc;
}

} // namespace modelrt_test

#endif // MODELRT_TEST_SOFTMAXPROGRAM_H
