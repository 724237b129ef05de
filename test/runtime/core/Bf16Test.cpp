//===- Bf16Test.cpp - Rounding, path choice and the bf16 kernels -----------===//
//
// The bf16 layer of runtime/lib/core (Bf16.h): the rounding on hand-worked
// values (ties to even, overflow, NaN, infinities, subnormals); the choice
// of path from injected feature sets; the kernels against the
// emulation; and the operand copies `info` counts for each path. A product of two bf16 values is exact in f32 (8 + 8
// significant bits), so the kernels and the emulation add the same terms
// and may differ only by the order of the f32 accumulation: by at most
// 2 K u32 sum|a_i b_i| per element (u32 = 2^-24, K terms; the classic
// bound K u32 for each side). Against the exact f32 operands, each
// operand's rounding adds at most u16 = 2^-8 relative error, so a bf16
// result is within (2 u16 + u16^2 + K u32) sum|a_i b_i| of the exact sum.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Bf16.h"
#include "core/BlasBackends.h"
#include "modelrt/core/Blas.h"
#include "modelrt/core/Conv.h"
#include "modelrt/core/CpuFeatures.h"
#include "modelrt/core/Parallel.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace modelrt;

namespace {

uint32_t bitsOf(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  return u;
}

float fromBits(uint32_t u) {
  float x;
  std::memcpy(&x, &u, 4);
  return x;
}

constexpr double kU32 = 1.0 / (1 << 24); // f32's unit roundoff
constexpr double kU16 = 1.0 / (1 << 8);  // bf16's (8 significant bits)

TEST(Bf16Rounding, HandWorkedValues) {
  EXPECT_EQ(roundToBf16(1.0f), 0x3F80);
  EXPECT_EQ(roundToBf16(-1.5f), 0xBFC0);
  // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: ties to the even 1.
  EXPECT_EQ(roundToBf16(fromBits(0x3F808000)), 0x3F80);
  // 1 + 3 * 2^-8 lies halfway between 1 + 2^-7 and 1 + 2^-6: the even one.
  EXPECT_EQ(roundToBf16(fromBits(0x3F818000)), 0x3F82);
  // Just above the halfway point rounds up, just below rounds down.
  EXPECT_EQ(roundToBf16(fromBits(0x3F808001)), 0x3F81);
  EXPECT_EQ(roundToBf16(fromBits(0x3F807FFF)), 0x3F80);
  // The largest f32 rounds past bf16's largest: infinity.
  EXPECT_EQ(roundToBf16(std::numeric_limits<float>::max()), 0x7F80);
  EXPECT_EQ(roundToBf16(std::numeric_limits<float>::infinity()), 0x7F80);
  EXPECT_EQ(roundToBf16(-std::numeric_limits<float>::infinity()), 0xFF80);
  // A quiet NaN stays; a signalling one (0x7F800001 would truncate to
  // infinity) becomes quiet; the sign stays.
  EXPECT_EQ(roundToBf16(fromBits(0x7FC00000)), 0x7FC0);
  EXPECT_EQ(roundToBf16(fromBits(0x7F800001)), 0x7FC0);
  EXPECT_EQ(roundToBf16(fromBits(0xFF800001)), 0xFFC0);
  EXPECT_TRUE(std::isnan(roundThroughBf16(fromBits(0x7F800001))));
  // Subnormals round like any value (no flush to zero).
  EXPECT_EQ(roundToBf16(fromBits(0x00008000)), 0x0000); // tie, to even 0
  EXPECT_EQ(roundToBf16(fromBits(0x00018000)), 0x0002); // tie, to even 2
  EXPECT_EQ(roundToBf16(fromBits(0x00010001)), 0x0001);
  EXPECT_EQ(bitsOf(roundThroughBf16(3.14159265f)), 0x40490000u); // 3.140625
}

TEST(Bf16Rounding, ArraysRoundAsScalars) {
  std::vector<float> in = {1.0f, fromBits(0x3F818000), -0.0f, 1e-40f, 65504.0f, 3.3e38f};
  std::vector<uint16_t> out(in.size());
  std::vector<float> through(in.size());
  roundToBf16(in.data(), out.data(), int64_t(in.size()));
  roundThroughBf16(in.data(), through.data(), int64_t(in.size()));
  for (size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(out[i], roundToBf16(in[i])) << i;
    EXPECT_EQ(bitsOf(through[i]), uint32_t(out[i]) << 16) << i;
  }
}

// The matrix roundings copy every element of a dense or a strided matrix,
// below and above the size from which they split over two threads (64k
// elements; odd sizes, so the halves' boundary is not a row's), and round
// each as the scalar function does; nothing outside the matrix is written.
TEST(Bf16Rounding, MatricesRoundAsScalarsOnOneOrTwoThreads) {
  if (!twoPartsInParallel()) // one core, or MODELRT_THREADS=1
    std::printf("note: one thread here; the split over two is not exercised\n");
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  struct Shape {
    int64_t rows, cols, ld;
  };
  for (Shape s : {Shape{3, 5, 5}, Shape{3, 5, 9}, Shape{1, 70001, 70001}, Shape{301, 257, 257},
                  Shape{301, 257, 260}}) {
    std::vector<float> in(size_t(s.rows * s.ld));
    for (float &v : in)
      v = dist(rng);
    size_t n = size_t(s.rows * s.cols);
    std::vector<uint16_t> bits(n + 1, 0xABCD);
    std::vector<float> through(n + 1, 7.0f);
    roundMatrixToBf16(in.data(), s.ld, s.rows, s.cols, bits.data());
    roundMatrixThroughBf16(in.data(), s.ld, s.rows, s.cols, through.data());
    for (int64_t r = 0; r < s.rows; ++r)
      for (int64_t c = 0; c < s.cols; ++c) {
        size_t i = size_t(r * s.cols + c);
        uint16_t want = roundToBf16(in[size_t(r * s.ld + c)]);
        ASSERT_EQ(bits[i], want) << s.rows << "x" << s.cols << " ld " << s.ld << " at " << i;
        ASSERT_EQ(bitsOf(through[i]), uint32_t(want) << 16) << i;
      }
    EXPECT_EQ(bits[n], 0xABCD);
    EXPECT_EQ(through[n], 7.0f);
  }
}

/// Features of an AVX-512 CPU, with or without AVX512-BF16 and AMX.
CpuFeatures avx512Cpu(bool bf16, bool amx) {
  CpuFeatures f;
  f.sse3 = f.ssse3 = f.sse41 = f.sse42 = f.avx = f.fma = f.avx2 = true;
  f.avx512f = f.avx512bw = f.avx512dq = f.avx512vl = f.avx512cd = true;
  f.avx512bf16 = bf16;
  f.amxTile = f.amxBf16 = f.amxInt8 = amx;
  return f;
}

TEST(Bf16Path, ChosenByFeaturesAndPermission) {
  EXPECT_EQ(chooseBf16Path(avx512Cpu(true, true), true), Bf16Path::Amx);
  // AMX without the kernel's permission: the next path.
  EXPECT_EQ(chooseBf16Path(avx512Cpu(true, true), false), Bf16Path::Avx512Bf16);
  EXPECT_EQ(chooseBf16Path(avx512Cpu(true, false), true), Bf16Path::Avx512Bf16);
  EXPECT_EQ(chooseBf16Path(avx512Cpu(false, false), true), Bf16Path::Emulated);
  // A cap narrows, never widens.
  EXPECT_EQ(chooseBf16Path(avx512Cpu(true, true), true, Bf16Path::Avx512Bf16),
            Bf16Path::Avx512Bf16);
  EXPECT_EQ(chooseBf16Path(avx512Cpu(true, true), true, Bf16Path::Emulated),
            Bf16Path::Emulated);
  EXPECT_EQ(chooseBf16Path(avx512Cpu(false, false), true, Bf16Path::Amx), Bf16Path::Emulated);
  // avx512_bf16 without the AVX-512 base the kernels need; AVX2 only.
  CpuFeatures partial = avx512Cpu(true, false);
  partial.avx512bw = false;
  EXPECT_EQ(chooseBf16Path(partial, true), Bf16Path::Emulated);
  CpuFeatures avx2;
  avx2.avx = avx2.avx2 = avx2.fma = true;
  EXPECT_EQ(chooseBf16Path(avx2, true), Bf16Path::Emulated);
  EXPECT_STREQ(bf16PathName(Bf16Path::Amx), "amx");
  EXPECT_STREQ(bf16PathName(Bf16Path::Avx512Bf16), "avx512_bf16");
  EXPECT_STREQ(bf16PathName(Bf16Path::Emulated), "emulated");
}

const Status &granted() {
  static const Status s = Status::ok();
  return s;
}

const Status &refused() {
  static const Status s = errorf("the kernel refused the AMX tile state");
  return s;
}

const Status &neverAsked() {
  ADD_FAILURE() << "the AMX permission was asked for on a path that cannot use it";
  return granted();
}

// The note: why AMX was refused, or that a CPU without bf16 instructions
// runs the (slow) emulation; none when MODELRT_CPU_ISA or MODELRT_BF16
// narrowed the choice.
TEST(Bf16Path, NoteSaysWhyAWiderPathDoesNotRun) {
  Bf16Choice c = chooseBf16(avx512Cpu(true, true), CpuLevel::Avx512, Bf16Path::Amx, granted);
  EXPECT_EQ(c.path, Bf16Path::Amx);
  EXPECT_EQ(c.note, "");
  c = chooseBf16(avx512Cpu(true, true), CpuLevel::Avx512, Bf16Path::Amx, refused);
  EXPECT_EQ(c.path, Bf16Path::Avx512Bf16);
  EXPECT_EQ(c.note, "the kernel refused the AMX tile state; bf16 products use avx512_bf16");
  const std::string slow = "this CPU has no bf16 instructions the kernels use (avx512_bf16 "
                           "or amx_bf16, with AVX-512): bf16 products are emulated (operands "
                           "rounded to bf16, f32 products), which is slow";
  c = chooseBf16(avx512Cpu(false, false), CpuLevel::Avx512, Bf16Path::Amx, neverAsked);
  EXPECT_EQ(c.path, Bf16Path::Emulated);
  EXPECT_EQ(c.note, slow) << "AVX-512 without bf16";
  CpuFeatures avx2;
  avx2.sse3 = avx2.ssse3 = avx2.sse41 = avx2.sse42 = avx2.avx = avx2.avx2 = avx2.fma = true;
  c = chooseBf16(avx2, CpuLevel::Avx2, Bf16Path::Amx, neverAsked);
  EXPECT_EQ(c.path, Bf16Path::Emulated);
  EXPECT_EQ(c.note, slow) << "a CPU below AVX-512 has no bf16 instructions either";
  CpuFeatures amxWithoutAvx512 = avx512Cpu(true, true);
  amxWithoutAvx512.avx512bw = false; // a VM that hides part of AVX-512
  c = chooseBf16(amxWithoutAvx512, CpuLevel::Avx2, Bf16Path::Amx, neverAsked);
  EXPECT_EQ(c.path, Bf16Path::Emulated);
  EXPECT_EQ(c.note, slow) << "AMX tiles without AVX-512: no bf16 kernels";
  c = chooseBf16(avx512Cpu(true, true), CpuLevel::Avx2, Bf16Path::Amx, neverAsked);
  EXPECT_EQ(c.path, Bf16Path::Emulated) << "MODELRT_CPU_ISA=avx2";
  EXPECT_EQ(c.note, "");
  c = chooseBf16(avx512Cpu(true, true), CpuLevel::Avx512, Bf16Path::Emulated, neverAsked);
  EXPECT_EQ(c.path, Bf16Path::Emulated) << "MODELRT_BF16=emulated";
  EXPECT_EQ(c.note, "");
}

TEST(Bf16Path, CapFromTheEnvironment) {
  const char *saved = std::getenv("MODELRT_BF16");
  std::string old = saved ? saved : "";
  setenv("MODELRT_BF16", "avx512_bf16", 1);
  EXPECT_EQ(*bf16PathCap(), Bf16Path::Avx512Bf16);
  setenv("MODELRT_BF16", "emulated", 1);
  EXPECT_EQ(*bf16PathCap(), Bf16Path::Emulated);
  setenv("MODELRT_BF16", "fp8", 1);
  Expected<Bf16Path> bad = bf16PathCap();
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.status().message(), "MODELRT_BF16 is 'fp8'; it takes amx, avx512_bf16 or emulated");
  if (saved)
    setenv("MODELRT_BF16", old.c_str(), 1);
  else
    unsetenv("MODELRT_BF16");
}

