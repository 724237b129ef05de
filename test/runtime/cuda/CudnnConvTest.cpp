//===- CudnnConvTest.cpp - The GPU convolutions through cuDNN --------------===//
//
// Checks the modelrt_cuda_conv2d_* entry points (GpuAbi.h, CudnnConv.cpp)
// on the fake cuDNN (FakeCudnn.cpp), which reads the operands as the
// tensor cores do: each direction in f32, TF32 and bf16, on shapes with a
// stride of 2, padding, dilation, one input channel and a batch of 3,
// against a float64 direct convolution of the rounded operands. The f32
// result misses the bounds of the rounded references, so the comparison
// sees the rounding. Also the messages of a missing or wrong library, of
// a cuDNN failure and of a bad shape, and the cuDNN 9 ABI values of
// Cudnn.h against cuDNN's own headers where they are installed.
//
//===----------------------------------------------------------------------===//
#include "CudaTestSupport.h"
#include "TensorCoreRounding.h"

#include "cuda/Cudnn.h"
#include "modelrt/cuda/Cuda.h"
#include "modelrt/cuda/GpuAbi.h"

#include <gmock/gmock.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#if __has_include(<cudnn.h>)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <cudnn.h>
namespace cudnn = modelrt::cuda::cudnn;
static_assert(CUDNN_MAJOR == 9, "Cudnn.h declares cuDNN 9's ABI");
static_assert(CUDNN_STATUS_SUCCESS == cudnn::kSuccess && CUDNN_STATUS_BAD_PARAM == cudnn::kBadParam &&
                  CUDNN_STATUS_NOT_SUPPORTED == cudnn::kNotSupported,
              "cudnnStatus_t");
static_assert(CUDNN_DATA_FLOAT == cudnn::kDataFloat &&
                  CUDNN_DATA_BFLOAT16 == cudnn::kDataBfloat16 &&
                  CUDNN_TENSOR_NCHW == cudnn::kTensorNchw &&
                  CUDNN_CROSS_CORRELATION == cudnn::kCrossCorrelation,
              "data types, format, mode");
static_assert(CUDNN_DEFAULT_MATH == cudnn::kDefaultMath &&
                  CUDNN_TENSOR_OP_MATH == cudnn::kTensorOpMath &&
                  CUDNN_FMA_MATH == cudnn::kFmaMath,
              "cudnnMathType_t");
static_assert(sizeof(cudnnConvolutionFwdAlgoPerf_t) == sizeof(cudnn::AlgoPerf) &&
                  sizeof(cudnnConvolutionBwdDataAlgoPerf_t) == sizeof(cudnn::AlgoPerf) &&
                  sizeof(cudnnConvolutionBwdFilterAlgoPerf_t) == sizeof(cudnn::AlgoPerf) &&
                  offsetof(cudnnConvolutionFwdAlgoPerf_t, memory) ==
                      offsetof(cudnn::AlgoPerf, memory),
              "the algorithm queries' results");
#pragma GCC diagnostic pop
#endif

