//===- OptimizerKernelsTest.cpp - The CUDA optimizer kernels, without a GPU -===//
//
// Checks what can be checked on a machine with no GPU: the PTX embedded in
// libmodelrt assembles with ptxas for sm_90 and has every kernel that
// OptimizerKernels.h documents; the kernels' chunking and indexing
// (OptimizerMath.h, the same code the kernels run) cover every element of
// every tensor exactly once for awkward sizes and launch shapes; and the
// kernels' composition (chunk loop + stepElement) gives bit-identical
// results to the CPU optimizer for every variant.
//
//===----------------------------------------------------------------------===//
#include "modelrt/cuda/OptimizerKernels.h"
#include "modelrt/train/Optimizer.h"
#include "modelrt/train/OptimizerMath.h"

#include "TestUtil.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

using namespace modelrt;

#ifndef MODELRT_PTXAS
#define MODELRT_PTXAS "/usr/local/cuda/bin/ptxas"
#endif

static std::string embeddedPtx() {
  size_t size = 0;
  const char *text = modelrt_optimizer_ptx(&size);
  EXPECT_NE(text, nullptr);
  EXPECT_EQ(std::strlen(text), size);
  return std::string(text, size);
}

static std::vector<std::string> documentedKernels() {
  std::vector<std::string> names(std::begin(kStepKernelNames), std::end(kStepKernelNames));
  names.insert(names.end(), {kGradSumsqKernel, kGradNormFinalizeKernel, kGradScaleKernel,
                             kAccumulateKernel});
  return names;
}

TEST(OptimizerKernels, EmbeddedPtxHasEveryDocumentedEntry) {
  std::string ptx = embeddedPtx();
  EXPECT_NE(ptx.find(".target sm_90"), std::string::npos);
  std::vector<std::string> names = documentedKernels();
  EXPECT_EQ(names.size(), 10u);
  for (const std::string &name : names)
    EXPECT_NE(ptx.find(".entry " + name + "("), std::string::npos) << name;
  // No other entry: the header documents the whole module.
  size_t entries = 0;
  for (size_t at = ptx.find(".entry "); at != std::string::npos; at = ptx.find(".entry ", at + 1))
    ++entries;
  EXPECT_EQ(entries, names.size());
  EXPECT_STREQ(stepKernelName(StepVariant::Adam), "modelrt_opt_step_adam");
  EXPECT_STREQ(stepKernelName(StepVariant::Sgd), "modelrt_opt_step_sgd");
}

TEST(OptimizerKernels, EmbeddedPtxAssemblesForSm90) {
  modelrt_test::TempDir dir;
  std::string ptx = embeddedPtx(), in = dir.path("k.ptx"), out = dir.path("k.cubin");
  std::ofstream(in) << ptx;
  std::string cmd = std::string(MODELRT_PTXAS) + " -arch=sm_90 '" + in + "' -o '" + out + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream cubin(out, std::ios::binary | std::ios::ate);
  EXPECT_GT(static_cast<int64_t>(cubin.tellg()), 0);
}

/// Runs forEachChunkElement as a launch of \p blocks x \p lanes would and
/// checks that each element of each tensor is visited exactly once.
static void expectExactCover(const std::vector<int64_t> &sizes, int64_t chunkSize,
                             int64_t blocks, int64_t lanes) {
  int32_t numTensors = static_cast<int32_t>(sizes.size());
  int64_t numChunks = buildChunkTable(sizes.data(), numTensors, chunkSize, nullptr);
  std::vector<OptChunk> chunks(numChunks);
  EXPECT_EQ(buildChunkTable(sizes.data(), numTensors, chunkSize, chunks.data()), numChunks);
  int64_t expectChunks = 0;
  for (int64_t s : sizes)
    expectChunks += (s + chunkSize - 1) / chunkSize;
  EXPECT_EQ(numChunks, expectChunks);
  if (blocks <= 0)
    blocks = numChunks;
  std::vector<std::vector<uint8_t>> seen;
  for (int64_t s : sizes)
    seen.emplace_back(s, 0);
  int64_t bad = 0;
  auto sizeOf = [&](int32_t t) { return sizes[t]; };
  auto visit = [&](int32_t t, int64_t i) {
    if (t < 0 || t >= numTensors || i < 0 || i >= sizes[t])
      ++bad;
    else
      ++seen[t][i];
  };
  for (int64_t b = 0; b < blocks; ++b)
    for (int64_t l = 0; l < lanes; ++l)
      forEachChunkElement(chunks.data(), numChunks, chunkSize, b, blocks, l, lanes, sizeOf,
                          visit);
  EXPECT_EQ(bad, 0);
  for (size_t t = 0; t < sizes.size(); ++t) {
    int64_t wrong = 0;
    for (uint8_t n : seen[t])
      wrong += n != 1;
    EXPECT_EQ(wrong, 0) << "tensor " << t << " (size " << sizes[t] << "), chunk " << chunkSize
                        << ", " << blocks << " blocks x " << lanes << " lanes";
  }
}

