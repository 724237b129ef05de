//===- TrainerTest.cpp - The training loop, resume, accumulation ----------===//
//
// Trains the hand-written softmax-regression program (SoftmaxProgram.h):
// convergence, bit-identical resume, NaN handling, gradient accumulation,
// checkpoint rotation.
//
//===----------------------------------------------------------------------===//
#include "SoftmaxProgram.h"

#include "dist/ThreadCollective.h"
#include "modelrt/io/CheckpointStore.h"

#include <atomic>
#include <sstream>
#include <unistd.h>

using namespace modelrt;
using namespace modelrt_test;

TEST(Trainer, LossDecreasesAndAccuracyIsHigh) {
  Fixture fx;
  fx.prog.config.epochs = 1;
  auto one = trainProgram(fx.prog, fx.prog.config, fx.out("a"));
  ASSERT_TRUE(one.isOk()) << one.message();
  fx.prog.config.epochs = 6;
  auto six = trainProgram(fx.prog, fx.prog.config, fx.out("b"));
  ASSERT_TRUE(six.isOk()) << six.message();
  EXPECT_EQ(six->epochs, 6);
  EXPECT_EQ(six->steps, 6 * 8); // 120 / 16 -> 8 batches per epoch
  EXPECT_LT(six->lastTrain.loss, one->lastTrain.loss);
  EXPECT_LT(six->lastValidation->loss, 0.4);
  EXPECT_GT(six->lastValidation->metrics[0], 0.85);
  // The log has a header and one row per epoch.
  std::string csv = slurp(fx.dir.path("b/metrics.csv"));
  EXPECT_EQ(csv.rfind("epoch,step,lr,train_loss,train_accuracy,val_loss,val_accuracy\n", 0), 0u);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7);
  std::string jsonl = slurp(fx.dir.path("b/metrics.jsonl"));
  EXPECT_EQ(jsonl.rfind("{\"epoch\": 1, \"step\": 8, ", 0), 0u) << jsonl;
}

TEST(Trainer, ResumeAfterACrashKeepsOneRowPerEpochAndNoTemporaries) {
  // A run logged epoch 2 and died before its checkpoint: resuming from epoch
  // 1's checkpoint must not log epoch 2 twice, and the temporary that the
  // kill left behind goes.
  Fixture fx;
  ModelrtTrainConfig c = fx.prog.config;
  c.epochs = 1;
  ASSERT_TRUE(trainProgram(fx.prog, c, fx.out("k")).isOk());
  std::string one = fx.dir.path("epoch1.safetensors");
  writeText(one, slurp(fx.dir.path("k/last.safetensors")));
  c.epochs = 2;
  RunOptions o = fx.out("k");
  o.resume = one;
  ASSERT_TRUE(trainProgram(fx.prog, c, o).isOk()); // the "crashed" run's epoch 2
  writeText(fx.dir.path("k/.last.safetensors.tmp.Ab12Cd"), "partial");
  std::string csv = slurp(fx.dir.path("k/metrics.csv"));
  auto r = trainProgram(fx.prog, c, o);
  ASSERT_TRUE(r.isOk()) << r.message();
  EXPECT_EQ(slurp(fx.dir.path("k/metrics.csv")), csv); // epoch 2's row replaced, not added
  std::string jsonl = slurp(fx.dir.path("k/metrics.jsonl"));
  EXPECT_EQ(std::count(jsonl.begin(), jsonl.end(), '\n'), 2);
  EXPECT_FALSE(std::ifstream(fx.dir.path("k/.last.safetensors.tmp.Ab12Cd")).good());
}