/// Random values in [-1, 1] with varied exponents.
std::vector<float> randomValues(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = u(rng) * std::ldexp(1.0f, int(rng() % 5) - 2);
  return v;
}

/// One product's shape and options.
struct GemmCase {
  bool tA, tB;
  int M, N, K;
  float alpha, beta;
  int ldcPad; ///< ldc = N + ldcPad
};

/// sum_k |op(A)[m,k] op(B)[k,n]| in double, and the exact f32-operand sum.
void reference(const GemmCase &g, const std::vector<float> &A, const std::vector<float> &B,
               int m, int n, double &magnitude, double &exact) {
  magnitude = exact = 0;
  int lda = g.tA ? g.M : g.K, ldb = g.tB ? g.K : g.N;
  for (int k = 0; k < g.K; ++k) {
    double a = g.tA ? A[size_t(k) * lda + m] : A[size_t(m) * lda + k];
    double b = g.tB ? B[size_t(n) * ldb + k] : B[size_t(k) * ldb + n];
    magnitude += std::fabs(a * b);
    exact += a * b;
  }
}

TEST(Bf16Gemm, OneDnnKernelsMatchTheEmulation) {
  if (supportedLevel(hostCpuFeatures()) < CpuLevel::Avx512)
    GTEST_SKIP() << "oneDNN's bf16 products need AVX-512 (this host's products are emulated)";
  ASSERT_TRUE(useBlasLibrary(BlasLibrary::OneDnn).isOk());
  const GemmCase cases[] = {{false, false, 7, 5, 3, 1, 0, 0},   {false, true, 16, 33, 64, 1, 1, 0},
                            {true, false, 31, 17, 100, 1, 0, 3}, {true, true, 64, 64, 257, 2, 1, 1},
                            {false, false, 128, 256, 784, 1, 0, 0}};
  unsigned seed = 1;
  for (const GemmCase &g : cases) {
    int lda = g.tA ? g.M : g.K, ldb = g.tB ? g.K : g.N, ldc = g.N + g.ldcPad;
    std::vector<float> A = randomValues(size_t(g.M) * g.K, seed++);
    std::vector<float> B = randomValues(size_t(g.K) * g.N, seed++);
    std::vector<float> C0 = randomValues(size_t(g.M) * ldc, seed++);
    std::vector<float> kernel = C0, emulated = C0;
    bool ran = oneDnnGemmBf16(g.tA, g.tB, g.M, g.N, g.K, g.alpha, A.data(), lda, B.data(), ldb,
                              g.beta, kernel.data(), ldc);
    ASSERT_TRUE(ran) << "oneDNN refused a bf16 " << g.M << "x" << g.N << "x" << g.K;
    emulatedGemmBf16(g.tA, g.tB, g.M, g.N, g.K, g.alpha, A.data(), lda, B.data(), ldb, g.beta,
                     emulated.data(), ldc);
    for (int m = 0; m < g.M; ++m)
      for (int n = 0; n < g.N; ++n) {
        double magnitude, exact;
        reference(g, A, B, m, n, magnitude, exact);
        double c0 = g.beta * C0[size_t(m) * ldc + n];
        double scale = std::fabs(g.alpha) * magnitude + std::fabs(c0);
        double order = 2 * (g.K + 2) * kU32 * scale; // +2: alpha and beta's terms
        double rounding = (2 * kU16 + kU16 * kU16) * std::fabs(g.alpha) * magnitude + order;
        size_t i = size_t(m) * ldc + n;
        EXPECT_NEAR(kernel[i], emulated[i], order) << g.M << "x" << g.N << "x" << g.K << " at "
                                                   << m << "," << n;
        EXPECT_NEAR(emulated[i], g.alpha * exact + c0, rounding) << m << "," << n;
      }
    for (int m = 0; m < g.M; ++m) // the padding of ldc is left alone
      for (int n = g.N; n < ldc; ++n)
        EXPECT_EQ(kernel[size_t(m) * ldc + n], C0[size_t(m) * ldc + n]);
  }
  EXPECT_NE(oneDnnGemmBf16Impls(), "");
  std::printf("bf16 path %s, oneDNN matmul: %s\n", bf16PathName(hostBf16Choice().path),
              oneDnnGemmBf16Impls().c_str());
}

