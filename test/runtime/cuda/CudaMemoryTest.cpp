//===- CudaMemoryTest.cpp - Buffers, copies, scratch cells and sgemm -------===//
//
// Checks the memory and cuBLAS parts of modelrt/cuda/Cuda.h on the fake driver:
// DeviceBuffer/PinnedBuffer, upload/download/copy (C and C++), the scratch
// cells, uploadAsync's stream ordering, and modelrt_cuda_sgemm against a
// row-major reference, plus its sticky argument errors.
//
//===----------------------------------------------------------------------===//
#include "CudaTestSupport.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <vector>

using namespace modelrt;
using namespace modelrt::cuda;

TEST_F(FakeDriverTest, UploadCopyDownloadRoundTrip) {
  std::vector<float> host = {1, 2, 3, 4, 5};
  Expected<DeviceBuffer> a = DeviceBuffer::allocate(host.size() * 4);
  Expected<DeviceBuffer> b = DeviceBuffer::allocate(host.size() * 4);
  ASSERT_TRUE(a.isOk() && b.isOk());
  ASSERT_TRUE(uploadFloats(*a, host.data(), host.size()).isOk());
  modelrt_cuda_copy(b->data(), a->data(), host.size() * 4);
  std::vector<float> back(host.size(), 0.0f);
  modelrt_cuda_download(back.data(), b->data(), host.size() * 4);
  EXPECT_EQ(back, host);
  modelrt_cuda_upload(a->data(), back.data() + 1, 4);
  float first = 0;
  ASSERT_TRUE(download(&first, a->data(), 4).isOk());
  EXPECT_EQ(first, 2.0f);
  EXPECT_TRUE(synchronize().isOk());
  EXPECT_EQ(modelrt_cuda_status(), 0) << modelrt_cuda_error_message();
}

TEST_F(FakeDriverTest, DeviceBufferReturnsToThePool) {
  void *first = nullptr;
  {
    Expected<DeviceBuffer> a = DeviceBuffer::allocate(1 << 20);
    ASSERT_TRUE(a.isOk()) << a.message();
    first = a->data();
    DeviceBuffer moved = a.take();
    EXPECT_EQ(moved.data(), first);
    EXPECT_EQ(devicePoolStats().bytesInUse, uint64_t(1) << 20);
  }
  EXPECT_EQ(devicePoolStats().bytesInUse, 0u);
  Expected<DeviceBuffer> again = DeviceBuffer::allocate(1 << 20);
  EXPECT_EQ(again->data(), first);
}

TEST_F(FakeDriverTest, ScratchCellsAreDistinctZeroedAndBounded) {
  auto *c0 = static_cast<char *>(modelrt_cuda_scratch(0));
  auto *c63 = static_cast<char *>(modelrt_cuda_scratch(63));
  ASSERT_NE(c0, nullptr);
  EXPECT_EQ(c63 - c0, 63 * 64);
  char cells[64 * 64];
  modelrt_cuda_download(cells, c0, sizeof(cells));
  for (char c : cells)
    ASSERT_EQ(c, 0);
  EXPECT_EQ(modelrt_cuda_status(), 0);
  EXPECT_EQ(modelrt_cuda_scratch(64), nullptr);
  EXPECT_STREQ(modelrt_cuda_error_message(),
               "modelrt_cuda_scratch: slot 64 is outside 0..63");
}

TEST_F(FakeDriverTest, FetchScratchBringsTheFirstCellsBackTogether) {
  float loss = 2.5f;
  int64_t count = 41;
  modelrt_cuda_upload(modelrt_cuda_scratch(0), &loss, sizeof(loss));
  modelrt_cuda_upload(modelrt_cuda_scratch(2), &count, sizeof(count));
  auto *mirror = static_cast<const char *>(modelrt_cuda_fetch_scratch(3));
  ASSERT_EQ(modelrt_cuda_status(), 0) << modelrt_cuda_error_message();
  float l;
  int64_t c;
  std::memcpy(&l, mirror, sizeof(l));
  std::memcpy(&c, mirror + 2 * 64, sizeof(c));
  EXPECT_EQ(l, 2.5f);
  EXPECT_EQ(c, 41);
  // A second fetch sees new values in the same mirror.
  count = 7;
  modelrt_cuda_upload(modelrt_cuda_scratch(2), &count, sizeof(count));
  EXPECT_EQ(modelrt_cuda_fetch_scratch(3), mirror);
  std::memcpy(&c, mirror + 2 * 64, sizeof(c));
  EXPECT_EQ(c, 7);
}

