//===- AttentionPackedTest.cpp - The packed layout against separate heads -===//
//
// The packed attention functions (qkv [B, T, 3, H, W] in, out [B, T, H, W];
// dqkv laid out as qkv) against the separate ones on the same numbers
// gathered into [B, H, T, W] tensors: at every level this CPU runs, on one
// and two threads, and through the C functions, the packed results are the
// separate results' bits, moved. Shapes: several query blocks with a
// partial one (130), widths 7, 32 and 33, causal and not, batches and
// heads above one, so that a wrong batch, head or row stride shows.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Attention.h"
#include "core/AttentionKernels.h"
#include "modelrt/core/CpuFeatures.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

using namespace modelrt;

namespace {

struct Sizes {
  int64_t batch, heads, length, width;
  bool causal;
};

/// Uniform values in [-1, 1) from a fixed xorshift stream.
std::vector<float> randomValues(size_t n, uint64_t seed) {
  std::vector<float> out(n);
  uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
  for (float &f : out) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    f = float(x >> 40) / float(1 << 24) * 2.0f - 1.0f;
  }
  return out;
}

/// Index of (b, t, part, h, w) in a [B, T, parts, H, W] tensor.
size_t packedAt(const Sizes &s, int64_t parts, int64_t b, int64_t t, int64_t part, int64_t h,
                int64_t w) {
  return size_t((((b * s.length + t) * parts + part) * s.heads + h) * s.width + w);
}

/// Index of (b, h, t, w) in a [B, H, T, W] tensor.
size_t separateAt(const Sizes &s, int64_t b, int64_t h, int64_t t, int64_t w) {
  return size_t(((b * s.heads + h) * s.length + t) * s.width + w);
}

/// Calls \p f(b, t, h, w) over every element of one [B, T, H, W] view.
template <typename F> void forEach(const Sizes &s, F f) {
  for (int64_t b = 0; b < s.batch; ++b)
    for (int64_t t = 0; t < s.length; ++t)
      for (int64_t h = 0; h < s.heads; ++h)
        for (int64_t w = 0; w < s.width; ++w)
          f(b, t, h, w);
}

/// One case's operands in both layouts.
struct Operands {
  std::vector<float> qkv, dout; ///< packed: [B, T, 3, H, W], [B, T, H, W]
  std::vector<float> q, k, v, doutSeparate; ///< separate: [B, H, T, W] each
};

Operands operandsFor(const Sizes &s) {
  size_t n = size_t(s.batch * s.heads * s.length * s.width);
  Operands o;
  o.qkv = randomValues(3 * n, 11);
  o.dout = randomValues(n, 12);
  o.q.resize(n), o.k.resize(n), o.v.resize(n), o.doutSeparate.resize(n);
  forEach(s, [&](int64_t b, int64_t t, int64_t h, int64_t w) {
    size_t at = separateAt(s, b, h, t, w);
    o.q[at] = o.qkv[packedAt(s, 3, b, t, 0, h, w)];
    o.k[at] = o.qkv[packedAt(s, 3, b, t, 1, h, w)];
    o.v[at] = o.qkv[packedAt(s, 3, b, t, 2, h, w)];
    o.doutSeparate[at] = o.dout[packedAt(s, 1, b, t, 0, h, w)];
  });
  return o;
}

AttentionArgs separateArgs(const Sizes &s, const Operands &o, const float *out, float *dest) {
  return {s.batch,     s.heads,     s.length,    s.length, s.width,                s.causal, false,
          o.q.data(),  o.k.data(),  o.v.data(),  out,      o.doutSeparate.data(), dest};
}

AttentionArgs packedArgs(const Sizes &s, const Operands &o, const float *out, float *dest) {
  int64_t row = s.heads * s.width;
  return {s.batch,      s.heads,            s.length,               s.length, s.width,
          s.causal,     true,               o.qkv.data(),           o.qkv.data() + row,
          o.qkv.data() + 2 * row, out, o.dout.data(), dest};
}

/// Whether the packed \p out ([B, T, H, W]) holds the separate \p want's
/// bits ([B, H, T, W]).
bool sameOutput(const Sizes &s, const std::vector<float> &out, const std::vector<float> &want) {
  bool same = true;
  forEach(s, [&](int64_t b, int64_t t, int64_t h, int64_t w) {
    float x = out[packedAt(s, 1, b, t, 0, h, w)], y = want[separateAt(s, b, h, t, w)];
    same = same && std::memcmp(&x, &y, sizeof x) == 0;
  });
  return same;
}