TEST(Trainer, SameSeedSameResultAndResumeIsBitIdentical) {
  Fixture fx;
  auto full = trainProgram(fx.prog, fx.prog.config, fx.out("full"));
  ASSERT_TRUE(full.isOk()) << full.message();
  auto again = trainProgram(fx.prog, fx.prog.config, fx.out("again"));
  ASSERT_TRUE(again.isOk());
  EXPECT_EQ(flat(full->model), flat(again->model));
  ModelrtTrainConfig c = fx.prog.config;
  c.epochs = 2;
  ASSERT_TRUE(trainProgram(fx.prog, c, fx.out("part")).isOk());
  RunOptions o = fx.out("part");
  o.resume = fx.dir.path("part/last.safetensors");
  auto resumed = trainProgram(fx.prog, fx.prog.config, o);
  ASSERT_TRUE(resumed.isOk()) << resumed.message();
  EXPECT_EQ(resumed->steps, full->steps);
  EXPECT_EQ(flat(resumed->model), flat(full->model)); // bit-identical
  EXPECT_EQ(slurp(fx.dir.path("part/last.safetensors")), slurp(fx.dir.path("full/last.safetensors")));
  c = fx.prog.config;
  c.seed = 8;
  auto other = trainProgram(fx.prog, c, fx.out("other"));
  ASSERT_TRUE(other.isOk());
  EXPECT_NE(flat(other->model), flat(full->model));
}

TEST(Trainer, NonFiniteGradientStopsAndKeepsTheLastCheckpoint) {
  Fixture fx;
  ModelrtTrainConfig c = fx.prog.config;
  c.epochs = 1;
  c.batch_size = 60; // 2 steps per epoch: epoch 1 is clean
  ASSERT_TRUE(trainProgram(fx.prog, c, fx.out("n")).isOk());
  std::string good = slurp(fx.dir.path("n/last.safetensors"));
  c.epochs = 3;
  RunOptions o = fx.out("n");
  o.resume = fx.dir.path("n/last.safetensors");
  gPoison = true;
  auto r = trainProgram(fx.prog, c, o);
  gPoison = false;
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.message(), "step 3 (epoch 2, batch 1): gradient of parameter 'b' (element 1) is "
                         "NaN; stopping, the last good checkpoint, " +
                             fx.dir.path("n/last.safetensors") + ", is kept");
  EXPECT_EQ(slurp(fx.dir.path("n/last.safetensors")), good);
  // A fresh run that stops in its first epoch has written no checkpoint, and
  // says so.
  c.epochs = 1, c.batch_size = 30; // 4 steps in epoch 1
  gPoison = true;
  r = trainProgram(fx.prog, c, fx.out("first"));
  gPoison = false;
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.message(), "step 3 (epoch 1, batch 3): gradient of parameter 'b' (element 1) is "
                         "NaN; stopping, no checkpoint was written yet (the run stopped in its "
                         "first epoch)");
  EXPECT_FALSE(std::ifstream(fx.dir.path("first/last.safetensors")).good());
}

TEST(Trainer, InfiniteGradientIsNamedToo) {
  // The check tests exponent bits first (all ones: NaN or an infinity).
  Fixture fx;
  ModelrtTrainConfig c = fx.prog.config;
  c.epochs = 2;
  c.batch_size = 60;
  gPoison = true;
  gPoisonWith = -INFINITY;
  auto r = trainProgram(fx.prog, c, fx.out("inf"));
  gPoison = false;
  gPoisonWith = NAN;
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.message(), "step 3 (epoch 2, batch 1): gradient of parameter 'b' (element 1) is "
                         "infinite; stopping, the last good checkpoint, " +
                             fx.dir.path("inf") + "/last.safetensors, is kept");
}

TEST(Trainer, BadDataIsAClearError) {
  Fixture fx;
  Tensor y(DType::I64, {120});
  y.as<int64_t>()[17] = 5;
  ASSERT_TRUE(writeNpy(fx.trainY, y).isOk());
  auto r = trainProgram(fx.prog, fx.prog.config, fx.out("bad"));
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.message(), fx.trainY + ": sample 17: label 5 is outside [0, 3)");
}

