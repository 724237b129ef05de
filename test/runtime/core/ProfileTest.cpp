//===- ProfileTest.cpp - Tests of the kernel and phase profiler -----------===//
//
// Checks Profile.h: nothing is recorded while profiling is off; calls,
// time, FLOPs and bytes add up per kernel name; the products a kernel runs
// are recorded with their precision and path; the report lists phases and
// kernels slowest first with their GFLOP/s, and a product kernel's
// fraction of its peak and its precision.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Profile.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>
#include <thread>

using namespace modelrt;

namespace {
const char kFast[] = "train_step.k0.relu @ net.model:3";
const char kSlow[] = "train_step.k1.matmul.cblas_sgemm @ net.model:4";

/// Runs kernel `name` for about `ms` milliseconds, `flops` of work on
/// `bytes`.
void runKernel(const char *name, int ms, int64_t flops, int64_t bytes = 0) {
  modelrt_kernel_enter(name);
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  modelrt_kernel_exit(name, flops, bytes);
}

std::string report() {
  char *buf = nullptr;
  size_t size = 0;
  FILE *f = open_memstream(&buf, &size);
  writeProfileReport(f);
  std::fclose(f);
  std::string s(buf, size);
  std::free(buf);
  return s;
}
} // namespace

TEST(ProfileTest, OffRecordsNothing) {
  setProfiling(false);
  resetProfile();
  runKernel(kFast, 1, 100);
  { PhaseTimer t(Phase::Step); }
  EXPECT_TRUE(kernelStats().empty());
}

TEST(ProfileTest, SumsCallsTimeFlopsAndBytesPerKernel) {
  resetProfile();
  setProfiling(true);
  for (int i = 0; i < 3; ++i)
    runKernel(kFast, 1, 1000, 4096);
  runKernel(kSlow, 30, int64_t(3e9));
  {
    PhaseTimer t(Phase::Update);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  setProfiling(false);
  std::vector<KernelStats> ks = kernelStats();
  ASSERT_EQ(ks.size(), 2u);
  EXPECT_STREQ(ks[0].name, kSlow); // slowest first
  EXPECT_EQ(ks[0].calls, 1u);
  EXPECT_GE(ks[0].seconds, 0.029);
  EXPECT_EQ(ks[0].flops, 3e9);
  EXPECT_EQ(ks[1].calls, 3u);
  EXPECT_EQ(ks[1].flops, 3000.0);
  EXPECT_EQ(ks[1].bytes, 3 * 4096.0);
  EXPECT_EQ(ks[0].bytes, 0.0);
  EXPECT_GE(ks[1].seconds, 0.003);

  std::string r = report();
  EXPECT_NE(r.find("profile: phases"), std::string::npos) << r;
  EXPECT_NE(r.find("update (optimizer)"), std::string::npos) << r;
  EXPECT_NE(r.find("profile: kernels (2,"), std::string::npos) << r;
  EXPECT_LT(r.find(kSlow), r.find(kFast)) << r;
  // 3e9 FLOPs in >= 30 ms: at most 100 GFLOP/s, and printed.
  double rate = 3e9 / ks[0].seconds * 1e-9;
  EXPECT_LE(rate, 100.0 + 1e-9);
  char expected[32];
  std::snprintf(expected, sizeof expected, "%.2f", rate);
  EXPECT_NE(r.find(expected), std::string::npos) << r;
  resetProfile();
  EXPECT_TRUE(kernelStats().empty());
}

TEST(Profile, GpuDeviceTimesReplaceTheForwardBackwardSplit) {
  resetProfile();
  setProfiling(true);
  {
    PhaseTimer t(Phase::Step);
    addKernelTime("gpu_train_step_kernel_3", 0.25, 0);
    addKernelTime("gpu_train_step_kernel_3", 0.25, 0);
    addKernelTime("cuBLAS sgemm 64x256x784", 0.125, 1e9);
  }
  setProfiling(false);
  std::vector<KernelStats> ks = kernelStats();
  ASSERT_EQ(ks.size(), 2u);
  EXPECT_STREQ(ks[0].name, "gpu_train_step_kernel_3");
  EXPECT_EQ(ks[0].calls, 2u);
  EXPECT_DOUBLE_EQ(ks[0].seconds, 0.5);
  std::string r = report();
  // 0.5 + 0.125 s of device time; the CPU split (by labels) is left out.
  EXPECT_NE(r.find("profile: GPU kernels: 0.625 s of device time"), std::string::npos) << r;
  EXPECT_EQ(r.find("forward kernels"), std::string::npos) << r;
  EXPECT_NE(r.find("8.00"), std::string::npos) << r; // 1e9 FLOPs in 0.125 s
  resetProfile();
}

TEST(Profile, ProductKernelsCarryTheirPrecision) {
  const char bf16[] = "train_step.k2.matmul.modelrt_gemm_bf16 @ net.model:4";
  resetProfile();
  setProfiling(true);
  modelrt_kernel_enter(bf16);
  noteProductRun(true, Bf16Path::Emulated);
  noteProductRun(false); // the emulation's own f32 product
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  modelrt_kernel_exit(bf16, int64_t(1e6), 0);
  runKernel(kFast, 1, 100); // after a product kernel: no product of its own
  modelrt_kernel_enter(kSlow);
  noteProductRun(false);
  modelrt_kernel_exit(kSlow, int64_t(1e6), 0);
  setProfiling(false);
  noteProductRun(true, Bf16Path::Amx); // off: ignored
  std::map<std::string, unsigned> runs;
  for (const KernelStats &k : kernelStats())
    runs[k.name] = k.productRuns;
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[bf16], productRunBit(true, Bf16Path::Emulated) | productRunBit(false));
  EXPECT_EQ(runs[kSlow], productRunBit(false));
  EXPECT_EQ(runs[kFast], 0u);
  std::string r = report();
  // Each product row: its fraction of the peak, its precision, its name.
  EXPECT_NE(r.find("%  bf16 emulated     " + std::string(bf16)), std::string::npos) << r;
  EXPECT_NE(r.find("%  f32               " + std::string(kSlow)), std::string::npos) << r;
  EXPECT_NE(r.find("-  -                 " + std::string(kFast)), std::string::npos) << r;
  EXPECT_NE(r.find("profile: peaks: f32 "), std::string::npos) << r;
  resetProfile();
}