namespace {

using ConvEntry = void (*)(const float *, const float *, float *, int64_t, int64_t, int64_t,
                           int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                           int64_t, int64_t, int64_t, int64_t, int64_t);

/// A convolution's sizes (Conv.h's arguments).
struct Shape {
  int64_t n, c, h, w, o, kh, kw, strideH, strideW, padH, padW, dilH, dilW;
  int64_t oh() const { return (h + 2 * padH - dilH * (kh - 1) - 1) / strideH + 1; }
  int64_t ow() const { return (w + 2 * padW - dilW * (kw - 1) - 1) / strideW + 1; }
  int64_t xSize() const { return n * c * h * w; }
  int64_t wSize() const { return o * c * kh * kw; }
  int64_t ySize() const { return n * o * oh() * ow(); }
};

/// Stride 2 with padding; one input channel, a batch of 3 and dilation;
/// strides and paddings differing between the axes, a longer reduction.
const Shape kShapes[] = {{2, 3, 7, 6, 4, 3, 3, 2, 2, 1, 1, 1, 1},
                         {3, 1, 6, 5, 2, 2, 3, 1, 1, 0, 0, 2, 1},
                         {1, 6, 5, 8, 3, 3, 2, 2, 1, 2, 0, 1, 1}};

enum Dir { Forward, Data, Weights };

/// Values with all 24 significant bits in use, of either sign, in [-2, 2).
std::vector<float> fullMantissaValues(int64_t n, uint32_t seed) {
  std::vector<float> v(static_cast<size_t>(n));
  uint32_t x = seed;
  for (float &f : v) {
    x = x * 1664525u + 1013904223u; // LCG
    f = float(int32_t(x >> 8) - (1 << 23)) / float(1 << 22);
  }
  return v;
}

/// The float64 sums of products of the rounded operands of direction \p d
/// (a and b as the entry point takes them), with each result's sum of
/// |products| and its number of products.
struct Reference {
  std::vector<double> sum, scale;
  std::vector<int64_t> terms;
};
Reference reference(const Shape &s, Dir d, const std::vector<float> &a,
                    const std::vector<float> &b, float (*round)(float)) {
  int64_t outSize = d == Forward ? s.ySize() : d == Data ? s.xSize() : s.wSize();
  Reference r{std::vector<double>(size_t(outSize)), std::vector<double>(size_t(outSize)),
              std::vector<int64_t>(size_t(outSize))};
  for (int64_t n = 0; n < s.n; ++n)
    for (int64_t o = 0; o < s.o; ++o)
      for (int64_t i = 0; i < s.oh(); ++i)
        for (int64_t j = 0; j < s.ow(); ++j)
          for (int64_t c = 0; c < s.c; ++c)
            for (int64_t p = 0; p < s.kh; ++p)
              for (int64_t q = 0; q < s.kw; ++q) {
                int64_t y = i * s.strideH - s.padH + p * s.dilH;
                int64_t x = j * s.strideW - s.padW + q * s.dilW;
                if (y < 0 || y >= s.h || x < 0 || x >= s.w)
                  continue;
                int64_t xi = ((n * s.c + c) * s.h + y) * s.w + x;
                int64_t wi = ((o * s.c + c) * s.kh + p) * s.kw + q;
                int64_t yi = ((n * s.o + o) * s.oh() + i) * s.ow() + j;
                int64_t ai = d == Data ? yi : xi, bi = d == Weights ? yi : wi;
                int64_t out = d == Forward ? yi : d == Data ? xi : wi;
                double t = double(round(a[size_t(ai)])) * round(b[size_t(bi)]);
                r.sum[size_t(out)] += t;
                r.scale[size_t(out)] += std::fabs(t);
                r.terms[size_t(out)]++;
              }
  return r;
}

/// The largest ratio |out - reference| / bound, the bound being that of an
/// f32 accumulation of the K exact products of an output (products of
/// rounded operands have at most 22 significant bits), gamma(K) * sum |p|
/// with gamma(K) = K u / (1 - K u), u = 2^-24, and a last rounding of the
/// result to a format of unit roundoff \p outU (2^-24 for f32, 2^-8 for
/// bf16): |out - ref| <= gamma(K) S + outU (|ref| + gamma(K) S).
double worstRatio(const Reference &r, const std::vector<float> &out, double outU) {
  const double u = std::ldexp(1.0, -24);
  double worst = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    double k = double(std::max<int64_t>(r.terms[i], 1));
    double accumulation = k * u / (1 - k * u) * r.scale[i];
    double bound = accumulation + outU * (std::fabs(r.sum[i]) + accumulation);
    worst = std::max(worst, std::fabs(double(out[i]) - r.sum[i]) / bound);
  }
  return worst;
}

struct Precision {
  const char *name;
  ConvEntry entries[3]; ///< forward, data, weights
  float (*round)(float);
  double outU;
};

