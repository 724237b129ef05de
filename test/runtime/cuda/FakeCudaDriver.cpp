//===- FakeCudaDriver.cpp - A fake libcuda + cuBLAS over host memory -------===//
//
// Implements FakeCudaDriver.h: the driver entry points modelrt's CudaDriver.h
// table names (with cuda.h's versioned symbol names) and the cuBLAS ones
// CudaBlas.cpp loads (cuDNN's are FakeCudnn.cpp's, in the same library), enough to run the mgpu shim, the pool, the copies and
// sgemm end to end in unit tests on a machine without a GPU. Two settings
// (environment) let a compiled model's GPU host code run on it
// (test/e2e/gpu-host-code.test): FAKE_CUDA_ANY_KERNEL=1 makes every kernel
// and every sgemm a no-op (the host code is what is tested; allocations are
// zeroed, so results stay finite), FAKE_CUDA_OPAQUE=1 makes device addresses fault
// when the host dereferences them.
//
//===----------------------------------------------------------------------===//
#include "FakeCudaDriver.h"
#include "FakeCudaQueue.h"
#include "TensorCoreRounding.h"

#include "modelrt/cuda/AttentionKernels.h"
#include "modelrt/cuda/BlasKernels.h"
#include "modelrt/cuda/ConvertKernels.h"
#include "modelrt/cuda/OptimizerKernels.h"

#include <cublas_v2.h>
#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

FakeCudaConfig config = {0, 1, 9, 0, uint64_t(1) << 30, 13000};
FakeCudaCounters counters;
bool initialized = false;
std::map<void *, size_t> allocations;
int contextObject, streamObjects[64];
/// An event holds the fake clock at its last record: every record advances
/// it by one, and an elapsed time is that difference in milliseconds.
long eventObjects[64], fakeClock;
int nextStream, nextEvent;

struct FakeModule {
  std::string image;
};

using Kernel = void (*)(void **params, long threads);

void fillKernel(void **params, long threads) {
  float *dst = *static_cast<float **>(params[0]);
  float value = *static_cast<float *>(params[1]);
  int64_t n = *static_cast<int64_t *>(params[2]);
  for (long i = 0; i < threads && i < n; ++i)
    dst[i] = value;
}

void scaleKernel(void **params, long threads) {
  float *data = *static_cast<float **>(params[0]);
  float factor = *static_cast<float *>(params[1]);
  int64_t n = *static_cast<int64_t *>(params[2]);
  for (long i = 0; i < threads && i < n; ++i)
    data[i] *= factor;
}

/// One element of an optimizer step kernel (OptimizerKernels.cu's body).
struct ElementStep {
  template <bool Second, bool NormaliseFirst, bool First, bool Nesterov, bool Adam>
  static void run(const modelrt::StepCoeffs &c, const modelrt::OptTensor &t, int64_t i) {
    float noM = 0, noV = 0;
    modelrt::stepElement<Second, NormaliseFirst, First, Nesterov, Adam>(
        c, t.param[i], t.grad[i], First ? t.m[i] : noM, Second ? t.v[i] : noV);
  }
};

/// The optimizer step kernels of OptimizerKernels.h, run on the host with
/// the same chunk loop and element rule (as one block of one thread: any
/// grid covers every element once).
template <modelrt::StepVariant V> void optimizerStepKernel(void **params, long) {
  auto *tensors = *static_cast<const modelrt::OptTensor **>(params[0]);
  auto *chunks = *static_cast<const modelrt::OptChunk **>(params[1]);
  int32_t count = *static_cast<int32_t *>(params[2]);
  int64_t chunkSize = *static_cast<int64_t *>(params[3]);
  modelrt::StepCoeffs c = *static_cast<modelrt::StepCoeffs *>(params[4]);
  modelrt::forEachChunkElement(
      chunks, count, chunkSize, 0, 1, 0, 1,
      [&](int32_t t) { return tensors[t].size; },
      [&](int32_t t, int64_t i) {
        modelrt::dispatchStepVariant<ElementStep>(V, c, tensors[t], i);
      });
}

/// modelrt_grad_sumsq: partials[k] = sum of grad^2 over chunk k.
void gradSumsqKernel(void **params, long) {
  auto *tensors = *static_cast<const modelrt::OptTensor **>(params[0]);
  auto *chunks = *static_cast<const modelrt::OptChunk **>(params[1]);
  int32_t count = *static_cast<int32_t *>(params[2]);
  int64_t chunkSize = *static_cast<int64_t *>(params[3]);
  double *partials = *static_cast<double **>(params[4]);
  for (int32_t k = 0; k < count; ++k) {
    modelrt::OptChunk c = chunks[k];
    modelrt::ChunkRange r = modelrt::chunkRange(c, tensors[c.tensor].size, chunkSize);
    double s = 0;
    for (int64_t i = r.begin; i < r.end; ++i)
      s += double(tensors[c.tensor].grad[i]) * tensors[c.tensor].grad[i];
    partials[k] = s;
  }
}

