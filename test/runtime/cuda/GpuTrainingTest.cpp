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

#include "modelrt/core/Profile.h"
#include "modelrt/train/Evaluate.h"

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

/// GPU training halves whose work is all device work (copies, fake_scale
/// launches, the seed's cell), which the fake can capture into a graph:
/// grads = 0.5 * params, except that the first elements of the weight's
/// gradient are 0.5 * the batch's inputs; the loss is (seed mod 1000) / 1000,
/// read from the seed's cell through scratch cell 0.
char kScaleImage[] = "module with fake_scale";
void *gScale = nullptr;
/// The first input of the batch deviceEnqueue saw, and the number of steps
/// whose deviceFinish saw another one in the device buffer (the fake runs
/// copies at once: the next batch was staged during the step).
float gEnqueuedInput = 0;
int gStagedDuringStep = 0;

int deviceEnqueue(void *, float *const *p, float *const *, const float *x, const void *,
                  int64_t n, uint64_t seed, int64_t, float *, float *const *g, double *) {
  const int64_t sizes[] = {kF * kC, kC};
  for (int i = 0; i < 2; ++i) {
    modelrt_cuda_copy(g[i], p[i], sizes[i] * 4);
    if (i == 0)
      modelrt_cuda_copy(g[0], x, std::min(sizes[0], n * kF) * 4);
    void *data = g[i];
    float half = 0.5f;
    int64_t count = sizes[i];
    void *params[] = {&data, &half, &count};
    mgpuLaunchKernel(gScale, 1, 1, 1, count, 1, 1, 0, nullptr, params, nullptr, 3);
  }
  modelrt_cuda_copy(modelrt_cuda_scratch(0), modelrt_cuda_seed_cell(seed), 8);
  gEnqueuedInput = x[0];
  return modelrt_cuda_status();
}

int deviceFinish(void *, float *const *, float *const *, const float *x, const void *, int64_t,
                 uint64_t, int64_t, float *loss, float *const *, double *) {
  gStagedDuringStep += x[0] != gEnqueuedInput;
  uint64_t seed = 0;
  std::memcpy(&seed, modelrt_cuda_fetch_scratch(1), 8);
  *loss = float(seed % 1000) / 1000.0f;
  return modelrt_cuda_status();
}

/// deviceEnqueue, then a wait for the stream, which a capture forbids.
int waitingEnqueue(void *c, float *const *p, float *const *s, const float *x, const void *y,
                   int64_t n, uint64_t seed, int64_t step, float *loss, float *const *g,
                   double *m) {
  int rc = deviceEnqueue(c, p, s, x, y, n, seed, step, loss, g, m);
  modelrt_cuda_fetch_scratch(1);
  return rc ? rc : modelrt_cuda_status();
}

int deviceStep(void *c, float *const *p, float *const *s, const float *x, const void *y,
               int64_t n, uint64_t seed, int64_t step, float *loss, float *const *g, double *m) {
  int rc = deviceEnqueue(c, p, s, x, y, n, seed, step, loss, g, m);
  return rc ? rc : deviceFinish(c, p, s, x, y, n, seed, step, loss, g, m);
}

/// The fixture's program with the device-work halves above as its GPU
/// training step (\p enqueue: deviceEnqueue or waitingEnqueue).
void useDeviceProgram(Fixture &fx, ModelrtTrainStepFn enqueue = deviceEnqueue) {
  gScale = mgpuModuleGetFunction(mgpuModuleLoad(kScaleImage, sizeof(kScaleImage)), "fake_scale");
  ASSERT_NE(gScale, nullptr);
  addGpuEntryPoints(fx.prog);
  fx.prog.gpu_train_step = deviceStep;
  fx.prog.gpu_train_enqueue = enqueue;
  fx.prog.gpu_train_finish = deviceFinish;
}

/// The batch sizes the GPU evaluation and prediction entry points were
/// called with, and whether each batch's first input was zero.
std::vector<std::pair<int64_t, bool>> gEvalCalls, gPredictCalls;

int countedEval(void *c, float *const *p, float *const *s, const float *x, const void *y,
                int64_t n, float *loss, double *m) {
  gEvalCalls.push_back({n, x[0] == 0.0f});
  return evalStep(c, p, s, x, y, n, loss, m);
}

int countedPredict(void *c, float *const *p, float *const *s, const float *x, int64_t n,
                   float *out) {
  gPredictCalls.push_back({n, x[0] == 0.0f});
  return predictFn(c, p, s, x, n, out);
}

RunOptions onDevice(Fixture &fx, const std::string &sub, Device d) {
  RunOptions o = fx.out(sub);
  o.device = d;
  return o;
}

