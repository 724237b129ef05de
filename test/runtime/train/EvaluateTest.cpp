//===- EvaluateTest.cpp - Evaluation and prediction over a data set -------===//
//
// Runs evaluateDataset and predictTensor on the hand-written softmax
// program (SoftmaxProgram.h): the means against the cross-entropy and the
// accuracy computed here sample by sample, the same means at any batch size
// and on two ranks (threads) as on one, and predictions made in batches
// against the program's forward pass.
//
//===----------------------------------------------------------------------===//
#include "SoftmaxProgram.h"

#include "dist/ThreadCollective.h"
#include "modelrt/train/Evaluate.h"

using namespace modelrt;
using namespace modelrt_test;

namespace {

const int64_t kN = 50;

/// kN samples as writeData draws them, held in memory.
Dataset makeData(uint64_t seed) {
  Dataset d;
  d.name = "memory";
  d.inputs = Tensor(DType::F32, {kN, kF}), d.labels = Tensor(DType::I64, {kN});
  Rng rng(seed);
  for (int64_t i = 0; i < kN; ++i) {
    d.labels.as<int64_t>()[i] = (i * 7) % kC;
    for (int64_t f = 0; f < kF; ++f)
      d.inputs.as<float>()[i * kF + f] = float(0.5 + 1.5 * rng.normal());
  }
  return d;
}

/// The mean cross-entropy and accuracy of \p model on \p d, sample by sample
/// in double.
std::pair<double, double> reference(ModelState &model, const Dataset &d) {
  double loss = 0, correct = 0, prob[kC];
  for (int64_t i = 0; i < kN; ++i) {
    int64_t y = d.labels.as<int64_t>()[i];
    correct += forward(model.paramPtrs.data(), d.inputs.as<float>() + i * kF, prob) == y;
    loss -= std::log(prob[y]);
  }
  return {loss / kN, correct / kN};
}

} // namespace

TEST(Evaluate, MeansAreThoseOfEverySampleAtAnyBatchSize) {
  Fixture fx;
  ModelState model = initModelState(fx.prog, 3);
  Dataset d = makeData(11);
  auto [loss, accuracy] = reference(model, d);
  // Each batch's mean loss is rounded to f32 once: a relative error of at
  // most 2^-24 per batch, and so of the weighted mean.
  for (int64_t batch : {1, 7, 50, 64}) {
    auto r = evaluateDataset(fx.prog, model, d, batch, false);
    ASSERT_TRUE(r.isOk()) << r.message();
    EXPECT_NEAR(r->loss, loss, loss * 0x1p-23) << "batch " << batch;
    EXPECT_DOUBLE_EQ(r->metrics.at(0), accuracy) << "batch " << batch;
    EXPECT_EQ(r->samples, kN);
  }
  // The model is not trained to 0 or 1: the accuracy tells batches apart.
  EXPECT_GT(accuracy, 0.0);
  EXPECT_LT(accuracy, 1.0);
}

TEST(Evaluate, TwoRanksSumToTheMeansOfOne) {
  // Each rank evaluates its slice of every batch (7 = 4 + 3; the last
  // batch's one sample leaves rank 1 an empty slice); the sums go over the
  // ranks before the division.
  Fixture fx;
  ModelState model = initModelState(fx.prog, 5);
  Dataset d = makeData(12);
  auto one = evaluateDataset(fx.prog, model, d, 7, false);
  ASSERT_TRUE(one.isOk()) << one.message();
  std::vector<std::optional<EvalResult>> ranks(2);
  ThreadGroup group(2);
  group.run([&](Collective &c) {
    ModelState own = model;
    own.bind();
    auto r = evaluateDataset(fx.prog, own, d, 7, false, nullptr, &c);
    ASSERT_TRUE(r.isOk()) << r.message();
    ranks[size_t(c.rank())] = *r;
  });
  for (const std::optional<EvalResult> &r : ranks) {
    ASSERT_TRUE(r.has_value());
    EXPECT_NEAR(r->loss, one->loss, one->loss * 0x1p-22);
    EXPECT_DOUBLE_EQ(r->metrics.at(0), one->metrics.at(0));
    EXPECT_EQ(r->samples, kN);
  }
}

TEST(Evaluate, AnEmptyDataSetIsRefusedByName) {
  Fixture fx;
  ModelState model = initModelState(fx.prog, 3);
  Dataset d;
  d.name = "empty.npy";
  d.inputs = Tensor(DType::F32, {0, kF}), d.labels = Tensor(DType::I64, {0});
  auto r = evaluateDataset(fx.prog, model, d, 8, false);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.message(), "empty.npy: the data set has no samples");
}

TEST(Evaluate, PredictionsInBatchesAreTheForwardPassOfEachSample) {
  Fixture fx;
  ModelState model = initModelState(fx.prog, 9);
  Dataset d = makeData(13);
  double prob[kC];
  for (int64_t batch : {3, 50, 80}) {
    auto out = predictTensor(fx.prog, model, d.inputs, batch);
    ASSERT_TRUE(out.isOk()) << out.message();
    ASSERT_EQ(out->shape(), (std::vector<int64_t>{kN, kC}));
    for (int64_t i = 0; i < kN; ++i) {
      forward(model.paramPtrs.data(), d.inputs.as<float>() + i * kF, prob);
      for (int64_t c = 0; c < kC; ++c)
        ASSERT_EQ(out->as<float>()[i * kC + c], float(std::log(prob[c])))
            << "batch " << batch << ", sample " << i << ", class " << c;
    }
  }
}
