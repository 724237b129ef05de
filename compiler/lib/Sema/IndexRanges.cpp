//===- IndexRanges.cpp - Bounds of computed indices -----------------------===//
//
// Interval arithmetic over the integer values of a model graph, from the
// ranges the runtime guarantees for its leaves (the input's ids, the
// labels) and the constants, through the ops that keep integers bounded.
// An embedding lookup reads the row its id names and cross_entropy the
// logit its target names; an index outside the table or the classes would
// read past them. The data's own ids and labels are checked as they are
// read; a computed index is checked here, and one that cannot be bounded
// is an error that shows how to clamp it.
//
//===----------------------------------------------------------------------===//

#include "IndexRanges.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <cmath>

using namespace modelc;
using namespace modelc::sema;

namespace {

/// A closed interval of reals, either end possibly infinite.
struct Interval {
  double lo = -INFINITY, hi = INFINITY;
  bool bounded() const { return std::isfinite(lo) && std::isfinite(hi); }
};

constexpr double kInf = INFINITY;

Interval both(Interval a, Interval b) {
  return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
}

/// The range of `f` over the corners of `a` x `b`: exact for + - * and for
/// division by an interval that excludes 0. A NaN corner (inf - inf,
/// 0 * inf) gives everything.
template <typename F> Interval corners(Interval a, Interval b, F f) {
  Interval out{kInf, -kInf};
  for (double x : {a.lo, a.hi})
    for (double y : {b.lo, b.hi}) {
      double v = f(x, y);
      if (std::isnan(v))
        return {};
      out = {std::min(out.lo, v), std::max(out.hi, v)};
    }
  return out;
}

/// x / y: for integers truncating toward zero, with a zero divisor giving
/// 0 (as the lowering defines it); for floats IEEE's, unbounded when the
/// divisor's range holds 0.
Interval divide(Interval a, Interval b, bool integer) {
  if (integer && b.lo <= 0 && b.hi >= 0)
    return b.lo == 0 && b.hi == 0 ? Interval{0, 0} : Interval{};
  if (b.lo <= 0 && b.hi >= 0)
    return {};
  Interval q = corners(a, b, [](double x, double y) { return x / y; });
  if (integer)
    q = {std::trunc(q.lo), std::trunc(q.hi)};
  return q;
}

class RangeFinder {
public:
  RangeFinder(const Graph &graph, const LeafRanges &leaves)
      : graph(graph), leaves(leaves) {}

  Interval of(unsigned id) {
    auto it = memo.find(id);
    if (it != memo.end())
      return it->second;
    Interval r = compute(graph.nodes[id]);
    memo[id] = r;
    return r;
  }

private:
  Interval operand(const Node &n, unsigned i) { return of(n.operands[i]); }
  Interval compute(const Node &n);
  Interval arithmetic(const Node &n);
  Interval leaf(const Node &n);

