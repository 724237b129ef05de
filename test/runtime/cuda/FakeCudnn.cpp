//===- FakeCudnn.cpp - A fake cuDNN 9 over the fake driver's memory --------===//
//
// The cuDNN 9 functions the runtime's Cudnn.cpp loads, in the fake library
// of FakeCudaDriver.cpp (tests point MODELRT_CUDNN at it): descriptors are
// host structures, the algorithm query offers one algorithm (after one
// that is not supported) with a 1 KiB workspace, and the three
// convolutions are direct loops in float64 over the fake device memory, on
// the handle's stream (so that graph captures record them). The operands
// are read as the tensor cores read them: f32 tensors under CUDNN_FMA_MATH
// as they are, under any other math type rounded to TF32
// (TensorCoreRounding.h), bf16 tensors exactly; the result is rounded once
// to the tensors' type. Calls that do not fit together (shapes, types,
// algorithm, workspace) return CUDNN_STATUS_BAD_PARAM, as cuDNN does.
// FAKE_CUDNN_VERSION sets what cudnnGetVersion returns (default 91900),
// FAKE_CUDNN_STATUS what the convolutions return instead of running;
// FAKE_CUDA_ANY_KERNEL makes the convolutions no-ops.
//
//===----------------------------------------------------------------------===//
#include "FakeCudaQueue.h"
#include "TensorCoreRounding.h"

#include "cuda/Cudnn.h"

#include <cstdlib>
#include <vector>

namespace {

namespace cudnn = modelrt::cuda::cudnn;

/// The fake's only algorithm, and its workspace.
constexpr int kFakeAlgo = 1;
constexpr size_t kFakeWorkspace = 1024;

struct FakeHandle {
  CUstream stream = nullptr;
};
/// A tensor or filter descriptor: n (or k), c, h, w.
struct FakeTensor {
  int type = -1;
  int n = 0, c = 0, h = 0, w = 0;
};
struct FakeConv {
  int padH = 0, padW = 0, strideH = 0, strideW = 0, dilH = 0, dilW = 0;
  int computeType = -1;
  int math = cudnn::kDefaultMath;
};

/// What a convolution's three descriptors describe, if they fit together.
struct Problem {
  FakeTensor x, w, y;
  FakeConv conv;

  bool valid() const {
    bool types = x.type == w.type && w.type == y.type && conv.computeType == cudnn::kDataFloat;
    int oh = (x.h + 2 * conv.padH - conv.dilH * (w.h - 1) - 1) / conv.strideH + 1;
    int ow = (x.w + 2 * conv.padW - conv.dilW * (w.w - 1) - 1) / conv.strideW + 1;
    return types && x.c == w.c && y.n == x.n && y.c == w.n && y.h == oh && y.w == ow;
  }
  /// How an operand's element is read.
  float read(const void *base, int64_t i) const {
    if (x.type == cudnn::kDataBfloat16)
      return modelrt::bf16ToFloat(static_cast<const uint16_t *>(base)[i]);
    float v = static_cast<const float *>(base)[i];
    return conv.math == cudnn::kFmaMath ? v : roundThroughTf32(v);
  }
  void write(void *base, int64_t i, double v) const {
    if (x.type == cudnn::kDataBfloat16)
      static_cast<uint16_t *>(base)[i] = modelrt::roundToBf16(float(v));
    else
      static_cast<float *>(base)[i] = float(v);
  }
  /// Calls f(xIndex, wIndex, yIndex) for every product of the convolution.
  template <typename F> void forEachTap(F f) const {
    for (int64_t n = 0; n < x.n; ++n)
      for (int64_t o = 0; o < w.n; ++o)
        for (int64_t i = 0; i < y.h; ++i)
          for (int64_t j = 0; j < y.w; ++j)
            for (int64_t c = 0; c < x.c; ++c)
              for (int64_t p = 0; p < w.h; ++p)
                for (int64_t q = 0; q < w.w; ++q) {
                  int64_t r = i * conv.strideH - conv.padH + p * conv.dilH;
                  int64_t s = j * conv.strideW - conv.padW + q * conv.dilW;
                  if (r < 0 || r >= x.h || s < 0 || s >= x.w)
                    continue;
                  f(((n * x.c + c) * x.h + r) * x.w + s, ((o * w.c + c) * w.h + p) * w.w + q,
                    ((n * y.c + o) * y.h + i) * y.w + j);
                }
  }
};

int64_t elements(const FakeTensor &t) { return int64_t(t.n) * t.c * t.h * t.w; }

/// Which product a direction sums into which result.
enum class Direction { Forward, BackwardData, BackwardFilter };

/// out = alpha * (the sums of \p dir) + beta * out, on \p h's stream.
cudnn::Status run(cudnn::Handle h, Direction dir, const Problem &pb, int algo, void *ws,
                  size_t wsBytes, const void *alpha, const void *beta, const void *a,
                  const void *b, void *out) {
  if (!pb.valid() || algo != kFakeAlgo || !ws || wsBytes < kFakeWorkspace)
    return cudnn::kBadParam;
  if (const char *status = std::getenv("FAKE_CUDNN_STATUS"))
    return cudnn::Status(std::atoi(status));
  fakeCudaMutableCounters().cudnnConvs++;
  if (std::getenv("FAKE_CUDA_ANY_KERNEL"))
    return cudnn::kSuccess;
  const void *A = fakeCudaHostPointer(a), *B = fakeCudaHostPointer(b);
  void *Out = fakeCudaHostPointer(out);
  double al = *static_cast<const float *>(alpha), be = *static_cast<const float *>(beta);
  Problem p = pb;
  CUresult r = fakeCudaEnqueue(static_cast<FakeHandle *>(h)->stream, [=] {
    const FakeTensor &outT = dir == Direction::Forward        ? p.y
                             : dir == Direction::BackwardData ? p.x
                                                              : p.w;
    std::vector<double> sum(size_t(elements(outT)), 0.0);
    p.forEachTap([&](int64_t xi, int64_t wi, int64_t yi) {
      if (dir == Direction::Forward)
        sum[size_t(yi)] += double(p.read(A, xi)) * p.read(B, wi);
      else if (dir == Direction::BackwardData)
        sum[size_t(xi)] += double(p.read(A, yi)) * p.read(B, wi);
      else
        sum[size_t(wi)] += double(p.read(A, xi)) * p.read(B, yi);
    });
    for (size_t i = 0; i < sum.size(); ++i) {
      double old = be == 0.0 ? 0.0 : p.read(Out, int64_t(i));
      p.write(Out, int64_t(i), al * sum[i] + be * old);
    }
  });
  return r == CUDA_SUCCESS ? cudnn::kSuccess : 5000; // CUDNN_STATUS_EXECUTION_FAILED
}

/// The algorithm query's answer: one unsupported algorithm, then the fake's.
cudnn::Status rank(const Problem &pb, int requested, int *returned, cudnn::AlgoPerf *perf) {
  if (!pb.valid() || requested < 2)
    return cudnn::kBadParam;
  fakeCudaMutableCounters().cudnnAlgoQueries++;
  perf[0] = cudnn::AlgoPerf{0, cudnn::kNotSupported, -1.0f, 0, 0, 0, {}};
  perf[1] = cudnn::AlgoPerf{kFakeAlgo, cudnn::kSuccess, 1.0f, kFakeWorkspace, 1, 0, {}};
  *returned = 2;
  return cudnn::kSuccess;
}

template <typename T> T &as(void *desc) { return *static_cast<T *>(desc); }

bool validType(int type) { return type == cudnn::kDataFloat || type == cudnn::kDataBfloat16; }

} // namespace