/// Every sample of \p data as one [N, sample...] tensor (read through the
/// dataset: the fixture's NPY files are mapped, `inputs` stays empty).
Tensor allInputs(const Dataset &data) {
  std::vector<int64_t> shape = {data.size()};
  for (int64_t d : data.sampleShape())
    shape.push_back(d);
  Tensor inputs(data.inputType(), shape);
  size_t bytes = size_t(data.sampleElements()) * dtypeSize(data.inputType());
  for (int64_t s = 0; s < data.size(); ++s)
    data.readSample(s, static_cast<unsigned char *>(inputs.data()) + size_t(s) * bytes);
  return inputs;
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

TEST_F(GpuTrainingTest, AStopWithinAnEpochSavesTheDevicesStateAndResumes) {
  // Stopped on the GPU during step index 10 (epoch 2, batch 3): the saved
  // checkpoint holds the device's parameters and moments, and the resumed
  // run ends as the CPU's straight one does.
  ASSERT_TRUE(cuda::initCuda().isOk());
  Fixture fx;
  addGpuEntryPoints(fx.prog);
  auto full = trainProgram(fx.prog, fx.prog.config, onDevice(fx, "full", Device::Cpu));
  ASSERT_TRUE(full.isOk());
  RunOptions o = onDevice(fx, "part", Device::Cuda);
  o.stop = &gStopRequest;
  gStopRequest = false, gStopAtStep = 10;
  auto stopped = trainProgram(fx.prog, fx.prog.config, o);
  gStopRequest = false, gStopAtStep = -1;
  ASSERT_FALSE(stopped.isOk());
  EXPECT_NE(stopped.message().find("interrupted after step 11 (epoch 2, batch 3 of 8): saved "),
            std::string::npos)
      << stopped.message();
  o.resume = fx.dir.path("part/last.safetensors");
  auto resumed = trainProgram(fx.prog, fx.prog.config, o);
  ASSERT_TRUE(resumed.isOk()) << resumed.message();
  EXPECT_EQ(flat(resumed->model), flat(full->model));
  EXPECT_EQ(slurp(fx.dir.path("part/last.safetensors")),
            slurp(fx.dir.path("full/last.safetensors")));
  EXPECT_EQ(slurp(fx.dir.path("part/metrics.csv")), slurp(fx.dir.path("full/metrics.csv")));
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
                         "NaN; stopping, the last good checkpoint, " +
                             fx.dir.path("n") + "/last.safetensors, is kept");
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
  Tensor inputs = allInputs(*data);
  auto pc = predictTensor(fx.prog, trained->model, inputs, 11, cpu->get());
  auto pg = predictTensor(fx.prog, trained->model, inputs, 11, gpu->get());
  ASSERT_TRUE(pc && pg) << pg.message();
  ASSERT_EQ(pc->numBytes(), pg->numBytes());
  EXPECT_EQ(0, std::memcmp(pc->data(), pg->data(), pc->numBytes()));
}

TEST_F(GpuTrainingTest, GraphReplaysTrainExactlyLikeEagerSteps) {
  ASSERT_TRUE(cuda::initCuda().isOk());
  Fixture fx;
  useDeviceProgram(fx);
  setenv("MODELRT_CUDA_GRAPHS", "0", 1); // graphs are on unless this turns them off
  auto eager = trainProgram(fx.prog, fx.prog.config, onDevice(fx, "eager", Device::Cuda));
  unsetenv("MODELRT_CUDA_GRAPHS");
  ASSERT_TRUE(eager.isOk()) << eager.message();
  EXPECT_EQ(eager->deviceSummary, "");
  EXPECT_EQ(counters().captures, 0);
  auto graphs = trainProgram(fx.prog, fx.prog.config, onDevice(fx, "graphs", Device::Cuda));
  ASSERT_TRUE(graphs.isOk()) << graphs.message();
  // The memory plan's second step of 16 samples is captured and its third
  // replays it; every training step of 16 replays it; the last, partial
  // batch of each epoch is captured at its second sighting (epoch 2) and
  // replayed from then on. 8 nodes: 3 copies and 2 scales for the
  // gradients, the seed's copy, the gradient norm's 2 launches.
  EXPECT_EQ(counters().captures, 2);
  EXPECT_EQ(counters().graphLaunches, 2 + eager->steps - 1);
  EXPECT_EQ(graphs->deviceSummary,
            "CUDA graphs: " + std::to_string(eager->steps - 1) + " of " +
                std::to_string(eager->steps) +
                " training steps replayed from 2 captured graphs (nodes: 8, 8)");
  EXPECT_EQ(flat(graphs->model), flat(eager->model));
  EXPECT_EQ(slurp(fx.dir.path("graphs/last.safetensors")),
            slurp(fx.dir.path("eager/last.safetensors")));
  // The per-epoch losses come from each step's seed: not baked in.
  EXPECT_EQ(slurp(fx.dir.path("graphs/metrics.csv")), slurp(fx.dir.path("eager/metrics.csv")));
}