TEST(OptimizerKernels, ChunksCoverEveryElementOnce) {
  const std::vector<int64_t> sizes = {1, 7, 65, 1000, 235146, 0, 4096, 4097};
  for (int64_t chunk : {kOptimizerChunkSize, int64_t(64), int64_t(1000), int64_t(7)}) {
    expectExactCover(sizes, chunk, 0, kOptimizerBlockSize); // one block per chunk
    expectExactCover(sizes, chunk, 3, kOptimizerBlockSize); // a capped grid
    expectExactCover(sizes, chunk, 1, 1);                   // one thread does all
  }
  expectExactCover({1}, 1, 5, 32); // more blocks and lanes than elements
}

TEST(OptimizerKernels, ChunkTableOrderAndRanges) {
  const int64_t sizes[] = {5, 0, 8};
  OptChunk chunks[4];
  ASSERT_EQ(buildChunkTable(sizes, 3, 4, chunks), 4);
  const int32_t tensor[] = {0, 0, 2, 2}, chunk[] = {0, 1, 0, 1};
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(chunks[k].tensor, tensor[k]);
    EXPECT_EQ(chunks[k].chunk, chunk[k]);
  }
  ChunkRange r = chunkRange(chunks[1], 5, 4);
  EXPECT_EQ(r.begin, 4);
  EXPECT_EQ(r.end, 5);
  r = chunkRange(OptChunk{2, 2}, 9, 4);
  EXPECT_EQ(r.begin, 8);
  EXPECT_EQ(r.end, 9);
  EXPECT_EQ(chunkCount(0, 4), 0);
  EXPECT_EQ(chunkCount(8, 4), 2);
}

namespace {
/// The step kernels' body (OptimizerKernels.cu: StepBody) run on the CPU:
/// every (block, lane) of a launch over the chunk table.
struct ChunkedStep {
  template <bool Second, bool NormaliseFirst, bool First, bool Nesterov, bool Adam>
  static void run(std::vector<OptTensor> &tensors, const std::vector<OptChunk> &chunks,
                  const StepCoeffs &c, int64_t blocks, int64_t lanes) {
    auto sizeOf = [&](int32_t t) { return tensors[t].size; };
    auto body = [&](int32_t t, int64_t i) {
      OptTensor &x = tensors[t];
      float mz = 0, vz = 0;
      stepElement<Second, NormaliseFirst, First, Nesterov, Adam>(
          c, x.param[i], x.grad[i], First ? x.m[i] : mz, Second ? x.v[i] : vz);
    };
    for (int64_t b = 0; b < blocks; ++b)
      for (int64_t l = 0; l < lanes; ++l)
        forEachChunkElement(chunks.data(), int64_t(chunks.size()), 64, b, blocks, l, lanes,
                            sizeOf, body);
  }
};

/// Deterministic pseudo-random values in [-1, 1).
std::vector<float> values(int64_t n, uint32_t seed) {
  std::vector<float> out(n);
  for (float &x : out) {
    seed = seed * 1664525u + 1013904223u;
    x = float(seed >> 8) / float(1u << 23) - 1.0f;
  }
  return out;
}
} // namespace

