//===- PoolTest.cpp - The pooling functions against the scan's definition -===//
//
// runtime/lib/core/PoolKernels.cpp at every level this CPU runs (baseline,
// AVX2, AVX-512), on one and on two threads, against float64 loops written
// here from Pool.h's definition: N 0, 1 and 3; C 1 and 5; inputs 1x1, 2x2,
// 7x5, 13x9, 14x14, 28x28, 35x67 (more than one vector of windows per row
// at every level), 6x8 and 9x16 (rows of 2x2 windows packed several to a
// vector, and not packed for an odd height); kernels 1x1, 2x2, 3x3 and 3x2;
// strides 1, 2 and 3; padding 0 and 1 where 2 pad <= kernel and the output
// is not empty; and a few shapes with other strides and padding across than
// down. The shapes take every path (2x2 / 2 per row and packed, 3x3 / 2
// padding 1, other tiling windows, general).
//
// Max pooling must give the reference's values bit for bit, on inputs with
// many ties (+0 and -0 among them), NaNs of distinct payloads, infinities
// and windows of -inf only; its gradient (integer dy, so that every sum is
// exact) must route dy to the reference's arg-maxes bit for bit. Average
// pooling must be within 1e-6 (1 + |ref|). Every level and thread count
// must give the bits of the baseline on one thread. Max pooling with codes
// must name the reference's arg-maxes and give the bits of the two max
// functions. Then the C functions (the host's level, one and two
// threads), and no images.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Pool.h"
#include "core/PoolKernels.h"
#include "modelrt/core/CpuFeatures.h"
#include "modelrt/core/Parallel.h"

#include <gtest/gtest.h>

#include <cmath>
#include <immintrin.h>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using namespace modelrt;