TEST(Trainer, TwoEpochsEqualOneEpochResumedForAnother) {
  Fixture fx;
  ModelrtTrainConfig c = fx.prog.config;
  c.epochs = 2;
  auto straight = trainProgram(fx.prog, c, fx.out("straight"));
  ASSERT_TRUE(straight.isOk()) << straight.message();
  c.epochs = 1;
  ASSERT_TRUE(trainProgram(fx.prog, c, fx.out("split")).isOk());
  c.epochs = 2;
  RunOptions o = fx.out("split");
  o.resume = fx.dir.path("split/epoch-000001.safetensors");
  auto resumed = trainProgram(fx.prog, c, o);
  ASSERT_TRUE(resumed.isOk()) << resumed.message();
  EXPECT_EQ(resumed->steps, straight->steps);
  std::vector<float> a = flat(straight->model), b = flat(resumed->model);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0); // bitwise
  EXPECT_EQ(slurp(fx.dir.path("split/last.safetensors")),
            slurp(fx.dir.path("straight/last.safetensors")));
}

namespace {
/// The steps.csv rows of \p dir without their time-dependent samples_per_s.
std::string stepRows(const std::string &dir) {
  std::istringstream in(slurp(dir + "/steps.csv"));
  std::string line, rows;
  while (std::getline(in, line))
    rows += line.substr(0, line.rfind(',')) + "\n";
  return rows;
}

/// Trains \p c straight into OUT/straight, and into OUT/split stopped
/// during the step with index \p stopAt then resumed from its
/// last.safetensors;
/// expects both runs to end bit-identical, logs included. Returns the
/// stopped run's error.
std::string stopAndResume(Fixture &fx, const ModelrtTrainConfig &c, int64_t stopAt,
                          int64_t logEvery = 1) {
  RunOptions so = fx.out("straight"), o = fx.out("split");
  so.logEverySteps = o.logEverySteps = logEvery;
  auto straight = trainProgram(fx.prog, c, so);
  EXPECT_TRUE(straight.isOk()) << straight.message();
  o.stop = &gStopRequest;
  gStopRequest = false, gStopAtStep = stopAt;
  auto stopped = trainProgram(fx.prog, c, o);
  EXPECT_FALSE(stopped.isOk());
  gStopRequest = false, gStopAtStep = -1;
  o.resume = fx.dir.path("split/last.safetensors");
  auto resumed = trainProgram(fx.prog, c, o);
  EXPECT_TRUE(resumed.isOk()) << resumed.message();
  if (!straight.isOk() || !resumed.isOk() || stopped.isOk())
    return "";
  EXPECT_EQ(resumed->steps, straight->steps);
  EXPECT_EQ(flat(resumed->model), flat(straight->model)); // bit-identical
  for (const char *log : {"/last.safetensors", "/best.safetensors", "/metrics.csv"})
    EXPECT_EQ(slurp(fx.dir.path("split") + log), slurp(fx.dir.path("straight") + log)) << log;
  EXPECT_EQ(stepRows(fx.dir.path("split")), stepRows(fx.dir.path("straight")));
  return stopped.message();
}
} // namespace

TEST(Trainer, AStopWithinAnEpochSavesItAndResumesBitIdentically) {
  Fixture fx;
  ModelrtTrainConfig c = fx.prog.config;
  c.epochs = 3; // 8 batches of 16 (the last of 8) per epoch
  std::string dir = fx.dir.path("split");
  // Stopped during step 11 (index 10): epoch 2, batch 3. last.safetensors
  // holds the position and the epoch's sums; no epoch file is written for it.
  std::string stop = stopAndResume(fx, c, 10);
  EXPECT_EQ(stop, "interrupted after step 11 (epoch 2, batch 3 of 8): saved " + dir +
                      "/last.safetensors; continue with --resume " + dir + "/last.safetensors");
  // The epoch files of the resumed run are those of the straight one.
  EXPECT_EQ(listEpochCheckpoints(dir), listEpochCheckpoints(fx.dir.path("straight")));
  // A steps.csv row every 3 steps: the window of step 12's row spans the
  // stop after step 11 (the checkpoint keeps it), and that of step 9's
  // spans epoch 1's end.
  Fixture again;
  stopAndResume(again, c, 10, 3);
  EXPECT_NE(slurp(again.dir.path("split/steps.csv")).find("\n2,12,"), std::string::npos);
}

