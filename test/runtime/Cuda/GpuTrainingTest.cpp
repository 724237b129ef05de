//===- GpuTrainingTest.cpp - Training through the GPU runner, on the fake -----===//
//
// The trainer with `--device cuda` on the fake driver, whose device memory
// is host memory: the softmax program of SoftmaxProgram.h serves as its own
// GPU entry points (the pointers it gets are the fake's device buffers). So
// the GPU runner's whole protocol runs: the model uploaded once, the batch
// per step, the gradient norm checked on the device, the optimizer's fused
// launch, the sync before every checkpoint, mirrored mode for gradient
// accumulation; eval and predict in mirrored mode. The results must be the
// CPU's, bit for bit.
//
//===----------------------------------------------------------------------===//
#include "CudaTestSupport.h"
#include "SoftmaxProgram.h"

#include <unistd.h>

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
  // One fused optimizer launch and two grad-norm launches per step, and the
  // grad norms of the 3 steps of zeros that plan the memory.
  EXPECT_EQ(counters().launches - launches, 3 * gpu->steps + 2 * 3);
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

TEST_F(GpuTrainingTest, MemoryPlanNamesTheLargestBatchThatFits) {
  // 64 KiB of device memory: the model fits, 4096 samples per step do not.
  configure(FakeCudaConfig{0, 1, 9, 0, uint64_t(64) << 10, 13000});
  ASSERT_TRUE(cuda::initCuda().isOk());
  Fixture fx;
  addGpuEntryPoints(fx.prog);
  ModelrtTrainConfig c = fx.prog.config;
  c.batch_size = 4096;
  c.epochs = 1;
  auto r = trainProgram(fx.prog, c, onDevice(fx, "big", Device::Cuda));
  ASSERT_FALSE(r.isOk());
  const std::string &msg = r.message();
  EXPECT_EQ(msg.rfind("GPU memory: a training step of 4096 samples needs about ", 0), 0u) << msg;
  size_t at = msg.find("the largest batch that fits is ");
  ASSERT_NE(at, std::string::npos) << msg;
  int64_t fits = std::stoll(msg.substr(at + 31));
  EXPECT_GT(fits, 16);
  EXPECT_LT(fits, 4096);
  EXPECT_NE(msg.find("(--batch " + std::to_string(fits) + ")"), std::string::npos) << msg;
  // Nothing was written, and the suggested batch trains.
  EXPECT_NE(access(fx.dir.path("big/last.safetensors").c_str(), F_OK), 0);
  c.batch_size = fits;
  auto ok = trainProgram(fx.prog, c, onDevice(fx, "fits", Device::Cuda));
  EXPECT_TRUE(ok.isOk()) << ok.message();
}

TEST_F(GpuTrainingTest, EvalAndPredictThroughTheGpuRunnerEqualTheCpu) {
  ASSERT_TRUE(cuda::initCuda().isOk());
  Fixture fx;
  addGpuEntryPoints(fx.prog);
  auto trained = trainProgram(fx.prog, fx.prog.config, onDevice(fx, "t", Device::Cpu));
  ASSERT_TRUE(trained.isOk());
  auto data = loadEvaluationData(fx.prog, fx.prog.config);
  ASSERT_TRUE(data) << data.message();
  auto cpu = StepRunner::create(fx.prog, Device::Cpu);
  auto gpu = StepRunner::create(fx.prog, Device::Cuda);
  ASSERT_TRUE(cpu && gpu);
  // Odd batch sizes: the last batch is partial, the staging buffers regrow.
  auto ec = evaluateDataset(fx.prog, trained->model, *data, 7, false, cpu->get());
  auto eg = evaluateDataset(fx.prog, trained->model, *data, 7, false, gpu->get());
  ASSERT_TRUE(ec && eg) << eg.message();
  EXPECT_EQ(ec->loss, eg->loss);
  EXPECT_EQ(ec->metrics, eg->metrics);
  EXPECT_EQ(eg->samples, 30);
  auto pc = predictTensor(fx.prog, trained->model, data->inputs, 11, cpu->get());
  auto pg = predictTensor(fx.prog, trained->model, data->inputs, 11, gpu->get());
  ASSERT_TRUE(pc && pg) << pg.message();
  ASSERT_EQ(pc->numBytes(), pg->numBytes());
  EXPECT_EQ(0, std::memcmp(pc->data(), pg->data(), pc->numBytes()));
}