TEST_F(GpuTrainingTest, AStepThatCannotBeCapturedRunsWithoutGraphs) {
  ASSERT_TRUE(cuda::initCuda().isOk());
  Fixture fx;
  useDeviceProgram(fx, waitingEnqueue);
  setenv("MODELRT_CUDA_GRAPHS", "0", 1);
  auto eager = trainProgram(fx.prog, fx.prog.config, onDevice(fx, "eager", Device::Cuda));
  unsetenv("MODELRT_CUDA_GRAPHS");
  ASSERT_TRUE(eager.isOk()) << eager.message();
  auto tried = trainProgram(fx.prog, fx.prog.config, onDevice(fx, "tried", Device::Cuda));
  ASSERT_TRUE(tried.isOk()) << tried.message();
  EXPECT_EQ(counters().captures, 1); // tried once, in the memory plan
  EXPECT_EQ(counters().graphLaunches, 0);
  EXPECT_EQ(tried->deviceSummary,
            "CUDA graphs turned off (capturing the step as a CUDA graph: CUDA error: "
            "cuStreamSynchronize (scratch cells) failed with "
            "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED); 0 of " +
                std::to_string(eager->steps) +
                " training steps replayed from 0 captured graphs");
  EXPECT_EQ(flat(tried->model), flat(eager->model));
  EXPECT_EQ(slurp(fx.dir.path("tried/metrics.csv")), slurp(fx.dir.path("eager/metrics.csv")));
}

TEST_F(GpuTrainingTest, AStagedBatchIsTheOneTheStepUses) {
  ASSERT_TRUE(cuda::initCuda().isOk());
  Fixture fx;
  useDeviceProgram(fx);
  auto runner = StepRunner::create(fx.prog, Device::Cuda);
  ASSERT_TRUE(runner.isOk()) << runner.message();
  ModelState m = initModelState(fx.prog, 7);
  Batch b;
  b.size = 2;
  b.inputs = Tensor(DType::F32, {2, kF});
  b.labels = Tensor(DType::I64, {2});
  for (int64_t i = 0; i < 2 * kF; ++i)
    b.inputs.as<float>()[i] = float(i + 1);
  std::vector<std::vector<float>> grads = {std::vector<float>(kF * kC), std::vector<float>(kC)};
  float *g[] = {grads[0].data(), grads[1].data()};
  float loss = 0;
  double metrics[1] = {0};
  // Staged ahead, then changed on the host: the step uses what was staged
  // (mirrored mode: the gradients come back; the first 8 are 0.5 * inputs).
  ASSERT_TRUE((*runner)->stage(b).isOk());
  for (int64_t i = 0; i < 2 * kF; ++i)
    b.inputs.as<float>()[i] = -1.0f;
  ASSERT_TRUE((*runner)->train(m, b, 1, 0, &loss, g, metrics).isOk());
  for (int64_t i = 0; i < 2 * kF; ++i)
    EXPECT_EQ(grads[0][i], 0.5f * float(i + 1)) << i;
  // Not staged: train() uploads the batch as it is now.
  ASSERT_TRUE((*runner)->train(m, b, 1, 0, &loss, g, metrics).isOk());
  for (int64_t i = 0; i < 2 * kF; ++i)
    EXPECT_EQ(grads[0][i], -0.5f) << i;
  // An evaluation between stage() and train() overwrites the device batch:
  // train() uploads it again.
  ASSERT_TRUE((*runner)->stage(b).isOk());
  Batch other = b;
  for (int64_t i = 0; i < 2 * kF; ++i)
    other.inputs.as<float>()[i] = 7.0f;
  ASSERT_TRUE((*runner)->eval(m, other, &loss, metrics).isOk());
  ASSERT_TRUE((*runner)->train(m, b, 1, 0, &loss, g, metrics).isOk());
  for (int64_t i = 0; i < 2 * kF; ++i)
    EXPECT_EQ(grads[0][i], -0.5f) << i;
}

