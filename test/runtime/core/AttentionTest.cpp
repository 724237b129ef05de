//===- AttentionTest.cpp - Flash attention against its definition ---------===//
//
// runtime/lib/core/AttentionKernels.cpp at every level this CPU runs
// (scalar baseline, AVX2, AVX-512), on one and on two threads, against a
// float64 reference written here from Attention.h's definition (the whole
// score matrix, its softmax, the products): widths 1, 7, 16, 33 and 64;
// queries x keys 1x1, 5x5, 17x17, 64x64, 130x130, the decoding shapes 1x9
// and 3x8, 17x64 and 64x130 (several key blocks, partial blocks), and 5x3
// and 130x64 (fewer keys than queries: with the causal mask the first
// queries see no key and get zeros); causal and not; 2 x 3 (batch, head)s,
// more than the threads. Forward and backward must be within 2e-5 of the
// reference, relative to the element plus the tensor's root mean square
// (for the gradients, at least the largest of the three's).
//
// Then: the backward against central differences of the float64 forward's
// loss sum(out * R) for a fixed random R; two runs and one against two
// threads give the same bits at every level, after calls that left NaNs in
// the scratch; every level agrees with the
// baseline within the same tolerance; the C functions give the bits of
// their level on one thread; scores of magnitude 1e4 do not overflow;
// empty shapes (no keys, no queries, no width) write what they should; and
// the decoding step over caches is the causal forward at each position.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Attention.h"
#include "core/AttentionKernels.h"
#include "modelrt/core/CpuFeatures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using namespace modelrt;

namespace {

/// One call's sizes.
struct Shape {
  int64_t batch, heads, queries, keys, width;
  bool causal;
  int64_t heads2() const { return batch * heads; }
  size_t qSize() const { return size_t(heads2() * queries * width); }
  size_t kSize() const { return size_t(heads2() * keys * width); }
};

std::string describe(const Shape &s) {
  std::ostringstream os;
  os << s.batch << "x" << s.heads << " heads, " << s.queries << " queries x " << s.keys
     << " keys, width " << s.width << (s.causal ? ", causal" : "");
  return os.str();
}

/// q, k, v and the output's gradient dout.
struct Inputs {
  std::vector<float> q, k, v, dout;
};

/// Uniform values in [-scale, scale) from a fixed xorshift stream.
std::vector<float> randomValues(size_t n, uint64_t seed, float scale = 1.0f) {
  std::vector<float> out(n);
  uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
  for (float &f : out) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    f = scale * (float(x >> 40) / float(1 << 24) * 2.0f - 1.0f);
  }
  return out;
}

Inputs randomInputs(const Shape &s, uint64_t seed) {
  return {randomValues(s.qSize(), seed), randomValues(s.kSize(), seed + 1),
          randomValues(s.kSize(), seed + 2), randomValues(s.qSize(), seed + 3)};
}

std::vector<double> widen(const std::vector<float> &x) { return {x.begin(), x.end()}; }

/// The float64 reference's operands and results ([B*H, T, W] each).
struct Ref {
  std::vector<double> q, k, v, dout, out, dq, dk, dv;
};

/// Whether query i may see key j.
bool sees(const Shape &s, int64_t i, int64_t j) {
  return !s.causal || j <= i + (s.keys - s.queries);
}