TEST(Trainer, AStopWithinAnEpochsStepGroupSavesAtTheGroupsEnd) {
  // Accumulation 2: a stop in the middle of a step's group waits for the
  // group's second batch; in the epoch's last group the epoch is finished.
  Fixture fx;
  ModelrtTrainConfig c = fx.prog.config;
  c.epochs = 3, c.optimizer.accumulate = 2; // 4 steps of 2 batches per epoch
  std::string dir = fx.dir.path("split");
  EXPECT_EQ(stopAndResume(fx, c, 5), // epoch 2's batch 3, the first of step index 5
            "interrupted after step 6 (epoch 2, batch 4 of 8): saved " + dir +
                "/last.safetensors; continue with --resume " + dir + "/last.safetensors");
  auto mid = readCheckpoint(fx.dir.path("straight/epoch-000001.safetensors"));
  ASSERT_TRUE(mid.isOk()) << mid.message();
  EXPECT_EQ(mid->loader.batchIndex, 0); // an epoch's checkpoint is at its start
  EXPECT_EQ(mid->epochSums.samples, 0);
  Fixture again;
  EXPECT_EQ(stopAndResume(again, c, 7), // epoch 2's batch 7
            "interrupted after step 8 (the end of epoch 2): saved " + again.dir.path("split") +
                "/last.safetensors; continue with --resume " + again.dir.path("split") +
                "/last.safetensors");
}

TEST(Trainer, AStopWhoseSaveFailsSaysSoAndKeepsTheEarlierCheckpoints) {
  // The checkpoint directory replaced by a file at the stop: the save fails
  // with its reason, and the run names the checkpoint it can resume from.
  Fixture fx;
  ModelrtTrainConfig c = fx.prog.config;
  c.epochs = 3;
  std::string dir = fx.dir.path("f");
  RunOptions o = fx.out("f");
  o.stop = &gStopRequest;
  gStopRequest = false, gStopAtStep = 10;
  gOnStop = [&] {
    ASSERT_EQ(std::rename(dir.c_str(), (dir + ".moved").c_str()), 0);
    writeText(dir, "not a directory");
  };
  auto r = trainProgram(fx.prog, c, o);
  gStopRequest = false, gOnStop = nullptr;
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.message().rfind("interrupted after step 11 (epoch 2, batch 3 of 8); saving it "
                              "failed: " +
                                  dir + "/last.safetensors: ",
                              0),
            0u)
      << r.message();
  EXPECT_NE(r.message().find("; stopping, the last good checkpoint, " + dir +
                             "/last.safetensors, is kept"),
            std::string::npos)
      << r.message();
  auto kept = readCheckpoint(dir + ".moved/last.safetensors"); // epoch 1's
  ASSERT_TRUE(kept.isOk()) << kept.message();
  EXPECT_EQ(kept->epoch, 1);
}

TEST(Trainer, AStopAskedOfOneRankStopsBothAtOneStepAndRankZeroSaves) {
  // Two ranks as threads: only rank 1 is asked to stop, during step index
  // 10 (of whichever rank runs it first: the threads race). The request
  // reaches both ranks with a step's figures, so both stop after the same
  // step, 11 or 12; rank 0 saves that step, and both say so.
  Fixture fx;
  ModelrtTrainConfig c = fx.prog.config;
  c.epochs = 3;
  auto twoRanks = [&](const std::string &sub, std::atomic<bool> *stopOfRank1,
                      std::vector<std::string> &errors) {
    ThreadGroup group(2);
    group.run([&](Collective &ranks) {
      RunOptions o = fx.out(sub);
      o.collective = &ranks, o.threads = 1;
      std::atomic<bool> never{false};
      o.stop = ranks.rank() == 1 ? stopOfRank1 : &never;
      auto r = trainProgram(fx.prog, c, o);
      errors[size_t(ranks.rank())] = r.isOk() ? "" : r.message();
    });
  };
  std::vector<std::string> straight(2), stopped(2);
  twoRanks("straight", nullptr, straight);
  EXPECT_EQ(straight, (std::vector<std::string>{"", ""}));
  std::string dir = fx.dir.path("split");
  gStopRequest = false, gStopAtStep = 10;
  twoRanks("split", &gStopRequest, stopped);
  gStopRequest = false, gStopAtStep = -1;
  EXPECT_EQ(stopped[0], stopped[1]);
  long long step = 0, batch = 0;
  ASSERT_EQ(std::sscanf(stopped[0].c_str(),
                        "interrupted after step %lld (epoch 2, batch %lld of 8)", &step, &batch),
            2)
      << stopped[0];
  EXPECT_TRUE(step == 11 || step == 12) << step;
  EXPECT_EQ(batch, step - 8);
  EXPECT_NE(stopped[0].find("): saved " + dir + "/last.safetensors; continue with --resume "),
            std::string::npos)
      << stopped[0];
  auto ck = readCheckpoint(dir + "/last.safetensors");
  ASSERT_TRUE(ck.isOk()) << ck.message();
  EXPECT_EQ(ck->step, step);
  EXPECT_EQ(ck->loader.batchIndex, batch);
  EXPECT_EQ(ck->epochSums.samples, batch * 16); // the global batches'
}