/// Whether the packed \p grads ([B, T, 3, H, W]) hold the separate \p
/// want's bits (dq, dk, dv one after the other, [B, H, T, W] each).
bool sameGrads(const Sizes &s, const std::vector<float> &grads, const std::vector<float> &want) {
  size_t n = size_t(s.batch * s.heads * s.length * s.width);
  bool same = true;
  forEach(s, [&](int64_t b, int64_t t, int64_t h, int64_t w) {
    for (int64_t part = 0; part < 3; ++part) {
      float x = grads[packedAt(s, 3, b, t, part, h, w)];
      float y = want[part * n + separateAt(s, b, h, t, w)];
      same = same && std::memcmp(&x, &y, sizeof x) == 0;
    }
  });
  return same;
}

const Sizes kSizes[] = {{2, 3, 130, 33, true}, {2, 4, 128, 32, true}, {3, 2, 17, 7, false},
                        {1, 1, 1, 32, true}};

std::vector<CpuLevel> levels() {
  std::vector<CpuLevel> out = {CpuLevel::Baseline};
  CpuLevel top = supportedLevel(hostCpuFeatures());
  if (top >= CpuLevel::Avx2)
    out.push_back(CpuLevel::Avx2);
  if (top >= CpuLevel::Avx512)
    out.push_back(CpuLevel::Avx512);
  return out;
}

// Every level, one and two threads: the packed forward and backward give
// the separate ones' bits, in their own layout; the destinations start as
// NaN, so an element left unwritten shows.
TEST(AttentionPacked, GivesTheBitsOfSeparateHeads) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const Sizes &s : kSizes)
    for (CpuLevel level : levels())
      for (int threads : {1, 2}) {
        Operands o = operandsFor(s);
        size_t n = o.q.size();
        std::vector<float> out(n, nan), grads(3 * n, nan), outP(n, nan), gradsP(3 * n, nan);
        runAttention(level, threads, AttentionKind::Forward, separateArgs(s, o, nullptr, out.data()));
        runAttention(level, threads, AttentionKind::Backward,
                     separateArgs(s, o, out.data(), grads.data()));
        runAttention(level, threads, AttentionKind::Forward, packedArgs(s, o, nullptr, outP.data()));
        runAttention(level, threads, AttentionKind::Backward,
                     packedArgs(s, o, outP.data(), gradsP.data()));
        SCOPED_TRACE(testing::Message() << s.batch << "x" << s.heads << " heads, length "
                                        << s.length << ", width " << s.width
                                        << (s.causal ? ", causal" : "") << ", level "
                                        << int(level) << ", threads " << threads);
        EXPECT_TRUE(sameOutput(s, outP, out));
        EXPECT_TRUE(sameGrads(s, gradsP, grads));
      }
}

// The C functions of the packed layout give the separate C functions' bits.
TEST(AttentionPacked, CFunctionsGiveTheSeparateBits) {
  for (const Sizes &s : kSizes) {
    Operands o = operandsFor(s);
    size_t n = o.q.size();
    std::vector<float> out(n), grads(3 * n), outP(n), gradsP(3 * n);
    modelrt_attention_forward(o.q.data(), o.k.data(), o.v.data(), out.data(), s.batch, s.heads,
                              s.length, s.length, s.width, s.causal);
    modelrt_attention_backward(o.q.data(), o.k.data(), o.v.data(), out.data(),
                               o.doutSeparate.data(), grads.data(), s.batch, s.heads, s.length,
                               s.length, s.width, s.causal);
    modelrt_attention_packed_forward(o.qkv.data(), outP.data(), s.batch, s.heads, s.length,
                                     s.width, s.causal);
    modelrt_attention_packed_backward(o.qkv.data(), outP.data(), o.dout.data(), gradsP.data(),
                                      s.batch, s.heads, s.length, s.width, s.causal);
    EXPECT_TRUE(sameOutput(s, outP, out)) << "length " << s.length << ", width " << s.width;
    EXPECT_TRUE(sameGrads(s, gradsP, grads)) << "length " << s.length << ", width " << s.width;
  }
}

} // namespace