/// Head \p h's softmax matrix P (queries x keys): rows of no key are zero.
std::vector<double> probabilities(const Shape &s, const Ref &r, int64_t h) {
  int64_t tq = s.queries, tk = s.keys, w = s.width;
  double scale = 1.0 / std::sqrt(double(w));
  std::vector<double> p(size_t(tq * tk), 0.0);
  for (int64_t i = 0; i < tq; ++i) {
    double m = -INFINITY, sum = 0;
    std::vector<double> row(size_t(tk), -INFINITY);
    for (int64_t j = 0; j < tk; ++j) {
      if (!sees(s, i, j))
        continue;
      double dot = 0;
      for (int64_t x = 0; x < w; ++x)
        dot += r.q[size_t((h * tq + i) * w + x)] * r.k[size_t((h * tk + j) * w + x)];
      row[size_t(j)] = scale * dot;
      m = std::max(m, row[size_t(j)]);
    }
    for (int64_t j = 0; j < tk; ++j)
      sum += row[size_t(j)] == -INFINITY ? 0.0 : std::exp(row[size_t(j)] - m);
    for (int64_t j = 0; j < tk; ++j)
      p[size_t(i * tk + j)] = row[size_t(j)] == -INFINITY ? 0.0 : std::exp(row[size_t(j)] - m) / sum;
  }
  return p;
}

/// out = P v for head \p h.
void forwardHead(const Shape &s, Ref &r, int64_t h, const std::vector<double> &p) {
  int64_t tq = s.queries, tk = s.keys, w = s.width;
  for (int64_t i = 0; i < tq; ++i)
    for (int64_t x = 0; x < w; ++x) {
      double sum = 0;
      for (int64_t j = 0; j < tk; ++j)
        sum += p[size_t(i * tk + j)] * r.v[size_t((h * tk + j) * w + x)];
      r.out[size_t((h * tq + i) * w + x)] = sum;
    }
}

/// dq, dk, dv of head \p h from P: dP = dout v^T, dS = P (dP - rowsum(P dP)).
void backwardHead(const Shape &s, Ref &r, int64_t h, const std::vector<double> &p) {
  int64_t tq = s.queries, tk = s.keys, w = s.width;
  double scale = 1.0 / std::sqrt(double(w));
  auto at = [&](int64_t t, int64_t rows, int64_t x) { return size_t((h * rows + t) * w + x); };
  for (int64_t i = 0; i < tq; ++i) {
    std::vector<double> dp(size_t(tk), 0.0);
    double d = 0;
    for (int64_t j = 0; j < tk; ++j) {
      for (int64_t x = 0; x < w; ++x)
        dp[size_t(j)] += r.dout[at(i, tq, x)] * r.v[at(j, tk, x)];
      d += p[size_t(i * tk + j)] * dp[size_t(j)];
    }
    for (int64_t j = 0; j < tk; ++j) {
      double pij = p[size_t(i * tk + j)], ds = pij * (dp[size_t(j)] - d);
      for (int64_t x = 0; x < w; ++x) {
        r.dq[at(i, tq, x)] += scale * ds * r.k[at(j, tk, x)];
        r.dk[at(j, tk, x)] += scale * ds * r.q[at(i, tq, x)];
        r.dv[at(j, tk, x)] += pij * r.dout[at(i, tq, x)];
      }
    }
  }
}

/// The reference's out, dq, dk and dv for operands already in \p r.
void computeReference(const Shape &s, Ref &r) {
  r.out.assign(s.qSize(), 0.0);
  r.dq.assign(s.qSize(), 0.0);
  r.dk.assign(s.kSize(), 0.0);
  r.dv.assign(s.kSize(), 0.0);
  for (int64_t h = 0; h < s.heads2(); ++h) {
    std::vector<double> p = probabilities(s, r, h);
    forwardHead(s, r, h, p);
    backwardHead(s, r, h, p);
  }
}

Ref reference(const Shape &s, const Inputs &in) {
  Ref r{widen(in.q), widen(in.k), widen(in.v), widen(in.dout), {}, {}, {}, {}};
  computeReference(s, r);
  return r;
}

AttentionArgs argsOf(const Shape &s, const Inputs &in, const float *out, float *dest) {
  return {s.batch,     s.heads,     s.queries,   s.keys, s.width,        s.causal, false,
          in.q.data(), in.k.data(), in.v.data(), out,    in.dout.data(), dest};
}