TEST(Bf16Gemm, RoundingIsVisible) {
  // 1 + 2^-8 rounds to 1 in bf16: the product 1 x (1 + 2^-8) is 1, not the
  // f32 value, on every path.
  float a = 1.0f, b = fromBits(0x3F808000), c = 0, e = 0;
  modelrt_gemm_bf16(101, 111, 111, 1, 1, 1, 1.0f, &a, 1, &b, 1, 0.0f, &c, 1);
  emulatedGemmBf16(false, false, 1, 1, 1, 1.0f, &a, 1, &b, 1, 0.0f, &e, 1);
  EXPECT_EQ(c, 1.0f);
  EXPECT_EQ(e, 1.0f);
}

/// The f32 convolution of \p kind on the public functions.
void convF32(int kind, const int64_t *s, const float *a, const float *b, float *out) {
  auto f = kind == 0 ? modelrt_conv2d_forward
                     : kind == 1 ? modelrt_conv2d_backward_data : modelrt_conv2d_backward_weights;
  f(a, b, out, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12],
    s[13], s[14]);
}

/// The bf16 convolution of \p kind on the public functions.
void convBf16(int kind, const int64_t *s, const float *a, const float *b, float *out) {
  auto f = kind == 0   ? modelrt_conv2d_forward_bf16
           : kind == 1 ? modelrt_conv2d_backward_data_bf16
                       : modelrt_conv2d_backward_weights_bf16;
  f(a, b, out, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12],
    s[13], s[14]);
}

