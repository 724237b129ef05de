//===- TestValues.h - Deterministic inputs and bit patterns for tests -----===//
//
// The inputs and comparisons of the runtime tests that check one call
// against the calls it replaces bit for bit (ConvMaxPoolTest,
// ConvBackwardTest): values from a hash of the index, NaNs where asked, and
// the bit patterns of a result.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_TEST_TESTVALUES_H
#define MODELRT_TEST_TESTVALUES_H

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace modelrt_test {

/// Deterministic values in [-1, 1) from \p salt (a NaN at every
/// \p nanEvery-th, when not 0).
inline std::vector<float> valuesOf(size_t count, uint32_t salt, size_t nanEvery = 0) {
  std::vector<float> v(count);
  for (size_t i = 0; i < count; ++i) {
    uint32_t h = uint32_t(i) * 2654435761u + salt * 40503u;
    h ^= h >> 13;
    v[i] = float(h % 4096) / 2048.0f - 1.0f;
    if (nanEvery && i % nanEvery == nanEvery / 2)
      v[i] = std::numeric_limits<float>::quiet_NaN();
  }
  return v;
}

/// The bit patterns of \p v (NaN payloads included).
inline std::vector<uint32_t> bitsOf(const std::vector<float> &v) {
  std::vector<uint32_t> bits(v.size());
  if (!v.empty())
    std::memcpy(bits.data(), v.data(), v.size() * sizeof(float));
  return bits;
}

} // namespace modelrt_test

#endif // MODELRT_TEST_TESTVALUES_H