namespace {

/// The levels this CPU runs.
std::vector<CpuLevel> levels() {
  std::vector<CpuLevel> out = {CpuLevel::Baseline};
  CpuLevel top = supportedLevel(hostCpuFeatures());
  if (top >= CpuLevel::Avx2)
    out.push_back(CpuLevel::Avx2);
  if (top >= CpuLevel::Avx512)
    out.push_back(CpuLevel::Avx512);
  return out;
}

/// The output size for an input of \p in, or 0 when there is none.
int64_t outputSize(int64_t in, int64_t k, int64_t stride, int64_t pad) {
  int64_t span = in + 2 * pad - k;
  return span < 0 ? 0 : span / stride + 1;
}

/// The shape with (N, C), the input, the kernel, the stride and the padding.
PoolShape makeShape(int64_t n, int64_t c, const int64_t in[2], const int64_t k[2],
                    const int64_t stride[2], const int64_t pad[2]) {
  PoolShape s{n, c, in[0], in[1], 0, 0, k[0], k[1], stride[0], stride[1], pad[0], pad[1]};
  s.oh = outputSize(in[0], k[0], stride[0], pad[0]);
  s.ow = outputSize(in[1], k[1], stride[1], pad[1]);
  return s;
}

/// Whether the shape is one the functions take: 2 pad <= kernel, an output.
bool valid(const PoolShape &s) {
  return 2 * s.padH <= s.kh && 2 * s.padW <= s.kw && s.oh >= 1 && s.ow >= 1;
}

/// The grid of the file's comment, then the shapes with other strides and
/// padding across than down.
std::vector<PoolShape> testShapes() {
  const int64_t inputs[9][2] = {{1, 1},   {2, 2},   {7, 5}, {13, 9}, {14, 14},
                                {28, 28}, {35, 67}, {6, 8}, {9, 16}};
  const int64_t kernels[4][2] = {{1, 1}, {2, 2}, {3, 3}, {3, 2}};
  std::vector<PoolShape> shapes;
  for (int64_t n : {0, 1, 3})
    for (int64_t c : {1, 5})
      for (const auto &in : inputs)
        for (const auto &k : kernels)
          for (int64_t st : {1, 2, 3})
            for (int64_t p : {0, 1}) {
              const int64_t stride[2] = {st, st}, pad[2] = {p, p};
              PoolShape s = makeShape(n, c, in, k, stride, pad);
              if (valid(s))
                shapes.push_back(s);
            }
  const int64_t across[][6] = {// KH KW, stride H W, padding H W
                               {3, 2, 3, 2, 0, 0}, {2, 3, 2, 3, 0, 0}, {3, 2, 2, 1, 1, 0},
                               {2, 2, 1, 2, 1, 0}, {3, 3, 2, 3, 1, 0}, {3, 3, 1, 2, 0, 1}};
  for (const auto &a : across)
    for (const auto &in : {inputs[3], inputs[5], inputs[6]}) {
      PoolShape s = makeShape(3, 5, in, a, a + 2, a + 4);
      if (valid(s))
        shapes.push_back(s);
    }
  return shapes;
}

/// PoolKind's names, in its order.
const char *kKindNames[] = {"max forward", "max backward", "avg forward", "avg backward"};

/// "max forward N3 C5 13x9 k3x3 stride 2,2 pad 1,1".
std::string describe(PoolKind kind, const PoolShape &s) {
  std::ostringstream o;
  o << kKindNames[int(kind)] << " N" << s.n << " C" << s.c << " " << s.h << "x" << s.w << " k"
    << s.kh << "x" << s.kw << " stride " << s.strideH << "," << s.strideW << " pad " << s.padH
    << "," << s.padW;
  return o.str();
}

/// The kinds of input values.
enum class Values { Smooth, Ties, Special, MostlyNegInf };

/// A hash of \p i, for patterns without a period.
uint32_t mix(uint64_t i) {
  i = (i ^ (i >> 31)) * 0x9e3779b97f4a7c15ull;
  return uint32_t((i ^ (i >> 29)) >> 16);
}

/// A quiet NaN whose payload is \p i's low bits.
float nanWithPayload(uint64_t i) {
  uint32_t bits = 0x7fc00000u | uint32_t(i & 0x3fffff);
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

/// Element \p i of an input of \p kind.
float valueAt(Values kind, uint64_t i) {
  const float inf = std::numeric_limits<float>::infinity();
  uint32_t h = mix(i);
  switch (kind) {
  case Values::Smooth:
    return std::sin(0.37f * float(i) + 1.0f) * 0.5f;
  case Values::Ties: { // mostly zeros of both signs, a few +-0.5
    const float set[7] = {0.0f, -0.0f, 0.0f, -0.0f, 0.5f, 0.5f, -0.5f};
    return set[h % 7];
  }
  case Values::Special:
    if (h % 7 == 0)
      return nanWithPayload(i);
    if (h % 11 == 0)
      return h % 2 ? inf : -inf;
    return h % 5 == 0 ? -0.0f : float(int(h % 9) - 4) * 0.25f;
  case Values::MostlyNegInf:
    return h % 6 == 0 ? float(h % 3) : -inf;
  }
  return 0.0f;
}

/// \p count elements of \p kind, from an offset that \p salt sets.
std::vector<float> values(Values kind, size_t count, uint64_t salt) {
  std::vector<float> v(count);
  for (size_t i = 0; i < count; ++i)
    v[i] = valueAt(kind, i + salt * 1000003);
  return v;
}

/// dy for the max gradient: plane p's window (oh, ow) carries 2^(3 (oh%3) +
/// ow%3) + 1024 p, so every sum is exact and names the windows it adds.
std::vector<float> integerDy(const PoolShape &s) {
  std::vector<float> dy(size_t(s.n * s.c * s.oh * s.ow));
  for (int64_t p = 0; p < s.n * s.c; ++p)
    for (int64_t oh = 0; oh < s.oh; ++oh)
      for (int64_t ow = 0; ow < s.ow; ++ow)
        dy[size_t((p * s.oh + oh) * s.ow + ow)] =
            float((1 << (3 * (oh % 3) + ow % 3)) + 1024 * p) * (p % 2 ? -1.0f : 1.0f);
  return dy;
}

/// The real positions (row * W + column) of window (oh, ow), row-major.
std::vector<int64_t> windowPositions(const PoolShape &s, int64_t oh, int64_t ow) {
  std::vector<int64_t> at;
  for (int64_t i = 0; i < s.kh; ++i)
    for (int64_t j = 0; j < s.kw; ++j) {
      int64_t r = oh * s.strideH - s.padH + i, c = ow * s.strideW - s.padW + j;
      if (r >= 0 && r < s.h && c >= 0 && c < s.w)
        at.push_back(r * s.w + c);
    }
  return at;
}

/// The definition's arg-max: the scan from the window's first real element,
/// taking v when v > m or v is NaN (compared as float64).
int64_t referenceArgMax(const PoolShape &s, const float *plane, int64_t oh, int64_t ow) {
  std::vector<int64_t> at = windowPositions(s, oh, ow);
  int64_t best = at.at(0);
  double m = plane[best];
  for (int64_t p : at) {
    double v = plane[p];
    if (v > m || v != v) {
      m = v;
      best = p;
    }
  }
  return best;
}

/// The reference output of \p kind over all planes; \p a and \p b as
/// PoolPlanesFn takes them.
std::vector<double> reference(PoolKind kind, const PoolShape &s, const std::vector<float> &a,
                              const std::vector<float> &b) {
  int64_t in = s.h * s.w, out = s.oh * s.ow;
  bool forward = kind == PoolKind::MaxForward || kind == PoolKind::AvgForward;
  std::vector<double> r(size_t(s.n * s.c * (forward ? out : in)), 0.0);
  double area = double(s.kh * s.kw);
  for (int64_t p = 0; p < s.n * s.c; ++p)
    for (int64_t oh = 0; oh < s.oh; ++oh)
      for (int64_t ow = 0; ow < s.ow; ++ow) {
        size_t o = size_t(p * out + oh * s.ow + ow);
        const float *x = (kind == PoolKind::MaxBackward ? b : a).data() + p * in;
        double *plane = r.data() + p * in;
        switch (kind) {
        case PoolKind::MaxForward:
          r[o] = x[referenceArgMax(s, x, oh, ow)];
          break;
        case PoolKind::MaxBackward:
          plane[referenceArgMax(s, x, oh, ow)] += a[o];
          break;
        case PoolKind::AvgForward:
          for (int64_t at : windowPositions(s, oh, ow))
            r[o] += x[at];
          r[o] /= area;
          break;
        case PoolKind::AvgBackward:
          for (int64_t at : windowPositions(s, oh, ow))
            plane[at] += double(a[o]) / area;
          break;
        }
      }
  return r;
}

/// Runs \p kind at \p level on \p threads threads; the output starts as NaN.
std::vector<float> run(CpuLevel level, int threads, PoolKind kind, const PoolShape &s,
                       const std::vector<float> &a, const std::vector<float> &b) {
  bool forward = kind == PoolKind::MaxForward || kind == PoolKind::AvgForward;
  std::vector<float> out(size_t(s.n * s.c * (forward ? s.oh * s.ow : s.h * s.w)),
                         std::numeric_limits<float>::quiet_NaN());
  runPool(level, threads, kind, s, a.data(), b.empty() ? nullptr : b.data(), out.data());
  return out;
}

/// The bits of \p f.
uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

/// Max pooling: the bits of the reference (whose values are floats: the
/// forward's copies, the gradient's exact sums). Average: within 1e-6 (1 + |ref|).
::testing::AssertionResult matches(PoolKind kind, const std::vector<float> &got,
                                   const std::vector<double> &want) {
  bool exact = kind == PoolKind::MaxForward || kind == PoolKind::MaxBackward;
  for (size_t i = 0; i < got.size(); ++i) {
    bool ok = exact ? bitsOf(got[i]) == bitsOf(float(want[i]))
                    : std::fabs(double(got[i]) - want[i]) <= 1e-6 * (1 + std::fabs(want[i]));
    if (!ok)
      return ::testing::AssertionFailure()
             << "element " << i << ": " << got[i] << " (bits " << std::hex << bitsOf(got[i])
             << "), want " << want[i] << " (bits " << bitsOf(float(want[i])) << ")";
  }
  return ::testing::AssertionSuccess();
}

/// Whether \p a and \p b hold the same bits.
bool sameBits(const std::vector<float> &a, const std::vector<float> &b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

/// Checks \p kind on \p s with inputs \p a, \p b at every level and thread
/// count against the reference and against the baseline's bits.
void checkEverywhere(PoolKind kind, const PoolShape &s, const std::vector<float> &a,
                     const std::vector<float> &b, const char *inputs) {
  std::vector<double> want = reference(kind, s, a, b);
  std::vector<float> first = run(CpuLevel::Baseline, 1, kind, s, a, b);
  for (CpuLevel level : levels())
    for (int threads : {1, 2}) {
      std::vector<float> got = run(level, threads, kind, s, a, b);
      ASSERT_TRUE(matches(kind, got, want))
          << describe(kind, s) << ", " << inputs << " inputs, " << cpuLevelName(level) << ", "
          << threads << " thread(s)";
      ASSERT_TRUE(sameBits(got, first))
          << describe(kind, s) << ", " << inputs << " inputs: " << cpuLevelName(level) << " on "
          << threads << " thread(s) differs from the baseline on one";
    }
}

/// The C function of \p kind.
void runPublic(PoolKind kind, const PoolShape &s, const float *a, const float *b, float *out) {
  switch (kind) {
  case PoolKind::MaxForward:
    modelrt_max_pool2d_forward(a, out, s.n, s.c, s.h, s.w, s.oh, s.ow, s.kh, s.kw, s.strideH,
                               s.strideW, s.padH, s.padW);
    break;
  case PoolKind::MaxBackward:
    modelrt_max_pool2d_backward(a, b, out, s.n, s.c, s.h, s.w, s.oh, s.ow, s.kh, s.kw, s.strideH,
                                s.strideW, s.padH, s.padW);
    break;
  case PoolKind::AvgForward:
    modelrt_avg_pool2d_forward(a, out, s.n, s.c, s.h, s.w, s.oh, s.ow, s.kh, s.kw, s.strideH,
                               s.strideW, s.padH, s.padW);
    break;
  case PoolKind::AvgBackward:
    modelrt_avg_pool2d_backward(a, out, s.n, s.c, s.h, s.w, s.oh, s.ow, s.kh, s.kw, s.strideH,
                                s.strideW, s.padH, s.padW);
    break;
  }
}

/// The elements of x (and dx), and of y (and dy).
size_t inputSize(const PoolShape &s) { return size_t(s.n * s.c * s.h * s.w); }
size_t outputCount(const PoolShape &s) { return size_t(s.n * s.c * s.oh * s.ow); }

/// Max pooling with codes at \p level on \p threads threads: y and the
/// codes from x, then dx from \p dy and those codes (outputs start as NaN,
/// codes as 255).
struct CodesRun {
  std::vector<float> y, dx;
  std::vector<uint8_t> codes;
};
CodesRun runCodes(CpuLevel level, int threads, const PoolShape &s, const std::vector<float> &x,
                  const std::vector<float> &dy) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CodesRun r{std::vector<float>(size_t(s.n * s.c * s.oh * s.ow), nan),
             std::vector<float>(x.size(), nan), std::vector<uint8_t>(dy.size(), 255)};
  runPoolCodes(level, threads, false, s, x.data(), r.codes.data(), r.y.data());
  runPoolCodes(level, threads, true, s, dy.data(), r.codes.data(), r.dx.data());
  return r;
}

/// Whether each code names the reference's arg-max of its window.
::testing::AssertionResult codesAreArgMaxes(const PoolShape &s, const std::vector<float> &x,
                                            const std::vector<uint8_t> &codes) {
  for (int64_t p = 0; p < s.n * s.c; ++p)
    for (int64_t oh = 0; oh < s.oh; ++oh)
      for (int64_t ow = 0; ow < s.ow; ++ow) {
        int64_t code = codes[size_t((p * s.oh + oh) * s.ow + ow)];
        int64_t r = oh * s.strideH - s.padH + code / s.kw;
        int64_t c = ow * s.strideW - s.padW + code % s.kw;
        int64_t want = referenceArgMax(s, x.data() + p * s.h * s.w, oh, ow);
        if (code >= s.kh * s.kw || r * s.w + c != want)
          return ::testing::AssertionFailure() << "plane " << p << " window (" << oh << ", " << ow
                                               << "): code " << code << ", want position " << want;
      }
  return ::testing::AssertionSuccess();
}

/// The inputs max pooling is checked on, and their names.
const std::pair<Values, const char *> kMaxInputs[] = {{Values::Smooth, "smooth"},
                                                      {Values::Ties, "tied"},
                                                      {Values::Special, "NaN/inf"},
                                                      {Values::MostlyNegInf, "mostly -inf"}};

} // namespace

TEST(Pool, GridHasEveryPath) {
  std::vector<PoolShape> shapes = testShapes();
  EXPECT_GT(shapes.size(), 600u);
  int tiled2x2 = 0, packed = 0, window3 = 0, tiled = 0;
  for (const PoolShape &s : shapes) {
    bool tiles = s.kh == s.strideH && s.kw == s.strideW && s.padH == 0 && s.padW == 0;
    bool even = s.h % 2 == 0 && s.w % 2 == 0;
    tiled2x2 += tiles && s.kh == 2 && s.kw == 2 && (!even || s.ow > 8);
    packed += tiles && s.kh == 2 && s.kw == 2 && even && s.ow <= 8; // at AVX-512
    tiled += tiles && !(s.kh == 2 && s.kw == 2);
    window3 +=
        s.kh == 3 && s.kw == 3 && s.strideH == 2 && s.strideW == 2 && s.padH == 1 && s.padW == 1;
  }
  EXPECT_GT(tiled2x2, 20);
  EXPECT_GT(packed, 10);
  EXPECT_GT(window3, 20);
  EXPECT_GT(tiled, 20);
}

TEST(Pool, MaxForwardIsTheScanAtEveryLevel) {
  for (const PoolShape &s : testShapes())
    for (const auto &[kind, name] : kMaxInputs) {
      checkEverywhere(PoolKind::MaxForward, s, values(kind, inputSize(s), 1), {}, name);
      if (HasFatalFailure())
        return;
    }
}

TEST(Pool, MaxBackwardRoutesToTheScansArgMax) {
  for (const PoolShape &s : testShapes())
    for (const auto &[kind, name] : kMaxInputs) {
      checkEverywhere(PoolKind::MaxBackward, s, integerDy(s), values(kind, inputSize(s), 2), name);
      if (HasFatalFailure())
        return;
    }
}

// Max pooling with codes: every code names the scan's arg-max, y has the
// bits of MaxForward and dx (from the codes alone) those of MaxBackward on
// the same x, at every level and thread count.
TEST(Pool, CodesGiveTheBitsOfTheScan) {
  for (const PoolShape &s : testShapes())
    for (const auto &[kind, name] : kMaxInputs) {
      std::vector<float> x = values(kind, inputSize(s), 8), dy = integerDy(s);
      std::vector<float> y = run(CpuLevel::Baseline, 1, PoolKind::MaxForward, s, x, {});
      std::vector<float> dx = run(CpuLevel::Baseline, 1, PoolKind::MaxBackward, s, dy, x);
      for (CpuLevel level : levels())
        for (int threads : {1, 2}) {
          CodesRun got = runCodes(level, threads, s, x, dy);
          std::string where = describe(PoolKind::MaxForward, s) + ", " + name + " inputs, " +
                              cpuLevelName(level) + ", " + std::to_string(threads) + " thread(s)";
          ASSERT_TRUE(codesAreArgMaxes(s, x, got.codes)) << where;
          ASSERT_TRUE(sameBits(got.y, y)) << where << ": y differs from MaxForward's";
          ASSERT_TRUE(sameBits(got.dx, dx)) << where << ": dx differs from MaxBackward's";
        }
    }
}

/// x [N,C,H,W] in oneDNN's nChw16c layout: ceil(C/16) blocks of H x W
/// pixels of 16 channels per image, channels past C filled with \p pad.
std::vector<float> toBlocked16(const PoolShape &s, const std::vector<float> &x, float pad) {
  int64_t blocks = (s.c + 15) / 16, plane = s.h * s.w;
  std::vector<float> out(size_t(s.n * blocks * plane * 16), pad);
  for (int64_t n = 0; n < s.n; ++n)
    for (int64_t c = 0; c < s.c; ++c)
      for (int64_t i = 0; i < plane; ++i)
        out[size_t(((n * blocks + c / 16) * plane + i) * 16 + c % 16)] =
            x[size_t((n * s.c + c) * plane + i)];
  return out;
}

// 2x2 / 2 max pooling from 16-channel blocks (a convolution's result in
// oneDNN's layout): y and codes are the bits of the NCHW codes' loops, at
// every level, on one and two threads, with and without codes, for channel
// counts below, at and past a block (the padding channels, NaN here, are
// never read into y) and odd sizes whose last row and column no window
// covers.
/// Calls \p check with each 2x2 / 2 case of the blocked tests (3 images;
/// channel counts below, at and past a block; even, odd and wide sizes;
/// each kind of max inputs, of which \p check gets x), until a check fails
/// fatally.
void forEachBlockedCase(
    const std::function<void(const PoolShape &, const char *, const std::vector<float> &)> &check) {
  const int64_t inputs[][2] = {{2, 2}, {7, 5}, {14, 14}, {28, 28}, {9, 300}};
  const int64_t k2[2] = {2, 2}, s2[2] = {2, 2}, p0[2] = {0, 0};
  for (int64_t c : {1, 5, 16, 17, 40})
    for (const auto &in : inputs)
      for (const auto &[kind, name] : kMaxInputs) {
        PoolShape s = makeShape(3, c, in, k2, s2, p0);
        check(s, name, values(kind, inputSize(s), 11));
        if (::testing::Test::HasFatalFailure())
          return;
      }
}

TEST(Pool, Blocked16GivesTheBitsOfTheNchwLoops) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  forEachBlockedCase([&](const PoolShape &s, const char *name, const std::vector<float> &x) {
    CodesRun want = runCodes(CpuLevel::Baseline, 1, s, x, integerDy(s));
    std::vector<float> blocked = toBlocked16(s, x, nan);
    for (CpuLevel level : levels())
      for (int threads : {1, 2})
        for (bool withCodes : {true, false}) {
          std::vector<float> y(want.y.size(), -1.0f);
          std::vector<uint8_t> codes(want.codes.size(), 255);
          runPoolBlocked16(level, threads, s, blocked.data(), y.data(),
                           withCodes ? codes.data() : nullptr);
          std::string where = describe(PoolKind::MaxForward, s) + ", " + name + " inputs, " +
                              cpuLevelName(level) + ", " + std::to_string(threads) +
                              " thread(s)" + (withCodes ? ", codes" : "");
          ASSERT_TRUE(sameBits(y, want.y)) << where;
          if (withCodes)
            ASSERT_EQ(codes, want.codes) << where;
          else
            ASSERT_EQ(codes, std::vector<uint8_t>(codes.size(), 255)) << where;
        }
  });
}