/// modelrt_grad_norm_finalize: out[0] = the norm, out[1] = the clip scale.
void gradNormFinalizeKernel(void **params, long) {
  const double *partials = *static_cast<const double **>(params[0]);
  int32_t count = *static_cast<int32_t *>(params[1]);
  float maxNorm = *static_cast<float *>(params[2]);
  float *out = *static_cast<float **>(params[3]);
  double s = 0;
  for (int32_t k = 0; k < count; ++k)
    s += partials[k];
  out[0] = float(std::sqrt(s));
  out[1] = maxNorm > 0 && out[0] > maxNorm ? maxNorm / (out[0] + 1e-6f) : 1.0f;
}

/// modelrt_splitk_sum: C = the sum of the slices' partial products (+ beta C).
void splitKSumKernel(void **params, long) {
  const float *partials = *static_cast<const float **>(params[0]);
  int32_t slices = *static_cast<int32_t *>(params[1]);
  int32_t m = *static_cast<int32_t *>(params[2]), n = *static_cast<int32_t *>(params[3]);
  float beta = *static_cast<float *>(params[4]);
  float *C = *static_cast<float **>(params[5]);
  int32_t ldc = *static_cast<int32_t *>(params[6]);
  for (int32_t j = 0; j < n; ++j)
    for (int32_t i = 0; i < m; ++i) {
      float sum = 0.0f;
      for (int32_t sl = 0; sl < slices; ++sl)
        sum += partials[int64_t(sl) * m * n + i + int64_t(j) * m];
      float &out = C[i + int64_t(j) * ldc];
      out = beta != 0.0f ? sum + beta * out : sum;
    }
}

/// modelrt_f32_to_bf16 / modelrt_bf16_to_f32 (ConvertKernels.h).
void f32ToBf16Kernel(void **params, long) {
  auto *in = *static_cast<const float **>(params[0]);
  auto *out = *static_cast<uint16_t **>(params[1]);
  int64_t n = *static_cast<int64_t *>(params[2]);
  for (int64_t i = 0; i < n; ++i)
    out[i] = modelrt::roundToBf16(in[i]);
}
void bf16ToF32Kernel(void **params, long) {
  auto *in = *static_cast<const uint16_t **>(params[0]);
  auto *out = *static_cast<float **>(params[1]);
  int64_t n = *static_cast<int64_t *>(params[2]);
  for (int64_t i = 0; i < n; ++i)
    out[i] = modelrt::bf16ToFloat(in[i]);
}

/// The fake of an optimizer step kernel named \p name, or null.
using KernelFn = void (*)(void **params, long threads);
KernelFn optimizerKernel(const char *name) {
  if (std::strcmp(name, modelrt::kGradSumsqKernel) == 0)
    return gradSumsqKernel;
  if (std::strcmp(name, modelrt::kGradNormFinalizeKernel) == 0)
    return gradNormFinalizeKernel;
  using modelrt::StepVariant;
  static const std::pair<StepVariant, KernelFn> table[] = {
      {StepVariant::Sgd, optimizerStepKernel<StepVariant::Sgd>},
      {StepVariant::SgdMomentum, optimizerStepKernel<StepVariant::SgdMomentum>},
      {StepVariant::SgdNesterov, optimizerStepKernel<StepVariant::SgdNesterov>},
      {StepVariant::Rmsprop, optimizerStepKernel<StepVariant::Rmsprop>},
      {StepVariant::RmspropMomentum, optimizerStepKernel<StepVariant::RmspropMomentum>},
      {StepVariant::Adam, optimizerStepKernel<StepVariant::Adam>}};
  for (const auto &[variant, fn] : table)
    if (std::strcmp(name, modelrt::stepKernelName(variant)) == 0)
      return fn;
  return nullptr;
}

/// The kernel MLIR outlines from GeneratedHostCode.mlir: data[i] += v for a
/// memref<16xf32> passed expanded (allocated, aligned, offset, size, stride).
void mlirFillKernel(void **params, long threads) {
  float *aligned = *static_cast<float **>(params[1]);
  int64_t offset = *static_cast<int64_t *>(params[2]);
  int64_t stride = *static_cast<int64_t *>(params[4]);
  float v = *static_cast<float *>(params[5]);
  for (long i = 0; i < threads; ++i)
    aligned[offset + i * stride] += v;
}

