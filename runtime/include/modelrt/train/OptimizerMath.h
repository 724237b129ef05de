//===- OptimizerMath.h - Per-element optimizer math shared by CPU and GPU --===//
//
// The one update rule of every optimizer (SGD with momentum, dampening,
// Nesterov and weight decay; Adam; AdamW; RMSprop — PyTorch semantics),
// written once as `inline` functions that compile for the host and, under
// nvcc, for the device (MODELRT_HD). runtime/lib/train/Optimizer.cpp runs it in
// branch-free CPU loops; runtime/lib/cuda/OptimizerKernels.cu runs it in
// multi-tensor kernels. Also the multi-tensor chunk table (which block of a
// launch handles which range of which tensor) and its indexing, shared by
// the kernels and their CPU unit test.
//
// This header includes nothing but <cstdint> and <cmath> so that nvcc can
// compile it without the rest of the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_TRAIN_OPTIMIZERMATH_H
#define MODELRT_TRAIN_OPTIMIZERMATH_H

#include <cmath>
#include <cstdint>

#ifdef __CUDACC__
#define MODELRT_HD __host__ __device__
#else
#define MODELRT_HD
#endif

namespace modelrt {

struct OptimizerConfig;

/// Coefficients of one step, all f32 so that the struct has the same layout
/// (9 floats, 36 bytes, 4-byte aligned) on the host and as a kernel
/// parameter passed by value.
struct StepCoeffs {
  float lr;        ///< learning rate of this step
  float coupledWd; ///< L2 weight decay added to the gradient (not AdamW)
  float decay;     ///< 1 - lr * decoupled weight decay (AdamW), else 1
  float b1;        ///< Adam beta1, or momentum
  float d1;        ///< weight of g in the first moment (1 - beta1, 1 - dampening)
  float b2;        ///< Adam beta2, or RMSprop alpha
  float eps;       ///< Adam / RMSprop epsilon
  float bc1;       ///< Adam bias correction 1 - beta1^t
  float sqrtBc2;   ///< Adam sqrt(1 - beta2^t)
};

/// The variants of the general step; each is one CPU loop instantiation and
/// one kernel (OptimizerKernels.h). AdamW is Adam with decay != 1.
enum class StepVariant : int32_t {
  Sgd = 0,             ///< p -= lr * g
  SgdMomentum = 1,     ///< m = b1*m + d1*g; p -= lr * m
  SgdNesterov = 2,     ///< m = b1*m + d1*g; p -= lr * (g + b1*m)
  Rmsprop = 3,         ///< v = b2*v + (1-b2)*g^2; p -= lr * g/(sqrt v + eps)
  RmspropMomentum = 4, ///< as Rmsprop, the normalised g through momentum
  Adam = 5,            ///< Adam / AdamW with bias correction
};

/// The variant a configuration runs (host only; Optimizer.cpp).
StepVariant stepVariantFor(const OptimizerConfig &config);
/// The coefficients of update number \p step (1-based) with learning rate
/// \p lr (host only; Optimizer.cpp). PyTorch's SGD starts the momentum
/// buffer at g: on step 1 d1 is 1 whatever the dampening.
StepCoeffs stepCoeffsFor(const OptimizerConfig &config, int64_t step, double lr);

/// The general step for one element: \p p, \p m, \p v are updated in place
/// (\p m and \p v are not touched when the variant does not use them). The
/// flags are template parameters so that each instantiation is branch free.
template <bool Second, bool NormaliseFirst, bool First, bool Nesterov, bool Adam>
MODELRT_HD inline void stepElement(const StepCoeffs &c, float &p, float grad, float &m,
                                   float &v) {
  float g = grad + c.coupledWd * p;
  p *= c.decay;
  float vi = 0;
  if (Second)
    v = vi = c.b2 * v + (1.0f - c.b2) * g * g;
  if (NormaliseFirst)
    g = g / (std::sqrt(vi) + c.eps);
  float d = g;
  if (First) {
    float mi = c.b1 * m + c.d1 * g;
    m = mi;
    d = Nesterov ? g + c.b1 * mi : mi;
  }
  if (Adam)
    d = (d / c.bc1) / (std::sqrt(vi) / c.sqrtBc2 + c.eps);
  p -= c.lr * d;
}

/// Calls `F::template run<Second, NormaliseFirst, First, Nesterov, Adam>(args...)`
/// for \p variant: the one place that maps a variant to its flags.
template <typename F, typename... Args>
MODELRT_HD inline void dispatchStepVariant(StepVariant variant, Args &&...args) {
  switch (variant) {
  case StepVariant::Sgd:
    return F::template run<false, false, false, false, false>(args...);
  case StepVariant::SgdMomentum:
    return F::template run<false, false, true, false, false>(args...);
  case StepVariant::SgdNesterov:
    return F::template run<false, false, true, true, false>(args...);
  case StepVariant::Rmsprop:
    return F::template run<true, true, false, false, false>(args...);
  case StepVariant::RmspropMomentum:
    return F::template run<true, true, true, false, false>(args...);
  case StepVariant::Adam:
    return F::template run<true, false, true, false, true>(args...);
  }
}

//===----------------------------------------------------------------------===//
// Multi-tensor chunking (as PyTorch's multi_tensor_apply)
//===----------------------------------------------------------------------===//

/// Elements per chunk that the runtime uses by default; one block of a
/// multi-tensor launch handles one chunk at a time.
constexpr int64_t kOptimizerChunkSize = 2048;
/// Threads per block of every optimizer kernel (the reductions rely on it).
constexpr int32_t kOptimizerBlockSize = 256;

/// One chunk: elements [chunk * chunkSize, min((chunk + 1) * chunkSize, n))
/// of tensor number `tensor`. 8 bytes, the same layout on host and device.
struct OptChunk {
  int32_t tensor;
  int32_t chunk;
};

/// The half-open element range of one chunk of a tensor of \p size elements.
struct ChunkRange {
  int64_t begin, end;
};

/// The range that \p c covers in a tensor of \p size elements.
MODELRT_HD inline ChunkRange chunkRange(OptChunk c, int64_t size, int64_t chunkSize) {
  int64_t begin = int64_t(c.chunk) * chunkSize;
  int64_t end = begin + chunkSize;
  return ChunkRange{begin, end < size ? end : size};
}

/// The number of chunks of a tensor of \p size elements (0 when empty).
MODELRT_HD inline int64_t chunkCount(int64_t size, int64_t chunkSize) {
  return size <= 0 ? 0 : (size + chunkSize - 1) / chunkSize;
}

/// Writes the chunk table of \p numTensors tensors of element counts
/// \p sizes into \p out (when not null) and returns its length. Call once
/// with null to size the table. Chunks are ordered tensor by tensor.
inline int64_t buildChunkTable(const int64_t *sizes, int32_t numTensors, int64_t chunkSize,
                               OptChunk *out) {
  int64_t n = 0;
  for (int32_t t = 0; t < numTensors; ++t) {
    int64_t count = chunkCount(sizes[t], chunkSize);
    for (int64_t c = 0; c < count; ++c, ++n)
      if (out)
        out[n] = OptChunk{t, static_cast<int32_t>(c)};
  }
  return n;
}

/// The loop of every multi-tensor kernel: block \p block of \p numBlocks
/// takes chunks block, block + numBlocks, ...; thread \p lane of \p lanes
/// takes elements begin + lane, begin + lane + lanes, ... of each.
/// \p sizeOf(tensor) gives a tensor's element count and \p f(tensor, i) is
/// called for each element handled. On the GPU block = blockIdx.x,
/// numBlocks = gridDim.x, lane = threadIdx.x, lanes = blockDim.x.
template <typename SizeOf, typename F>
MODELRT_HD inline void forEachChunkElement(const OptChunk *chunks, int64_t numChunks,
                                           int64_t chunkSize, int64_t block,
                                           int64_t numBlocks, int64_t lane, int64_t lanes,
                                           const SizeOf &sizeOf, const F &f) {
  for (int64_t k = block; k < numChunks; k += numBlocks) {
    OptChunk c = chunks[k];
    ChunkRange r = chunkRange(c, sizeOf(c.tensor), chunkSize);
    for (int64_t i = r.begin + lane; i < r.end; i += lanes)
      f(c.tensor, i);
  }
}

} // namespace modelrt

#endif // MODELRT_TRAIN_OPTIMIZERMATH_H