const Precision kF32 = {"f32",
                        {modelrt_cuda_conv2d_forward, modelrt_cuda_conv2d_backward_data,
                         modelrt_cuda_conv2d_backward_weights},
                        roundNot,
                        std::ldexp(1.0, -24)};
const Precision kTf32 = {"tf32",
                         {modelrt_cuda_conv2d_forward_tf32,
                          modelrt_cuda_conv2d_backward_data_tf32,
                          modelrt_cuda_conv2d_backward_weights_tf32},
                         roundThroughTf32,
                         std::ldexp(1.0, -24)};
const Precision kBf16 = {"bf16",
                         {modelrt_cuda_conv2d_forward_bf16,
                          modelrt_cuda_conv2d_backward_data_bf16,
                          modelrt_cuda_conv2d_backward_weights_bf16},
                         modelrt::roundThroughBf16,
                         std::ldexp(1.0, -8)};

/// Runs \p entry on \p s's operands of direction \p d (fixed seeds; the
/// result buffer starts as garbage) and returns the result.
std::vector<float> runEntry(ConvEntry entry, const Shape &s, Dir d, std::vector<float> &a,
                            std::vector<float> &b) {
  a = fullMantissaValues(d == Data ? s.ySize() : s.xSize(), 1 + uint32_t(d));
  b = fullMantissaValues(d == Weights ? s.ySize() : s.wSize(), 7 + uint32_t(d));
  std::vector<float> out(size_t(d == Forward ? s.ySize() : d == Data ? s.xSize() : s.wSize()),
                         1e30f);
  entry(a.data(), b.data(), out.data(), s.n, s.c, s.h, s.w, s.o, s.kh, s.kw, s.oh(), s.ow(),
        s.strideH, s.strideW, s.padH, s.padW, s.dilH, s.dilW);
  return out;
}

/// The worst ratio of \p entry against \p ref's rounded reference.
double ratio(ConvEntry entry, const Precision &ref, const Shape &s, Dir d) {
  std::vector<float> a, b;
  std::vector<float> out = runEntry(entry, s, d, a, b);
  return worstRatio(reference(s, d, a, b, ref.round), out, ref.outU);
}

class CudnnConvTest : public FakeDriverTest {};

} // namespace

TEST_F(CudnnConvTest, EachDirectionAndPrecisionMatchesTheRoundedReference) {
  int cases = 0;
  for (const Precision *p : {&kF32, &kTf32, &kBf16})
    for (const Shape &s : kShapes)
      for (Dir d : {Forward, Data, Weights}) {
        int before = counters().cudnnConvs;
        EXPECT_LE(ratio(p->entries[d], *p, s, d), 1.0) << p->name << " direction " << d
                                                       << " shape " << (&s - kShapes);
        ASSERT_EQ(modelrt_cuda_status(), 0) << modelrt_cuda_error_message();
        EXPECT_EQ(counters().cudnnConvs, before + 1);
        ++cases;
      }
  EXPECT_EQ(cases, 27);
}

TEST_F(CudnnConvTest, TheF32ResultMissesTheRoundedBounds) {
  // Rounding an operand moves it by up to 2^-8 (bf16) or 2^-11 (TF32) of
  // itself, far more than the f32 accumulation bound (about K 2^-24 of
  // sum |p|, K <= 48 here) and than a bf16 result's rounding at some outputs.
  for (const Precision *p : {&kTf32, &kBf16})
    for (Dir d : {Forward, Data, Weights}) {
      EXPECT_GT(ratio(kF32.entries[d], *p, kShapes[0], d), 2.0) << p->name << " " << d;
      EXPECT_GT(ratio(p->entries[d], kF32, kShapes[0], d), 2.0) << p->name << " " << d;
    }
  ASSERT_EQ(modelrt_cuda_status(), 0) << modelrt_cuda_error_message();
}