TEST(Bf16Conv, KernelsMatchTheEmulation) {
  ASSERT_TRUE(useBlasLibrary(BlasLibrary::OneDnn).isOk());
  // N C H W O KH KW OH OW strides pads dilations: a 3x3 padded layer and a
  // strided 5x5 one.
  const int64_t shapes[2][15] = {{4, 8, 12, 12, 16, 3, 3, 12, 12, 1, 1, 1, 1, 1, 1},
                                 {2, 3, 13, 9, 5, 5, 5, 5, 3, 2, 2, 1, 1, 1, 1}};
  for (const int64_t *s : shapes) {
    int64_t image = s[0] * s[1] * s[2] * s[3], weights = s[4] * s[1] * s[5] * s[6],
            output = s[0] * s[4] * s[7] * s[8];
    for (int kind = 0; kind < 3; ++kind) {
      int64_t sizeA = kind == 1 ? output : image, sizeB = kind == 0 ? weights : kind == 1
                                                                        ? weights
                                                                        : output;
      int64_t sizeOut = kind == 0 ? output : kind == 1 ? image : weights;
      // The terms per element: C KH KW, O KH KW, N OH OW.
      int64_t terms = kind == 0 ? s[1] * s[5] * s[6] : kind == 1 ? s[4] * s[5] * s[6]
                                                               : s[0] * s[7] * s[8];
      std::vector<float> a = randomValues(size_t(sizeA), 10 + kind),
                         b = randomValues(size_t(sizeB), 20 + kind);
      std::vector<float> ra(a.size()), rb(b.size()), absA(a.size()), absB(b.size());
      roundThroughBf16(a.data(), ra.data(), sizeA);
      roundThroughBf16(b.data(), rb.data(), sizeB);
      for (size_t i = 0; i < a.size(); ++i)
        absA[i] = std::fabs(ra[i]);
      for (size_t i = 0; i < b.size(); ++i)
        absB[i] = std::fabs(rb[i]);
      std::vector<float> got(static_cast<size_t>(sizeOut)), emulated(got.size()),
          magnitude(got.size());
      convBf16(kind, s, a.data(), b.data(), got.data());
      convF32(kind, s, ra.data(), rb.data(), emulated.data());
      convF32(kind, s, absA.data(), absB.data(), magnitude.data());
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_NEAR(got[i], emulated[i], 2 * terms * kU32 * magnitude[i] * (1 + 4 * kU32))
            << "kind " << kind << " element " << i;
    }
  }
  // The bf16 convolutions ran on the host's path (oneDNN's bf16
  // primitives, or the emulation where the CPU has no bf16 instructions).
  std::string kernels = convolutionKernels();
  bool emulated = hostBf16Choice().path == Bf16Path::Emulated;
  EXPECT_NE(kernels.find(emulated ? "bf16 emulated" : "bf16 on "), std::string::npos) << kernels;
  std::printf("convolutions: %s\n", kernels.c_str());
}

