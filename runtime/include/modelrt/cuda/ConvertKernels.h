//===- ConvertKernels.h - The embedded PTX of the bf16 conversions --------===//
//
// Names and parameters of runtime/lib/cuda/ConvertKernels.cu (nvcc
// -arch=compute_90, checked with ptxas, embedded in modelrt): the
// conversions between f32 and bf16 around a bf16 convolution of cuDNN
// (CudnnConv.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CUDA_CONVERTKERNELS_H
#define MODELRT_CUDA_CONVERTKERNELS_H

#include <cstddef>
#include <cstdint>

namespace modelrt {

/// Threads per block of the conversions, and the most blocks of a launch
/// (a thread converts every blocks * threads-th element from its own).
constexpr int kConvertThreads = 256;
constexpr int kConvertMaxBlocks = 4096;

/// modelrt_f32_to_bf16(const float *in, uint16_t *out, int64_t n)
///   out[i] = in[i] rounded to bf16, to nearest with ties to even
///   (cvt.rn.bf16.f32), for i < n.
constexpr const char *kF32ToBf16Kernel = "modelrt_f32_to_bf16";
/// modelrt_bf16_to_f32(const uint16_t *in, float *out, int64_t n)
///   out[i] = the f32 value of the bf16 in[i] (exact), for i < n.
constexpr const char *kBf16ToF32Kernel = "modelrt_bf16_to_f32";

} // namespace modelrt

/// The PTX text (NUL-terminated; *size = its length without the NUL) of the
/// kernels above, for cuModuleLoadData. Target sm_90, PTX ISA of CUDA 13.
extern "C" const char *modelrt_convert_ptx(size_t *size);

#endif // MODELRT_CUDA_CONVERTKERNELS_H