TEST_F(CudnnConvTest, DescriptorsAndAlgorithmsAreMadeOncePerShape) {
  // Four descriptors per shape and arithmetic, one algorithm query per
  // direction of it; the same call again makes and asks nothing.
  std::vector<float> a, b;
  for (int round = 0; round < 2; ++round) {
    runEntry(kF32.entries[Forward], kShapes[0], Forward, a, b);
    runEntry(kF32.entries[Weights], kShapes[0], Weights, a, b);
    EXPECT_EQ(counters().cudnnDescriptors, 4);
    EXPECT_EQ(counters().cudnnAlgoQueries, 2);
  }
  runEntry(kTf32.entries[Forward], kShapes[0], Forward, a, b); // another arithmetic
  runEntry(kF32.entries[Forward], kShapes[1], Forward, a, b);  // another shape
  EXPECT_EQ(counters().cudnnDescriptors, 12);
  EXPECT_EQ(counters().cudnnAlgoQueries, 4);
  EXPECT_EQ(counters().cudnnConvs, 6);
  ASSERT_EQ(modelrt_cuda_status(), 0) << modelrt_cuda_error_message();
}

TEST_F(CudnnConvTest, ACapturedConvolutionRunsAtEachReplay) {
  // The bf16 path's conversions, workspace and convolution are all ordered
  // on the compute stream: the capture runs none of them, each replay all
  // of them on the data of its time.
  ASSERT_TRUE(modelrt::cuda::initCuda().isOk());
  const Shape &s = kShapes[1];
  std::vector<float> x = fullMantissaValues(s.xSize(), 3), w = fullMantissaValues(s.wSize(), 4);
  std::vector<float> y(size_t(s.ySize()), 0.0f);
  auto graph = modelrt::cuda::StepGraph::capture([&] {
    modelrt_cuda_conv2d_forward_bf16(x.data(), w.data(), y.data(), s.n, s.c, s.h, s.w, s.o, s.kh,
                                     s.kw, s.oh(), s.ow(), s.strideH, s.strideW, s.padH, s.padW,
                                     s.dilH, s.dilW);
    return modelrt::cuda::stickyStatus();
  });
  ASSERT_TRUE(graph.isOk()) << graph.message();
  EXPECT_EQ(y, std::vector<float>(y.size(), 0.0f));
  EXPECT_EQ(counters().cudnnConvs, 1); // called once, its work recorded
  for (uint32_t seed : {5u, 6u}) {
    std::vector<float> fresh = fullMantissaValues(s.xSize(), seed);
    std::copy(fresh.begin(), fresh.end(), x.begin()); // the captured address
    ASSERT_TRUE(graph->launch().isOk());
    ASSERT_TRUE(modelrt::cuda::synchronize().isOk());
    EXPECT_LE(worstRatio(reference(s, Forward, x, w, kBf16.round), y, kBf16.outU), 1.0);
  }
  EXPECT_EQ(counters().cudnnConvs, 1); // the replays call no cuDNN function
}

TEST_F(CudnnConvTest, NoImagesGiveZeroWeightGradients) {
  std::vector<float> dw(2 * 3 * 3 * 3, 5.0f), none(1);
  modelrt_cuda_conv2d_backward_weights_bf16(none.data(), none.data(), dw.data(), 0, 3, 4, 4, 2,
                                            3, 3, 2, 2, 1, 1, 0, 0, 1, 1);
  ASSERT_EQ(modelrt_cuda_status(), 0) << modelrt_cuda_error_message();
  EXPECT_EQ(dw, std::vector<float>(dw.size(), 0.0f));
  EXPECT_EQ(counters().cudnnConvs, 0);
}