  const Graph &graph;
  const LeafRanges &leaves;
  llvm::DenseMap<unsigned, Interval> memo;
};

/// + - * / and the elementwise maximum and minimum (exact on half-bounded
/// ranges too).
Interval RangeFinder::arithmetic(const Node &n) {
  Interval a = operand(n, 0), b = operand(n, 1);
  switch (n.kind) {
  case OpKind::Add:
    return corners(a, b, [](double x, double y) { return x + y; });
  case OpKind::Sub:
    return corners(a, b, [](double x, double y) { return x - y; });
  case OpKind::Mul:
    return corners(a, b, [](double x, double y) { return x * y; });
  case OpKind::Div:
    return divide(a, b, isInteger(n.type.dtype));
  case OpKind::Max:
    return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
  case OpKind::Min:
    return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
  default:
    return {};
  }
}

/// The data's samples and labels, constants and argmax.
Interval RangeFinder::leaf(const Node &n) {
  std::optional<IntRange> r;
  switch (n.kind) {
  case OpKind::Input:
    if (!isInteger(n.type.dtype))
      return leaves.values
                 ? Interval{leaves.values->first, leaves.values->second}
                 : Interval{};
    r = leaves.input;
    break;
  case OpKind::Label:
    r = leaves.label;
    break;
  case OpKind::Constant: {
    double v = attrsOf<OpKind::Constant>(n).value;
    return {v, v};
  }
  case OpKind::Argmax: {
    const TensorType &x = graph.nodes[n.operands[0]].type;
    int64_t axis = attrsOf<OpKind::Argmax>(n).axis;
    if (axis < 0 || axis >= int64_t(x.rank()) || x.shape[axis].isSymbolic())
      return {};
    return {0, double(x.shape[axis].size - 1)};
  }
  default:
    return {};
  }
  return r ? Interval{double(r->lo), double(r->hi)} : Interval{};
}

Interval RangeFinder::compute(const Node &n) {
  if (n.type.dtype == DType::Bool)
    return {0, 1};
  switch (n.kind) {
  case OpKind::Cast: {
    Interval r = operand(n, 0);
    if (isInteger(n.type.dtype)) // float to integer truncates toward zero
      r = {std::trunc(r.lo), std::trunc(r.hi)};
    double limit = n.type.dtype == DType::I32 ? 2147483647.0 : 9.2e18;
    if (isInteger(n.type.dtype) && (r.lo < -limit || r.hi > limit))
      return {}; // the conversion may wrap
    return r;
  }
  case OpKind::Neg:
    return {-operand(n, 0).hi, -operand(n, 0).lo};
  case OpKind::Abs: {
    Interval x = operand(n, 0);
    double far = std::max(std::fabs(x.lo), std::fabs(x.hi));
    return {x.lo <= 0 && x.hi >= 0 ? 0
                                   : std::min(std::fabs(x.lo), std::fabs(x.hi)),
            far};
  }
  case OpKind::Where:
    return both(operand(n, 1), operand(n, 2));
  case OpKind::Concat: {
    Interval r = operand(n, 0);
    for (unsigned i = 1; i < n.operands.size(); ++i)
      r = both(r, operand(n, i));
    return r;
  }
  case OpKind::Reshape:
  case OpKind::Flatten:
  case OpKind::Transpose:
  case OpKind::Slice:
  case OpKind::ReduceMax:
    return operand(n, 0);
  case OpKind::Relu:
    return {std::max(0.0, operand(n, 0).lo), std::max(0.0, operand(n, 0).hi)};
  default:
    return n.operands.size() == 2 && n.kind != OpKind::Argmax ? arithmetic(n)
                                                              : leaf(n);
  }
}

std::string rangeText(IntRange r) {
  return "[" + std::to_string(r.lo) + ", " + std::to_string(r.hi) + "]";
}

/// Checks one index operand against [0, size) (\p ignored allowed too).
bool checkIndex(DiagnosticEngine &diags, RangeFinder &ranges, const Node &user,
                llvm::StringRef op, unsigned index, int64_t size,
                llvm::StringRef what, llvm::StringRef limit,
                std::optional<int64_t> ignored) {
  llvm::SMLoc at = user.locs.back();
  std::string clamp = "clamp them, as minimum(maximum(i, 0), " +
                      std::to_string(size - 1) + ") does for " + what.str() +
                      " i";
  Interval real = ranges.of(index);
  if (!real.bounded()) {
    diags.error(at, op + ": the " + what +
                        " are computed by the model and their range cannot "
                        "be bounded; any outside " +
                        limit + " would read past it: " + clamp);
    return false;
  }
  IntRange r{int64_t(real.lo), int64_t(real.hi)};
  IntRange inside = r;
  if (ignored && inside.lo == *ignored && inside.lo < inside.hi)
    ++inside.lo;
  if (ignored && inside.hi == *ignored && inside.lo < inside.hi)
    --inside.hi;
  if (inside.lo >= 0 && inside.hi < size)
    return true;
  diags.error(at, op + ": the " + what + " take values in " + rangeText(r) +
                      ", outside " + limit + "; " + clamp);
  return false;
}

} // namespace

std::optional<IntRange> sema::integerRange(const Graph &graph, unsigned id,
                                           const LeafRanges &leaves) {
  RangeFinder ranges(graph, leaves);
  Interval r = ranges.of(id);
  if (!r.bounded() || !isInteger(graph.nodes[id].type.dtype))
    return std::nullopt;
  return IntRange{int64_t(r.lo), int64_t(r.hi)};
}

bool sema::checkIndexRanges(DiagnosticEngine &diags, const Graph &graph,
                            const LeafRanges &leaves) {
  RangeFinder ranges(graph, leaves);
  bool ok = true;
  for (const Node &n : graph.nodes) {
    if (n.kind == OpKind::Embedding && n.operands[0] != graph.inputs[0]) {
      int64_t rows = graph.nodes[n.operands[1]].type.shape[0].size;
      ok &= checkIndex(diags, ranges, n, "embedding_lookup", n.operands[0],
                       rows, "ids",
                       "the table's " + std::to_string(rows) + " rows [0, " +
                           std::to_string(rows) + ")",
                       std::nullopt);
    }
    if (n.kind == OpKind::CrossEntropy && graph.label &&
        n.operands[1] != *graph.label &&
        isInteger(graph.nodes[n.operands[1]].type.dtype)) {
      const TensorType &logits = graph.nodes[n.operands[0]].type;
      int64_t classes = logits.shape.back().size;
      std::vector<int64_t> ignore =
          attrsOf<OpKind::CrossEntropy>(n).ignore_index;
      ok &= checkIndex(
          diags, ranges, n, "cross_entropy", n.operands[1], classes, "targets",
          "the logits' " + std::to_string(classes) + " classes [0, " +
              std::to_string(classes) + ")",
          ignore.empty() ? std::nullopt : std::optional<int64_t>(ignore[0]));
    }
  }
  return ok;
}
