//===- Bf16.cpp - The bf16 path chosen by features, and its emulation -----===//
//
// Implements Bf16.h but for the oneDNN primitives (GemmBf16OneDnn.cpp and
// ConvOneDnn.cpp): the rounding of arrays, the choice of path from the
// CPU's features and the kernel's AMX permission, the emulation, and the
// entry point compiled models call. The notes about the path (AMX refused,
// no bf16 instructions) are printed once, on the first bf16 product.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Bf16.h"
#include "BlasBackends.h"
#include "OneDnn.h"
#include "modelrt/core/FrozenParameters.h"
#include "modelrt/core/Parallel.h"
#include "modelrt/core/Profile.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

#if defined(__linux__) && defined(__x86_64__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace modelrt {
namespace {

/// Which paths have run a product (for bf16Kernels()).
std::atomic<bool> ranOneDnn{false}, ranEmulated{false};

/// The elements from which the matrix roundings split over two threads.
constexpr int64_t kParallelRoundElems = int64_t(1) << 16;

/// roundMatrixToBf16 / roundMatrixThroughBf16, with \p round the rounding
/// of one dense range (roundToBf16 or roundThroughBf16).
template <typename T>
void roundMatrixWith(void (*round)(const float *, T *, int64_t), const float *in, int64_t ld,
                     int64_t rows, int64_t cols, T *out) {
  bool dense = ld == cols || rows == 1;
  int64_t items = dense ? rows * cols : rows; // ranges or rows
  auto part = [&](int64_t from, int64_t to) {
    if (dense)
      return round(in + from, out + from, to - from);
    for (int64_t r = from; r < to; ++r)
      round(in + r * ld, out + r * cols, cols);
  };
  if (rows * cols < kParallelRoundElems || items < 2 || !twoPartsInParallel())
    return part(0, items);
  int64_t half = dense ? (items / 2) & ~int64_t(31) : items / 2; // whole cache lines
  runInTwoParts([&](int which) { which ? part(half, items) : part(0, half); });
}

/// Prints the host choice's note once (to stderr), when it has one.
void noteOnce(const Bf16Choice &c) {
  static std::once_flag once;
  std::call_once(once, [&] {
    if (!c.note.empty())
      std::fprintf(stderr, "modelrt: note: %s\n", c.note.c_str());
  });
}

} // namespace

namespace {

/// roundToBf16(x)'s bits without a branch (so that the loops below
/// vectorise): the rounded value, or the quiet NaN.
inline uint32_t roundedBits(float x) {
  uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  uint32_t quiet = (u >> 16) | 0x40u;
  return (u & 0x7fffffffu) > 0x7f800000u ? quiet : rounded;
}

} // namespace

// Cloned for AVX-512 and AVX2 (chosen when the program loads, by the
// CPU's features): the rounding of the operands is a pass over memory that
// would otherwise cost as much as a small product.
__attribute__((target_clones("avx512f", "avx2", "default"))) void
roundToBf16(const float *in, uint16_t *out, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = uint16_t(roundedBits(in[i]));
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void
roundThroughBf16(const float *in, float *out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    uint32_t u = roundedBits(in[i]) << 16;
    std::memcpy(&out[i], &u, sizeof u);
  }
}

void roundMatrixToBf16(const float *in, int64_t ld, int64_t rows, int64_t cols,
                       uint16_t *out) {
  roundMatrixWith<uint16_t>(roundToBf16, in, ld, rows, cols, out);
}

void roundMatrixThroughBf16(const float *in, int64_t ld, int64_t rows, int64_t cols,
                            float *out) {
  roundMatrixWith<float>(roundThroughBf16, in, ld, rows, cols, out);
}

const char *bf16PathName(Bf16Path path) {
  switch (path) {
  case Bf16Path::Amx:
    return "amx";
  case Bf16Path::Avx512Bf16:
    return "avx512_bf16";
  case Bf16Path::Emulated:
    break;
  }
  return "emulated";
}

Bf16Path chooseBf16Path(const CpuFeatures &f, bool amxPermitted, Bf16Path cap) {
  bool avx512 = supportedLevel(f) == CpuLevel::Avx512;
  if (cap == Bf16Path::Amx && avx512 && f.amxBf16 && f.amxTile && amxPermitted)
    return Bf16Path::Amx;
  if (cap <= Bf16Path::Avx512Bf16 && avx512 && f.avx512bf16)
    return Bf16Path::Avx512Bf16;
  return Bf16Path::Emulated;
}

Expected<Bf16Path> bf16PathCap() {
  const char *cap = std::getenv("MODELRT_BF16");
  if (!cap || !*cap || !std::strcmp(cap, "amx"))
    return Bf16Path::Amx;
  if (!std::strcmp(cap, "avx512_bf16"))
    return Bf16Path::Avx512Bf16;
  if (!std::strcmp(cap, "emulated"))
    return Bf16Path::Emulated;
  return errorf("MODELRT_BF16 is '%s'; it takes amx, avx512_bf16 or emulated", cap);
}

const Status &amxPermission() {
  static const Status s = [] {
#if defined(__linux__) && defined(__x86_64__)
    constexpr int kReqXcompPerm = 0x1023, kXtileData = 18; // asm/prctl.h, fpu/xstate.h
    if (syscall(SYS_arch_prctl, kReqXcompPerm, kXtileData) == 0)
      return Status::ok();
    return errorf("the kernel refused the AMX tile state (arch_prctl(ARCH_REQ_XCOMP_PERM): %s)",
                  std::strerror(errno));
#else
    return errorf("AMX needs Linux on x86-64");
#endif
  }();
  return s;
}

