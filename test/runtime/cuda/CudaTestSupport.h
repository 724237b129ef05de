//===- CudaTestSupport.h - Fixtures for the CUDA layer's unit tests --------===//
//
// Declares the fixtures of CudaTests: NoDriverTest (MODELRT_CUDA_DRIVER points
// at a missing file) and FakeDriverTest (it points at the fake libcuda built
// from FakeCudaDriver.cpp, also used as cuBLAS and cuDNN). Each test starts from a
// forgotten probe, state and sticky error (resetForTesting).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_TEST_CUDATESTSUPPORT_H
#define MODELRT_TEST_CUDATESTSUPPORT_H

#include "cuda/CudaDriver.h"
#include "FakeCudaDriver.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdlib>

/// Clears the environment variables the CUDA layer reads.
inline void clearCudaEnv() {
  unsetenv("MODELRT_DEVICE");
  unsetenv("MODELRT_CUDA_DEVICE");
  unsetenv("MODELRT_CUDA_DRIVER");
  unsetenv("MODELRT_CUBLAS");
  unsetenv("MODELRT_CUDNN");
}

/// The driver library cannot be found.
class NoDriverTest : public ::testing::Test {
protected:
  void SetUp() override {
    clearCudaEnv();
    setenv("MODELRT_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
    modelrt::cuda::resetForTesting();
  }
  void TearDown() override {
    clearCudaEnv();
    modelrt::cuda::resetForTesting();
  }
};

/// The fake driver (and fake cuBLAS and cuDNN) of FakeCudaDriver.cpp.
class FakeDriverTest : public ::testing::Test {
protected:
  void SetUp() override {
    clearCudaEnv();
    setenv("MODELRT_CUDA_DRIVER", MODELRT_FAKE_CUDA_DRIVER, 1);
    setenv("MODELRT_CUBLAS", MODELRT_FAKE_CUDA_DRIVER, 1);
    setenv("MODELRT_CUDNN", MODELRT_FAKE_CUDA_DRIVER, 1);
    lib = dlopen(MODELRT_FAKE_CUDA_DRIVER, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(lib, nullptr) << dlerror();
    configureFn = reinterpret_cast<FakeCudaConfigureFn>(
        dlsym(lib, "fakeCudaConfigure"));
    countersFn =
        reinterpret_cast<FakeCudaCountersFn>(dlsym(lib, "fakeCudaCounters"));
    ASSERT_TRUE(configureFn && countersFn);
    configure(FakeCudaConfig{0, 1, 9, 0, uint64_t(1) << 30, 13000});
  }
  void TearDown() override {
    clearCudaEnv();
    modelrt::cuda::resetForTesting();
  }
  /// Describes the fake device and forgets everything the runtime knew.
  void configure(const FakeCudaConfig &config) {
    modelrt::cuda::resetForTesting();
    configureFn(&config);
  }
  FakeCudaCounters counters() { return countersFn(); }

  void *lib = nullptr;
  FakeCudaConfigureFn configureFn = nullptr;
  FakeCudaCountersFn countersFn = nullptr;
};

#endif // MODELRT_TEST_CUDATESTSUPPORT_H