/// Three steps of \p cfg through the CPU optimizer and through the kernel
/// composition, from the same state; the results must be bit-identical.
static void expectKernelPathMatchesCpu(const OptimizerConfig &cfg) {
  const std::vector<int64_t> sizes = {1, 65, 1000, 7};
  Optimizer cpu(cfg, sizes);
  std::vector<std::vector<float>> pc, pk, g, m, v;
  std::vector<float *> pcp;
  std::vector<const float *> gp;
  std::vector<OptTensor> tensors;
  for (size_t t = 0; t < sizes.size(); ++t) {
    pc.push_back(values(sizes[t], 7 + t));
    pk.push_back(pc.back());
    g.push_back(values(sizes[t], 100 + t));
    m.emplace_back(sizes[t], 0.0f);
    v.emplace_back(sizes[t], 0.0f);
  }
  for (size_t t = 0; t < sizes.size(); ++t) {
    pcp.push_back(pc[t].data());
    gp.push_back(g[t].data());
    tensors.push_back({pk[t].data(), g[t].data(), m[t].data(), v[t].data(), sizes[t]});
  }
  std::vector<OptChunk> chunks(buildChunkTable(sizes.data(), 4, 64, nullptr));
  buildChunkTable(sizes.data(), 4, 64, chunks.data());
  for (int64_t step = 1; step <= 3; ++step) {
    double lr = cfg.lr / double(step);
    cpu.step(pcp.data(), gp.data(), lr);
    dispatchStepVariant<ChunkedStep>(stepVariantFor(cfg), tensors, chunks,
                                     stepCoeffsFor(cfg, step, lr), 2, 32);
  }
  for (size_t t = 0; t < sizes.size(); ++t)
    for (int64_t i = 0; i < sizes[t]; ++i)
      ASSERT_EQ(pc[t][i], pk[t][i]) << "kind " << int(cfg.kind) << " tensor " << t << "[" << i
                                    << "]";
}

TEST(OptimizerKernels, ChunkedStepMatchesCpuOptimizerBitForBit) {
  OptimizerConfig c;
  c.lr = 0.1;
  expectKernelPathMatchesCpu(c); // plain SGD
  c.momentum = 0.9, c.dampening = 0.1, c.weightDecay = 0.01;
  expectKernelPathMatchesCpu(c);
  c.dampening = 0, c.nesterov = true;
  expectKernelPathMatchesCpu(c);
  for (OptimizerKind k : {OptimizerKind::Adam, OptimizerKind::AdamW, OptimizerKind::RMSprop}) {
    OptimizerConfig a;
    a.kind = k, a.lr = 1e-2, a.weightDecay = 0.05;
    expectKernelPathMatchesCpu(a);
    a.momentum = 0.5; // RMSprop with momentum; ignored by Adam(W)
    expectKernelPathMatchesCpu(a);
  }
}

TEST(OptimizerKernels, VariantOfEachConfiguration) {
  OptimizerConfig c;
  EXPECT_EQ(stepVariantFor(c), StepVariant::Sgd);
  c.momentum = 0.9;
  EXPECT_EQ(stepVariantFor(c), StepVariant::SgdMomentum);
  c.nesterov = true;
  EXPECT_EQ(stepVariantFor(c), StepVariant::SgdNesterov);
  c.kind = OptimizerKind::RMSprop;
  EXPECT_EQ(stepVariantFor(c), StepVariant::RmspropMomentum);
  c.momentum = 0;
  EXPECT_EQ(stepVariantFor(c), StepVariant::Rmsprop);
  c.kind = OptimizerKind::AdamW;
  EXPECT_EQ(stepVariantFor(c), StepVariant::Adam);
  c.weightDecay = 0.5, c.lr = 0.1;
  StepCoeffs k = stepCoeffsFor(c, 2, 0.1);
  EXPECT_FLOAT_EQ(k.decay, 1.0f - 0.1f * 0.5f);
  EXPECT_EQ(k.coupledWd, 0.0f);
  EXPECT_FLOAT_EQ(k.bc1, float(1 - 0.9 * 0.9));
  EXPECT_FLOAT_EQ(k.sqrtBc2, std::sqrt(float(1 - 0.999 * 0.999)));
  OptimizerConfig s;
  s.momentum = 0.9, s.dampening = 0.3;
  EXPECT_EQ(stepCoeffsFor(s, 1, 0.1).d1, 1.0f); // PyTorch: buffer = g on step 1
  EXPECT_FLOAT_EQ(stepCoeffsFor(s, 2, 0.1).d1, 0.7f);
}

static_assert(sizeof(StepCoeffs) == 36 && alignof(StepCoeffs) == 4, "kernel parameter ABI");
static_assert(sizeof(OptChunk) == 8, "chunk table ABI");
static_assert(sizeof(OptTensor) == 40 && sizeof(AccumTensor) == 24, "tensor table ABI");