TEST_F(CudnnConvTest, AMissingLibraryNamesItAndTheRemedies) {
  setenv("MODELRT_CUDNN", "/nonexistent/libcudnn.so.9", 1);
  std::vector<float> a, b;
  runEntry(kF32.entries[Forward], kShapes[0], Forward, a, b);
  EXPECT_THAT(modelrt_cuda_error_message(),
              ::testing::StartsWith("modelrt_cuda_conv2d_forward: cuDNN is not available: "
                                    "cannot load /nonexistent/libcudnn.so.9 ("));
  EXPECT_THAT(modelrt_cuda_error_message(),
              ::testing::EndsWith("); set MODELRT_CUDNN to the path of cuDNN 9's "
                                  "libcudnn.so.9, or recompile with --gpu-conv=im2col"));
}

TEST_F(CudnnConvTest, TurnedOff) {
  setenv("MODELRT_CUDNN", "none", 1);
  std::vector<float> a, b;
  runEntry(kBf16.entries[Weights], kShapes[2], Weights, a, b);
  EXPECT_STREQ(modelrt_cuda_error_message(),
               "modelrt_cuda_conv2d_backward_weights_bf16: cuDNN is not available: cuDNN is "
               "turned off "
               "(MODELRT_CUDNN=none); set MODELRT_CUDNN to the path of cuDNN 9's "
               "libcudnn.so.9, or recompile with --gpu-conv=im2col");
}

TEST_F(CudnnConvTest, ALibraryThatIsNotCudnn9) {
  setenv("MODELRT_CUDNN", MODELRT_FAKE_NCCL, 1);
  EXPECT_THAT(modelrt::cuda::loadCudnn(MODELRT_FAKE_NCCL).message(),
              ::testing::EndsWith(" is not cuDNN 9 (it has no cudnnGetVersion)"));
  setenv("FAKE_CUDNN_VERSION", "80907", 1);
  EXPECT_THAT(modelrt::cuda::loadCudnn(MODELRT_FAKE_CUDA_DRIVER).message(),
              ::testing::EndsWith(" is cuDNN 8.9.7, not cuDNN 9"));
  unsetenv("FAKE_CUDNN_VERSION");
  modelrt::Expected<modelrt::cuda::CudnnApi> api = modelrt::cuda::loadCudnn(MODELRT_FAKE_CUDA_DRIVER);
  ASSERT_TRUE(bool(api)) << api.message();
  EXPECT_EQ(modelrt::cuda::cudnnVersionString(api->version), "9.19.0");
}

TEST_F(CudnnConvTest, TheLibraryInUseIsNamedOnceAConvolutionLoadedIt) {
  EXPECT_EQ(modelrt::cuda::cudnnInUse(), "");
  std::vector<float> a, b;
  runEntry(kF32.entries[Forward], kShapes[0], Forward, a, b);
  ASSERT_EQ(modelrt_cuda_status(), 0) << modelrt_cuda_error_message();
  EXPECT_EQ(modelrt::cuda::cudnnInUse(),
            std::string("cuDNN 9.19.0 (") + MODELRT_FAKE_CUDA_DRIVER + ")");
}

TEST_F(CudnnConvTest, ACudnnFailureNamesTheFunctionAndItsStatus) {
  setenv("FAKE_CUDNN_STATUS", "3000", 1);
  std::vector<float> a, b;
  runEntry(kTf32.entries[Data], kShapes[1], Data, a, b);
  unsetenv("FAKE_CUDNN_STATUS");
  EXPECT_STREQ(modelrt_cuda_error_message(),
               "modelrt_cuda_conv2d_backward_data_tf32: cudnnConvolutionBackwardData failed: "
               "CUDNN_STATUS_NOT_SUPPORTED");
}

TEST_F(CudnnConvTest, AWrongOutputSizeNamesTheEntryPoint) {
  std::vector<float> buffer(1024);
  modelrt_cuda_conv2d_forward(buffer.data(), buffer.data(), buffer.data(), 1, 1, 6, 6, 1, 3, 3,
                              5, 4, 1, 1, 0, 0, 1, 1);
  EXPECT_STREQ(modelrt_cuda_error_message(),
               "modelrt_cuda_conv2d_forward: the output is 5x4, the convolution's is 4x4");
  EXPECT_EQ(counters().cudnnConvs, 0);
}