TEST(Trainer, AStopDuringValidationStopsOnceTheEpochIsSaved) {
  // Asked for while epoch 1 is validated: no step of epoch 2 runs; the run
  // stops with epoch 1's checkpoint, and resumes from it exactly.
  Fixture fx;
  ModelrtTrainConfig c = fx.prog.config;
  c.epochs = 3;
  auto straight = trainProgram(fx.prog, c, fx.out("straight"));
  ASSERT_TRUE(straight.isOk()) << straight.message();
  RunOptions o = fx.out("split");
  o.stop = &gStopRequest;
  gStopRequest = false, gStopInEvalAfter = 7; // epoch 1's last step
  auto stopped = trainProgram(fx.prog, c, o);
  gStopRequest = false, gStopInEval = false, gStopInEvalAfter = -1;
  ASSERT_FALSE(stopped.isOk());
  std::string dir = fx.dir.path("split");
  EXPECT_EQ(stopped.message(), "interrupted after step 8 (the end of epoch 1): saved " + dir +
                                   "/last.safetensors; continue with --resume " + dir +
                                   "/last.safetensors");
  EXPECT_EQ(slurp(dir + "/last.safetensors"), slurp(dir + "/epoch-000001.safetensors"));
  o.resume = dir + "/last.safetensors";
  auto resumed = trainProgram(fx.prog, c, o);
  ASSERT_TRUE(resumed.isOk()) << resumed.message();
  EXPECT_EQ(flat(resumed->model), flat(straight->model));
  EXPECT_EQ(slurp(dir + "/last.safetensors"), slurp(fx.dir.path("straight/last.safetensors")));
}

TEST(Trainer, AMidEpochCheckpointHoldsThePositionAndTheEpochsSums) {
  Fixture fx;
  ModelrtTrainConfig c = fx.prog.config;
  c.epochs = 2;
  RunOptions o = fx.out("s");
  o.stop = &gStopRequest;
  gStopRequest = false, gStopAtStep = 2;
  auto r = trainProgram(fx.prog, c, o);
  gStopRequest = false;
  ASSERT_FALSE(r.isOk());
  auto ck = readCheckpoint(fx.dir.path("s/last.safetensors"));
  ASSERT_TRUE(ck.isOk()) << ck.message();
  EXPECT_EQ(ck->epoch, 0);
  EXPECT_EQ(ck->step, 3);
  EXPECT_EQ(ck->loader.epoch, 0);
  EXPECT_EQ(ck->loader.batchIndex, 3);
  EXPECT_EQ(ck->epochSums.samples, 48);
  EXPECT_EQ(ck->epochSums.counted, 48);
  ASSERT_EQ(ck->epochSums.metrics.size(), 1u);
  EXPECT_GE(ck->epochSums.metrics[0], 0); // correct predictions among the 48
  EXPECT_LE(ck->epochSums.metrics[0], 48);
  EXPECT_GT(ck->epochSums.loss, 0);
  EXPECT_TRUE(ck->metrics.empty()); // no epoch has finished
  EXPECT_TRUE(listEpochCheckpoints(fx.dir.path("s")).empty());
  // Resumed for one more step, saying where: stopped again, its sums now
  // of 4 batches.
  o.resume = fx.dir.path("s/last.safetensors");
  char *text = nullptr;
  size_t size = 0;
  o.console = open_memstream(&text, &size);
  gStopAtStep = 3;
  r = trainProgram(fx.prog, c, o);
  gStopRequest = false;
  std::fclose(o.console);
  std::string console(text, size);
  std::free(text);
  EXPECT_EQ(console.rfind("resuming epoch 1 at batch 4 of 8 (after step 3)\n", 0), 0u) << console;
  ASSERT_FALSE(r.isOk());
  auto ck2 = readCheckpoint(fx.dir.path("s/last.safetensors"));
  ASSERT_TRUE(ck2.isOk()) << ck2.message();
  EXPECT_EQ(ck2->loader.batchIndex, 4);
  EXPECT_EQ(ck2->epochSums.samples, 64);
  EXPECT_GT(ck2->epochSums.loss, ck->epochSums.loss);
}