TEST_F(FakeDriverTest, FetchScratchOutOfRangeGivesZerosAndAStickyError) {
  auto *zeros = static_cast<const char *>(modelrt_cuda_fetch_scratch(65));
  ASSERT_NE(zeros, nullptr);
  for (int i = 0; i < 64 * 64; ++i)
    ASSERT_EQ(zeros[i], 0);
  EXPECT_STREQ(modelrt_cuda_error_message(),
               "modelrt_cuda_fetch_scratch: 65 cells is outside 1..64");
}

TEST_F(FakeDriverTest, NegativeSizeIsASticky) {
  modelrt_cuda_upload(nullptr, nullptr, -4);
  EXPECT_STREQ(modelrt_cuda_error_message(),
               "modelrt_cuda_upload: negative size -4");
}

TEST_F(FakeDriverTest, AsyncUploadOrdersBothStreams) {
  Expected<PinnedBuffer> pinned = PinnedBuffer::allocate(16);
  Expected<DeviceBuffer> dev = DeviceBuffer::allocate(16);
  Expected<UploadFence> fence = UploadFence::create();
  ASSERT_TRUE(pinned.isOk() && dev.isOk() && fence.isOk());
  for (int i = 0; i < 4; ++i)
    pinned->floats()[i] = float(i) + 0.5f;
  ASSERT_TRUE(uploadAsync(dev->data(), *pinned, 16, *fence).isOk());
  // compute -> copy, then copy -> compute.
  EXPECT_EQ(counters().eventRecords, 2);
  EXPECT_EQ(counters().streamWaits, 2);
  ASSERT_TRUE(fence->wait().isOk());
  float back[4];
  ASSERT_TRUE(download(back, dev->data(), 16).isOk());
  EXPECT_EQ(back[3], 3.5f);
  Status tooBig = uploadAsync(dev->data(), *pinned, 32, *fence);
  EXPECT_EQ(tooBig.message(),
            "uploadAsync of 32 bytes from a pinned buffer of 16");
  UploadFence never;
  EXPECT_FALSE(never.wait().isOk());
}

TEST_F(FakeDriverTest, SgemmRowMajorMatchesAReference) {
  // C(3x2) = 2 * A^T(3x4) B(4x2) + 0.5 C, row-major, A stored 4x3.
  const int64_t M = 3, N = 2, K = 4;
  std::vector<float> A(K * M), B(K * N), C(M * N, 1.0f);
  for (size_t i = 0; i < A.size(); ++i)
    A[i] = float(i) - 5.0f;
  for (size_t i = 0; i < B.size(); ++i)
    B[i] = 0.25f * float(i);
  std::vector<float> expected(M * N);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float sum = 0;
      for (int64_t p = 0; p < K; ++p)
        sum += A[p * M + i] * B[p * N + j];
      expected[i * N + j] = 2.0f * sum + 0.5f * C[i * N + j];
    }
  // "Device" memory of the fake is host memory.
  modelrt_cuda_sgemm(101, 112, 111, M, N, K, 2.0f, A.data(), M, B.data(), N,
                     0.5f, C.data(), N);
  EXPECT_EQ(modelrt_cuda_status(), 0) << modelrt_cuda_error_message();
  EXPECT_EQ(counters().sgemms, 1);
  for (size_t i = 0; i < C.size(); ++i)
    EXPECT_FLOAT_EQ(C[i], expected[i]) << i;
}

