//===- Bf16.h - Products and convolutions with bf16 operands ---------------===//
//
// Declares the runtime's mixed-precision products (`precision = bf16` in a
// train block, docs/precision.md): the operands are rounded to bfloat16
// (round to nearest, ties to even) and multiplied with f32 accumulation
// into an f32 result. Compiled models call `modelrt_gemm_bf16` (cblas_sgemm's
// signature) and the `modelrt_conv2d_*_bf16` functions (Conv.h's
// signatures). The kernels are chosen by the CPU's features, never by its
// model, widest first:
//   - AMX (amx_bf16 + amx_tile), once the kernel grants this process the
//     tile state (arch_prctl(ARCH_REQ_XCOMP_PERM)); refused, the runtime
//     says why once and takes the next path;
//   - AVX512-BF16 (vdpbf16ps);
//   - emulation on any other CPU: the operands rounded to bf16 as the
//     kernels round them, then f32 products (the same values up to the
//     order of the f32 accumulation; slow, said once).
// The AMX and AVX512-BF16 paths are oneDNN's matmul and convolution
// primitives (bf16 source and weights, f32 destination), oneDNN capped at
// the chosen path. MODELRT_BF16=amx|avx512_bf16|emulated narrows the
// choice (never widens it).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CORE_BF16_H
#define MODELRT_CORE_BF16_H

#include "modelrt/core/CpuFeatures.h"
#include "modelrt/core/Program.h"
#include "modelrt/core/Status.h"

#include <cstdint>
#include <cstring>
#include <string>

