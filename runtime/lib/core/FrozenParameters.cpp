//===- FrozenParameters.cpp - Rounded parameters kept while they hold still ===//
//
// Implements FrozenParameters.h with one record per thread: the open
// scope's depth, its generation (from one counter shared by every thread,
// so that no two scopes share one), the address ranges of the parameters
// and of the f32 copies rounded from them, sorted by start, and the rounded
// copies (f32 for the emulation, bf16 bits for oneDNN's products) keyed by
// the matrix they were rounded from.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/FrozenParameters.h"
#include "modelrt/core/Bf16.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <utility>

namespace modelrt {
namespace {

/// A matrix: its address, leading dimension, rows and columns.
using MatrixKey = std::array<int64_t, 4>;

/// This thread's scope.
struct Frozen {
  int depth = 0;
  uint64_t generation = 0;
  /// [begin, end), sorted: the parameters, and the f32 copies rounded from
  /// them (frozen too: the f32 convolutions that read them keep their
  /// reordered weights).
  std::vector<std::pair<uintptr_t, uintptr_t>> ranges;
  std::map<MatrixKey, std::vector<float>> copies;  ///< rounded, as f32
  std::map<MatrixKey, std::vector<uint16_t>> bits; ///< rounded, as bf16 bits
};

/// The calling thread's scope.
Frozen &frozen() {
  thread_local Frozen f;
  return f;
}

/// The next scope's generation, shared by every thread (0 is never one).
std::atomic<uint64_t> nextGeneration{1};

/// Adds [begin, end) to the frozen ranges, keeping them sorted.
void addRange(Frozen &f, const void *begin, const void *end) {
  std::pair<uintptr_t, uintptr_t> r(reinterpret_cast<uintptr_t>(begin),
                                    reinterpret_cast<uintptr_t>(end));
  f.ranges.insert(std::upper_bound(f.ranges.begin(), f.ranges.end(), r), r);
}

/// roundedThroughBf16 / roundedToBf16: the matrix rounded by \p round into
/// a copy kept in \p kept when it is frozen (made at its first use, its
/// range then added to the frozen ones when \p copyIsFrozen), else into
/// \p scratch.
template <typename T, typename Round>
const T *roundedCopy(const float *in, int64_t ld, int64_t rows, int64_t cols,
                     std::map<MatrixKey, std::vector<T>> &kept, std::vector<T> &scratch,
                     Round round, bool copyIsFrozen) {
  size_t n = size_t(std::max<int64_t>(rows, 0)) * size_t(std::max<int64_t>(cols, 0));
  if (frozenGeneration(in, ld, rows, cols) == 0) {
    scratch.resize(n);
    if (n)
      round(in, ld, rows, cols, scratch.data());
    return scratch.data();
  }
  MatrixKey key = {int64_t(reinterpret_cast<uintptr_t>(in)), ld, rows, cols};
  auto [it, inserted] = kept.try_emplace(key, n);
  std::vector<T> &copy = it->second;
  if (inserted) {
    round(in, ld, rows, cols, copy.data());
    if (copyIsFrozen)
      addRange(frozen(), copy.data(), copy.data() + n);
  }
  return copy.data();
}

} // namespace

FrozenParameters::FrozenParameters(const std::vector<std::vector<float>> &params) {
  Frozen &f = frozen();
  if (f.depth++ > 0)
    return;
  f.generation = nextGeneration.fetch_add(1);
  for (const std::vector<float> &p : params)
    if (!p.empty())
      addRange(f, p.data(), p.data() + p.size());
}

FrozenParameters::~FrozenParameters() {
  Frozen &f = frozen();
  if (--f.depth > 0)
    return;
  f.generation = 0;
  f.ranges.clear();
  f.copies.clear();
  f.bits.clear();
}

uint64_t frozenGeneration(const float *in, int64_t ld, int64_t rows, int64_t cols) {
  const Frozen &f = frozen();
  if (f.depth == 0 || rows <= 0 || cols <= 0 || (rows > 1 && ld < cols))
    return 0;
  uintptr_t begin = reinterpret_cast<uintptr_t>(in);
  uintptr_t end = reinterpret_cast<uintptr_t>(in + (rows - 1) * ld + cols);
  // The last range starting at or before `begin` is the only one that can hold it.
  auto after =
      std::upper_bound(f.ranges.begin(), f.ranges.end(), std::make_pair(begin, UINTPTR_MAX));
  if (after == f.ranges.begin())
    return 0;
  const auto &[from, to] = *(after - 1);
  return begin >= from && end <= to ? f.generation : 0;
}

bool roundedCopyIsCurrent(RoundedFrom &held, const float *in, int64_t ld, int64_t rows,
                          int64_t cols) {
  uint64_t generation = frozenGeneration(in, ld, rows, cols);
  if (generation != 0 && held.generation == generation && held.in == in && held.ld == ld &&
      held.rows == rows && held.cols == cols)
    return true;
  held = RoundedFrom{in, ld, rows, cols, generation};
  return false;
}

const float *roundedThroughBf16(const float *in, int64_t ld, int64_t rows, int64_t cols,
                                std::vector<float> &scratch) {
  return roundedCopy(in, ld, rows, cols, frozen().copies, scratch, roundMatrixThroughBf16,
                     /*copyIsFrozen=*/true);
}

const uint16_t *roundedToBf16(const float *in, int64_t ld, int64_t rows, int64_t cols,
                              std::vector<uint16_t> &scratch) {
  return roundedCopy(in, ld, rows, cols, frozen().bits, scratch, roundMatrixToBf16,
                     /*copyIsFrozen=*/false);
}

int64_t frozenCopyElements() {
  int64_t n = 0;
  for (const auto &[key, copy] : frozen().copies)
    n += int64_t(copy.size());
  for (const auto &[key, copy] : frozen().bits)
    n += int64_t(copy.size());
  return n;
}

} // namespace modelrt