/// FAKE_CUDA_OPAQUE=1: "device" addresses carry bit 62, which makes them
/// non-canonical, so that host code reading device memory faults as it would
/// on a real GPU; the fake's own copies and kernels strip it.
const uintptr_t opaqueTag = std::getenv("FAKE_CUDA_OPAQUE") ? uintptr_t(1) << 62 : 0;
void *ptr(CUdeviceptr p) { return reinterpret_cast<void *>(p & ~CUdeviceptr(opaqueTag)); }

/// The attention kernels (AttentionKernels.h), naively: every score of a
/// row in double, then its softmax, whatever the grid. FakeAttention holds
/// one launch's arguments with the device tags stripped.
struct FakeAttention {
  modelrt::AttentionGpuArgs a;

  explicit FakeAttention(void **params) : a(*static_cast<modelrt::AttentionGpuArgs *>(params[0])) {
    for (modelrt::AttentionGpuView *v : {&a.q, &a.k, &a.v, &a.out, &a.dout, &a.dq, &a.dk, &a.dv})
      v->base = untag(v->base);
    a.lse = untag(a.lse);
    a.delta = untag(a.delta);
  }
  static float *untag(float *p) { return static_cast<float *>(ptr(reinterpret_cast<CUdeviceptr>(p))); }
  float *row(const modelrt::AttentionGpuView &v, int64_t b, int64_t h, int64_t r) const {
    return v.base + b * v.batch + h * v.head + r * v.row;
  }
  int64_t limit(int64_t i) const {
    return a.causal ? std::max<int64_t>(0, std::min(a.keys, i + a.keys - a.queries + 1)) : a.keys;
  }
  double score(int64_t b, int64_t h, int64_t i, int64_t j) const {
    double s = 0;
    for (int64_t w = 0; w < a.width; ++w)
      s += double(row(a.q, b, h, i)[w]) * row(a.k, b, h, j)[w];
    return s * a.scale;
  }
  double dotRows(const float *x, const float *y) const {
    double s = 0;
    for (int64_t w = 0; w < a.width; ++w)
      s += double(x[w]) * y[w];
    return s;
  }
  /// The softmax of row i (empty when it sees no key), and its log-sum-exp.
  std::vector<double> probs(int64_t b, int64_t h, int64_t i, double *lse) const {
    std::vector<double> p(size_t(limit(i)));
    double m = -INFINITY, sum = 0;
    for (size_t j = 0; j < p.size(); ++j)
      m = std::max(m, p[j] = score(b, h, i, int64_t(j)));
    for (double &x : p)
      sum += x = std::exp(x - m);
    for (double &x : p)
      x /= sum;
    *lse = p.empty() ? INFINITY : m + std::log(sum);
    return p;
  }
  template <typename Fn> void forEachRow(Fn fn) const {
    for (int64_t b = 0; b < a.batch; ++b)
      for (int64_t h = 0; h < a.heads; ++h)
        for (int64_t i = 0; i < a.queries; ++i)
          fn(b, h, i);
  }
};

void attentionForwardKernel(void **params, long) {
  FakeAttention f(params);
  f.forEachRow([&](int64_t b, int64_t h, int64_t i) {
    double lse;
    std::vector<double> p = f.probs(b, h, i, &lse);
    for (int64_t w = 0; w < f.a.width; ++w) {
      double o = 0;
      for (size_t j = 0; j < p.size(); ++j)
        o += p[j] * f.row(f.a.v, b, h, int64_t(j))[w];
      f.row(f.a.out, b, h, i)[w] = float(o);
    }
  });
}

void attentionBackwardQueryKernel(void **params, long) {
  FakeAttention f(params);
  const modelrt::AttentionGpuArgs &a = f.a;
  f.forEachRow([&](int64_t b, int64_t h, int64_t i) {
    double lse;
    std::vector<double> p = f.probs(b, h, i, &lse);
    double delta = f.dotRows(f.row(a.dout, b, h, i), f.row(a.out, b, h, i));
    std::vector<double> dq(size_t(a.width), 0.0);
    for (size_t j = 0; j < p.size(); ++j) {
      double ds = p[j] * (f.dotRows(f.row(a.dout, b, h, i), f.row(a.v, b, h, int64_t(j))) - delta);
      for (int64_t w = 0; w < a.width; ++w)
        dq[size_t(w)] += ds * f.row(a.k, b, h, int64_t(j))[w];
    }
    for (int64_t w = 0; w < a.width; ++w)
      f.row(a.dq, b, h, i)[w] = float(dq[size_t(w)] * a.scale);
    int64_t cell = (b * a.heads + h) * a.queries + i;
    a.lse[cell] = float(lse);
    a.delta[cell] = float(delta);
  });
}