// modelrt_conv2d_forward_bias_bf16: the bf16 convolution of the same
// operands plus the f32 bias (never rounded: 1 + 2^-10 would round to 1),
// within the forward kind's bound above with the bias as one more term
// (the kernel may add it before the products' last partial sums).
TEST(Bf16Conv, TheBiasStaysF32) {
  ASSERT_TRUE(useBlasLibrary(BlasLibrary::OneDnn).isOk());
  const int64_t s[15] = {4, 8, 12, 12, 16, 3, 3, 12, 12, 1, 1, 1, 1, 1, 1};
  int64_t image = s[0] * s[1] * s[2] * s[3], weights = s[4] * s[1] * s[5] * s[6],
          spatial = s[7] * s[8], output = s[0] * s[4] * spatial, terms = s[1] * s[5] * s[6] + 1;
  std::vector<float> x = randomValues(size_t(image), 31), w = randomValues(size_t(weights), 32);
  std::vector<float> bias(size_t(s[4]), 1.0f + 1.0f / 1024), rx(x.size()), rw(w.size());
  roundThroughBf16(x.data(), rx.data(), image);
  roundThroughBf16(w.data(), rw.data(), weights);
  std::vector<float> got(static_cast<size_t>(output)), plain(got.size()), magnitude(got.size());
  modelrt_conv2d_forward_bias_bf16(x.data(), w.data(), bias.data(), got.data(), s[0], s[1], s[2],
                                   s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12],
                                   s[13], s[14]);
  convBf16(0, s, x.data(), w.data(), plain.data());
  for (float &v : rx)
    v = std::fabs(v);
  for (float &v : rw)
    v = std::fabs(v);
  convF32(0, s, rx.data(), rw.data(), magnitude.data());
  for (size_t i = 0; i < got.size(); ++i) {
    float b = bias[size_t(int64_t(i) / spatial % s[4])];
    double bound = 2 * terms * kU32 * (magnitude[i] + b) * (1 + 4 * kU32);
    ASSERT_NEAR(got[i], plain[i] + b, bound) << "element " << i;
  }
}

} // namespace