TEST_F(GpuTrainingTest, StagingTheNextBatchDuringTheStepChangesNothing) {
  ASSERT_TRUE(cuda::initCuda().isOk());
  Fixture fx;
  useDeviceProgram(fx);
  gStagedDuringStep = 0;
  // The probe reads the batch in deviceEnqueue, which a graph's replay does
  // not call: eager steps here.
  setenv("MODELRT_CUDA_GRAPHS", "0", 1);
  auto ahead = trainProgram(fx.prog, fx.prog.config, onDevice(fx, "ahead", Device::Cuda));
  unsetenv("MODELRT_CUDA_GRAPHS");
  int stagedAhead = gStagedDuringStep;
  gStagedDuringStep = 0;
  setProfiling(true); // no lookahead under --profile
  auto inTurn = trainProgram(fx.prog, fx.prog.config, onDevice(fx, "inturn", Device::Cuda));
  setProfiling(false);
  ASSERT_TRUE(ahead.isOk() && inTurn.isOk()) << ahead.message() << inTurn.message();
  // Every step but each epoch's last had its successor staged meanwhile.
  int64_t epochs = fx.prog.config.epochs;
  EXPECT_EQ(stagedAhead, ahead->steps - epochs);
  EXPECT_EQ(gStagedDuringStep, 0);
  EXPECT_EQ(ahead->steps, inTurn->steps);
  EXPECT_EQ(flat(ahead->model), flat(inTurn->model));
  EXPECT_EQ(slurp(fx.dir.path("ahead/last.safetensors")),
            slurp(fx.dir.path("inturn/last.safetensors")));
  EXPECT_EQ(slurp(fx.dir.path("ahead/metrics.csv")), slurp(fx.dir.path("inturn/metrics.csv")));
}

TEST_F(GpuTrainingTest, EvaluationAndPredictionWarmUpOnceBeforeTheirFirstBatch) {
  ASSERT_TRUE(cuda::initCuda().isOk());
  Fixture fx;
  addGpuEntryPoints(fx.prog);
  fx.prog.gpu_eval_step = countedEval;
  fx.prog.gpu_predict = countedPredict;
  auto trained = trainProgram(fx.prog, fx.prog.config, onDevice(fx, "t", Device::Cpu));
  ASSERT_TRUE(trained.isOk());
  auto data = loadEvaluationData(fx.prog, fx.prog.config);
  ASSERT_TRUE(data) << data.message();
  auto cpu = StepRunner::create(fx.prog, Device::Cpu);
  auto gpu = StepRunner::create(fx.prog, Device::Cuda);
  ASSERT_TRUE(cpu && gpu);
  Tensor inputs = allInputs(*data);
  ASSERT_NE(inputs.as<float>()[0], 0.0f); // tells the warm-up's zeros apart
  gEvalCalls.clear();
  auto ec = evaluateDataset(fx.prog, trained->model, *data, 7, false, cpu->get());
  EXPECT_TRUE(gEvalCalls.empty()); // the CPU runner has nothing to warm up
  // The GPU: one step of 7 zero samples first, then the 5 batches (7, 7, 7,
  // 7, 2); a second evaluation at the same size warms up nothing.
  std::vector<std::pair<int64_t, bool>> batches = {
      {7, false}, {7, false}, {7, false}, {7, false}, {2, false}};
  std::vector<std::pair<int64_t, bool>> first = {{7, true}};
  first.insert(first.end(), batches.begin(), batches.end());
  auto eg = evaluateDataset(fx.prog, trained->model, *data, 7, false, gpu->get());
  EXPECT_EQ(gEvalCalls, first);
  gEvalCalls.clear();
  auto again = evaluateDataset(fx.prog, trained->model, *data, 7, false, gpu->get());
  EXPECT_EQ(gEvalCalls, batches);
  ASSERT_TRUE(ec && eg && again) << eg.message();
  // The warm-up changes no result.
  EXPECT_EQ(ec->loss, eg->loss);
  EXPECT_EQ(ec->metrics, eg->metrics);
  EXPECT_EQ(again->loss, eg->loss);
  EXPECT_EQ(eg->samples, 30);
  // A batch larger than the data: the warm-up takes the data's size.
  gEvalCalls.clear();
  ASSERT_TRUE(evaluateDataset(fx.prog, trained->model, *data, 64, false, gpu->get()));
  EXPECT_EQ(gEvalCalls, (std::vector<std::pair<int64_t, bool>>{{30, true}, {30, false}}));
  // Prediction warms up its own step, once per size too.
  gPredictCalls.clear();
  auto pg = predictTensor(fx.prog, trained->model, inputs, 11, gpu->get());
  ASSERT_TRUE(pg) << pg.message();
  EXPECT_EQ(gPredictCalls, (std::vector<std::pair<int64_t, bool>>{
                               {11, true}, {11, false}, {11, false}, {8, false}}));
  auto pc = predictTensor(fx.prog, trained->model, inputs, 11, cpu->get());
  ASSERT_TRUE(pc);
  EXPECT_EQ(0, std::memcmp(pc->data(), pg->data(), pc->numBytes()));
}