void attentionBackwardKeyKernel(void **params, long) {
  FakeAttention f(params);
  const modelrt::AttentionGpuArgs &a = f.a;
  for (int64_t b = 0; b < a.batch; ++b)
    for (int64_t h = 0; h < a.heads; ++h)
      for (int64_t j = 0; j < a.keys; ++j) {
        std::vector<double> dk(size_t(a.width), 0.0), dv(size_t(a.width), 0.0);
        for (int64_t i = 0; i < a.queries; ++i) {
          if (j >= f.limit(i))
            continue;
          int64_t cell = (b * a.heads + h) * a.queries + i;
          double p = std::exp(f.score(b, h, i, j) - a.lse[cell]);
          const float *dout = f.row(a.dout, b, h, i);
          double ds = p * (f.dotRows(dout, f.row(a.v, b, h, j)) - a.delta[cell]);
          for (int64_t w = 0; w < a.width; ++w) {
            dv[size_t(w)] += p * dout[w];
            dk[size_t(w)] += ds * f.row(a.q, b, h, i)[w];
          }
        }
        for (int64_t w = 0; w < a.width; ++w) {
          f.row(a.dk, b, h, j)[w] = float(dk[size_t(w)] * a.scale);
          f.row(a.dv, b, h, j)[w] = float(dv[size_t(w)]);
        }
      }
}

/// The fake of an attention kernel named \p name (any width class), or null.
KernelFn attentionKernel(const char *name) {
  using modelrt::AttentionGpuKernel;
  static const std::pair<AttentionGpuKernel, KernelFn> table[] = {
      {AttentionGpuKernel::Forward, attentionForwardKernel},
      {AttentionGpuKernel::BackwardQuery, attentionBackwardQueryKernel},
      {AttentionGpuKernel::BackwardKey, attentionBackwardKeyKernel}};
  for (const auto &[kernel, fn] : table)
    for (int widthClass : {32, 64, 128})
      if (!std::strcmp(name, modelrt::attentionKernelName(kernel, widthClass)))
        return fn;
  return nullptr;
}

/// A kernel and the sizes of its parameters (a capture copies their values,
/// as the driver does).
struct FakeKernel {
  KernelFn fn;
  std::vector<size_t> paramSizes;
};

/// The fake kernel named \p name (stable address), or null.
const FakeKernel *findKernel(const char *name) {
  static std::map<std::string, FakeKernel> kernels;
  auto it = kernels.find(name);
  if (it != kernels.end())
    return &it->second;
  FakeKernel k{nullptr, {}};
  if (std::getenv("FAKE_CUDA_ANY_KERNEL"))
    k = {[](void **, long) {}, {}};
  else if (!std::strcmp(name, "fake_fill") || !std::strcmp(name, "fake_scale"))
    k = {std::strcmp(name, "fake_fill") == 0 ? fillKernel : scaleKernel, {8, 4, 8}};
  else if (!std::strcmp(name, "fill_kernel"))
    k = {mlirFillKernel, {8, 8, 8, 8, 8, 4}};
  else if (!std::strcmp(name, modelrt::kGradSumsqKernel))
    k = {gradSumsqKernel, {8, 8, 4, 8, 8}};
  else if (!std::strcmp(name, modelrt::kGradNormFinalizeKernel))
    k = {gradNormFinalizeKernel, {8, 4, 4, 8}};
  else if (!std::strcmp(name, modelrt::kSplitKSumKernel))
    k = {splitKSumKernel, {8, 4, 4, 4, 4, 8, 4}};
  else if (!std::strcmp(name, modelrt::kF32ToBf16Kernel))
    k = {f32ToBf16Kernel, {8, 8, 8}};
  else if (!std::strcmp(name, modelrt::kBf16ToF32Kernel))
    k = {bf16ToF32Kernel, {8, 8, 8}};
  else if (KernelFn fn = optimizerKernel(name))
    k = {fn, {8, 8, 4, 8, sizeof(modelrt::StepCoeffs)}};
  else if (KernelFn fn = attentionKernel(name))
    k = {fn, {sizeof(modelrt::AttentionGpuArgs)}};
  if (!k.fn)
    return nullptr;
  return &kernels.emplace(name, k).first->second;
}

/// A stream capture in progress: the work it recorded instead of running.
struct Capture {
  CUstream stream;
  std::vector<std::function<void()>> ops;
  bool invalidated = false; ///< a forbidden call (a wait) happened
};
Capture *capture = nullptr;

/// A captured graph, and its instantiation (the same list of work).
struct FakeGraph {
  std::vector<std::function<void()>> ops;
};