// The copies info counts, on the MLP 784 -> 256 -> 10 at batch 128: the
// forward x W1 (128*784 + 784*256 elements) and h W2 (128*256 + 256*10),
// and a convolution's x (N*1*8*8 per sample) and weight (4*1*3*3); the
// emulation keeps the weights' rounded copies for the step
// (FrozenParameters.h), at most the parameters' elements.
TEST(Bf16Copies, OneDnnKeepsEveryProductsEmulationTheLargest) {
  ModelrtProductOperands p[3] = {{MODELRT_PRODUCT_MATMUL, {0, 200704}, {784, 0}},
                                 {MODELRT_PRODUCT_MATMUL, {0, 2560}, {256, 0}},
                                 {MODELRT_PRODUCT_CONV, {0, 36}, {64, 0}}};
  const double params = 1e9; // more than the fixed operands: no cap
  // oneDNN: 2 bytes x (100352 + 200704 + 32768 + 2560 + 8192 + 36) = 2 x 344612.
  EXPECT_EQ(bf16OperandCopyBytes(p, 3, 128, Bf16Path::Amx, params), 689224.0);
  EXPECT_EQ(bf16OperandCopyBytes(p, 3, 128, Bf16Path::Avx512Bf16, params), 689224.0);
  // Emulated: 4 bytes x (the largest batch-sized matmul operand 100352 and
  // the convolution's 8192, and the weights 200704 + 2560 + 36, kept for
  // the step) = 4 x 311844.
  EXPECT_EQ(bf16OperandCopyBytes(p, 3, 128, Bf16Path::Emulated, params), 1247376.0);
  // The weights' copies are at most the parameters: 4 x (108544 + 200000).
  EXPECT_EQ(bf16OperandCopyBytes(p, 3, 128, Bf16Path::Emulated, 200000), 1234176.0);
  // At batch 0 only the weights: 2 x (200704 + 2560 + 36); 4 x 203300.
  EXPECT_EQ(bf16OperandCopyBytes(p, 3, 0, Bf16Path::Amx, params), 406600.0);
  EXPECT_EQ(bf16OperandCopyBytes(p, 3, 0, Bf16Path::Emulated, params), 813200.0);
  EXPECT_EQ(bf16OperandCopyBytes(nullptr, 0, 128, Bf16Path::Amx, params), 0.0);
}
