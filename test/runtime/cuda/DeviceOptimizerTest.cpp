//===- DeviceOptimizerTest.cpp - The GPU optimizer launcher on the fake ----===//
//
// DeviceOptimizer against the CPU Optimizer, on the fake driver (whose
// optimizer kernels run OptimizerKernels.cu's chunk loop and element rule
// on the host): the launch tables, the coefficients passed by value, the
// moment buffers and their round trip to a host Optimizer must give the CPU
// results bit for bit, for every variant, over several tensors whose sizes
// are not multiples of the chunk size.
//
//===----------------------------------------------------------------------===//
#include "CudaTestSupport.h"

#include "modelrt/cuda/DeviceOptimizer.h"

#include <cmath>

using namespace modelrt;

namespace {

/// Parameters and gradients on the host and their device copies.
struct Problem {
  std::vector<int64_t> sizes = {5000, 7, 2049, 1};
  std::vector<std::vector<float>> params, grads;
  std::vector<cuda::DeviceBuffer> devParams, devGrads;
  std::vector<float *> paramPtrs, gradPtrs;

  Problem() {
    for (int64_t n : sizes) {
      std::vector<float> p(n), g(n);
      for (int64_t j = 0; j < n; ++j) {
        p[j] = std::sin(0.01f * float(j + n)) + 0.25f;
        g[j] = std::cos(0.003f * float(j)) * 0.2f - 0.05f;
      }
      params.push_back(p), grads.push_back(g);
    }
  }
  void upload() {
    for (size_t i = 0; i < sizes.size(); ++i) {
      devParams.push_back(cuda::DeviceBuffer::allocate(sizes[i] * 4).take());
      devGrads.push_back(cuda::DeviceBuffer::allocate(sizes[i] * 4).take());
      ASSERT_TRUE(cuda::uploadFloats(devParams[i], params[i].data(), sizes[i]).isOk());
      ASSERT_TRUE(cuda::uploadFloats(devGrads[i], grads[i].data(), sizes[i]).isOk());
      paramPtrs.push_back(devParams[i].floats());
      gradPtrs.push_back(devGrads[i].floats());
    }
  }
  std::vector<std::vector<float>> downloadParams() {
    std::vector<std::vector<float>> out;
    for (size_t i = 0; i < sizes.size(); ++i) {
      out.emplace_back(sizes[i]);
      EXPECT_TRUE(cuda::downloadFloats(out.back().data(), devParams[i], sizes[i]).isOk());
    }
    return out;
  }
};

std::vector<OptimizerConfig> variants() {
  std::vector<OptimizerConfig> out;
  for (int k = 0; k < 7; ++k) {
    OptimizerConfig c;
    c.kind = k < 3 ? OptimizerKind::SGD : k < 5 ? OptimizerKind::RMSprop
             : k == 5 ? OptimizerKind::Adam : OptimizerKind::AdamW;
    c.momentum = (k == 1 || k == 2 || k == 4) ? 0.9 : 0;
    c.nesterov = k == 2;
    c.weightDecay = 0.01;
    out.push_back(c);
  }
  return out;
}

} // namespace

class DeviceOptimizerTest : public FakeDriverTest {};

TEST_F(DeviceOptimizerTest, EveryVariantMatchesTheCpuOptimizer) {
  ASSERT_TRUE(cuda::initCuda().isOk()) << cuda::stickyStatus().message();
  for (const OptimizerConfig &cfg : variants()) {
    Problem cpu, gpu;
    gpu.upload();
    Optimizer host(cfg, cpu.sizes);
    auto dev = DeviceOptimizer::create(cfg, gpu.paramPtrs, gpu.gradPtrs, gpu.sizes);
    ASSERT_TRUE(dev) << dev.message();
    std::vector<float *> hp;
    std::vector<const float *> hg;
    for (size_t i = 0; i < cpu.sizes.size(); ++i)
      hp.push_back(cpu.params[i].data()), hg.push_back(cpu.grads[i].data());
    for (int64_t s = 1; s <= 3; ++s) {
      host.step(hp.data(), hg.data(), 0.01 * double(s));
      ASSERT_TRUE((*dev)->step(s, 0.01 * double(s)).isOk()) << cuda::stickyStatus().message();
    }
    EXPECT_EQ(gpu.downloadParams(), cpu.params) << "optimizer kind " << int(cfg.kind);
    Optimizer copy(cfg, cpu.sizes);
    ASSERT_TRUE((*dev)->downloadMoments(copy).isOk());
    EXPECT_EQ(copy.firstMoments(), host.firstMoments());
    EXPECT_EQ(copy.secondMoments(), host.secondMoments());
  }
}

TEST_F(DeviceOptimizerTest, MomentsUploadedFromAResumeAreUsed) {
  ASSERT_TRUE(cuda::initCuda().isOk());
  OptimizerConfig cfg = variants()[5]; // Adam
  Problem cpu, gpu;
  gpu.upload();
  Optimizer host(cfg, cpu.sizes);
  std::vector<float *> hp;
  std::vector<const float *> hg;
  for (size_t i = 0; i < cpu.sizes.size(); ++i)
    hp.push_back(cpu.params[i].data()), hg.push_back(cpu.grads[i].data());
  host.step(hp.data(), hg.data(), 0.01); // moments no longer zero
  for (size_t i = 0; i < cpu.sizes.size(); ++i)
    ASSERT_TRUE(cuda::uploadFloats(gpu.devParams[i], cpu.params[i].data(), cpu.sizes[i]).isOk());
  auto dev = DeviceOptimizer::create(cfg, gpu.paramPtrs, gpu.gradPtrs, gpu.sizes);
  ASSERT_TRUE(dev);
  ASSERT_TRUE((*dev)->uploadMoments(host).isOk());
  host.step(hp.data(), hg.data(), 0.01);
  ASSERT_TRUE((*dev)->step(2, 0.01).isOk());
  EXPECT_EQ(gpu.downloadParams(), cpu.params);
}

TEST_F(DeviceOptimizerTest, GradNormIsTheGlobalNormAndSeesNaN) {
  ASSERT_TRUE(cuda::initCuda().isOk());
  Problem gpu;
  double sum = 0;
  for (const auto &g : gpu.grads)
    for (float x : g)
      sum += double(x) * x;
  gpu.upload();
  auto dev = DeviceOptimizer::create(variants()[5], gpu.paramPtrs, gpu.gradPtrs, gpu.sizes);
  ASSERT_TRUE(dev);
  auto norm = (*dev)->gradNorm();
  ASSERT_TRUE(norm) << norm.message();
  EXPECT_NEAR(*norm, std::sqrt(sum), 1e-5 * std::sqrt(sum));
  float nan = std::nanf("");
  ASSERT_TRUE(cuda::upload(gpu.devGrads[2].floats() + 2048, &nan, sizeof nan).isOk());
  norm = (*dev)->gradNorm();
  ASSERT_TRUE(norm);
  EXPECT_TRUE(std::isnan(*norm));
}
