//===- MgpuShimTest.cpp - The mgpu ABI without a driver and on the fake ----===//
//
// Checks the mgpu functions of modelrt/cuda/Cuda.h: module loads touch no CUDA;
// without a driver the first use records one clear sticky error and nothing
// crashes; on the fake driver a module is loaded lazily, kernels launch on
// the compute stream, memory comes from the pool, and errors are sticky.
//
//===----------------------------------------------------------------------===//
#include "CudaTestSupport.h"

#include "modelrt/core/Profile.h"

#include <string>
#include <vector>

using namespace modelrt;
using namespace modelrt::cuda;

namespace {
char kImage[] = "module with fake_fill and fake_scale";
char kBadImage[] = "BAD image";

/// Launches fake_fill(dst, value, n) with one block of n threads.
void launchFill(void *fn, void *stream, float *dst, float value, int64_t n) {
  void *params[] = {&dst, &value, &n};
  mgpuLaunchKernel(fn, 1, 1, 1, n, 1, 1, 0, stream, params, nullptr, 3);
}
} // namespace

TEST_F(NoDriverTest, ModuleLoadTouchesNoCuda) {
  void *module = mgpuModuleLoad(kImage, sizeof(kImage));
  ASSERT_NE(module, nullptr);
  void *jit = mgpuModuleLoadJIT(kImage, 2);
  ASSERT_NE(jit, nullptr);
  EXPECT_EQ(modelrt_cuda_status(), 0);
  EXPECT_STREQ(modelrt_cuda_error_message(), "");
  mgpuModuleUnload(jit);
  mgpuModuleUnload(module);
  EXPECT_EQ(modelrt_cuda_status(), 0);
}

TEST_F(NoDriverTest, FirstUseRecordsOneClearStickyError) {
  void *module = mgpuModuleLoad(kImage, sizeof(kImage));
  void *fn = mgpuModuleGetFunction(module, "fake_fill");
  EXPECT_EQ(fn, nullptr);
  EXPECT_NE(modelrt_cuda_status(), 0);
  std::string message = modelrt_cuda_error_message();
  EXPECT_EQ(message, "mgpuModuleGetFunction(fake_fill): the GPU is not "
                     "usable: no NVIDIA driver: MODELRT_CUDA_DRIVER="
                     "/nonexistent/libcuda.so.1 cannot be loaded ("
                     "/nonexistent/libcuda.so.1: cannot open shared object "
                     "file: No such file or directory)");
  // Everything after it is skipped or harmless; the first message stays.
  void *stream = mgpuStreamCreate();
  EXPECT_EQ(stream, nullptr);
  void *dev = mgpuMemAlloc(64, stream, false);
  EXPECT_EQ(dev, nullptr);
  float host[4] = {0};
  mgpuMemcpy(dev, host, sizeof(host), stream);
  launchFill(fn, stream, static_cast<float *>(dev), 1.0f, 4);
  mgpuStreamSynchronize(stream);
  mgpuMemFree(dev, stream);
  mgpuStreamDestroy(stream);
  modelrt_cuda_sgemm(101, 111, 111, 2, 2, 2, 1.0f, nullptr, 2, nullptr, 2,
                     0.0f, nullptr, 2);
  EXPECT_EQ(modelrt_cuda_error_message(), message);
  EXPECT_FALSE(synchronize().isOk());
  mgpuModuleUnload(module);
}

TEST_F(NoDriverTest, LaunchAloneNamesItself) {
  launchFill(nullptr, nullptr, nullptr, 1.0f, 4);
  EXPECT_EQ(modelrt_cuda_status(), -1);
  EXPECT_EQ(std::string(modelrt_cuda_error_message())
                .rfind("mgpuLaunchKernel: the GPU is not usable: no NVIDIA "
                       "driver", 0), 0u)
      << modelrt_cuda_error_message();
  EXPECT_EQ(modelrt_cuda_scratch(0), nullptr);
}