namespace modelrt {

/// \p x rounded to bfloat16 (the upper 16 bits of an f32): round to
/// nearest, ties to even; infinities stay, a NaN stays a (quiet) NaN.
inline uint16_t roundToBf16(float x) {
  uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  if ((u & 0x7fffffffu) > 0x7f800000u) // NaN: keep the sign, make it quiet
    return uint16_t((u >> 16) | 0x40u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return uint16_t(u >> 16);
}

/// The f32 value of the bfloat16 \p b (exact).
inline float bf16ToFloat(uint16_t b) {
  uint32_t u = uint32_t(b) << 16;
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

/// \p x rounded to the nearest bfloat16, as an f32.
inline float roundThroughBf16(float x) { return bf16ToFloat(roundToBf16(x)); }

/// Rounds \p n values of \p in to bfloat16 into \p out.
void roundToBf16(const float *in, uint16_t *out, int64_t n);

/// Rounds \p n values of \p in to bfloat16, kept as f32, into \p out.
void roundThroughBf16(const float *in, float *out, int64_t n);

/// Copies the \p rows x \p cols matrix \p in (leading dimension \p ld)
/// into the dense \p out, rounded to bfloat16 (as its bits, or kept as
/// f32): a dense matrix as one range, a strided one row by row; on two
/// threads (runInTwoParts) from 64k elements, a pass over memory paying for
/// the second thread sooner than a compiled loop. The same bits either way.
void roundMatrixToBf16(const float *in, int64_t ld, int64_t rows, int64_t cols, uint16_t *out);
void roundMatrixThroughBf16(const float *in, int64_t ld, int64_t rows, int64_t cols,
                            float *out);

/// The kernels of the bf16 products, widest first.
enum class Bf16Path { Amx, Avx512Bf16, Emulated };

/// "amx", "avx512_bf16" or "emulated".
const char *bf16PathName(Bf16Path path);

/// The widest path a CPU with features \p f runs: AMX needs amx_bf16 and
/// amx_tile and \p amxPermitted (the kernel granted the tile state);
/// AVX512-BF16 needs avx512_bf16 (and AVX-512 F/BW/VL/DQ); the emulation
/// runs anywhere. At most \p cap.
Bf16Path chooseBf16Path(const CpuFeatures &f, bool amxPermitted,
                        Bf16Path cap = Bf16Path::Amx);

/// The cap MODELRT_BF16 sets (Amx, the widest, when unset); fails on any
/// other value, naming the variable and the values it takes.
Expected<Bf16Path> bf16PathCap();

/// Asks the kernel, once, for this process's permission to use the AMX
/// tile state (arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)).
/// Ok when granted; otherwise why not (never called on a CPU without AMX).
const Status &amxPermission();

/// What runs the bf16 products here: the path, and why a wider one does
/// not (empty when none is wider, or for MODELRT_BF16's narrowing).
struct Bf16Choice {
  Bf16Path path = Bf16Path::Emulated;
  std::string note;
};

/// The choice for a CPU of features \p f whose runtime kernels are of
/// \p level (below the CPU's own when MODELRT_CPU_ISA caps it: then the
/// emulation, without a note), under \p cap (MODELRT_BF16). \p askAmx is
/// called only when the CPU has AMX and the cap allows it, and says
/// whether the kernel granted the tile state. The note names the reason
/// when AMX is refused, or when the CPU has no bf16 instructions at all.
Bf16Choice chooseBf16(const CpuFeatures &f, CpuLevel level, Bf16Path cap,
                      const Status &(*askAmx)());

/// The host's choice, made once: chooseBf16 for this CPU, its kernels'
/// level, MODELRT_BF16 and amxPermission().
const Bf16Choice &hostBf16Choice();

/// The path this process's bf16 products take: the host's choice when the
/// matrix products are oneDNN's (after loadBlas(), Blas.h), else the
/// emulation (a product oneDNN refuses to make is emulated too).
Bf16Path bf16ProductPath();

/// One line for `info` and `--profile`: "bf16 products: amx (oneDNN 2.6.3
/// matmul, brg:avx512_core_amx)"; empty before any bf16 product ran.
std::string bf16Kernels();

/// One line for `info` before any product ran: what this process's bf16
/// products would take ("bf16 products: avx512_bf16 (oneDNN 2.6.3
/// matmul)", "bf16 products: emulated (rounded operands, f32 sgemm)"),
/// with the host choice's note on a second, indented line when it has one.
std::string bf16PlannedKernels();

/// The bytes of the rounded operand copies the bf16 products of a step
/// keep at \p batch on \p path, from the operands of its \p count
/// products: on oneDNN's paths (amx, avx512_bf16) a bf16 copy (2 bytes an
/// element) of both operands of every product, each product's cached
/// primitive keeping its own (products of the same sizes and layout share
/// one: an upper bound); emulated, an f32 copy (4 bytes) of the largest
/// first and of the largest second operand that grows with the batch, per
/// kind (matrix product, convolution), reused by every product on the
/// training thread, and the step's rounded weights (FrozenParameters.h):
/// the products' fixed operands, at most \p paramElements (a weight read
/// by several products is one copy).
double bf16OperandCopyBytes(const ModelrtProductOperands *products, int32_t count, double batch,
                            Bf16Path path, double paramElements);

/// Row-major C = alpha op(A) op(B) + beta C with A and B rounded to bf16
/// and f32 accumulation, by the emulation: the operands rounded into f32
/// copies (an operand inside frozen parameters once per scope,
/// FrozenParameters.h), then cblas_sgemm. The reference of the other paths.
void emulatedGemmBf16(bool tA, bool tB, int64_t M, int64_t N, int64_t K, float alpha,
                      const float *A, int64_t lda, const float *B, int64_t ldb, float beta,
                      float *C, int64_t ldc);

/// The same product by oneDNN's bf16 matmul primitive (AMX or AVX512-BF16
/// kernels, whichever oneDNN was capped at). Returns false, having written
/// nothing, when oneDNN cannot make it; aborts with a message when oneDNN
/// fails to run what it made.
bool oneDnnGemmBf16(bool tA, bool tB, int64_t M, int64_t N, int64_t K, float alpha,
                    const float *A, int64_t lda, const float *B, int64_t ldb, float beta,
                    float *C, int64_t ldc);

/// The implementation oneDNN chose for its bf16 products ("brg:avx512_core_amx");
/// empty before any.
std::string oneDnnGemmBf16Impls();

} // namespace modelrt

extern "C" {
/// cblas_sgemm (Blas.h) with A and B rounded to bf16 and f32 accumulation,
/// on the host's bf16 path. Row-major only (order 101), as compiled models
/// call it.
void modelrt_gemm_bf16(int order, int transA, int transB, int M, int N, int K, float alpha,
                       const float *A, int lda, const float *B, int ldb, float beta, float *C,
                       int ldc);
}

#endif // MODELRT_CORE_BF16_H
