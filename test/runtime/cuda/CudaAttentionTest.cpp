//===- CudaAttentionTest.cpp - modelrt_cuda_attention_* on the fake driver -===//
//
// The GPU attention entry points (CudaAttention.cpp) against the CPU's
// fused kernels (modelrt/core/Attention.h) on the same inputs: the fake
// driver runs each kernel as a naive double-precision softmax over the
// views the entry point built, so the check covers the layouts (head-major
// and packed), the causal alignment with fewer queries than keys, the
// statistics the backward's two kernels pass between them, and the launch
// count. The kernels' own arithmetic is checked on a real GPU
// (CudaGpuCheck.cpp).
//
//===----------------------------------------------------------------------===//
#include "CudaTestSupport.h"
#include "modelrt/core/Attention.h"
#include "modelrt/cuda/AttentionKernels.h"
#include "modelrt/cuda/GpuAbi.h"

#include <cmath>
#include <string>
#include <vector>

namespace {

/// Deterministic values in [-1, 1).
std::vector<float> values(size_t n, unsigned seed) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = float(int((i * 2654435761u + seed * 40503u) % 2001) - 1000) / 1000.0f;
  return v;
}

void expectClose(const std::vector<float> &got, const std::vector<float> &want,
                 const std::string &what) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], 2e-5 * std::max(1.0f, std::fabs(want[i])))
        << what << " at " << i;
}

struct Shape {
  int64_t batch, heads, queries, keys, width, causal;
};

} // namespace

TEST_F(FakeDriverTest, AttentionMatchesTheCpuKernels) {
  // Widths in each class; fewer queries than keys (the causal mask aligned
  // at the bottom right); more rows than one block.
  for (Shape s : {Shape{2, 3, 5, 7, 6, 0}, Shape{2, 3, 5, 7, 6, 1}, Shape{1, 2, 70, 70, 40, 1},
                  Shape{1, 1, 3, 66, 100, 1}, Shape{1, 2, 9, 4, 32, 1}}) {
    std::string what = "shape " + std::to_string(s.queries) + "x" + std::to_string(s.keys) +
                       " width " + std::to_string(s.width) + " causal " +
                       std::to_string(s.causal);
    size_t qn = size_t(s.batch * s.heads * s.queries * s.width),
           kn = size_t(s.batch * s.heads * s.keys * s.width);
    std::vector<float> q = values(qn, 1), k = values(kn, 2), v = values(kn, 3),
                       dout = values(qn, 4);
    std::vector<float> out(qn), want(qn);
    modelrt_attention_forward(q.data(), k.data(), v.data(), want.data(), s.batch, s.heads,
                              s.queries, s.keys, s.width, s.causal);
    int64_t launches = counters().launches;
    modelrt_cuda_attention_forward(q.data(), k.data(), v.data(), out.data(), s.batch, s.heads,
                                   s.queries, s.keys, s.width, s.causal);
    ASSERT_EQ(modelrt_cuda_status(), 0) << modelrt_cuda_error_message();
    EXPECT_EQ(counters().launches - launches, 1) << what;
    expectClose(out, want, "forward, " + what);

    std::vector<float> grads(qn + 2 * kn, NAN), wantGrads(qn + 2 * kn);
    modelrt_attention_backward(q.data(), k.data(), v.data(), want.data(), dout.data(),
                               wantGrads.data(), s.batch, s.heads, s.queries, s.keys, s.width,
                               s.causal);
    launches = counters().launches;
    modelrt_cuda_attention_backward(q.data(), k.data(), v.data(), want.data(), dout.data(),
                                    grads.data(), s.batch, s.heads, s.queries, s.keys,
                                    s.width, s.causal);
    ASSERT_EQ(modelrt_cuda_status(), 0) << modelrt_cuda_error_message();
    EXPECT_EQ(counters().launches - launches, 2) << what;
    expectClose(grads, wantGrads, "backward, " + what);
  }
}

TEST_F(FakeDriverTest, PackedAttentionMatchesTheCpuKernels) {
  for (int64_t causal : {0, 1}) {
    const int64_t batch = 2, heads = 3, length = 67, width = 8;
    size_t n = size_t(batch * length * 3 * heads * width), on = size_t(batch * length * heads * width);
    std::vector<float> qkv = values(n, 5), dout = values(on, 6);
    std::vector<float> out(on, NAN), want(on);
    modelrt_attention_packed_forward(qkv.data(), want.data(), batch, heads, length, width, causal);
    modelrt_cuda_attention_packed_forward(qkv.data(), out.data(), batch, heads, length, width,
                                          causal);
    ASSERT_EQ(modelrt_cuda_status(), 0) << modelrt_cuda_error_message();
    expectClose(out, want, "packed forward, causal " + std::to_string(causal));
    std::vector<float> grads(n, NAN), wantGrads(n);
    modelrt_attention_packed_backward(qkv.data(), want.data(), dout.data(), wantGrads.data(),
                                      batch, heads, length, width, causal);
    modelrt_cuda_attention_packed_backward(qkv.data(), want.data(), dout.data(), grads.data(),
                                           batch, heads, length, width, causal);
    ASSERT_EQ(modelrt_cuda_status(), 0) << modelrt_cuda_error_message();
    expectClose(grads, wantGrads, "packed backward, causal " + std::to_string(causal));
  }
}

TEST_F(FakeDriverTest, AttentionWiderThanTheKernelsIsAStickyError) {
  const int64_t width = modelrt::kAttentionGpuMaxWidth + 1;
  std::vector<float> q(size_t(2 * width)), out(q.size());
  modelrt_cuda_attention_forward(q.data(), q.data(), q.data(), out.data(), 1, 1, 2, 2, width, 0);
  EXPECT_NE(modelrt_cuda_status(), 0);
  EXPECT_NE(std::string(modelrt_cuda_error_message()).find("heads of width 129 exceed"),
            std::string::npos)
      << modelrt_cuda_error_message();
}