TEST(Trainer, GradientAccumulationEqualsOneLargeBatch) {
  // k micro-batches of b (accumulate k) against one batch of k*b: the loader's
  // permutation does not depend on the batch size, so both see the same
  // samples per update; SGD with momentum makes every step count.
  Fixture fx;
  ModelrtTrainConfig c = fx.prog.config;
  c.optimizer = {};
  c.optimizer.kind = MODELRT_OPT_SGD, c.optimizer.lr = 0.3, c.optimizer.momentum = 0.9;
  c.schedule = {};
  c.epochs = 2;
  c.batch_size = 40, c.optimizer.accumulate = 1;
  auto big = trainProgram(fx.prog, c, fx.out("big"));
  ASSERT_TRUE(big.isOk()) << big.message();
  c.batch_size = 10, c.optimizer.accumulate = 4;
  auto micro = trainProgram(fx.prog, c, fx.out("micro"));
  ASSERT_TRUE(micro.isOk()) << micro.message();
  EXPECT_EQ(big->steps, 6); // 120 / 40 per epoch
  EXPECT_EQ(micro->steps, 6);
  std::vector<float> a = flat(big->model), b = flat(micro->model), init;
  c.epochs = 0;
  auto none = trainProgram(fx.prog, c, fx.out("none"));
  ASSERT_TRUE(none.isOk());
  init = flat(none->model);
  double moved = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_NEAR(a[i], b[i], 1e-5) << "parameter element " << i;
    moved += std::fabs(a[i] - init[i]);
  }
  EXPECT_GT(moved, 1.0); // training changed the parameters
  // Without accumulation the micro-batch run takes 4x the steps and differs.
  c.epochs = 2, c.optimizer.accumulate = 1;
  auto plain = trainProgram(fx.prog, c, fx.out("plain"));
  ASSERT_TRUE(plain.isOk());
  EXPECT_EQ(plain->steps, 24);
  EXPECT_GT(std::fabs(flat(plain->model)[0] - a[0]), 1e-4);
}

TEST(Trainer, KeepsTheLastNEpochsAndTheBestByValidationLoss) {
  Fixture fx;
  RunOptions o = fx.out("k");
  o.keep = 2;
  auto r = trainProgram(fx.prog, fx.prog.config, o);
  ASSERT_TRUE(r.isOk()) << r.message();
  EXPECT_EQ(listEpochCheckpoints(fx.dir.path("k")),
            (std::vector<std::string>{"epoch-000005.safetensors", "epoch-000006.safetensors"}));
  // The best checkpoint is the epoch with the lowest val_loss in the log.
  std::ifstream log(fx.dir.path("k/metrics.csv"));
  std::string line;
  std::getline(log, line);
  double bestLoss = 1e300;
  int64_t bestEpoch = 0;
  while (std::getline(log, line)) {
    double v[7];
    ASSERT_EQ(std::sscanf(line.c_str(), "%lf,%lf,%lf,%lf,%lf,%lf,%lf", &v[0], &v[1], &v[2], &v[3],
                          &v[4], &v[5], &v[6]), 7);
    if (v[5] < bestLoss)
      bestLoss = v[5], bestEpoch = int64_t(v[0]);
  }
  auto best = readCheckpoint(fx.dir.path("k/best.safetensors"));
  ASSERT_TRUE(best.isOk()) << best.message();
  EXPECT_EQ(best->epoch, bestEpoch);
  EXPECT_NEAR(best->bestLoss, bestLoss, 1e-6 * bestLoss);
}

