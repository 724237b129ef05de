//===- TensorCoreRounding.h - Operand rounding of cuBLAS's fast f32 modes ---===//
//
// Declares how the fake cuBLAS (FakeCudaDriver.cpp) rounds the f32 operands
// of cublasGemmEx as the tensor cores do under the compute types the
// runtime uses: CUBLAS_COMPUTE_32F_FAST_16BF rounds them to bfloat16 (8
// significant bits; round to nearest, ties to even, as cvt.rn.bf16.f32 and
// modelrt's roundThroughBf16), CUBLAS_COMPUTE_32F_FAST_TF32 to TF32 (11
// significant bits; round to nearest, ties away from zero, as
// cvt.rna.tf32.f32), CUBLAS_COMPUTE_32F not at all. Products of rounded
// operands are exact in f32 (at most 22 significant bits); only the f32
// accumulation rounds further. CudaGemmPrecisionTest uses the same
// functions for its reference, and checks roundThroughTf32 on hand-worked
// values (roundThroughBf16 is checked in Bf16Test).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_TEST_TENSORCOREROUNDING_H
#define MODELRT_TEST_TENSORCOREROUNDING_H

#include "modelrt/core/Bf16.h"

#include <cublas_api.h>

#include <cstdint>
#include <cstring>

/// \p x rounded to TF32 (the upper 19 bits of an f32: 10 mantissa bits),
/// to nearest with ties away from zero; infinities and NaNs stay.
inline float roundThroughTf32(float x) {
  uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  if ((u & 0x7f800000u) != 0x7f800000u) // finite: add half an ulp, truncate
    u = (u + 0x1000u) & ~0x1fffu;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

/// The identity: CUBLAS_COMPUTE_32F rounds no operand.
inline float roundNot(float x) { return x; }

/// The operand rounding of \p compute, or null for a compute type the fake
/// does not implement.
inline float (*operandRounding(cublasComputeType_t compute))(float) {
  switch (compute) {
  case CUBLAS_COMPUTE_32F:
    return roundNot;
  case CUBLAS_COMPUTE_32F_FAST_16BF:
    return modelrt::roundThroughBf16;
  case CUBLAS_COMPUTE_32F_FAST_TF32:
    return roundThroughTf32;
  default:
    return nullptr;
  }
}

#endif // MODELRT_TEST_TENSORCOREROUNDING_H
