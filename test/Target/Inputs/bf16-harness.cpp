// test/Target/Inputs/bf16-harness.cpp — the conversions to and from bf16
// of compiled code, against a reference computed here.
//
// Links with the object compiled from bf16-casts.mlir. Every input goes
// through round_bf16 (a vectorised loop) and round_bf16_scalar. The
// reference rounds to nearest, ties to even, from the two bf16 values
// around x (its bits with the low 16 cleared, and that plus one unit in
// the last place, 2^128 past the largest finite value), compared in
// double: subnormal values are rounded, not flushed; an overflow gives
// infinity; a NaN must stay a NaN. The inputs: the special values, every
// tie and near-tie at a few exponents, the subnormal range, and 2^20
// random bit patterns. Prints the number of cases and PASS, or the first
// mismatches and exits 1.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

/// A rank-1 memref descriptor as the generated code expects it.
struct M1 {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
};

extern "C" {
void _mlir_ciface_round_bf16(M1 *x, M1 *out);
float round_bf16_scalar(float x);
}

namespace {

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

float floatOf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// The value of the bf16 (upper half of \p bits) one unit in the last
/// place above |bf16(bits)|, in double (2^128 above the largest finite).
double nextUp(uint32_t bits) {
  uint32_t exponent = (bits >> 23) & 0xff;
  double unit = std::ldexp(1.0, (exponent ? int(exponent) : 1) - 127 - 7);
  return std::fabs(double(floatOf(bits & 0xffff0000u))) + unit;
}

/// x rounded to bf16, nearest with ties to even, as an f32.
float reference(float x) {
  uint32_t u = bitsOf(x);
  if (std::isnan(x) || std::isinf(x))
    return x;
  uint32_t down = u & 0xffff0000u;
  double a = std::fabs(double(x)), lo = std::fabs(double(floatOf(down))), hi = nextUp(u);
  bool up = a - lo > hi - a || (a - lo == hi - a && (down >> 16) & 1u);
  if (!up)
    return floatOf(down);
  return floatOf(down + 0x10000u); // the next bf16 (from the largest finite: infinity)
}

int failures = 0;

void expect(float x, float got, const char *how) {
  float want = reference(x);
  bool same = std::isnan(want) ? std::isnan(got) : bitsOf(got) == bitsOf(want);
  if (!same && failures++ < 10)
    std::printf("%s: x = %a (0x%08x): got %a (0x%08x), want %a (0x%08x)\n", how, x, bitsOf(x),
                got, bitsOf(got), want, bitsOf(want));
}

} // namespace

int main() {
  std::vector<uint32_t> bits = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7fffffffu,
                                0x7f7fffffu, 0xff7fffffu, 0x7f7f8000u, 0x7f7f7fffu,
                                0x00000001u, 0x80000001u, 0x007fffffu, 0x00008000u,
                                0x00018000u, 0x00800000u, 0x3f808000u, 0x3f818000u};
  for (uint32_t exponent : {0u, 1u, 100u, 127u, 200u, 254u})
    for (uint32_t high : {0u, 1u, 0x7fu})
      for (uint32_t low : {0x7fffu, 0x8000u, 0x8001u, 0x0001u, 0xffffu})
        for (uint32_t sign : {0u, 0x80000000u})
          bits.push_back(sign | exponent << 23 | high << 16 | low);
  std::mt19937 rng(7);
  for (int k = 0; k < (1 << 20); ++k)
    bits.push_back(uint32_t(rng()));
  std::vector<float> x(bits.size()), y(bits.size());
  for (size_t k = 0; k < bits.size(); ++k)
    x[k] = floatOf(bits[k]);
  int64_t n = int64_t(x.size());
  M1 in = {x.data(), x.data(), 0, {n}, {1}}, out = {y.data(), y.data(), 0, {n}, {1}};
  _mlir_ciface_round_bf16(&in, &out);
  for (size_t k = 0; k < x.size(); ++k) {
    expect(x[k], y[k], "loop");
    expect(x[k], round_bf16_scalar(x[k]), "scalar");
  }
  std::printf("%zu cases: %s\n", x.size(), failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