/// Runs \p op now, or records it when \p stream is being captured.
CUresult enqueue(CUstream stream, std::function<void()> op) {
  if (capture && stream == capture->stream) {
    if (capture->invalidated)
      return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    capture->ops.push_back(std::move(op));
    return CUDA_SUCCESS;
  }
  op();
  return CUDA_SUCCESS;
}

} // namespace

CUresult fakeCudaEnqueue(CUstream stream, std::function<void()> op) {
  return enqueue(stream, std::move(op));
}
void *fakeCudaHostPointer(const void *device) {
  return ptr(reinterpret_cast<CUdeviceptr>(device));
}
FakeCudaCounters &fakeCudaMutableCounters() { return counters; }

namespace {

/// cuBLAS's stream (cublasSetStream), for captures of sgemm.
CUstream blasStream = nullptr;

/// A naive column-major sgemm on cuBLAS's stream, each operand passed
/// through \p round first (the tensor cores' rounding, TensorCoreRounding.h).
cublasStatus_t naiveSgemm(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                          float al, const float *A, int lda, const float *B, int ldb, float be,
                          float *C, int ldc, float (*round)(float) = roundNot);

} // namespace

extern "C" {

void fakeCudaConfigure(const FakeCudaConfig *c) {
  config = *c;
  for (auto &a : allocations)
    std::free(a.first);
  allocations.clear();
  counters = FakeCudaCounters();
  counters.jitOptLevel = -1;
  initialized = false;
}

FakeCudaCounters fakeCudaCounters(void) { return counters; }

CUresult cuInit(unsigned int) {
  counters.inits++;
  initialized = config.initResult == 0;
  return static_cast<CUresult>(config.initResult);
}

CUresult cuDriverGetVersion(int *v) {
  *v = config.driverVersion;
  return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult r, const char **name) {
  static const std::map<int, const char *> names = {
      {0, "CUDA_SUCCESS"}, {1, "CUDA_ERROR_INVALID_VALUE"},
      {2, "CUDA_ERROR_OUT_OF_MEMORY"}, {3, "CUDA_ERROR_NOT_INITIALIZED"},
      {100, "CUDA_ERROR_NO_DEVICE"}, {200, "CUDA_ERROR_INVALID_IMAGE"},
      {218, "CUDA_ERROR_INVALID_PTX"}, {401, "CUDA_ERROR_ILLEGAL_STATE"},
      {500, "CUDA_ERROR_NOT_FOUND"}, {801, "CUDA_ERROR_NOT_SUPPORTED"},
      {900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"},
      {901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"}};
  auto it = names.find(static_cast<int>(r));
  *name = it == names.end() ? nullptr : it->second;
  return it == names.end() ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult r, const char **s) {
  return cuGetErrorName(r, s);
}

CUresult cuDeviceGetCount(int *count) {
  if (!initialized)
    return CUDA_ERROR_NOT_INITIALIZED;
  *count = config.deviceCount;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *dev, int ordinal) {
  if (ordinal < 0 || ordinal >= config.deviceCount)
    return CUDA_ERROR_INVALID_DEVICE;
  *dev = ordinal;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
  std::snprintf(name, len, "Fake H200 #%d", dev);
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attr, CUdevice) {
  if (attr == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
    *value = config.ccMajor;
  else if (attr == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
    *value = config.ccMinor;
  else
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem(size_t *bytes, CUdevice) {
  *bytes = config.totalBytes;
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice) {
  counters.contextRetains++;
  *ctx = reinterpret_cast<CUcontext>(&contextObject);
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }

CUresult cuMemGetInfo(size_t *freeBytes, size_t *total) {
  *total = config.totalBytes;
  *freeBytes = config.totalBytes - counters.bytesAllocated;
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc(CUdeviceptr *p, size_t bytes) {
  if (counters.bytesAllocated + bytes > config.totalBytes)
    return CUDA_ERROR_OUT_OF_MEMORY;
  void *block = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  std::memset(block, 0, (bytes + 255) / 256 * 256);
  allocations[block] = bytes;
  counters.memAllocs++;
  counters.bytesAllocated += bytes;
  *p = reinterpret_cast<CUdeviceptr>(block) | opaqueTag;
  return CUDA_SUCCESS;
}

CUresult cuMemFree(CUdeviceptr p) {
  auto it = allocations.find(ptr(p));
  if (it == allocations.end())
    return CUDA_ERROR_INVALID_VALUE;
  counters.bytesAllocated -= it->second;
  counters.memFrees++;
  std::free(it->first);
  allocations.erase(it);
  return CUDA_SUCCESS;
}

CUresult cuMemAllocManaged(CUdeviceptr *p, size_t bytes, unsigned int) {
  return cuMemAlloc(p, bytes);
}

CUresult cuMemAllocHost(void **p, size_t bytes) {
  *p = std::malloc(bytes);
  return CUDA_SUCCESS;
}

CUresult cuMemFreeHost(void *p) {
  std::free(p);
  return CUDA_SUCCESS;
}

CUresult cuMemHostRegister(void *, size_t, unsigned int) {
  return CUDA_SUCCESS;
}
CUresult cuMemHostUnregister(void *) { return CUDA_SUCCESS; }

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s) {
  return enqueue(s, [=] { std::memcpy(ptr(dst), ptr(src), n); });
}
CUresult cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t n,
                           CUstream s) {
  return enqueue(s, [=] { std::memcpy(ptr(dst), src, n); });
}
CUresult cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t n, CUstream s) {
  return enqueue(s, [=] { std::memcpy(dst, ptr(src), n); });
}
CUresult cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t n,
                           CUstream s) {
  return enqueue(s, [=] { std::memcpy(ptr(dst), ptr(src), n); });
}

CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int v, size_t n,
                          CUstream s) {
  return enqueue(s, [=] {
    for (size_t i = 0; i < n; ++i)
      static_cast<unsigned int *>(ptr(dst))[i] = v;
  });
}
CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short v, size_t n,
                          CUstream s) {
  return enqueue(s, [=] {
    for (size_t i = 0; i < n; ++i)
      static_cast<unsigned short *>(ptr(dst))[i] = v;
  });
}
CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char v, size_t n,
                         CUstream s) {
  return enqueue(s, [=] { std::memset(ptr(dst), v, n); });
}

CUresult cuStreamCreate(CUstream *s, unsigned int) {
  *s = reinterpret_cast<CUstream>(&streamObjects[nextStream++ % 64]);
  return CUDA_SUCCESS;
}
CUresult cuStreamDestroy(CUstream) { return CUDA_SUCCESS; }
CUresult cuStreamSynchronize(CUstream s) {
  if (capture && s == capture->stream) { // a capture forbids it
    capture->invalidated = true;
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  }
  return CUDA_SUCCESS;
}
/// Every stream's work is done (the fake runs it at once); a capture forbids it.
CUresult cuStreamQuery(CUstream s) { return cuStreamSynchronize(s); }
CUresult cuStreamWaitEvent(CUstream, CUevent, unsigned int) {
  counters.streamWaits++;
  return CUDA_SUCCESS;
}
CUresult cuEventCreate(CUevent *e, unsigned int) {
  *e = reinterpret_cast<CUevent>(&eventObjects[nextEvent++ % 64]);
  return CUDA_SUCCESS;
}
CUresult cuEventDestroy(CUevent) { return CUDA_SUCCESS; }
CUresult cuEventRecord(CUevent e, CUstream) {
  counters.eventRecords++;
  *reinterpret_cast<long *>(e) = ++fakeClock;
  return CUDA_SUCCESS;
}
CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end) {
  *ms = float(*reinterpret_cast<long *>(end) - *reinterpret_cast<long *>(start));
  return CUDA_SUCCESS;
}
CUresult cuEventSynchronize(CUevent) { return CUDA_SUCCESS; }