// The gradient of a 2x2 / 2 max pooling from its codes into 16-channel
// blocks (a convolution's dy in oneDNN's layout): the bits of the NCHW
// codes' loops in that layout (a -0 in dy becomes +0, a NaN keeps its
// payload), zeros in the padding channels and in the last row and column
// where no window covers them, at every level, on one and two threads.
TEST(Pool, Blocked16GradGivesTheBitsOfTheNchwLoops) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  forEachBlockedCase([&](const PoolShape &s, const char *name, const std::vector<float> &x) {
    std::vector<float> dy = integerDy(s);
    for (size_t i = 0; i < dy.size(); ++i)
      if (i % 7 == 3 || i % 13 == 5)
        dy[i] = i % 7 == 3 ? -0.0f : -nan;
    CodesRun want = runCodes(CpuLevel::Baseline, 1, s, x, dy);
    std::vector<float> blocked = toBlocked16(s, want.dx, 0.0f);
    for (CpuLevel level : levels())
      for (int threads : {1, 2}) {
        std::vector<float> got(blocked.size(), nan);
        runPoolBlocked16Grad(level, threads, s, dy.data(), want.codes.data(), got.data());
        ASSERT_TRUE(sameBits(got, blocked))
            << describe(PoolKind::MaxBackward, s) << ", " << name << " inputs, "
            << cpuLevelName(level) << ", " << threads << " thread(s)";
      }
  });
}

