//===- NcclTest.cpp - Loading NCCL, and its sums, on the fake --------------===//
//
// cuda/Nccl.h: the messages when NCCL cannot be loaded (a missing file, a
// library that is not NCCL), MODELRT_NCCL's choices, the version's
// spelling, and the ranks' agreement: NCCL only when every rank loads it,
// else no communicator and the reason. Then NcclSums over two ranks that
// are threads of this process (dist/ThreadCollective.h) with the fake
// libnccl: weighted sums of device buffers against hand-worked numbers.
//
//===----------------------------------------------------------------------===//
#include "CudaTestSupport.h"
#include "cuda/Nccl.h"
#include "dist/ThreadCollective.h"

using namespace modelrt;
using namespace modelrt::cuda;

namespace {

/// Sets MODELRT_NCCL for one test.
struct NcclEnv {
  explicit NcclEnv(const char *value) { setenv("MODELRT_NCCL", value, 1); }
  ~NcclEnv() { unsetenv("MODELRT_NCCL"); }
};

/// True when \p text contains \p part.
bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

} // namespace

TEST(NcclLoadTest, MissingLibraryNamesItAndWhy) {
  auto api = loadNccl("/nonexistent/libnccl.so.2");
  ASSERT_FALSE(api);
  EXPECT_TRUE(contains(api.message(), "cannot load /nonexistent/libnccl.so.2 (")) << api.message();
  EXPECT_TRUE(contains(api.message(), "cannot open shared object file")) << api.message();
}

TEST(NcclLoadTest, ALibraryThatIsNotNccl) {
  auto api = loadNccl(MODELRT_FAKE_CUDA_DRIVER);
  ASSERT_FALSE(api);
  EXPECT_EQ(api.message(), std::string(MODELRT_FAKE_CUDA_DRIVER) +
                               " is not NCCL 2.11 or later (it has no ncclGetVersion)");
}

TEST(NcclLoadTest, TheFakeLoadsWithItsVersion) {
  auto api = loadNccl(MODELRT_FAKE_NCCL);
  ASSERT_TRUE(api) << api.message();
  EXPECT_EQ(api->version, 22304);
  EXPECT_EQ(ncclVersionString(22304), "2.23.4");
  EXPECT_EQ(ncclVersionString(2708), "2.7.8"); // the codes before 2.9
}

TEST(NcclLoadTest, LibraryNameFromTheEnvironment) {
  unsetenv("MODELRT_NCCL");
  EXPECT_EQ(ncclLibraryName(), "libnccl.so.2");
  {
    NcclEnv env("none");
    EXPECT_EQ(ncclLibraryName(), "");
  }
  NcclEnv env("/opt/nccl/libnccl.so.2");
  EXPECT_EQ(ncclLibraryName(), "/opt/nccl/libnccl.so.2");
}

TEST(NcclLoadTest, OneRankWithoutNcclMeansNoneUsesIt) {
  NcclEnv env("/nonexistent/libnccl.so.2");
  ThreadGroup group(2);
  std::string why[2];
  bool none[2] = {false, false};
  group.run([&](Collective &c) {
    auto sums = NcclSums::join(c, why[c.rank()]);
    none[c.rank()] = sums && !*sums;
  });
  EXPECT_TRUE(none[0] && none[1]);
  EXPECT_TRUE(contains(why[0], "cannot load /nonexistent/libnccl.so.2")) << why[0];
}

class NcclSumsTest : public FakeDriverTest {};

TEST_F(NcclSumsTest, WeightedSumsOverTwoRanks) {
  ASSERT_TRUE(initCuda().isOk());
  NcclEnv env(MODELRT_FAKE_NCCL);
  // Rank r holds {r + 1, 10 (r + 1), ...} (70000 floats: two of the fake's
  // chunks) and 3 - r in a second buffer; weights 0.25 and 0.75.
  const int64_t n = 70000;
  std::vector<DeviceBuffer> a, b; // per rank, made and filled on this thread
  for (int r = 0; r < 2; ++r) {
    auto big = DeviceBuffer::allocate(n * sizeof(float));
    auto small = DeviceBuffer::allocate(sizeof(float));
    ASSERT_TRUE(big && small);
    std::vector<float> host(n);
    for (int64_t i = 0; i < n; ++i)
      host[i] = float((r + 1) * (i % 2 ? 10 : 1));
    float single = float(3 - r);
    ASSERT_TRUE(uploadFloats(*big, host.data(), n).isOk());
    ASSERT_TRUE(uploadFloats(*small, &single, 1).isOk());
    a.push_back(big.take()), b.push_back(small.take());
  }
  std::string describe;
  Status status[2];
  ThreadGroup group(2);
  group.run([&](Collective &c) {
    int r = c.rank();
    std::string why;
    auto sums = NcclSums::join(c, why);
    if (!sums || !*sums) {
      status[r] = errorf("no NCCL: %s", sums ? why.c_str() : sums.message().c_str());
      return; // the other rank fails the same way
    }
    if (r == 0)
      describe = (*sums)->describe();
    status[r] = (*sums)->sum({a[r].floats(), b[r].floats()}, {n, 1}, r == 0 ? 0.25f : 0.75f,
                             "the test's sum");
  });
  ASSERT_TRUE(status[0].isOk()) << status[0].message();
  ASSERT_TRUE(status[1].isOk()) << status[1].message();
  std::vector<float> result[2], second[2];
  for (int r = 0; r < 2; ++r) {
    result[r].resize(n), second[r].resize(1);
    ASSERT_TRUE(downloadFloats(result[r].data(), a[r], n).isOk());
    ASSERT_TRUE(downloadFloats(second[r].data(), b[r], 1).isOk());
  }
  EXPECT_EQ(describe, std::string("NCCL 2.23.4 (") + MODELRT_FAKE_NCCL + ")");
  for (int r = 0; r < 2; ++r) {
    // 0.25 * 1 + 0.75 * 2 = 1.75; times 10 on odd elements; 0.25 * 3 + 0.75 * 2 = 2.25.
    EXPECT_EQ(result[r][0], 1.75f);
    EXPECT_EQ(result[r][1], 17.5f);
    EXPECT_EQ(result[r][n - 1], 17.5f);
    EXPECT_EQ(result[r][65536], 1.75f); // the second chunk
    EXPECT_EQ(second[r][0], 2.25f);
  }
}