CUresult cuModuleLoadData(CUmodule *m, const void *image) {
  counters.moduleLoads++;
  if (std::strncmp(static_cast<const char *>(image), "BAD", 3) == 0)
    return CUDA_ERROR_INVALID_IMAGE;
  *m = reinterpret_cast<CUmodule>(
      new FakeModule{static_cast<const char *>(image)});
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned int n,
                            CUjit_option *options, void **values) {
  counters.moduleLoads++;
  for (unsigned i = 0; i < n; ++i)
    if (options[i] == CU_JIT_OPTIMIZATION_LEVEL)
      counters.jitOptLevel = int(reinterpret_cast<uintptr_t>(values[i]));
  if (std::strncmp(static_cast<const char *>(image), "BAD", 3) != 0) {
    counters.moduleLoads--;
    return cuModuleLoadData(m, image);
  }
  for (unsigned i = 0; i < n; ++i)
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
      std::strcpy(static_cast<char *>(values[i]), "ptxas fatal: bad PTX");
  return CUDA_ERROR_INVALID_PTX;
}

CUresult cuModuleUnload(CUmodule m) {
  delete reinterpret_cast<FakeModule *>(m);
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
  auto *module = reinterpret_cast<FakeModule *>(m);
  if (module->image.find(name) == std::string::npos)
    return CUDA_ERROR_NOT_FOUND;
  const FakeKernel *k = findKernel(name);
  if (!k)
    return CUDA_ERROR_NOT_FOUND;
  *f = reinterpret_cast<CUfunction>(const_cast<FakeKernel *>(k));
  return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction, CUfunction_attribute, int) {
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned,
                        CUstream s, void **params, void **) {
  counters.launches++;
  const FakeKernel &k = *reinterpret_cast<const FakeKernel *>(f);
  long threads = long(gx) * gy * gz * bx * by * bz;
  // The parameters' values, copied now (as the driver does).
  auto values = std::make_shared<std::vector<std::vector<char>>>();
  for (size_t i = 0; i < k.paramSizes.size(); ++i) {
    auto *bytes = static_cast<const char *>(params[i]);
    values->emplace_back(bytes, bytes + k.paramSizes[i]);
  }
  return enqueue(s, [values, &k, threads] {
    std::vector<void *> pointers;
    for (std::vector<char> &v : *values)
      pointers.push_back(v.data());
    k.fn(pointers.data(), threads);
  });
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f,
                          void **params, void **extra) {
  return cuLaunchKernel(f, c->gridDimX, c->gridDimY, c->gridDimZ,
                        c->blockDimX, c->blockDimY, c->blockDimZ,
                        c->sharedMemBytes, c->hStream, params, extra);
}