TEST_F(FakeDriverTest, ModuleLoadsLazilyAndKernelsRun) {
  void *module = mgpuModuleLoad(kImage, sizeof(kImage));
  EXPECT_EQ(counters().inits, 0); // the constructor touched no CUDA
  void *stream = mgpuStreamCreate();
  ASSERT_EQ(stream, computeStream());
  EXPECT_EQ(counters().moduleLoads, 0);
  void *fill = mgpuModuleGetFunction(module, "fake_fill");
  ASSERT_NE(fill, nullptr) << modelrt_cuda_error_message();
  EXPECT_EQ(mgpuModuleGetFunction(module, "fake_fill"), fill);
  EXPECT_EQ(counters().moduleLoads, 1); // loaded once
  auto *dev = static_cast<float *>(mgpuMemAlloc(8 * sizeof(float), stream,
                                                false));
  ASSERT_NE(dev, nullptr);
  launchFill(fill, stream, dev, 2.5f, 8);
  void *scale = mgpuModuleGetFunction(module, "fake_scale");
  float factor = -2.0f;
  int64_t n = 8;
  void *params[] = {&dev, &factor, &n};
  mgpuLaunchClusterKernel(scale, 1, 1, 1, 1, 1, 1, 8, 1, 1, 0, nullptr,
                          params, nullptr, 3);
  float host[8] = {0};
  mgpuMemcpy(host, dev, sizeof(host), stream);
  mgpuStreamSynchronize(stream);
  for (float v : host)
    EXPECT_EQ(v, -5.0f);
  EXPECT_EQ(counters().launches, 2);
  mgpuMemFree(dev, stream);
  mgpuStreamDestroy(stream); // the compute stream survives
  EXPECT_EQ(computeStream(), stream);
  EXPECT_EQ(modelrt_cuda_status(), 0) << modelrt_cuda_error_message();
  mgpuModuleUnload(module);
}

TEST_F(FakeDriverTest, WarmUpLoadsEveryRecordedModuleAndCuBlasOnce) {
  // Modules recorded by this test binary's own constructors (the generated
  // host code of GeneratedHostCodeTest) are loaded by the first warm-up.
  ASSERT_TRUE(modelrt::cuda::warmUp().isOk()) << modelrt_cuda_error_message();
  int base = counters().moduleLoads;
  void *a = mgpuModuleLoad(kImage, sizeof(kImage));
  void *b = mgpuModuleLoadJIT(kImage, 2);
  void *gone = mgpuModuleLoad(kImage, sizeof(kImage));
  mgpuModuleUnload(gone); // unloaded before the warm-up: not loaded by it
  EXPECT_EQ(counters().moduleLoads, base);
  ASSERT_TRUE(modelrt::cuda::warmUp().isOk()) << modelrt_cuda_error_message();
  EXPECT_EQ(counters().moduleLoads, base + 2);
  ASSERT_TRUE(modelrt::cuda::warmUp().isOk());
  EXPECT_EQ(counters().moduleLoads, base + 2); // once each
  EXPECT_NE(mgpuModuleGetFunction(a, "fake_fill"), nullptr);
  EXPECT_NE(mgpuModuleGetFunction(b, "fake_scale"), nullptr);
  EXPECT_EQ(counters().moduleLoads, base + 2);
  mgpuModuleUnload(b);
  mgpuModuleUnload(a);
}

/// The profile's entry for \p name, or null.
static const KernelStats *findKernel(const std::vector<KernelStats> &ks, const std::string &name) {
  for (const KernelStats &k : ks)
    if (name == k.name)
      return &k;
  return nullptr;
}