/// The forward at \p level on \p threads threads; the output starts as NaN.
std::vector<float> runForward(CpuLevel level, int threads, const Shape &s, const Inputs &in) {
  std::vector<float> out(s.qSize(), std::numeric_limits<float>::quiet_NaN());
  runAttention(level, threads, AttentionKind::Forward, argsOf(s, in, nullptr, out.data()));
  return out;
}

/// The backward (dq, dk, dv in one buffer) given the forward's \p out.
std::vector<float> runBackward(CpuLevel level, int threads, const Shape &s, const Inputs &in,
                               const std::vector<float> &out) {
  std::vector<float> dqkv(s.qSize() + 2 * s.kSize(), std::numeric_limits<float>::quiet_NaN());
  runAttention(level, threads, AttentionKind::Backward, argsOf(s, in, out.data(), dqkv.data()));
  return dqkv;
}

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

/// The root mean square of want[from, from + count).
template <typename T>
double rmsOf(const std::vector<T> &want, size_t from, size_t count) {
  double sum = 0;
  for (size_t i = 0; i < count; ++i)
    sum += double(want[from + i]) * double(want[from + i]);
  return count ? std::sqrt(sum / double(count)) : 0.0;
}

/// Every element of \p got within rtol (|want| + max(rms(want), floor)) of
/// \p want, elements [from, from + count) of both (want float or double).
template <typename T>
::testing::AssertionResult near(const std::vector<float> &got, const std::vector<T> &want,
                                size_t from, size_t count, const char *what,
                                double rtol = 2e-5, double floor = 0.0) {
  double scale = std::max(rmsOf(want, from, count), floor);
  for (size_t i = 0; i < count; ++i) {
    double g = got[from + i], w = double(want[from + i]);
    if (!(std::fabs(g - w) <= rtol * (std::fabs(w) + scale)))
      return ::testing::AssertionFailure()
             << what << " element " << i << ": " << g << ", want " << w << " (scale " << scale
             << ")";
  }
  return ::testing::AssertionSuccess();
}

/// dq, dk and dv of \p got against the reference's (or another run's),
/// each relative to at least the largest of the three's rms (a gradient
/// that is zero, such as dq for a single key, is compared with the scale of
/// the others).
template <typename T>
::testing::AssertionResult nearGrads(const Shape &s, const std::vector<float> &got,
                                     const std::vector<T> &dq, const std::vector<T> &dk,
                                     const std::vector<T> &dv, double rtol = 2e-5) {
  size_t q = s.qSize(), k = s.kSize();
  std::vector<float> gq(got.begin(), got.begin() + long(q)),
      gk(got.begin() + long(q), got.begin() + long(q + k)),
      gv(got.begin() + long(q + k), got.end());
  double floor = std::max({rmsOf(dq, 0, q), rmsOf(dk, 0, k), rmsOf(dv, 0, k)});
  ::testing::AssertionResult r = near(gq, dq, 0, q, "dq", rtol, floor);
  if (r)
    r = near(gk, dk, 0, k, "dk", rtol, floor);
  if (r)
    r = near(gv, dv, 0, k, "dv", rtol, floor);
  return r;
}

/// The shapes of the file's comment.
std::vector<Shape> testShapes() {
  const int64_t lengths[][2] = {{1, 1},  {5, 5},   {17, 17}, {64, 64}, {130, 130},
                                {1, 9},  {3, 8},   {17, 64}, {64, 130}, {5, 3}, {130, 64}};
  std::vector<Shape> shapes;
  for (int64_t w : {1, 7, 16, 33, 64})
    for (const auto &t : lengths)
      for (bool causal : {false, true})
        shapes.push_back({2, 3, t[0], t[1], w, causal});
  return shapes;
}