TEST_F(FakeDriverTest, SplitKProductsMatchAReference) {
  // C(3x5) over K = 8195: 32 slices (31 of 257, the last of 228), their
  // partial products into cuBLAS's split workspace, then added by
  // modelrt_splitk_sum; both orders and every transposition, beta 0 (C is
  // NaN before: it must not be read) and beta 0.5, C's rows padded (the
  // padding, NaN or 2, must stay as it was).
  const int64_t M = 3, N = 5, K = 8195;
  std::vector<float> A(M * K), B(K * N);
  for (size_t i = 0; i < A.size(); ++i)
    A[i] = float(int(i * 7919 % 201) - 100) / 64.0f;
  for (size_t i = 0; i < B.size(); ++i)
    B[i] = float(int(i * 104729 % 199) - 99) / 32.0f;
  int cases = 0;
  for (int32_t order : {101, 102})
    for (bool ta : {false, true})
      for (bool tb : {false, true})
        for (float beta : {0.0f, 0.5f}) {
          // op(A)(i, p) and op(B)(p, j) of the case's storage.
          bool row = order == 101;
          int64_t lda = row ? (ta ? M : K) : (ta ? K : M), ldb = row ? (tb ? K : N) : (tb ? N : K);
          auto opA = [&](int64_t i, int64_t p) {
            bool byRow = row != ta; // element (i, p) at i*ld + p
            return byRow ? A[i * lda + p] : A[p * lda + i];
          };
          auto opB = [&](int64_t p, int64_t j) {
            bool byRow = row != tb;
            return byRow ? B[p * ldb + j] : B[j * ldb + p];
          };
          int64_t ldc = (row ? N : M) + 2; // padded: the sum kernel must use ldc
          std::vector<float> C((row ? M : N) * ldc, beta == 0.0f ? std::nanf("") : 2.0f);
          std::vector<double> want(C.begin(), C.end()); // the padding stays as it was
          for (int64_t i = 0; i < M; ++i)
            for (int64_t j = 0; j < N; ++j) {
              double sum = 0;
              for (int64_t p = 0; p < K; ++p)
                sum += double(opA(i, p)) * opB(p, j);
              want[row ? i * ldc + j : j * ldc + i] = 1.5 * sum + (beta == 0.0f ? 0.0 : 1.0);
            }
          int64_t sgemms = counters().sgemms, launches = counters().launches;
          modelrt_cuda_sgemm(order, ta ? 112 : 111, tb ? 112 : 111, M, N, K, 1.5f, A.data(),
                             lda, B.data(), ldb, beta, C.data(), ldc);
          ASSERT_EQ(modelrt_cuda_status(), 0) << modelrt_cuda_error_message();
          EXPECT_EQ(counters().sgemms - sgemms, 2); // the batch, then the last slice
          EXPECT_EQ(counters().launches - launches, 1);
          for (size_t e = 0; e < C.size(); ++e)
            if (std::isnan(want[e]))
              EXPECT_TRUE(std::isnan(C[e])) << e;
            else
              EXPECT_NEAR(C[e], want[e], 1e-4 * std::max(1.0, std::fabs(want[e])))
                << "order " << order << " ta " << ta << " tb " << tb << " beta " << beta
                << " element " << e;
          ++cases;
        }
  EXPECT_EQ(cases, 16);
}

TEST_F(FakeDriverTest, SplitKSlicesSettingZeroTurnsItOff) {
  // The same long product as one cublasSgemm, no sum kernel; the result is
  // the same within rounding.
  const int64_t M = 3, N = 5, K = 8195;
  std::vector<float> A(M * K), B(K * N), split(M * N), whole(M * N);
  for (size_t i = 0; i < A.size(); ++i)
    A[i] = float(int(i % 17) - 8) / 8.0f;
  for (size_t i = 0; i < B.size(); ++i)
    B[i] = float(int(i % 13) - 6) / 4.0f;
  modelrt_cuda_sgemm(101, 111, 111, M, N, K, 1.0f, A.data(), K, B.data(), N, 0.0f,
                     split.data(), N);
  EXPECT_EQ(counters().launches, 1);
  setenv("MODELRT_SPLITK_SLICES", "0", 1);
  configure(FakeCudaConfig{0, 1, 9, 0, uint64_t(1) << 30, 13000}); // a new handle
  modelrt_cuda_sgemm(101, 111, 111, M, N, K, 1.0f, A.data(), K, B.data(), N, 0.0f,
                     whole.data(), N);
  unsetenv("MODELRT_SPLITK_SLICES");
  ASSERT_EQ(modelrt_cuda_status(), 0) << modelrt_cuda_error_message();
  EXPECT_EQ(counters().sgemms, 1);
  EXPECT_EQ(counters().launches, 0);
  for (size_t e = 0; e < whole.size(); ++e)
    EXPECT_NEAR(whole[e], split[e], 1e-4 * std::max(1.0f, std::fabs(split[e]))) << e;
}

TEST_F(FakeDriverTest, SgemmBadArgumentIsSticky) {
  float x = 0;
  modelrt_cuda_sgemm(101, 111, 111, 2, 2, 2, 1.0f, &x, 1, &x, 2, 0.0f, &x, 2);
  EXPECT_STREQ(modelrt_cuda_error_message(),
               "modelrt_cuda_sgemm: lda = 1, must be at least 2");
  EXPECT_EQ(counters().sgemms, 0);
}
