//===- GpuTrainingTest.cpp - Training through the GPU runner, on the fake -----===//
//
// The trainer with `--device cuda` on the fake driver, whose device memory
// is host memory: the softmax program of SoftmaxProgram.h serves as its own
// GPU entry points (the pointers it gets are the fake's device buffers). So
// the GPU runner's whole protocol runs: the model uploaded once, the batch
// per step, the gradient norm checked on the device, the optimizer's fused
// launch, the sync before every checkpoint, mirrored mode for gradient
// accumulation. The results must be the CPU's, bit for bit.
//
//===----------------------------------------------------------------------===//
#include "CudaTestSupport.h"
#include "SoftmaxProgram.h"

using namespace modelrt;
using namespace modelrt_test;

namespace {

/// The fixture's program with the GPU entry points set.
void addGpuEntryPoints(ModelrtProgram &p) {
  p.gpu_train_step = trainStep;
  p.gpu_eval_step = evalStep;
  p.gpu_predict = predictFn;
}

RunOptions onDevice(Fixture &fx, const std::string &sub, Device d) {
  RunOptions o = fx.out(sub);
  o.device = d;
  return o;
}

} // namespace

class GpuTrainingTest : public FakeDriverTest {};

TEST_F(GpuTrainingTest, ResidentTrainingEqualsCpuTraining) {
  ASSERT_TRUE(cuda::initCuda().isOk());
  Fixture fx;
  addGpuEntryPoints(fx.prog);
  auto cpu = trainProgram(fx.prog, fx.prog.config, onDevice(fx, "cpu", Device::Cpu));
  ASSERT_TRUE(cpu.isOk()) << cpu.message();
  int64_t launches = counters().launches;
  auto gpu = trainProgram(fx.prog, fx.prog.config, onDevice(fx, "gpu", Device::Cuda));
  ASSERT_TRUE(gpu.isOk()) << gpu.message();
  // One fused optimizer launch and two grad-norm launches per step.
  EXPECT_EQ(counters().launches - launches, 3 * gpu->steps);
  EXPECT_EQ(flat(gpu->model), flat(cpu->model));
  // Every checkpoint (parameters, moments, step counts) is the same bytes.
  EXPECT_EQ(slurp(fx.dir.path("gpu/last.safetensors")),
            slurp(fx.dir.path("cpu/last.safetensors")));
  EXPECT_EQ(slurp(fx.dir.path("gpu/metrics.csv")), slurp(fx.dir.path("cpu/metrics.csv")));
}

TEST_F(GpuTrainingTest, CpuCheckpointResumesOnTheGpu) {
  ASSERT_TRUE(cuda::initCuda().isOk());
  Fixture fx;
  addGpuEntryPoints(fx.prog);
  auto full = trainProgram(fx.prog, fx.prog.config, onDevice(fx, "full", Device::Cpu));
  ASSERT_TRUE(full.isOk());
  ModelrtTrainConfig c = fx.prog.config;
  c.epochs = 2;
  ASSERT_TRUE(trainProgram(fx.prog, c, onDevice(fx, "part", Device::Cpu)).isOk());
  RunOptions o = onDevice(fx, "part", Device::Cuda);
  o.resume = fx.dir.path("part/last.safetensors");
  auto resumed = trainProgram(fx.prog, fx.prog.config, o);
  ASSERT_TRUE(resumed.isOk()) << resumed.message();
  EXPECT_EQ(flat(resumed->model), flat(full->model));
  EXPECT_EQ(slurp(fx.dir.path("part/last.safetensors")),
            slurp(fx.dir.path("full/last.safetensors")));
}

TEST_F(GpuTrainingTest, NonFiniteGradientIsNamedFromTheDevice) {
  ASSERT_TRUE(cuda::initCuda().isOk());
  Fixture fx;
  addGpuEntryPoints(fx.prog);
  ModelrtTrainConfig c = fx.prog.config;
  c.epochs = 3;
  c.batch_size = 60;
  gPoison = true;
  auto r = trainProgram(fx.prog, c, onDevice(fx, "n", Device::Cuda));
  gPoison = false;
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.message(), "step 3 (epoch 2, batch 1): gradient of parameter 'b' (element 1) is "
                         "NaN; stopping, the last good checkpoint is kept");
}

TEST_F(GpuTrainingTest, AccumulationRunsMirroredAndEqualsCpu) {
  ASSERT_TRUE(cuda::initCuda().isOk());
  Fixture fx;
  addGpuEntryPoints(fx.prog);
  ModelrtTrainConfig c = fx.prog.config;
  c.optimizer.accumulate = 2;
  c.epochs = 2;
  auto cpu = trainProgram(fx.prog, c, onDevice(fx, "cpu", Device::Cpu));
  int64_t launches = counters().launches;
  auto gpu = trainProgram(fx.prog, c, onDevice(fx, "gpu", Device::Cuda));
  ASSERT_TRUE(cpu.isOk() && gpu.isOk()) << gpu.message();
  EXPECT_EQ(counters().launches, launches); // host updates: no optimizer kernel
  EXPECT_EQ(flat(gpu->model), flat(cpu->model));
}