// Forward and backward against the float64 reference, at every level and
// on one and two threads.
TEST(Attention, MatchesTheReferenceAtEveryLevel) {
  uint64_t seed = 1;
  for (const Shape &s : testShapes()) {
    Inputs in = randomInputs(s, seed++);
    Ref want = reference(s, in);
    for (CpuLevel level : levels())
      for (int threads : {1, 2}) {
        std::vector<float> out = runForward(level, threads, s, in);
        ASSERT_TRUE(near(out, want.out, 0, s.qSize(), "out"))
            << describe(s) << ", " << cpuLevelName(level) << ", " << threads << " thread(s)";
        std::vector<float> grads = runBackward(level, threads, s, in, out);
        ASSERT_TRUE(nearGrads(s, grads, want.dq, want.dk, want.dv))
            << describe(s) << ", " << cpuLevelName(level) << ", " << threads << " thread(s)";
      }
  }
}

/// d sum(out * R) / d x for every element x of \p x (one of r's operands),
/// by central differences of the float64 forward.
std::vector<double> differences(const Shape &s, Ref &r, std::vector<double> &x,
                                const std::vector<double> &weights) {
  const double h = 1e-4;
  auto loss = [&] {
    computeReference(s, r);
    double sum = 0;
    for (size_t i = 0; i < r.out.size(); ++i)
      sum += r.out[i] * weights[i];
    return sum;
  };
  std::vector<double> grad(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    double keep = x[i];
    x[i] = keep + h;
    double up = loss();
    x[i] = keep - h;
    grad[i] = (up - loss()) / (2 * h);
    x[i] = keep;
  }
  return grad;
}

// The backward against central differences of sum(out * R) (dout = R).
TEST(Attention, BackwardMatchesFiniteDifferences) {
  const Shape shapes[] = {{1, 2, 4, 4, 3, false}, {1, 2, 4, 4, 3, true}, {1, 2, 3, 6, 5, true},
                          {2, 1, 5, 3, 4, true},  {1, 1, 1, 5, 2, false}};
  uint64_t seed = 100;
  for (const Shape &s : shapes) {
    Inputs in = randomInputs(s, seed++);
    Ref r = reference(s, in);
    std::vector<double> dq = differences(s, r, r.q, r.dout),
                        dk = differences(s, r, r.k, r.dout),
                        dv = differences(s, r, r.v, r.dout);
    for (CpuLevel level : levels()) {
      std::vector<float> out = runForward(level, 1, s, in);
      EXPECT_TRUE(nearGrads(s, runBackward(level, 1, s, in, out), dq, dk, dv))
          << describe(s) << ", " << cpuLevelName(level);
    }
  }
}

