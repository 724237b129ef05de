//===- CudaGraphTest.cpp - StepGraph capture and replay, on the fake -------===//
//
// cuda::StepGraph against the fake driver, whose captures record the work
// instead of running it: a capture runs nothing; a replay reads the device
// memory as it is at the replay (new data, not the data at the capture); the
// seed is written outside the graph; a wait inside the capture fails it
// without a sticky error, after which eager work still runs; the pool keeps
// the blocks the capture used for the graph until it is destroyed.
//
//===----------------------------------------------------------------------===//
#include "CudaTestSupport.h"

#include "modelrt/cuda/Cuda.h"

#include <cstring>
#include <vector>

using namespace modelrt;

namespace {

char kImage[] = "module with fake_fill and fake_scale";

class CudaGraphTest : public FakeDriverTest {
protected:
  void SetUp() override {
    FakeDriverTest::SetUp();
    ASSERT_TRUE(cuda::initCuda().isOk());
    scale = mgpuModuleGetFunction(mgpuModuleLoad(kImage, sizeof(kImage)), "fake_scale");
    ASSERT_NE(scale, nullptr);
  }
  /// Enqueues data[0..n) *= factor.
  void launchScale(void *data, float factor, int64_t n) {
    void *params[] = {&data, &factor, &n};
    mgpuLaunchKernel(scale, 1, 1, 1, n, 1, 1, 0, nullptr, params, nullptr, 3);
  }
  std::vector<float> download(const cuda::DeviceBuffer &b, size_t n) {
    std::vector<float> v(n);
    EXPECT_TRUE(cuda::downloadFloats(v.data(), b, n).isOk());
    return v;
  }
  void *scale = nullptr;
};

std::vector<float> filled(size_t n, float v) { return std::vector<float>(n, v); }

TEST_F(CudaGraphTest, AReplayRunsTheCapturedWorkOnTheDataOfThatTime) {
  const size_t n = 16;
  auto src = cuda::DeviceBuffer::allocate(n * 4), dst = cuda::DeviceBuffer::allocate(n * 4);
  ASSERT_TRUE(src.isOk() && dst.isOk());
  ASSERT_TRUE(cuda::uploadFloats(*src, filled(n, 1).data(), n).isOk());
  ASSERT_TRUE(cuda::uploadFloats(*dst, filled(n, 0).data(), n).isOk());
  auto graph = cuda::StepGraph::capture([&] {
    EXPECT_TRUE(cuda::capturing());
    modelrt_cuda_copy(dst->data(), src->data(), n * 4);
    launchScale(dst->data(), 2.0f, n);
    return cuda::stickyStatus();
  });
  ASSERT_TRUE(graph.isOk()) << graph.message();
  EXPECT_FALSE(cuda::capturing());
  EXPECT_EQ(graph->nodeCount(), 2u);
  EXPECT_EQ(download(*dst, n), filled(n, 0)); // the capture ran nothing
  ASSERT_TRUE(cuda::uploadFloats(*src, filled(n, 3).data(), n).isOk());
  ASSERT_TRUE(graph->launch().isOk());
  EXPECT_EQ(download(*dst, n), filled(n, 6));
  ASSERT_TRUE(cuda::uploadFloats(*src, filled(n, 5).data(), n).isOk());
  ASSERT_TRUE(graph->launch().isOk());
  EXPECT_EQ(download(*dst, n), filled(n, 10));
  EXPECT_EQ(counters().captures, 1);
  EXPECT_EQ(counters().graphLaunches, 2);
}

TEST_F(CudaGraphTest, TheSeedIsWrittenBeforeEachReplayNotBakedIn) {
  auto out = cuda::DeviceBuffer::allocate(8);
  ASSERT_TRUE(out.isOk());
  auto graph = cuda::StepGraph::capture([&] {
    void *cell = modelrt_cuda_seed_cell(0x1111111122222222ull); // not written
    modelrt_cuda_copy(out->data(), cell, 8);
    return cuda::stickyStatus();
  });
  ASSERT_TRUE(graph.isOk()) << graph.message();
  EXPECT_EQ(graph->nodeCount(), 1u); // the copy: no memsets of the seed
  for (uint64_t seed : {0x0123456789abcdefull, 42ull}) {
    ASSERT_NE(modelrt_cuda_seed_cell(seed), nullptr);
    ASSERT_TRUE(graph->launch().isOk());
    uint64_t got = 0;
    ASSERT_TRUE(cuda::download(&got, out->data(), 8).isOk());
    EXPECT_EQ(got, seed);
  }
}

TEST_F(CudaGraphTest, AWaitInsideTheCaptureFailsItButNothingElse) {
  auto buf = cuda::DeviceBuffer::allocate(64);
  ASSERT_TRUE(buf.isOk());
  auto graph = cuda::StepGraph::capture([&] {
    float host[16];
    return cuda::downloadFloats(host, *buf, 16); // waits for the stream
  });
  ASSERT_FALSE(graph.isOk());
  EXPECT_NE(graph.message().find("capturing the step as a CUDA graph"), std::string::npos)
      << graph.message();
  EXPECT_NE(graph.message().find("CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"), std::string::npos)
      << graph.message();
  EXPECT_TRUE(cuda::stickyStatus().isOk()); // the run can go on without graphs
  EXPECT_EQ(modelrt_cuda_status(), 0);
  EXPECT_FALSE(cuda::capturing());
  ASSERT_TRUE(cuda::uploadFloats(*buf, filled(16, 4).data(), 16).isOk());
  launchScale(buf->data(), 0.5f, 16);
  EXPECT_EQ(download(*buf, 16), filled(16, 2));
}

TEST_F(CudaGraphTest, ThePoolKeepsTheCapturedBlocksForTheGraph) {
  void *temp = nullptr;
  auto graph = cuda::StepGraph::capture([&] {
    temp = mgpuMemAlloc(1024, nullptr, false); // a step's temporary
    launchScale(temp, 1.0f, 16);
    mgpuMemFree(temp, nullptr);
    return cuda::stickyStatus();
  });
  ASSERT_TRUE(graph.isOk()) << graph.message();
  ASSERT_NE(temp, nullptr);
  void *other = mgpuMemAlloc(1024, nullptr, false);
  EXPECT_NE(other, temp); // the graph's replays still write `temp`
  mgpuMemFree(other, nullptr);
  *graph = cuda::StepGraph(); // destroyed: its blocks go back to the pool
  void *again = mgpuMemAlloc(1024, nullptr, false);
  EXPECT_EQ(again, temp);
  mgpuMemFree(again, nullptr);
  EXPECT_TRUE(cuda::stickyStatus().isOk());
}

} // namespace
