//===- ShapeArith.h - Pure shape arithmetic shared by Sema and mdl -*- C++ -*-//
//
// The integer rules that decide result shapes, written once for semantic
// analysis (which reports them to the user) and for the mdl dialect's
// result-type inference (which verifies them on IR): the output size of a
// convolution or pooling window, the normalisation of a possibly negative
// axis, and numpy broadcasting of two shapes.
//
// Header-only, plain C++17 with no LLVM or MLIR, so both sides (and the
// runtime) may include it. It computes sizes only: it reports no
// diagnostics and knows no tensor or element types; callers word their own
// messages from what it returns.
//
//===----------------------------------------------------------------------===//

#ifndef MODELSUPPORT_SHAPEARITH_H
#define MODELSUPPORT_SHAPEARITH_H

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace modelsupport {

/// The size of a dimension known only at run time (the value of
/// mlir::ShapedType::kDynamic).
inline constexpr int64_t kDynamic = std::numeric_limits<int64_t>::min();

/// The most elements one tensor may have (2^31): its byte size and every
/// index into it stay far inside 64-bit arithmetic, and index computations
/// over a batch of kMaxBatch samples cannot overflow either.
inline constexpr int64_t kMaxTensorElements = int64_t(1) << 31;

/// The most dimensions one tensor may have (64, as numpy allows): every
/// stage's work per op grows with the rank, and no model needs more.
inline constexpr size_t kMaxTensorRank = 64;

/// The largest batch size a train block or `--batch` may ask for (2^24).
inline constexpr int64_t kMaxBatch = int64_t(1) << 24;

/// The product a * b of two non-negative sizes; std::nullopt when it would
/// overflow int64_t.
inline std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    return std::nullopt;
  return r;
}

/// The element count of `sizes` (non-negative, static); std::nullopt when it
/// overflows int64_t.
template <typename Sizes>
std::optional<int64_t> checkedElementCount(const Sizes &sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) {
    std::optional<int64_t> next = checkedMul(n, s);
    if (!next)
      return std::nullopt;
    n = *next;
  }
  return n;
}

/// True for kDynamic.
inline constexpr bool isDynamic(int64_t size) { return size == kDynamic; }

/// The extent of a dilated window: dilation * (kernel - 1) + 1.
inline constexpr int64_t windowSpan(int64_t kernel, int64_t dilation) {
  return dilation * (kernel - 1) + 1;
}

/// One spatial output size of a convolution or pooling window sliding over
/// `in` values padded by `pad` on each side:
/// (in + 2 * pad - windowSpan(kernel, dilation)) / stride + 1, rounded down.
/// kDynamic for a kDynamic input; std::nullopt when the window does not fit
/// the padded input. `stride` must be >= 1.
inline std::optional<int64_t> windowOutputSize(int64_t in, int64_t kernel,
                                               int64_t stride, int64_t pad,
                                               int64_t dilation = 1) {
  if (isDynamic(in))
    return kDynamic;
  int64_t padded = in + 2 * pad, span = windowSpan(kernel, dilation);
  if (padded < span)
    return std::nullopt;
  return (padded - span) / stride + 1;
}

/// Normalises `axis` in [-rank, rank) to [0, rank) (a negative axis counts
/// from the end); std::nullopt when it is outside.
inline std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

/// The broadcast of two sizes that may be kDynamic: equal sizes, or one of
/// them 1, give the other; kDynamic against a static n > 1 gives n (it must
/// be n or 1 at run time). std::nullopt when two static sizes differ and
/// neither is 1.
inline std::optional<int64_t> broadcastDim(int64_t a, int64_t b) {
  if (a == b || b == 1)
    return a;
  if (a == 1 || isDynamic(a))
    return b;
  if (isDynamic(b))
    return a;
  return std::nullopt;
}

/// Numpy broadcasting of two shapes of any dimension type (`ShapeA` and
/// `ShapeB` index like std::vector<Dim>): the shapes are aligned at their
/// trailing dimension, the missing leading dimensions of the shorter one
/// count as `one`, and `join(a, b)` combines two aligned dimensions into a
/// std::optional<Dim> (std::nullopt when they are incompatible). On failure
/// returns std::nullopt and sets `*badDim` to the failing position counted
/// from the right (0 = the last dimension).
template <typename Dim, typename ShapeA, typename ShapeB, typename Join>
std::optional<std::vector<Dim>>
broadcastShapesWith(const ShapeA &a, const ShapeB &b, const Dim &one,
                    Join join, unsigned *badDim = nullptr) {
  size_t na = a.size(), nb = b.size(), rank = na > nb ? na : nb;
  std::vector<Dim> result(rank, one);
  for (size_t i = 0; i < rank; ++i) {
    std::optional<Dim> d = join(i < na ? a[na - 1 - i] : one,
                                i < nb ? b[nb - 1 - i] : one);
    if (!d) {
      if (badDim)
        *badDim = unsigned(i);
      return std::nullopt;
    }
    result[rank - 1 - i] = *d;
  }
  return result;
}

/// broadcastShapesWith over integer sizes that may be kDynamic, joined by
/// broadcastDim.
template <typename ShapeA, typename ShapeB>
std::optional<std::vector<int64_t>>
broadcastShapes(const ShapeA &a, const ShapeB &b, unsigned *badDim = nullptr) {
  return broadcastShapesWith<int64_t>(a, b, int64_t(1), broadcastDim, badDim);
}

/// Whether a value of shape `from` can be broadcast to the final shape `to`
/// (numpy rule): `from` has no more dimensions than `to`, and each of its
/// trailing-aligned sizes is 1, equal to the target's, or kDynamic on
/// either side (then they must agree at run time).
template <typename ShapeA, typename ShapeB>
bool isBroadcastableTo(const ShapeA &from, const ShapeB &to) {
  size_t nf = from.size(), nt = to.size();
  if (nf > nt)
    return false;
  for (size_t i = 0; i < nf; ++i) {
    int64_t f = from[nf - 1 - i], t = to[nt - 1 - i];
    if (f != t && f != 1 && !isDynamic(f) && !isDynamic(t))
      return false;
  }
  return true;
}

} // namespace modelsupport

#endif // MODELSUPPORT_SHAPEARITH_H