// ---- Graphs: a capture records the work, a launch runs it -----------------

CUresult cuStreamBeginCapture_v2(CUstream s, CUstreamCaptureMode) {
  if (capture)
    return CUDA_ERROR_ILLEGAL_STATE;
  capture = new Capture{s, {}, false};
  counters.captures++;
  return CUDA_SUCCESS;
}

CUresult cuStreamEndCapture(CUstream s, CUgraph *graph) {
  if (!capture || capture->stream != s)
    return CUDA_ERROR_ILLEGAL_STATE;
  Capture *c = capture;
  capture = nullptr;
  *graph = nullptr;
  if (c->invalidated) {
    delete c;
    return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
  }
  *graph = reinterpret_cast<CUgraph>(new FakeGraph{std::move(c->ops)});
  delete c;
  return CUDA_SUCCESS;
}

CUresult cuGraphGetNodes(CUgraph g, CUgraphNode *nodes, size_t *count) {
  if (!nodes)
    *count = reinterpret_cast<FakeGraph *>(g)->ops.size();
  return nodes ? CUDA_ERROR_NOT_SUPPORTED : CUDA_SUCCESS;
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec *exec, CUgraph g,
                                     unsigned long long) {
  *exec = reinterpret_cast<CUgraphExec>(
      new FakeGraph(*reinterpret_cast<FakeGraph *>(g)));
  return CUDA_SUCCESS;
}

CUresult cuGraphLaunch(CUgraphExec exec, CUstream s) {
  counters.graphLaunches++;
  FakeGraph *g = reinterpret_cast<FakeGraph *>(exec);
  return enqueue(s, [g] {
    for (auto &op : g->ops)
      op();
  });
}

CUresult cuGraphExecDestroy(CUgraphExec exec) {
  delete reinterpret_cast<FakeGraph *>(exec);
  return CUDA_SUCCESS;
}

CUresult cuGraphDestroy(CUgraph g) {
  delete reinterpret_cast<FakeGraph *>(g);
  return CUDA_SUCCESS;
}

// ---- cuBLAS ---------------------------------------------------------------

cublasStatus_t cublasCreate_v2(cublasHandle_t *h) {
  static int handleObject;
  *h = reinterpret_cast<cublasHandle_t>(&handleObject);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDestroy_v2(cublasHandle_t) { return CUBLAS_STATUS_SUCCESS; }
cublasStatus_t cublasSetStream_v2(cublasHandle_t, cudaStream_t s) {
  blasStream = reinterpret_cast<CUstream>(s);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t, void *, size_t) {
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetProperty(libraryPropertyType type, int *value) {
  *value = type == MAJOR_VERSION ? 13 : 1;
  return CUBLAS_STATUS_SUCCESS;
}

/// Naive column-major sgemm.
cublasStatus_t cublasSgemm_v2(cublasHandle_t, cublasOperation_t ta,
                              cublasOperation_t tb, int m, int n, int k,
                              const float *alpha, const float *A, int lda,
                              const float *B, int ldb, const float *beta,
                              float *C, int ldc) {
  counters.sgemms++;
  return naiveSgemm(ta, tb, m, n, k, *alpha, A, lda, B, ldb, *beta, C, ldc);
}

/// The batch's sgemms one after the other.
cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t, cublasOperation_t ta,
                                         cublasOperation_t tb, int m, int n, int k,
                                         const float *alpha, const float *A, int lda,
                                         long long strideA, const float *B, int ldb,
                                         long long strideB, const float *beta, float *C,
                                         int ldc, long long strideC, int batchCount) {
  counters.sgemms++;
  for (int i = 0; i < batchCount; ++i)
    if (cublasStatus_t st = naiveSgemm(ta, tb, m, n, k, *alpha, A + i * strideA, lda,
                                       B + i * strideB, ldb, *beta, C + i * strideC, ldc))
      return st;
  return CUBLAS_STATUS_SUCCESS;
}

} // extern "C"