TEST_F(FakeDriverTest, ProfileTimesEachLaunchAndSgemmWithEvents) {
  void *module = mgpuModuleLoad(kImage, sizeof(kImage));
  void *fill = mgpuModuleGetFunction(module, "fake_fill");
  ASSERT_NE(fill, nullptr);
  auto *dev = static_cast<float *>(mgpuMemAlloc(64 * sizeof(float), nullptr, false));
  resetProfile();
  launchFill(fill, nullptr, dev, 1.0f, 16); // profiling off: no events
  EXPECT_EQ(counters().eventRecords, 0);
  setProfiling(true);
  for (int i = 0; i < 3; ++i)
    launchFill(fill, nullptr, dev, 1.0f, 16);
  // C[2x2] = A[2x3] * B[3x2], row-major: 2*2*3 multiply-adds.
  modelrt_cuda_sgemm(101, 111, 111, 2, 2, 3, 1.0f, dev, 3, dev + 8, 2, 0.0f, dev + 16, 2);
  ASSERT_TRUE(collectProfile().isOk()) << modelrt_cuda_error_message();
  setProfiling(false);
  EXPECT_EQ(counters().eventRecords, 8); // two per timed launch
  std::vector<KernelStats> ks = kernelStats();
  const KernelStats *k = findKernel(ks, "fake_fill");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->calls, 3u);
  EXPECT_DOUBLE_EQ(k->seconds, 3e-3); // the fake clock: 1 ms per bracket
  EXPECT_EQ(k->flops, 0);
  ASSERT_EQ(ks.size(), 2u);
  const KernelStats &g = ks[0].calls == 1 ? ks[0] : ks[1];
  EXPECT_EQ(std::string(g.name).rfind("cuBLAS sgemm ", 0), 0u) << g.name;
  EXPECT_EQ(g.flops, 2.0 * 2 * 2 * 3);
  EXPECT_TRUE(collectProfile().isOk()); // nothing pending: nothing added
  EXPECT_EQ(findKernel(kernelStats(), "fake_fill")->calls, 3u);
  resetProfile();
  mgpuMemFree(dev, nullptr);
  mgpuModuleUnload(module);
}

TEST_F(FakeDriverTest, WarmUpReportsABadModule) {
  void *module = mgpuModuleLoadJIT(kBadImage, 2);
  EXPECT_EQ(modelrt::cuda::warmUp().message(),
            "CUDA error: cuModuleLoadDataEx (JIT of the embedded PTX) "
            "failed with CUDA_ERROR_INVALID_PTX: ptxas fatal: bad PTX");
  mgpuModuleUnload(module);
}

TEST_F(FakeDriverTest, UnknownKernelIsStickyAndLaterLaunchesAreSkipped) {
  void *module = mgpuModuleLoad(kImage, sizeof(kImage));
  void *fill = mgpuModuleGetFunction(module, "fake_fill");
  ASSERT_NE(fill, nullptr);
  EXPECT_EQ(mgpuModuleGetFunction(module, "missing_kernel"), nullptr);
  EXPECT_EQ(modelrt_cuda_status(), 500);
  EXPECT_STREQ(modelrt_cuda_error_message(),
               "CUDA error: cuModuleGetFunction(missing_kernel) failed with "
               "CUDA_ERROR_NOT_FOUND");
  std::vector<float> data(4, 0.0f);
  launchFill(fill, nullptr, data.data(), 1.0f, 4); // skipped
  EXPECT_EQ(counters().launches, 0);
  EXPECT_EQ(data[0], 0.0f);
  mgpuModuleUnload(module);
}

TEST_F(FakeDriverTest, PtxIsJitCompiledAtTheDriversHighestLevel) {
  void *module = mgpuModuleLoadJIT(kImage, 2); // MLIR's LLVM level, not ptxas's
  EXPECT_EQ(counters().jitOptLevel, -1);
  ASSERT_NE(mgpuModuleGetFunction(module, "fake_fill"), nullptr);
  EXPECT_EQ(counters().jitOptLevel, 4);
  mgpuModuleUnload(module);
}

TEST_F(FakeDriverTest, BadPtxReportsTheJitLog) {
  void *module = mgpuModuleLoadJIT(kBadImage, 2);
  EXPECT_EQ(mgpuModuleGetFunction(module, "fake_fill"), nullptr);
  EXPECT_STREQ(modelrt_cuda_error_message(),
               "CUDA error: cuModuleLoadDataEx (JIT of the embedded PTX) "
               "failed with CUDA_ERROR_INVALID_PTX: ptxas fatal: bad PTX");
  mgpuModuleUnload(module);
}

