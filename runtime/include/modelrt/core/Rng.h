//===- Rng.h - The runtime's documented random number generator ------------===//
//
// Implements `Rng`: xoshiro256** (Blackman & Vigna, 2018) seeded through
// splitmix64, plus `mixSeed`, a splitmix64-based hash that derives
// independent streams from (seed, counter...) tuples. The output is the same
// on every platform and standard library, unlike std::default_random_engine.
// Floats: uniform() = (next() >> 40) * 2^-24 in [0, 1); normal() uses
// Box-Muller on two uniforms. `parseSeed` reads a seed's written form
// (`--seed`, a checkpoint's `data.seed`).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CORE_RNG_H
#define MODELRT_CORE_RNG_H

#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace modelrt {

/// Reads \p text as a seed: decimal digits only, at most 2^64 - 1.
inline bool parseSeed(const std::string &text, uint64_t &out) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  errno = 0; // strtoull reports overflow only through errno
  unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE)
    return false;
  out = uint64_t(v);
  return true;
}

/// One step of splitmix64: advances \p state and returns the next output.
inline uint64_t splitmix64(uint64_t &state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// Hashes a seed and up to two counters into a new 64-bit seed.
inline uint64_t mixSeed(uint64_t seed, uint64_t a, uint64_t b = 0) {
  uint64_t s = seed;
  uint64_t h = splitmix64(s);
  s = h ^ a;
  h = splitmix64(s);
  s = h ^ b;
  return splitmix64(s);
}

/// xoshiro256** generator; its whole state is four 64-bit words.
class Rng {
public:
  /// Seeds the four state words from splitmix64(seed).
  explicit Rng(uint64_t seed = 0) { reseed(seed); }
  void reseed(uint64_t seed) {
    uint64_t s = seed;
    for (auto &w : st)
      w = splitmix64(s);
  }
  /// Next 64 random bits.
  uint64_t next() {
    uint64_t result = rotl(st[1] * 5, 7) * 9;
    uint64_t t = st[1] << 17;
    st[2] ^= st[0];
    st[3] ^= st[1];
    st[1] ^= st[2];
    st[0] ^= st[3];
    st[2] ^= t;
    st[3] = rotl(st[3], 45);
    return result;
  }
  /// Uniform float in [0, 1) with 24 random bits.
  float uniform() { return static_cast<float>(next() >> 40) * 0x1.0p-24f; }
  /// Uniform double in [0, 1) with 53 random bits.
  double uniformDouble() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  /// Uniform integer in [0, n) (Lemire's multiply-shift; n > 0).
  uint64_t below(uint64_t n) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }
  /// Standard normal sample (Box-Muller, one value per call).
  double normal() {
    double u1 = 1.0 - uniformDouble(); // (0, 1]
    double u2 = uniformDouble();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
  /// The full state, for checkpoints.
  std::array<uint64_t, 4> state() const { return st; }
  void setState(const std::array<uint64_t, 4> &s) { st = s; }

private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::array<uint64_t, 4> st{};
};

} // namespace modelrt

#endif // MODELRT_CORE_RNG_H