Bf16Choice chooseBf16(const CpuFeatures &f, CpuLevel level, Bf16Path cap,
                      const Status &(*askAmx)()) {
  Bf16Choice c;
  if (level < supportedLevel(f)) // MODELRT_CPU_ISA below the CPU's level
    cap = Bf16Path::Emulated;
  bool amx = cap == Bf16Path::Amx && f.amxBf16 && f.amxTile &&
             supportedLevel(f) == CpuLevel::Avx512; // AMX's path needs AVX-512 too
  c.path = chooseBf16Path(f, amx && askAmx().isOk(), cap);
  if (amx && c.path != Bf16Path::Amx)
    c.note = askAmx().message() + "; bf16 products use " + bf16PathName(c.path);
  else if (c.path == Bf16Path::Emulated && cap != Bf16Path::Emulated)
    c.note = "this CPU has no bf16 instructions the kernels use (avx512_bf16 or amx_bf16, with "
             "AVX-512): bf16 products are emulated (operands rounded to bf16, f32 products), "
             "which is slow";
  return c;
}

const Bf16Choice &hostBf16Choice() {
  static const Bf16Choice choice = [] {
    Expected<Bf16Path> cap = bf16PathCap();
    return chooseBf16(hostCpuFeatures(), hostKernels().level, cap ? *cap : Bf16Path::Amx,
                      amxPermission);
  }();
  return choice;
}

Bf16Path bf16ProductPath() {
  return activeBlasLibrary() == BlasLibrary::OneDnn ? hostBf16Choice().path
                                                    : Bf16Path::Emulated;
}

std::string bf16Kernels() {
  std::string text;
  if (ranOneDnn.load()) {
    const OneDnnLibrary &d = oneDnnLibrary();
    std::string impls = oneDnnGemmBf16Impls();
    text = std::string(bf16PathName(hostBf16Choice().path)) + " (" + d.version + " matmul" +
           (impls.empty() ? "" : ", " + impls) + ")";
  }
  if (ranEmulated.load())
    text += std::string(text.empty() ? "" : "; ") + "emulated (rounded operands, f32 sgemm)";
  return text.empty() ? "" : "bf16 products: " + text;
}

std::string bf16PlannedKernels() {
  Bf16Path path = bf16ProductPath();
  std::string text = std::string("bf16 products: ") + bf16PathName(path);
  if (path != Bf16Path::Emulated)
    return text + " (" + oneDnnLibrary().version + " matmul)";
  text += " (rounded operands, f32 sgemm)";
  if (activeBlasLibrary() != BlasLibrary::OneDnn)
    return text + "\n  (the matrix products are not oneDNN's, which has the bf16 kernels)";
  const std::string &note = hostBf16Choice().note;
  return note.empty() ? text : text + "\n  (" + note + ")";
}

double bf16OperandCopyBytes(const ModelrtProductOperands *products, int32_t count, double batch,
                            Bf16Path path, double paramElements) {
  double sum = 0, fixed = 0, largest[2][2] = {{0, 0}, {0, 0}}; // [matmul, conv][operand]
  for (int32_t i = 0; i < count; ++i)
    for (int o = 0; o < 2; ++o) {
      const ModelrtProductOperands &p = products[i];
      double perBatch = batch * double(p.per_sample_elements[o]);
      sum += double(p.fixed_elements[o]) + perBatch;
      fixed += double(p.fixed_elements[o]);
      double &l = largest[p.kind == MODELRT_PRODUCT_CONV][o];
      l = std::max(l, perBatch);
    }
  if (path != Bf16Path::Emulated)
    return 2 * sum;
  return 4 * (largest[0][0] + largest[0][1] + largest[1][0] + largest[1][1] +
              std::min(fixed, paramElements));
}

void emulatedGemmBf16(bool tA, bool tB, int64_t M, int64_t N, int64_t K, float alpha,
                      const float *A, int64_t lda, const float *B, int64_t ldb, float beta,
                      float *C, int64_t ldc) {
  thread_local std::vector<float> a, b;
  int64_t aRows = tA ? K : M, aCols = tA ? M : K, bRows = tB ? N : K, bCols = tB ? K : N;
  const float *roundedA = roundedThroughBf16(A, lda, aRows, aCols, a);
  const float *roundedB = roundedThroughBf16(B, ldb, bRows, bCols, b);
  cblas_sgemm(101, tA ? 112 : 111, tB ? 112 : 111, int(M), int(N), int(K), alpha, roundedA,
              int(std::max<int64_t>(aCols, 1)), roundedB, int(std::max<int64_t>(bCols, 1)), beta, C,
              int(ldc));
}

} // namespace modelrt

extern "C" void modelrt_gemm_bf16(int order, int transA, int transB, int M, int N, int K,
                                  float alpha, const float *A, int lda, const float *B,
                                  int ldb, float beta, float *C, int ldc) {
  using namespace modelrt;
  if (order != 101) {
    std::fprintf(stderr, "modelrt: modelrt_gemm_bf16 takes row-major matrices only\n");
    std::abort();
  }
  requireBlas();
  const Bf16Choice &choice = hostBf16Choice();
  noteOnce(choice);
  bool tA = transA == 112, tB = transB == 112;
  if (M == 0 || N == 0)
    return;
  if (bf16ProductPath() != Bf16Path::Emulated && K > 0 &&
      oneDnnGemmBf16(tA, tB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc)) {
    ranOneDnn = true;
    noteProductRun(true, choice.path);
    return;
  }
  ranEmulated = true;
  noteProductRun(true, Bf16Path::Emulated);
  emulatedGemmBf16(tA, tB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}
