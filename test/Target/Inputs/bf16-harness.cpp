// test/Target/Inputs/bf16-harness.cpp — the conversions to and from bf16
// of compiled code, against a reference computed here.
//
// Links with the object compiled from bf16-casts.mlir and calls its
// functions: f32, f64, i64 (signed and unsigned) and i32 values rounded to
// bf16, one at a time and in vectorised loops, and bf16 widened to f64.
// The reference rounds the exact value (a long double holds every input
// exactly) to nearest, ties to even, from the two bf16 values around it:
// one unit in the last place apart, 2^-133 below 2^-126 (subnormal values
// are rounded, not flushed), and 2^128 past the largest finite value (an
// overflow gives infinity); a NaN must stay a NaN. The inputs: the special
// values, ties and near-ties (a tie plus or minus a bit that a rounding to
// f32 first would lose), the subnormal range, and random bit patterns.
// Prints the number of cases and PASS, or the first mismatches and exits 1.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

/// A rank-1 memref descriptor as the generated code expects it.
template <typename T> struct M1 {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
};

extern "C" {
void _mlir_ciface_round_bf16(M1<float> *x, M1<float> *out);
void _mlir_ciface_round_f64_loop(M1<double> *x, M1<float> *out);
void _mlir_ciface_round_i64_loop(M1<int64_t> *x, M1<float> *out);
float round_bf16_scalar(float x);
float f64_to_bf16(double x);
double bf16_to_f64(float x);
float i64_to_bf16(int64_t x);
float u64_to_bf16(uint64_t x);
float i32_to_bf16(int32_t x);
}

static_assert(std::numeric_limits<long double>::digits >= 64,
              "the reference needs every 64-bit integer exact");

namespace {

uint64_t bitsOf(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}

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

/// The compiled loop \p loop (x -> bf16 values as f32) over all of \p x.
template <typename T>
std::vector<float> runLoop(void (*loop)(M1<T> *, M1<float> *), std::vector<T> &x) {
  std::vector<float> y(x.size());
  int64_t n = int64_t(x.size());
  M1<T> in = {x.data(), x.data(), 0, {n}, {1}};
  M1<float> out = {y.data(), y.data(), 0, {n}, {1}};
  loop(&in, &out);
  return y;
}

/// \p x rounded to bf16, nearest with ties to even, as an f32.
float reference(long double x) {
  if (std::isnan(x) || std::isinf(x) || x == 0)
    return float(x);
  long double a = std::fabs(x);
  int exponent;
  std::frexp(a, &exponent);                      // a = m 2^exponent, m in [0.5, 1)
  int lead = exponent - 1 < -126 ? -126 : exponent - 1;
  long double unit = std::ldexp(1.0L, lead - 7); // bf16's unit in the last place at a
  long double steps = std::floor(a / unit), lo = steps * unit, hi = lo + unit;
  bool up = a - lo > hi - a || (a - lo == hi - a && std::fmod(steps, 2.0L) == 1);
  long double r = up ? hi : lo;
  if (r >= 0x1p128L) // past the largest finite bf16
    r = INFINITY;
  return float(x < 0 ? -r : r);
}

int cases = 0, failures = 0;

void expect(long double x, float got, const char *how) {
  ++cases;
  float want = reference(x);
  bool same = std::isnan(want) ? std::isnan(got) : bitsOf(got) == bitsOf(want);
  if (!same && failures++ < 10)
    std::printf("%s: x = %La: got %a (0x%08x), want %a (0x%08x)\n", how, x, got, bitsOf(got),
                want, bitsOf(want));
}

void checkF32(std::mt19937 &rng) {
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
  for (int k = 0; k < (1 << 20); ++k)
    bits.push_back(uint32_t(rng()));
  std::vector<float> x(bits.size());
  for (size_t k = 0; k < bits.size(); ++k)
    x[k] = floatOf(bits[k]);
  std::vector<float> y = runLoop(_mlir_ciface_round_bf16, x);
  for (size_t k = 0; k < x.size(); ++k) {
    expect(x[k], y[k], "f32 loop");
    expect(x[k], round_bf16_scalar(x[k]), "f32");
    double wide = bf16_to_f64(x[k]), want = reference(x[k]);
    ++cases;
    if ((std::isnan(want) ? !std::isnan(wide) : bitsOf(wide) != bitsOf(want)) && failures++ < 10)
      std::printf("bf16 to f64: x = %a: got %a, want %a\n", x[k], wide, want);
  }
}

void checkF64(std::mt19937_64 &rng) {
  std::vector<double> x = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN,
                           std::numeric_limits<double>::max(),
                           std::numeric_limits<double>::denorm_min(), 0x1.fep127, 0x1.ff8p127,
                           0x1.ff7fffffffffp127, 0x1p-133, 0x1p-134, 0x1.0000000001p-134,
                           0x1p-150, 0x1.8p-150};
  for (double base : {1.0, 0x1p-130, 0x1p100, -3.0})
    for (double tie : {0x1p-8, 0x1.8p-7})
      for (double nudge : {0.0, 0x1p-40, -0x1p-40, 0x1p-52}) // lost by a rounding to f32
        x.push_back(base * (1 + tie + nudge));
  std::uniform_int_distribution<int> exponent(-150, 130);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  for (int k = 0; k < (1 << 18); ++k) {
    uint64_t u = rng();
    double d;
    std::memcpy(&d, &u, 8);
    x.push_back(d);
    x.push_back((k & 1 ? -1 : 1) * std::ldexp(mantissa(rng), exponent(rng)));
  }
  std::vector<float> y = runLoop(_mlir_ciface_round_f64_loop, x);
  for (size_t k = 0; k < x.size(); ++k) {
    expect(x[k], y[k], "f64 loop");
    expect(x[k], f64_to_bf16(x[k]), "f64");
  }
}

void checkIntegers(std::mt19937_64 &rng) {
  std::vector<int64_t> x = {0, 1, -1, 257, 259, -257, INT64_MIN, INT64_MAX, INT32_MIN,
                            INT32_MAX, (int64_t(1) << 24) + 1,
                            (int64_t(1) << 62) + (int64_t(1) << 54),      // a tie: to even
                            (int64_t(1) << 62) + (int64_t(1) << 54) + 1,  // past it: up
                            (int64_t(1) << 62) + (int64_t(3) << 54),      // a tie: up to even
                            -(int64_t(1) << 62) - (int64_t(1) << 54) - 1};
  for (int k = 0; k < (1 << 18); ++k) {
    uint64_t u = rng();
    x.push_back(int64_t(u));
    x.push_back(int64_t(u >> (u % 64)));
  }
  std::vector<float> y = runLoop(_mlir_ciface_round_i64_loop, x);
  for (size_t k = 0; k < x.size(); ++k) {
    expect(x[k], y[k], "i64 loop");
    expect(x[k], i64_to_bf16(x[k]), "i64");
    expect(uint64_t(x[k]), u64_to_bf16(uint64_t(x[k])), "u64");
    expect(int32_t(x[k]), i32_to_bf16(int32_t(x[k])), "i32");
  }
}

} // namespace

int main() {
  std::mt19937 rng(7);
  std::mt19937_64 rng64(7);
  checkF32(rng);
  checkF64(rng64);
  checkIntegers(rng64);
  std::printf("%d cases: %s\n", cases, failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