namespace {
int64_t gEvalCalls = 0, gLargestEvalCall = 0, gPredictCalls = 0;
int countingEval(void *ctx, float *const *p, float *const *s, const float *x, const void *y,
                 int64_t n, float *loss, double *metrics) {
  ++gEvalCalls;
  gLargestEvalCall = std::max(gLargestEvalCall, n);
  return evalStep(ctx, p, s, x, y, n, loss, metrics);
}
int countingPredict(void *ctx, float *const *p, float *const *s, const float *x, int64_t n,
                    float *out) {
  ++gPredictCalls;
  return predictFn(ctx, p, s, x, n, out);
}
} // namespace

// The CPU runner evaluates and predicts a large batch in chunks of about
// 1 GFLOP of training work (here 1e8 FLOPs per sample: chunks of the 64-sample
// minimum, split evenly), with the loss, the metric sums and the outputs of
// one call over the whole batch.
TEST(Trainer, CpuEvalAndPredictInChunksEqualOneCall) {
  Fixture fx;
  fx.prog.train_flops_per_sample = 1e8;
  fx.prog.eval_step = countingEval;
  fx.prog.predict = countingPredict;
  ModelState m = initModelState(fx.prog, 7);
  const int64_t n = 1000;
  Batch b;
  b.inputs = Tensor(DType::F32, {n, kF});
  b.labels = Tensor(DType::I64, {n});
  b.size = n;
  Rng rng(3);
  for (int64_t i = 0; i < n; ++i) {
    b.labels.as<int64_t>()[i] = i % kC;
    for (int64_t f = 0; f < kF; ++f)
      b.inputs.as<float>()[i * kF + f] = float(rng.normal());
  }
  auto runner = StepRunner::create(fx.prog, Device::Cpu);
  ASSERT_TRUE(runner.isOk()) << runner.status().message();
  float loss = 0, oneLoss = 0;
  double metrics[1] = {0}, oneMetrics[1] = {0};
  ASSERT_TRUE((*runner)->eval(m, b, &loss, metrics).isOk());
  EXPECT_EQ(gEvalCalls, 16); // round(1000 / 64) parts of 63 (the last 55)
  EXPECT_EQ(gLargestEvalCall, 63);
  evalStep(nullptr, m.paramPtrs.data(), m.statePtrs.data(), b.inputs.as<float>(),
           b.labels.data(), n, &oneLoss, oneMetrics);
  EXPECT_NEAR(loss, oneLoss, 1e-6 * std::fabs(oneLoss));
  EXPECT_EQ(metrics[0], oneMetrics[0]);
  std::vector<float> out(n * kC), oneOut(n * kC);
  ASSERT_TRUE((*runner)->predict(m, b.inputs.data(), n, out.data()).isOk());
  EXPECT_EQ(gPredictCalls, 16);
  predictFn(nullptr, m.paramPtrs.data(), m.statePtrs.data(), b.inputs.as<float>(), n,
            oneOut.data());
  EXPECT_EQ(out, oneOut);
  // Without a FLOP count the chunk is the training batch size (64 at least).
  gEvalCalls = 0;
  fx.prog.train_flops_per_sample = 0;
  fx.prog.config.batch_size = 250;
  auto plain = StepRunner::create(fx.prog, Device::Cpu);
  ASSERT_TRUE(plain.isOk());
  metrics[0] = 0;
  ASSERT_TRUE((*plain)->eval(m, b, &loss, metrics).isOk());
  EXPECT_EQ(gEvalCalls, 4);
  EXPECT_EQ(metrics[0], oneMetrics[0]);
}