/// Whether \p a and \p b hold the same bits.
bool sameBits(const std::vector<float> &a, const std::vector<float> &b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

/// Leaves NaNs and infinities all over the scratch of width \p width: a
/// call on inputs of NaN, inf and huge values, on two threads.
void poisonScratch(CpuLevel level, int64_t width) {
  Shape s{2, 2, 150, 150, width, false};
  Inputs in = randomInputs(s, 3);
  for (std::vector<float> *x : {&in.q, &in.k, &in.v, &in.dout})
    for (size_t i = 0; i < x->size(); i += 3)
      (*x)[i] = i % 2 ? std::numeric_limits<float>::quiet_NaN() : (i % 5 ? 3e38f : -INFINITY);
  runBackward(level, 2, s, in, runForward(level, 2, s, in));
}

// Two runs, and one against two threads (several times: the threads take
// the items in varying order), give the same bits at every level, whatever
// a previous call left in the scratch.
TEST(Attention, SameBitsOnEveryRunAndThreadCount) {
  const Shape shapes[] = {{3, 3, 130, 130, 33, true}, {2, 4, 64, 200, 64, false},
                          {1, 3, 1, 9, 16, true},     {1, 1, 190, 190, 32, true},
                          {2, 2, 70, 30, 7, true}};
  for (const Shape &s : shapes) {
    Inputs in = randomInputs(s, 7);
    for (CpuLevel level : levels()) {
      std::vector<float> out = runForward(level, 1, s, in);
      std::vector<float> grads = runBackward(level, 1, s, in, out);
      for (int run = 0; run < 4; ++run) {
        poisonScratch(level, s.width);
        int threads = run ? 2 : 1;
        EXPECT_TRUE(sameBits(out, runForward(level, threads, s, in))) << describe(s);
        poisonScratch(level, s.width);
        EXPECT_TRUE(sameBits(grads, runBackward(level, threads, s, in, out))) << describe(s);
      }
    }
  }
}

// The vector levels agree with the scalar baseline within the tolerance.
TEST(Attention, EveryLevelAgreesWithTheBaseline) {
  const Shape shapes[] = {{2, 4, 128, 128, 32, true}, {2, 2, 100, 77, 64, false},
                          {1, 2, 3, 200, 48, true}};
  for (const Shape &s : shapes) {
    Inputs in = randomInputs(s, 11);
    std::vector<float> out = runForward(CpuLevel::Baseline, 1, s, in);
    std::vector<float> grads = runBackward(CpuLevel::Baseline, 1, s, in, out);
    size_t q = s.qSize(), k = s.kSize();
    std::vector<float> dq(grads.begin(), grads.begin() + long(q)),
        dk(grads.begin() + long(q), grads.begin() + long(q + k)),
        dv(grads.begin() + long(q + k), grads.end());
    for (CpuLevel level : levels()) {
      std::vector<float> got = runForward(level, 2, s, in);
      EXPECT_TRUE(near(got, out, 0, q, "out")) << describe(s) << ", " << cpuLevelName(level);
      EXPECT_TRUE(nearGrads(s, runBackward(level, 2, s, in, got), dq, dk, dv))
          << describe(s) << ", " << cpuLevelName(level);
    }
  }
}

// The C functions run the host's level, with its bits on one thread.
TEST(Attention, CFunctionsGiveTheBitsOfOneThread) {
  const Shape shapes[] = {{4, 4, 128, 128, 32, true}, {1, 2, 1, 9, 7, true}};
  for (const Shape &s : shapes) {
    Inputs in = randomInputs(s, 5);
    CpuLevel level = hostKernels().level;
    std::vector<float> out(s.qSize()), grads(s.qSize() + 2 * s.kSize());
    modelrt_attention_forward(in.q.data(), in.k.data(), in.v.data(), out.data(), s.batch,
                              s.heads, s.queries, s.keys, s.width, s.causal);
    modelrt_attention_backward(in.q.data(), in.k.data(), in.v.data(), out.data(),
                               in.dout.data(), grads.data(), s.batch, s.heads, s.queries, s.keys,
                               s.width, s.causal);
    EXPECT_TRUE(sameBits(out, runForward(level, 1, s, in))) << describe(s);
    EXPECT_TRUE(sameBits(grads, runBackward(level, 1, s, in, out))) << describe(s);
  }
}

// Scores of magnitude 1e4 (queries of 1e3, exact dot products) neither
// overflow nor lose the softmax: the result is the reference's.
TEST(Attention, HugeScoresDoNotOverflow) {
  for (bool causal : {false, true}) {
    Shape s{1, 2, 40, 70, 16, causal};
    Inputs in = randomInputs(s, 21);
    for (float &x : in.q)
      x = 1000.0f * std::round(4.0f * x); // integers: every score is exact
    for (float &x : in.k)
      x = std::round(3.0f * x);
    Ref want = reference(s, in);
    for (CpuLevel level : levels()) {
      std::vector<float> out = runForward(level, 2, s, in);
      EXPECT_TRUE(near(out, want.out, 0, s.qSize(), "out")) << cpuLevelName(level);
      std::vector<float> grads = runBackward(level, 2, s, in, out);
      for (float g : grads)
        ASSERT_TRUE(std::isfinite(g)) << cpuLevelName(level);
      EXPECT_TRUE(nearGrads(s, grads, want.dq, want.dk, want.dv)) << cpuLevelName(level);
    }
  }
}

// No keys: zeros out, zero dq; no queries: zero dk and dv; no width:
// nothing is written.
TEST(Attention, EmptyShapes) {
  std::vector<float> q(2 * 3 * 4, 1.0f), out(2 * 3 * 4, 5.0f), grads(2 * 3 * 4, 5.0f);
  modelrt_attention_forward(q.data(), nullptr, nullptr, out.data(), 2, 1, 3, 0, 4, 1);
  EXPECT_EQ(out, std::vector<float>(out.size(), 0.0f));
  modelrt_attention_backward(q.data(), nullptr, nullptr, out.data(), q.data(), grads.data(), 2,
                             1, 3, 0, 4, 0);
  EXPECT_EQ(grads, std::vector<float>(grads.size(), 0.0f));
  std::vector<float> kv(2 * 5 * 4, 1.0f), dkv(2 * 2 * 5 * 4, 5.0f);
  modelrt_attention_backward(nullptr, kv.data(), kv.data(), nullptr, nullptr, dkv.data(), 2, 1,
                             0, 5, 4, 1);
  EXPECT_EQ(dkv, std::vector<float>(dkv.size(), 0.0f));
  float sentinel = 7.0f;
  modelrt_attention_forward(nullptr, nullptr, nullptr, &sentinel, 2, 1, 3, 5, 0, 0);
  modelrt_attention_backward(nullptr, nullptr, nullptr, nullptr, nullptr, &sentinel, 2, 1, 3, 5,
                             0, 0);
  EXPECT_EQ(sentinel, 7.0f);
}

// A decoding step at position p over caches holding rows 0..p of the keys
// and values (NaN after them, which it must not read) is the causal
// forward's query p over the whole sequence: T = 70 positions (two key
// blocks), width 12, 2 x 3 heads.
TEST(Attention, DecodeStepIsTheCausalForwardAtEachPosition) {
  const Shape s{2, 3, 70, 70, 12, true};
  const int64_t rows = 80; // the caches' length, more than the sequence
  Inputs in = randomInputs(s, 31);
  std::vector<float> full(s.qSize());
  modelrt_attention_forward(in.q.data(), in.k.data(), in.v.data(), full.data(), s.batch,
                            s.heads, s.queries, s.keys, s.width, 1);
  size_t cacheSize = size_t(s.heads2() * rows * s.width);
  std::vector<float> kc(cacheSize, std::nanf("")), vc(cacheSize, std::nanf(""));
  std::vector<float> q(size_t(s.heads2() * s.width)), out(q.size()), want(q.size());
  for (int64_t p = 0; p < s.queries; ++p) {
    for (int64_t h = 0; h < s.heads2(); ++h) {
      size_t from = size_t((h * s.keys + p) * s.width), to = size_t((h * rows + p) * s.width);
      std::copy_n(in.k.begin() + from, s.width, kc.begin() + to);
      std::copy_n(in.v.begin() + from, s.width, vc.begin() + to);
      std::copy_n(in.q.begin() + from, s.width, q.begin() + h * s.width);
      std::copy_n(full.begin() + from, s.width, want.begin() + h * s.width);
    }
    modelrt_attention_decode(q.data(), kc.data(), vc.data(), &p, out.data(), s.batch, s.heads,
                             rows, s.width);
    for (size_t i = 0; i < out.size(); ++i)
      ASSERT_NEAR(out[i], want[i], 1e-5 * (1 + std::fabs(want[i])))
          << "position " << p << ", element " << i;
  }
}

// A position outside the caches writes zeros and reads nothing.
TEST(Attention, DecodeStepOutsideTheCachesWritesZeros) {
  std::vector<float> q(2 * 4, 1.0f), out(q.size(), 5.0f);
  for (int64_t p : {int64_t(-1), int64_t(6)}) {
    modelrt_attention_decode(q.data(), nullptr, nullptr, &p, out.data(), 1, 2, 6, 4);
    EXPECT_EQ(out, std::vector<float>(out.size(), 0.0f)) << p;
  }
}

} // namespace
