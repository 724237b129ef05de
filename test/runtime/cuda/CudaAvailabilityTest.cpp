//===- CudaAvailabilityTest.cpp - The probe's device and its one reason ----===//
//
// Checks probeCuda()/describe()/initCuda() of modelrt/cuda/Cuda.h: each reason
// the GPU is not used (missing driver, MODELRT_DEVICE=cpu, cuInit failure, no
// device, bad MODELRT_CUDA_DEVICE, compute capability below 9.0, no cuBLAS)
// and the description of a usable (fake) device.
//
//===----------------------------------------------------------------------===//
#include "CudaTestSupport.h"

using namespace modelrt;
using namespace modelrt::cuda;

TEST_F(NoDriverTest, MissingDriverIsTheReason) {
  const Availability &a = probeCuda();
  EXPECT_FALSE(a.usable);
  EXPECT_NE(a.reason.find("no NVIDIA driver"), std::string::npos) << a.reason;
  EXPECT_NE(a.reason.find("/nonexistent/libcuda.so.1"), std::string::npos);
  EXPECT_FALSE(cudaUsable());
  EXPECT_EQ(describe().rfind("GPU not used: no NVIDIA driver", 0), 0u)
      << describe();
  EXPECT_NE(describe().find("; running on the CPU"), std::string::npos);
  Status s = initCuda();
  EXPECT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("no NVIDIA driver"), std::string::npos);
}

TEST_F(NoDriverTest, DefaultLibraryNameInTheMessage) {
  // Without the override, this machine has no libcuda.so.1 either; with a
  // driver installed the probe must not report it missing.
  unsetenv("MODELRT_CUDA_DRIVER");
  resetForTesting();
  void *real = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  const Availability &a = probeCuda();
  if (real)
    EXPECT_EQ(a.reason.find("not found"), std::string::npos) << a.reason;
  else
    EXPECT_EQ(a.reason, "no NVIDIA driver: libcuda.so.1 not found");
}

TEST_F(NoDriverTest, DeviceCpuForcesTheCpu) {
  setenv("MODELRT_DEVICE", "cpu", 1);
  resetForTesting();
  EXPECT_FALSE(cudaUsable());
  EXPECT_EQ(describe(), "GPU not used: MODELRT_DEVICE=cpu; running on the CPU");
}

TEST_F(NoDriverTest, UnknownDeviceValueIsNamed) {
  setenv("MODELRT_DEVICE", "tpu", 1);
  resetForTesting();
  EXPECT_EQ(probeCuda().reason, "MODELRT_DEVICE='tpu' is not one of cpu, cuda");
}

TEST_F(FakeDriverTest, UsableDeviceIsDescribed) {
  const Availability &a = probeCuda();
  ASSERT_TRUE(a.usable) << a.reason;
  EXPECT_EQ(a.name, "Fake H200 #0");
  EXPECT_EQ(a.driverVersion, 13000);
  EXPECT_EQ(a.freeBytes, uint64_t(1) << 30);
  EXPECT_EQ(describe(),
            "GPU: Fake H200 #0 (sm_90, 1.0 GiB, driver 13.0, cuBLAS 13.1)");
  EXPECT_TRUE(initCuda().isOk());
  EXPECT_NE(computeStream(), nullptr);
}

TEST_F(FakeDriverTest, DeviceCpuWinsOverAUsableGpu) {
  setenv("MODELRT_DEVICE", "cpu", 1);
  resetForTesting();
  EXPECT_FALSE(cudaUsable());
  EXPECT_EQ(counters().inits, 0); // the driver was not even initialised
}

TEST_F(FakeDriverTest, InitFailureNamesTheResult) {
  configure(FakeCudaConfig{100, 0, 9, 0, 1 << 20, 13000});
  EXPECT_EQ(probeCuda().reason, "cuInit failed with CUDA_ERROR_NO_DEVICE");
}

TEST_F(FakeDriverTest, NoDevice) {
  configure(FakeCudaConfig{0, 0, 9, 0, 1 << 20, 13000});
  EXPECT_EQ(probeCuda().reason, "no CUDA device found");
}

TEST_F(FakeDriverTest, OldComputeCapability) {
  configure(FakeCudaConfig{0, 1, 8, 6, 1 << 20, 12040});
  EXPECT_EQ(probeCuda().reason,
            "Fake H200 #0 has compute capability 8.6, below 9.0 (the embedded "
            "kernels are PTX for sm_90)");
  EXPECT_EQ(counters().contextRetains, 0);
}

TEST_F(FakeDriverTest, DeviceIndexFromEnvironment) {
  configure(FakeCudaConfig{0, 2, 9, 0, 1 << 20, 13000});
  setenv("MODELRT_CUDA_DEVICE", "1", 1);
  resetForTesting();
  EXPECT_EQ(probeCuda().name, "Fake H200 #1");
  EXPECT_EQ(probeCuda().deviceIndex, 1);
  setenv("MODELRT_CUDA_DEVICE", "2", 1);
  resetForTesting();
  EXPECT_EQ(probeCuda().reason,
            "MODELRT_CUDA_DEVICE=2 but there are only 2 CUDA device(s)");
  setenv("MODELRT_CUDA_DEVICE", "x1", 1);
  resetForTesting();
  EXPECT_EQ(probeCuda().reason,
            "MODELRT_CUDA_DEVICE='x1' is not a device index");
}

TEST_F(FakeDriverTest, MissingCublas) {
  setenv("MODELRT_CUBLAS", "/nonexistent/libcublas.so.13", 1);
  resetForTesting();
  const Availability &a = probeCuda();
  EXPECT_FALSE(a.usable);
  EXPECT_EQ(a.reason.rfind("cuBLAS not found: MODELRT_CUBLAS=/nonexistent/"
                           "libcublas.so.13", 0), 0u) << a.reason;
}

TEST_F(FakeDriverTest, IncompleteDriverNamesTheMissingEntryPoint) {
  // libz is a shared library without any CUDA entry point.
  setenv("MODELRT_CUDA_DRIVER", "libz.so.1", 1);
  resetForTesting();
  EXPECT_EQ(probeCuda().reason,
            "the NVIDIA driver is too old: libz.so.1 lacks cuInit (a driver "
            "supporting CUDA 13 is needed)");
}