extern "C" {

size_t cudnnGetVersion() {
  const char *env = std::getenv("FAKE_CUDNN_VERSION");
  return env ? size_t(std::atol(env)) : 91900;
}

const char *cudnnGetErrorString(cudnn::Status st) {
  switch (st) {
  case cudnn::kSuccess:
    return "CUDNN_STATUS_SUCCESS";
  case cudnn::kBadParam:
    return "CUDNN_STATUS_BAD_PARAM";
  case cudnn::kNotSupported:
    return "CUDNN_STATUS_NOT_SUPPORTED";
  default:
    return "CUDNN_STATUS_UNKNOWN";
  }
}

cudnn::Status cudnnCreate(cudnn::Handle *h) {
  *h = new FakeHandle();
  return cudnn::kSuccess;
}
cudnn::Status cudnnDestroy(cudnn::Handle h) {
  delete static_cast<FakeHandle *>(h);
  return cudnn::kSuccess;
}
cudnn::Status cudnnSetStream(cudnn::Handle h, void *stream) {
  as<FakeHandle>(h).stream = static_cast<CUstream>(stream);
  return cudnn::kSuccess;
}

cudnn::Status cudnnCreateTensorDescriptor(cudnn::TensorDesc *d) {
  *d = new FakeTensor();
  fakeCudaMutableCounters().cudnnDescriptors++;
  return cudnn::kSuccess;
}
cudnn::Status cudnnCreateFilterDescriptor(cudnn::FilterDesc *d) {
  *d = new FakeTensor();
  fakeCudaMutableCounters().cudnnDescriptors++;
  return cudnn::kSuccess;
}
cudnn::Status cudnnDestroyTensorDescriptor(cudnn::TensorDesc d) {
  delete static_cast<FakeTensor *>(d);
  return cudnn::kSuccess;
}
cudnn::Status cudnnDestroyFilterDescriptor(cudnn::FilterDesc d) {
  delete static_cast<FakeTensor *>(d);
  return cudnn::kSuccess;
}

cudnn::Status cudnnSetTensor4dDescriptor(cudnn::TensorDesc d, int format, int type, int n,
                                         int c, int h, int w) {
  if (format != cudnn::kTensorNchw || !validType(type) || n < 1 || c < 1 || h < 1 || w < 1)
    return cudnn::kBadParam;
  as<FakeTensor>(d) = FakeTensor{type, n, c, h, w};
  return cudnn::kSuccess;
}
cudnn::Status cudnnSetFilter4dDescriptor(cudnn::FilterDesc d, int type, int format, int k,
                                         int c, int h, int w) {
  return cudnnSetTensor4dDescriptor(d, format, type, k, c, h, w);
}

cudnn::Status cudnnCreateConvolutionDescriptor(cudnn::ConvDesc *d) {
  *d = new FakeConv();
  fakeCudaMutableCounters().cudnnDescriptors++;
  return cudnn::kSuccess;
}
cudnn::Status cudnnDestroyConvolutionDescriptor(cudnn::ConvDesc d) {
  delete static_cast<FakeConv *>(d);
  return cudnn::kSuccess;
}
cudnn::Status cudnnSetConvolution2dDescriptor(cudnn::ConvDesc d, int padH, int padW, int u,
                                              int v, int dilH, int dilW, int mode,
                                              int computeType) {
  if (padH < 0 || padW < 0 || u < 1 || v < 1 || dilH < 1 || dilW < 1)
    return cudnn::kBadParam;
  if (mode != cudnn::kCrossCorrelation)
    return cudnn::kNotSupported;
  FakeConv &c = as<FakeConv>(d);
  c = FakeConv{padH, padW, u, v, dilH, dilW, computeType, c.math};
  return cudnn::kSuccess;
}
cudnn::Status cudnnSetConvolutionMathType(cudnn::ConvDesc d, int math) {
  if (math != cudnn::kDefaultMath && math != cudnn::kTensorOpMath && math != cudnn::kFmaMath)
    return cudnn::kBadParam;
  as<FakeConv>(d).math = math;
  return cudnn::kSuccess;
}

cudnn::Status cudnnGetConvolutionForwardAlgorithm_v7(cudnn::Handle, cudnn::TensorDesc x,
                                                     cudnn::FilterDesc w, cudnn::ConvDesc c,
                                                     cudnn::TensorDesc y, int requested,
                                                     int *returned, cudnn::AlgoPerf *perf) {
  return rank({as<FakeTensor>(x), as<FakeTensor>(w), as<FakeTensor>(y), as<FakeConv>(c)},
              requested, returned, perf);
}
cudnn::Status cudnnGetConvolutionBackwardDataAlgorithm_v7(cudnn::Handle, cudnn::FilterDesc w,
                                                          cudnn::TensorDesc dy,
                                                          cudnn::ConvDesc c,
                                                          cudnn::TensorDesc dx, int requested,
                                                          int *returned,
                                                          cudnn::AlgoPerf *perf) {
  return rank({as<FakeTensor>(dx), as<FakeTensor>(w), as<FakeTensor>(dy), as<FakeConv>(c)},
              requested, returned, perf);
}
cudnn::Status cudnnGetConvolutionBackwardFilterAlgorithm_v7(
    cudnn::Handle, cudnn::TensorDesc x, cudnn::TensorDesc dy, cudnn::ConvDesc c,
    cudnn::FilterDesc dw, int requested, int *returned, cudnn::AlgoPerf *perf) {
  return rank({as<FakeTensor>(x), as<FakeTensor>(dw), as<FakeTensor>(dy), as<FakeConv>(c)},
              requested, returned, perf);
}

cudnn::Status cudnnConvolutionForward(cudnn::Handle h, const void *alpha, cudnn::TensorDesc xd,
                                      const void *x, cudnn::FilterDesc wd, const void *w,
                                      cudnn::ConvDesc cd, int algo, void *ws, size_t wsBytes,
                                      const void *beta, cudnn::TensorDesc yd, void *y) {
  Problem p{as<FakeTensor>(xd), as<FakeTensor>(wd), as<FakeTensor>(yd), as<FakeConv>(cd)};
  return run(h, Direction::Forward, p, algo, ws, wsBytes, alpha, beta, x, w, y);
}
cudnn::Status cudnnConvolutionBackwardData(cudnn::Handle h, const void *alpha,
                                           cudnn::FilterDesc wd, const void *w,
                                           cudnn::TensorDesc dyd, const void *dy,
                                           cudnn::ConvDesc cd, int algo, void *ws,
                                           size_t wsBytes, const void *beta,
                                           cudnn::TensorDesc dxd, void *dx) {
  Problem p{as<FakeTensor>(dxd), as<FakeTensor>(wd), as<FakeTensor>(dyd), as<FakeConv>(cd)};
  return run(h, Direction::BackwardData, p, algo, ws, wsBytes, alpha, beta, dy, w, dx);
}
cudnn::Status cudnnConvolutionBackwardFilter(cudnn::Handle h, const void *alpha,
                                             cudnn::TensorDesc xd, const void *x,
                                             cudnn::TensorDesc dyd, const void *dy,
                                             cudnn::ConvDesc cd, int algo, void *ws,
                                             size_t wsBytes, const void *beta,
                                             cudnn::FilterDesc dwd, void *dw) {
  Problem p{as<FakeTensor>(xd), as<FakeTensor>(dwd), as<FakeTensor>(dyd), as<FakeConv>(cd)};
  return run(h, Direction::BackwardFilter, p, algo, ws, wsBytes, alpha, beta, x, dy, dw);
}

} // extern "C"
