//===- InfoCommandTest.cpp - info's layer table, memory plans and --memory -===//
//
// Runs `info` on the softmax test program (4 features, 3 classes, 15
// parameters) with a layer table written here, and checks the plans'
// figures against sums worked out in the comments.
//
//===----------------------------------------------------------------------===//
#include "CliRun.h"
#include "SoftmaxProgram.h"

using namespace modelrt;
using namespace modelrt_test;

namespace {


const int64_t kLayerShape[] = {3};
/// One layer: 15 parameters, 2*4*3 + 3 = 27 FLOPs, 3 floats = 12 bytes.
const ModelrtLayerInfo kLayers[] = {{"linear_0", 1, kLayerShape, 15, 27, 12}};

/// The fixture's program with the layer table and SGD with momentum.
struct LayeredFixture : Fixture {
  LayeredFixture() {
    prog.num_layers = 1, prog.layers = kLayers;
    prog.config.optimizer.kind = MODELRT_OPT_SGD;
    prog.config.optimizer.momentum = 0.9;
  }
};

bool has(const std::string &out, const std::string &line) {
  return out.find(line) != std::string::npos;
}

TEST(InfoCommand, LayerTableAndPlans) {
  LayeredFixture fx;
  CliRun r = runCli(fx.prog, {"info", "--batch", "10", "--memory", "1KiB"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "linear_0  [3]                            15             27             12\n"))
      << r.out;
  // Batch 10: params 15*4 = 60 B, grads 60 B, momentum 60 B, input
  // 10*4*4 = 160 B, activations 10*12 = 120 B: 460 B. Evaluation: the
  // input and the layer's output, 10*(16 + 12) = 280 B, + 60 B = 340 B.
  EXPECT_TRUE(has(r.out, "optimizer state (sgd)                60 B              -\n")) << r.out;
  EXPECT_TRUE(has(r.out, "input batch                         160 B              -\n")) << r.out;
  EXPECT_TRUE(has(r.out, "activations                         120 B          280 B\n")) << r.out;
  EXPECT_TRUE(has(r.out, "total                               460 B          340 B\n")) << r.out;
  // 1 KiB: (1024 - 180) / 28 per sample = 30.1 -> 30.
  EXPECT_TRUE(has(r.out, "largest batch that fits in 1.00 KiB: 30\n")) << r.out;
}

TEST(InfoCommand, WithoutLayersThePlansCountTheInputOnly) {
  Fixture fx; // Adam, no layer table
  CliRun r = runCli(fx.prog, {"info", "--batch", "10"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "layers: unknown")) << r.out;
  // Adam: 2*60 B of moments; evaluation keeps the input batch: 60 + 160.
  EXPECT_TRUE(has(r.out, "optimizer state (adam)              120 B              -\n")) << r.out;
  EXPECT_TRUE(has(r.out, "total                               400 B          220 B\n")) << r.out;
  EXPECT_TRUE(has(r.out, "(this machine's RAM): ")) << r.out;
}

TEST(InfoCommand, RmspropKeepsOneOrTwoValuesPerParameter) {
  LayeredFixture fx;
  fx.prog.config.optimizer.kind = MODELRT_OPT_RMSPROP;
  fx.prog.config.optimizer.momentum = 0;
  CliRun r = runCli(fx.prog, {"info"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "optimizer state (rmsprop)            60 B")) << r.out;
  fx.prog.config.optimizer.momentum = 0.9;
  r = runCli(fx.prog, {"info"});
  EXPECT_TRUE(has(r.out, "optimizer state (rmsprop)           120 B")) << r.out;
}

TEST(InfoCommand, BadMemoryIsAnInvalidValueBeforeAnythingIsPrinted) {
  LayeredFixture fx;
  for (const char *bad : {"8XB", "-1", "0GiB", "GiB", "8 GiB", "1e400B", "1e308GiB"}) {
    CliRun r = runCli(fx.prog, {"info", "--memory", bad});
    EXPECT_EQ(r.status, 1) << bad;
    EXPECT_EQ(r.out, "") << bad;
    EXPECT_TRUE(has(r.err, std::string("option --memory: invalid value '") + bad + "'"))
        << r.err;
  }
  CliRun r = runCli(fx.prog, {"info", "--memory", "1.5MiB"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "largest batch that fits in 1.50 MiB: ")) << r.out;
}

} // namespace