/// The bf16 bits of \p v as vcvtneps2bf16 writes them, from the Intel SDM's
/// pseudo-code: zeros and subnormals to a zero of their sign, a NaN made
/// quiet, anything else to nearest, ties to even.
uint16_t vcvtneps2bf16(float v) {
  uint32_t u;
  std::memcpy(&u, &v, sizeof u);
  if ((u & 0x7f800000u) == 0)
    return uint16_t((u >> 16) & 0x8000u);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((u >> 16) | 0x40u);
  return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

/// vcvtneps2bf16 itself, on 16 values (a host with avx512_bf16 only).
__attribute__((target("avx512f,avx512bf16"))) void convertByTheInstruction(const float *in,
                                                                           uint16_t *out) {
  __m256bh b = _mm512_cvtneps_pbh(_mm512_loadu_ps(in));
  std::memcpy(out, &b, 32);
}

// The model above against the instruction, where the host has it: zeros,
// subnormals, ties, infinities, NaNs and the values around them.
TEST(Pool, Vcvtneps2bf16ModelIsTheInstruction) {
  if (!hostCpuFeatures().avx512bf16)
    GTEST_SKIP() << "this host has no vcvtneps2bf16";
  const uint32_t bits[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x00800000u,
                           0x3f808000u, 0x3f818000u, 0x3f80ffffu, 0x7f7fffffu, 0xff7f8000u,
                           0x7f800000u, 0xff800000u, 0x7f800001u, 0xffc00000u, 0x7fbfffffu,
                           0x3c003fffu};
  for (uint32_t salt = 0; salt < 64; ++salt) {
    float in[16];
    uint16_t want[16], got[16];
    for (int i = 0; i < 16; ++i) {
      uint32_t u = salt ? bits[i] ^ (salt * 0x9e3779b9u >> (i % 9)) : bits[i];
      std::memcpy(&in[i], &u, 4);
      want[i] = vcvtneps2bf16(in[i]);
    }
    convertByTheInstruction(in, got);
    for (int i = 0; i < 16; ++i)
      ASSERT_EQ(got[i], want[i]) << "input bits " << std::hex << bits[i] << " salt " << salt;
  }
}

// The same into bf16 blocks (the AVX-512 build only): the f32 blocks above
// rounded as vcvtneps2bf16 rounds them, with subnormals, a tie, values that
// round up and to infinity among the gradients.
TEST(Pool, Blocked16GradBf16RoundsTheBlocksAsVcvtneps2bf16) {
  PoolBlockedGradBf16Fn grad = poolBuildFor(CpuLevel::Avx512).blockedGradBf16;
  if (!grad || hostKernels().level != CpuLevel::Avx512)
    GTEST_SKIP() << "the bf16 blocks are written by the AVX-512 build only";
  const float cases[] = {1e-40f, -2e-39f, 1.00390625f, 1.0117188f, -3.3e38f, 3.4e38f, -0.0f,
                         -std::numeric_limits<float>::quiet_NaN()};
  forEachBlockedCase([&](const PoolShape &s, const char *name, const std::vector<float> &x) {
    std::vector<float> dy = integerDy(s);
    for (size_t i = 0; i < dy.size(); ++i)
      if (i % 5 == 2)
        dy[i] = cases[(i / 5) % (sizeof cases / sizeof(float))];
    CodesRun want = runCodes(CpuLevel::Baseline, 1, s, x, dy);
    std::vector<float> blocked = toBlocked16(s, want.dx, 0.0f);
    std::vector<uint16_t> expected(blocked.size()), got(blocked.size(), 0xffff);
    for (size_t i = 0; i < blocked.size(); ++i)
      expected[i] = vcvtneps2bf16(blocked[i]);
    grad(s, dy.data(), want.codes.data(), got.data(), 0, s.n * ((s.c + 15) / 16));
    ASSERT_EQ(got, expected) << describe(PoolKind::MaxBackward, s) << ", " << name << " inputs";
  });
}

TEST(Pool, AvgForwardMatchesFloat64) {
  for (const PoolShape &s : testShapes())
    for (Values kind : {Values::Smooth, Values::Ties}) {
      checkEverywhere(PoolKind::AvgForward, s, values(kind, inputSize(s), 3), {}, "finite");
      if (HasFatalFailure())
        return;
    }
}

TEST(Pool, AvgBackwardMatchesFloat64) {
  for (const PoolShape &s : testShapes()) {
    checkEverywhere(PoolKind::AvgBackward, s, values(Values::Smooth, outputCount(s), 4), {},
                    "smooth");
    if (HasFatalFailure())
      return;
  }
}

// The C functions: the host's level, on two threads from kParallelLoopWork
// elements on (the 8 x 16 x 56 x 56 shapes), with the bits of one thread.
TEST(Pool, CFunctionsGiveTheBitsOfOneThread) {
  const int64_t in[2] = {56, 56}, k2[2] = {2, 2}, k3[2] = {3, 3}, s2[2] = {2, 2}, p0[2] = {0, 0},
                p1[2] = {1, 1}, small[2] = {13, 9};
  const PoolShape big = makeShape(8, 16, in, k2, s2, p0),
                  little = makeShape(1, 5, small, k3, s2, p0);
  EXPECT_GE(poolWork(PoolKind::MaxForward, big), kParallelLoopWork);
  EXPECT_LT(poolWork(PoolKind::MaxBackward, little), kParallelLoopWork);
  for (const PoolShape &s : {big, makeShape(8, 16, in, k3, s2, p1), little})
    for (PoolKind kind : {PoolKind::MaxForward, PoolKind::MaxBackward, PoolKind::AvgForward,
                          PoolKind::AvgBackward}) {
      bool forward = kind == PoolKind::MaxForward || kind == PoolKind::AvgForward;
      std::vector<float> a = forward ? values(Values::Special, inputSize(s), 5)
                                     : values(Values::Smooth, outputCount(s), 6);
      std::vector<float> b;
      if (kind == PoolKind::MaxBackward)
        b = values(Values::Special, inputSize(s), 7);
      std::vector<float> got(forward ? outputCount(s) : inputSize(s),
                             std::numeric_limits<float>::quiet_NaN());
      runPublic(kind, s, a.data(), b.empty() ? nullptr : b.data(), got.data());
      std::vector<float> one = run(hostKernels().level, 1, kind, s, a, b);
      EXPECT_TRUE(sameBits(one, got)) << describe(kind, s);
    }
}

// The C functions with codes: the host's level, one and two threads (the
// 8 x 16 x 56 x 56 shape), the bits of one thread.
TEST(Pool, CodesCFunctionsGiveTheBitsOfOneThread) {
  const int64_t in[2] = {56, 56}, k2[2] = {2, 2}, k3[2] = {3, 3}, s2[2] = {2, 2}, p0[2] = {0, 0},
                p1[2] = {1, 1};
  for (const PoolShape &s : {makeShape(8, 16, in, k2, s2, p0), makeShape(8, 16, in, k3, s2, p1)}) {
    std::vector<float> x = values(Values::Special, inputSize(s), 9);
    std::vector<float> dy = values(Values::Smooth, outputCount(s), 10);
    std::vector<float> y(outputCount(s)), dx(inputSize(s));
    std::vector<uint8_t> codes(outputCount(s));
    modelrt_max_pool2d_forward_codes(x.data(), y.data(), codes.data(), s.n, s.c, s.h, s.w, s.oh,
                                     s.ow, s.kh, s.kw, s.strideH, s.strideW, s.padH, s.padW);
    modelrt_max_pool2d_backward_codes(dy.data(), codes.data(), dx.data(), s.n, s.c, s.h, s.w, s.oh,
                                      s.ow, s.kh, s.kw, s.strideH, s.strideW, s.padH, s.padW);
    CodesRun one = runCodes(hostKernels().level, 1, s, x, dy);
    EXPECT_TRUE(sameBits(one.y, y)) << describe(PoolKind::MaxForward, s);
    EXPECT_EQ(one.codes, codes) << describe(PoolKind::MaxForward, s);
    EXPECT_TRUE(sameBits(one.dx, dx)) << describe(PoolKind::MaxBackward, s);
  }
}

// Without images nothing is read or written.
TEST(Pool, NoImagesWritesNothing) {
  float sentinel = 7.0f;
  modelrt_max_pool2d_forward(nullptr, &sentinel, 0, 3, 4, 4, 2, 2, 2, 2, 2, 2, 0, 0);
  modelrt_max_pool2d_backward(nullptr, nullptr, &sentinel, 0, 3, 4, 4, 2, 2, 2, 2, 2, 2, 0, 0);
  modelrt_avg_pool2d_forward(nullptr, &sentinel, 0, 3, 4, 4, 2, 2, 3, 3, 2, 2, 1, 1);
  modelrt_avg_pool2d_backward(nullptr, &sentinel, 0, 3, 4, 4, 2, 2, 3, 3, 2, 2, 1, 1);
  uint8_t code = 7;
  modelrt_max_pool2d_forward_codes(nullptr, &sentinel, &code, 0, 3, 4, 4, 2, 2, 2, 2, 2, 2, 0, 0);
  modelrt_max_pool2d_backward_codes(nullptr, &code, &sentinel, 0, 3, 4, 4, 2, 2, 2, 2, 2, 2, 0, 0);
  EXPECT_EQ(sentinel, 7.0f);
  EXPECT_EQ(code, 7);
}