namespace {

cublasStatus_t naiveSgemm(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                          float al, const float *A, int lda, const float *B, int ldb, float be,
                          float *C, int ldc, float (*round)(float)) {
  if (std::getenv("FAKE_CUDA_ANY_KERNEL"))
    return CUBLAS_STATUS_SUCCESS; // products are kernels too: no-ops
  A = static_cast<const float *>(ptr(reinterpret_cast<CUdeviceptr>(A)));
  B = static_cast<const float *>(ptr(reinterpret_cast<CUdeviceptr>(B)));
  C = static_cast<float *>(ptr(reinterpret_cast<CUdeviceptr>(C)));
  CUresult r = enqueue(blasStream, [=] {
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        double sum = 0;
        for (int p = 0; p < k; ++p) {
          float a = ta == CUBLAS_OP_N ? A[i + p * lda] : A[p + i * lda];
          float b = tb == CUBLAS_OP_N ? B[p + j * ldb] : B[j + p * ldb];
          sum += double(round(a)) * round(b);
        }
        float old = be == 0.0f ? 0.0f : C[i + j * ldc];
        C[i + j * ldc] = float(al * sum + be * old);
      }
  });
  return r == CUDA_SUCCESS ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_EXECUTION_FAILED;
}

} // namespace

// ---- cuBLAS GemmEx: f32 matrices, the tensor cores' operand rounding ------
// (modelrt_cuda_gemm_bf16 / _tf32): the compute type picks the rounding of
// TensorCoreRounding.h; FAKE_CUDA_ANY_KERNEL makes these no-ops as well.

namespace {
/// The rounding of a GemmEx call on f32 matrices, or null (not supported).
float (*gemmExRounding(cudaDataType a, cudaDataType b, cudaDataType c,
                       cublasComputeType_t compute))(float) {
  bool f32 = a == CUDA_R_32F && b == CUDA_R_32F && c == CUDA_R_32F;
  return f32 ? operandRounding(compute) : nullptr;
}
} // namespace

extern "C" {

/// A naive product of the rounded operands (TensorCoreRounding.h).
cublasStatus_t cublasGemmEx(cublasHandle_t, cublasOperation_t ta, cublasOperation_t tb, int m,
                            int n, int k, const void *alpha, const void *A, cudaDataType at,
                            int lda, const void *B, cudaDataType bt, int ldb, const void *beta,
                            void *C, cudaDataType ct, int ldc, cublasComputeType_t compute,
                            cublasGemmAlgo_t) {
  float (*round)(float) = gemmExRounding(at, bt, ct, compute);
  if (!round)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  counters.sgemms++;
  return naiveSgemm(ta, tb, m, n, k, *static_cast<const float *>(alpha),
                    static_cast<const float *>(A), lda, static_cast<const float *>(B), ldb,
                    *static_cast<const float *>(beta), static_cast<float *>(C), ldc, round);
}

/// The batch's products one after the other.
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t, cublasOperation_t ta,
                                          cublasOperation_t tb, int m, int n, int k,
                                          const void *alpha, const void *A, cudaDataType at,
                                          int lda, long long strideA, const void *B,
                                          cudaDataType bt, int ldb, long long strideB,
                                          const void *beta, void *C, cudaDataType ct, int ldc,
                                          long long strideC, int batchCount,
                                          cublasComputeType_t compute, cublasGemmAlgo_t) {
  float (*round)(float) = gemmExRounding(at, bt, ct, compute);
  if (!round)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  counters.sgemms++;
  float al = *static_cast<const float *>(alpha), be = *static_cast<const float *>(beta);
  for (int i = 0; i < batchCount; ++i)
    if (cublasStatus_t st = naiveSgemm(
            ta, tb, m, n, k, al, static_cast<const float *>(A) + i * strideA, lda,
            static_cast<const float *>(B) + i * strideB, ldb, be,
            static_cast<float *>(C) + i * strideC, ldc, round))
      return st;
  return CUBLAS_STATUS_SUCCESS;
}

} // extern "C"
