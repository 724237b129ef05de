//===- DataParallelGpuRun.cpp - SoftmaxProgram trained on ranks of GPUs ----===//
//
// A test tool for test/runtime/cuda/distributed-nccl.test: trains the
// softmax program of SoftmaxProgram.h, whose C entry points serve as its own
// GPU entry points on the fake CUDA driver (device memory is host memory),
// with `--device cuda` in the world of ranks the launcher started (mpirun,
// or this process alone). So the trainer's data-parallel GPU paths run with
// real numbers: the gradients summed by NCCL on the devices (the fake
// libnccl) and stepped there, or staged through pinned host memory and
// summed through MPI. The program gets a state tensor too, a running mean
// of its inputs that each rank updates from its slices (as batch norm's
// running statistics), which the trainer averages over the ranks after
// each epoch: on the devices with NCCL, on the host without. Rank 0 writes
// steps.csv (every step) and the checkpoints into OUT_DIR and prints the
// trainer's notes on stderr.
//
// Usage: DataParallelGpuRun OUT_DIR BATCH EPOCHS
//
//===----------------------------------------------------------------------===//
#include "SoftmaxProgram.h"

#include "modelrt/dist/Collective.h"

#include <cstdio>
#include <cstdlib>

using namespace modelrt;

namespace {

const int64_t kStateShape[] = {modelrt_test::kF};
const ModelrtTensorDesc kState[] = {
    {"input_mean", MODELRT_F32, 1, kStateShape, MODELRT_INIT_ZEROS, {0, 0}, 0, 0}};

/// SoftmaxProgram's step, and state = 0.9 state + 0.1 the batch's mean input.
int trainWithMean(void *ctx, float *const *p, float *const *s, const float *x, const void *y,
                  int64_t n, uint64_t seed, int64_t step, float *loss, float *const *g,
                  double *metrics) {
  for (int64_t f = 0; f < modelrt_test::kF; ++f) {
    double sum = 0;
    for (int64_t i = 0; i < n; ++i)
      sum += x[i * modelrt_test::kF + f];
    s[0][f] = 0.9f * s[0][f] + float(0.1 * sum / double(n));
  }
  return modelrt_test::trainStep(ctx, p, s, x, y, n, seed, step, loss, g, metrics);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s OUT_DIR BATCH EPOCHS\n", argv[0]);
    return 2;
  }
  modelrt_test::Fixture fx; // its data, written into its own temporary directory
  fx.prog.num_state = 1, fx.prog.state = kState;
  fx.prog.train_step = fx.prog.gpu_train_step = trainWithMean;
  fx.prog.gpu_eval_step = modelrt_test::evalStep;
  fx.prog.gpu_predict = modelrt_test::predictFn;
  ModelrtTrainConfig &cfg = fx.prog.config;
  cfg.batch_size = std::atoi(argv[2]), cfg.epochs = std::atoi(argv[3]);
  auto ranks = collectiveFromEnvironment(60);
  if (!ranks) {
    std::fprintf(stderr, "%s: error: %s\n", argv[0], ranks.message().c_str());
    return 1;
  }
  Collective &world = **ranks;
  RunOptions opts;
  opts.checkpointDir = argv[1];
  opts.logEverySteps = 1;
  opts.device = Device::Cuda;
  opts.collective = &world;
  opts.console = world.rank() == 0 ? stdout : std::fopen("/dev/null", "w");
  opts.note = [&](const std::string &note) { std::fprintf(stderr, "note: %s\n", note.c_str()); };
  auto result = trainProgram(fx.prog, cfg, opts);
  if (!result) {
    std::fprintf(stderr, "%s: error: rank %d of %d: %s\n", argv[0], world.rank(), world.size(),
                 result.message().c_str());
    std::fflush(stderr);
    world.abort(1);
    return 1;
  }
  if (world.rank() == 0)
    std::printf("trained %lld epochs (%lld steps)\n", (long long)result->epochs,
                (long long)result->steps);
  return 0;
}
