//===- GeneratedHostCodeTest.cpp - MLIR 22's host code against the shim ---===//
//
// Runs @fill of GeneratedHostCode.mlir, compiled by MLIR 22 at build time, in
// this process: its module load ran in a global constructor before main (no
// CUDA touched); without a driver it must record one sticky error and leave
// the buffer alone; on the fake driver (whose `fill_kernel` mirrors the PTX)
// it must load the module lazily, launch once, allocate from the pool and
// copy both ways with the argument order MLIR uses.
//
//===----------------------------------------------------------------------===//
#include "CudaTestSupport.h"

#include <string>

namespace {
/// MLIR's descriptor of a memref<16xf32>.
struct MemRef1D {
  float *allocated, *aligned;
  int64_t offset, size, stride;
};
} // namespace

extern "C" void _mlir_ciface_fill(MemRef1D *buf, float v);

using namespace modelrt::cuda;

namespace {
MemRef1D describe16(float *data) { return MemRef1D{data, data, 0, 16, 1}; }
} // namespace

TEST_F(NoDriverTest, GeneratedHostCodeRecordsOneErrorAndSkipsTheWork) {
  float data[16];
  for (int i = 0; i < 16; ++i)
    data[i] = float(i);
  MemRef1D desc = describe16(data);
  _mlir_ciface_fill(&desc, 1.5f);
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(data[i], float(i));
  EXPECT_EQ(modelrt_cuda_status(), -1);
  EXPECT_EQ(std::string(modelrt_cuda_error_message())
                .rfind("mgpuStreamCreate: the GPU is not usable: no NVIDIA "
                       "driver", 0), 0u)
      << modelrt_cuda_error_message();
}

TEST_F(FakeDriverTest, GeneratedHostCodeRunsOnTheFakeDriver) {
  float data[16];
  for (int i = 0; i < 16; ++i)
    data[i] = float(i);
  MemRef1D desc = describe16(data);
  _mlir_ciface_fill(&desc, 1.5f);
  ASSERT_EQ(modelrt_cuda_status(), 0) << modelrt_cuda_error_message();
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(data[i], float(i) + 1.5f);
  EXPECT_EQ(counters().launches, 1);
  int allocs = counters().memAllocs;
  _mlir_ciface_fill(&desc, -0.5f);
  EXPECT_EQ(counters().memAllocs, allocs); // the pool served gpu.alloc
  EXPECT_EQ(data[5], 6.0f);
  EXPECT_EQ(devicePoolStats().bytesInUse, 0u);
}
