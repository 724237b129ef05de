//===- FrozenParameters.cpp - Rounded parameters kept while they hold still ===//
//
// Implements FrozenParameters.h with one record per thread: the open
// scope's depth, its generation (from one counter shared by every thread,
// so that no two scopes share one), the parameters' address ranges sorted
// by start, and the emulation's rounded copies keyed by the matrix they
// were rounded from.
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
  std::vector<std::pair<uintptr_t, uintptr_t>> ranges; ///< [begin, end), sorted
  std::map<MatrixKey, std::vector<float>> copies;
};

Frozen &frozen() {
  thread_local Frozen f;
  return f;
}

std::atomic<uint64_t> nextGeneration{1};

} // namespace

FrozenParameters::FrozenParameters(const std::vector<std::vector<float>> &params) {
  Frozen &f = frozen();
  if (f.depth++ > 0)
    return;
  f.generation = nextGeneration.fetch_add(1);
  f.ranges.clear();
  for (const std::vector<float> &p : params)
    if (!p.empty())
      f.ranges.emplace_back(reinterpret_cast<uintptr_t>(p.data()),
                            reinterpret_cast<uintptr_t>(p.data() + p.size()));
  std::sort(f.ranges.begin(), f.ranges.end());
}

FrozenParameters::~FrozenParameters() {
  Frozen &f = frozen();
  if (--f.depth > 0)
    return;
  f.generation = 0;
  f.ranges.clear();
  f.copies.clear();
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
  std::vector<float> *out = &scratch;
  bool fresh = true;
  if (frozenGeneration(in, ld, rows, cols) != 0) {
    MatrixKey key = {int64_t(reinterpret_cast<uintptr_t>(in)), ld, rows, cols};
    auto [it, inserted] = frozen().copies.try_emplace(key);
    out = &it->second;
    fresh = inserted;
  }
  if (fresh) {
    out->resize(size_t(std::max<int64_t>(rows, 0)) * size_t(std::max<int64_t>(cols, 0)));
    if (!out->empty())
      roundMatrixThroughBf16(in, ld, rows, cols, out->data());
  }
  return out->data();
}

int64_t frozenCopyElements() {
  int64_t n = 0;
  for (const auto &[key, copy] : frozen().copies)
    n += int64_t(copy.size());
  return n;
}

} // namespace modelrt