TEST_F(FakeDriverTest, DeviceMemoryIsReusedWithoutNewAllocations) {
  std::vector<uint64_t> sizes = {4, 1000, 70000, 3 << 20};
  for (int step = 0; step < 5; ++step) {
    std::vector<void *> blocks;
    for (uint64_t s : sizes)
      blocks.push_back(mgpuMemAlloc(s, nullptr, false));
    for (void *b : blocks)
      mgpuMemFree(b, nullptr);
  }
  // + 1 for the scratch cells allocated at initialisation.
  EXPECT_EQ(counters().memAllocs, int(sizes.size()) + 1);
  DevicePoolStats stats = devicePoolStats();
  EXPECT_EQ(stats.reuses, 4u * sizes.size());
  EXPECT_EQ(stats.bytesInUse, 0u);
  devicePoolTrim();
  EXPECT_EQ(counters().memFrees, int(sizes.size()));
  EXPECT_EQ(modelrt_cuda_status(), 0) << modelrt_cuda_error_message();
}

TEST_F(FakeDriverTest, OutOfMemoryNamesNeededAndFreeBytes) {
  configure(FakeCudaConfig{0, 1, 9, 0, 1 << 20, 13000});
  void *big = mgpuMemAlloc(2 << 20, nullptr, false);
  EXPECT_EQ(big, nullptr);
  EXPECT_EQ(modelrt_cuda_status(), 2); // CUDA_ERROR_OUT_OF_MEMORY
  std::string message = modelrt_cuda_error_message();
  EXPECT_NE(message.find("mgpuMemAlloc: out of GPU memory: 2097152 bytes "
                         "needed"), std::string::npos) << message;
  EXPECT_NE(message.find("1044480 bytes free on the device"),
            std::string::npos) << message; // 1 MiB - the 4 KiB scratch
}

TEST_F(FakeDriverTest, MemsetAndHostSharedMemory) {
  auto *dev = static_cast<uint32_t *>(mgpuMemAlloc(16, nullptr, false));
  mgpuMemset32(dev, 0xdeadbeef, 4, nullptr);
  uint32_t host[4];
  mgpuMemcpy(host, dev, sizeof(host), nullptr);
  EXPECT_EQ(host[3], 0xdeadbeefu);
  mgpuMemset16(dev, 0x1234, 8, nullptr);
  mgpuMemcpy(host, dev, sizeof(host), nullptr);
  EXPECT_EQ(host[0], 0x12341234u);
  void *shared = mgpuMemAlloc(100, nullptr, true);
  ASSERT_NE(shared, nullptr);
  int freesBefore = counters().memFrees;
  mgpuMemFree(shared, nullptr); // not a pool block: freed at once
  EXPECT_EQ(counters().memFrees, freesBefore + 1);
  mgpuMemFree(dev, nullptr);
  EXPECT_EQ(modelrt_cuda_status(), 0) << modelrt_cuda_error_message();
}

TEST_F(FakeDriverTest, FreeingAForeignPointerIsAnError) {
  int notDeviceMemory = 0;
  ASSERT_TRUE(initCuda().isOk());
  mgpuMemFree(&notDeviceMemory, nullptr);
  EXPECT_NE(std::string(modelrt_cuda_error_message())
                .find("did not allocate (or freed twice)"),
            std::string::npos) << modelrt_cuda_error_message();
}

TEST_F(FakeDriverTest, EventsOrderStreams) {
  void *stream = mgpuStreamCreate();
  void *event = mgpuEventCreate();
  ASSERT_NE(event, nullptr);
  mgpuEventRecord(event, stream);
  mgpuStreamWaitEvent(stream, event);
  mgpuEventSynchronize(event);
  mgpuEventDestroy(event);
  EXPECT_EQ(counters().eventRecords, 1);
  EXPECT_EQ(counters().streamWaits, 1);
  mgpuSetDefaultDevice(0);
  EXPECT_EQ(modelrt_cuda_status(), 0) << modelrt_cuda_error_message();
  mgpuSetDefaultDevice(3);
  EXPECT_STREQ(modelrt_cuda_error_message(),
               "mgpuSetDefaultDevice(3): modelrt uses CUDA device 0 (choose "
               "it with MODELRT_CUDA_DEVICE)");
}
