//===- DeviceOptimizer.cpp - The optimizer kernels' launcher ----------------===//
#include "modelrt/cuda/DeviceOptimizer.h"
#include "modelrt/cuda/GpuAbi.h"

#include <algorithm>

namespace modelrt {
namespace {

/// The optimizer module, loaded (lazily, by the mgpu shim) once.
void *optimizerModule() {
  static void *module = cuda::embeddedModule(modelrt_optimizer_ptx);
  return module;
}

/// Zeroes a device buffer (through an upload of zeros: rare, small).
Status zero(cuda::DeviceBuffer &b) {
  std::vector<char> zeros(b.size(), 0);
  return cuda::upload(b.data(), zeros.data(), zeros.size());
}

/// A moment buffer of \p n floats, zeroed; empty when \p used is false.
Expected<cuda::DeviceBuffer> moment(bool used, int64_t n) {
  if (!used)
    return cuda::DeviceBuffer();
  auto b = cuda::DeviceBuffer::allocate(uint64_t(std::max<int64_t>(n, 1)) * sizeof(float));
  if (!b)
    return b.status();
  MODELRT_TRY(zero(*b));
  return b;
}

} // namespace

Status DeviceOptimizer::allocate(const std::vector<float *> &params,
                                 const std::vector<float *> &grads) {
  StepVariant variant = stepVariantFor(cfg);
  bool first = variant != StepVariant::Sgd && variant != StepVariant::Rmsprop;
  bool second = variant == StepVariant::Adam || variant == StepVariant::Rmsprop ||
                variant == StepVariant::RmspropMomentum;
  std::vector<OptTensor> table;
  for (size_t i = 0; i < sizes.size(); ++i) {
    auto m = moment(first, sizes[i]);
    auto v = m ? moment(second, sizes[i]) : std::move(m);
    if (!v)
      return v.status();
    firstMoments.push_back(m.take());
    secondMoments.push_back(v.take());
    table.push_back({params[i], grads[i], firstMoments.back().floats(),
                     secondMoments.back().floats(), sizes[i]});
  }
  std::vector<OptChunk> chunks(size_t(buildChunkTable(sizes.data(), int32_t(sizes.size()),
                                                      kOptimizerChunkSize, nullptr)));
  buildChunkTable(sizes.data(), int32_t(sizes.size()), kOptimizerChunkSize, chunks.data());
  numChunks = int32_t(chunks.size());
  auto t = cuda::DeviceBuffer::allocate(std::max<size_t>(table.size(), 1) * sizeof(OptTensor));
  auto c = t ? cuda::DeviceBuffer::allocate(std::max<size_t>(chunks.size(), 1) *
                                            sizeof(OptChunk))
             : std::move(t);
  if (!c)
    return c.status();
  tensorTable = t.take(), chunkTable = c.take();
  MODELRT_TRY(cuda::upload(tensorTable.data(), table.data(), table.size() * sizeof(OptTensor)));
  MODELRT_TRY(cuda::upload(chunkTable.data(), chunks.data(), chunks.size() * sizeof(OptChunk)));
  auto s = cuda::DeviceBuffer::allocate(std::max<size_t>(chunks.size(), 1) * sizeof(double));
  auto o = s ? cuda::DeviceBuffer::allocate(2 * sizeof(float)) : std::move(s);
  if (!o)
    return o.status();
  partials = s.take(), normOut = o.take();
  function = mgpuModuleGetFunction(optimizerModule(), stepKernelName(variant));
  sumsq = mgpuModuleGetFunction(optimizerModule(), kGradSumsqKernel);
  finalize = mgpuModuleGetFunction(optimizerModule(), kGradNormFinalizeKernel);
  return cuda::stickyStatus();
}

Expected<std::unique_ptr<DeviceOptimizer>>
DeviceOptimizer::create(const OptimizerConfig &config, const std::vector<float *> &params,
                        const std::vector<float *> &grads, const std::vector<int64_t> &sizes) {
  MODELRT_TRY(validateOptimizerConfig(config));
  std::unique_ptr<DeviceOptimizer> opt(new DeviceOptimizer(config, sizes));
  MODELRT_TRY(opt->allocate(params, grads));
  return opt;
}

Status DeviceOptimizer::uploadMoments(Optimizer &host) {
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (firstMoments[i].size() && !host.firstMoments()[i].empty())
      MODELRT_TRY(cuda::uploadFloats(firstMoments[i], host.firstMoments()[i].data(), sizes[i]));
    if (secondMoments[i].size() && !host.secondMoments()[i].empty())
      MODELRT_TRY(
          cuda::uploadFloats(secondMoments[i], host.secondMoments()[i].data(), sizes[i]));
  }
  return Status::ok();
}

Status DeviceOptimizer::downloadMoments(Optimizer &host) {
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (firstMoments[i].size() && !host.firstMoments()[i].empty())
      MODELRT_TRY(cuda::downloadFloats(host.firstMoments()[i].data(), firstMoments[i], sizes[i]));
    if (secondMoments[i].size() && !host.secondMoments()[i].empty())
      MODELRT_TRY(
          cuda::downloadFloats(host.secondMoments()[i].data(), secondMoments[i], sizes[i]));
  }
  return Status::ok();
}

Status DeviceOptimizer::enqueueGradNorm(void *out) {
  if (numChunks == 0) { // no gradients: 0
    mgpuMemset32(out, 0, 1, nullptr);
    return cuda::stickyStatus();
  }
  void *tensors = tensorTable.data(), *chunks = chunkTable.data();
  void *sums = partials.data();
  int32_t count = numChunks;
  int64_t chunkSize = kOptimizerChunkSize;
  float noClip = 0;
  void *sumParams[] = {&tensors, &chunks, &count, &chunkSize, &sums};
  mgpuLaunchKernel(sumsq, numChunks, 1, 1, kOptimizerBlockSize, 1, 1, 0, nullptr, sumParams,
                   nullptr, 5);
  void *finParams[] = {&sums, &count, &noClip, &out};
  mgpuLaunchKernel(finalize, 1, 1, 1, kOptimizerBlockSize, 1, 1, 0, nullptr, finParams,
                   nullptr, 4);
  return cuda::stickyStatus();
}

Expected<float> DeviceOptimizer::gradNorm() {
  if (numChunks == 0)
    return 0.0f;
  MODELRT_TRY(enqueueGradNorm(normOut.data()));
  float norm = 0;
  MODELRT_TRY(cuda::download(&norm, normOut.data(), sizeof(norm)));
  return norm;
}

Status DeviceOptimizer::step(int64_t step, double lr) {
  if (numChunks == 0)
    return Status::ok();
  StepCoeffs coeffs = stepCoeffsFor(cfg, step, lr);
  void *tensors = tensorTable.data(), *chunks = chunkTable.data();
  int32_t count = numChunks;
  int64_t chunkSize = kOptimizerChunkSize;
  void *params[] = {&tensors, &chunks, &count, &chunkSize, &coeffs};
  mgpuLaunchKernel(function, numChunks, 1, 1, kOptimizerBlockSize, 1, 1, 0, nullptr, params,
                   nullptr, 5);
  return cuda::stickyStatus();
}

} // namespace modelrt
