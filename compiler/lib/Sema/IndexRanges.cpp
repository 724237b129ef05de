//===- IndexRanges.cpp - Bounds of computed indices -----------------------===//
//
// Interval arithmetic over the values of a model graph, from the ranges
// the runtime guarantees for its leaves (the input's ids or bytes, the
// labels) and the constants, through the ops that keep values bounded. An
// embedding lookup reads the row its id names and cross_entropy the logit
// its target names; an index outside the table or the classes would read
// past them. The data's own ids and labels are checked as they are read; a
// computed index is checked here, and one that cannot be bounded is an
// error that shows how to clamp it.
//
// The bounds are sound for the generated code: an integer result that may
// leave its type (where the code would wrap) is unbounded, and a float
// result is widened by its type's rounding (and is unbounded past its
// largest finite value).
//
//===----------------------------------------------------------------------===//

#include "IndexRanges.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <cmath>

using namespace modelc;
using namespace modelc::sema;

namespace {

constexpr double kInf = INFINITY;

/// A closed interval of reals, either end possibly infinite.
struct Interval {
  double lo = -kInf, hi = kInf;
  bool bounded() const { return std::isfinite(lo) && std::isfinite(hi); }
};

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

/// Whether op `k` computes an integer that can wrap around its type (or, as
/// a cast from a float, leave it).
bool mayWrap(OpKind k) {
  switch (k) {
  case OpKind::Add:
  case OpKind::Sub:
  case OpKind::Mul:
  case OpKind::Div:
  case OpKind::Neg:
  case OpKind::Abs:
  case OpKind::Cast:
    return true;
  default:
    return false;
  }
}

/// The range of `n`'s values `r` as its element type holds them. An integer
/// result that may leave the type (i32; i64 past 2^53, where doubles stop
/// being exact) is unbounded, because the code would wrap: an op that
/// computes one must have both bounds inside. A float range is widened by
/// one relative rounding step of the type on each side, and is unbounded
/// past its largest finite value.
Interval representable(Interval r, const Node &n) {
  DType t = n.type.dtype;
  if (t == DType::Bool)
    return r;
  if (isInteger(t)) {
    double limit = t == DType::I32 ? 2147483647.0 : 9007199254740992.0;
    bool outside = r.lo < -limit || r.hi > limit;
    bool unsure = !r.bounded() && mayWrap(n.kind);
    return (outside && r.bounded()) || unsure ? Interval{} : r;
  }
  double step = t == DType::BF16  ? 0x1p-7
                : t == DType::F16 ? 0x1p-10
                : t == DType::F32 ? 0x1p-23
                                  : 0x1p-52;
  double largest = t == DType::BF16  ? 3.3895e38
                   : t == DType::F16 ? 65504.0
                   : t == DType::F32 ? 3.4028e38
                                     : 1.7976e308;
  auto widen = [&](double v, double dir) {
    return v + dir * (std::fabs(v) * step + 0x1p-126);
  };
  Interval w{widen(r.lo, -1), widen(r.hi, 1)};
  if (w.lo < -largest)
    w.lo = -kInf;
  if (w.hi > largest)
    w.hi = kInf;
  return w;
}

/// The range of every value of a graph, computed on demand and memoised.
class RangeFinder {
public:
  /// With `leaves.label` the labels that are classes; the label leaf also
  /// spans each loss's ignore_index, which the runtime lets through.
  RangeFinder(const Graph &graph, const LeafRanges &leaves)
      : graph(graph), leaves(leaves), labels(leaves.label) {
    for (const Node &n : graph.nodes)
      if (labels && n.kind == OpKind::CrossEntropy)
        for (int64_t ignored : attrsOf<OpKind::CrossEntropy>(n).ignore_index)
          labels = IntRange{std::min(labels->lo, ignored),
                            std::max(labels->hi, ignored)};
  }

  /// The labels that are classes (the data's labels less ignore_index).
  std::optional<IntRange> labelClasses() const { return leaves.label; }

  /// The values node `id` can take, as its element type holds them.
  Interval of(unsigned id) {
    auto it = memo.find(id);
    if (it != memo.end())
      return it->second;
    const Node &n = graph.nodes[id];
    Interval r = representable(compute(n), n);
    memo[id] = r;
    return r;
  }

private:
  Interval operand(const Node &n, unsigned i) { return of(n.operands[i]); }
  /// The range of `n` from its operands' (before its type's rounding).
  Interval compute(const Node &n);
  /// + - * /, maximum and minimum.
  Interval arithmetic(const Node &n);
  /// The data's samples and labels, constants and argmax.
  Interval leaf(const Node &n);
  /// Casts, neg, abs, relu.
  Interval unary(const Node &n);

  const Graph &graph;
  const LeafRanges &leaves;
  /// The label leaf's range: the classes and every ignore_index.
  std::optional<IntRange> labels;
  llvm::DenseMap<unsigned, Interval> memo;
};

Interval RangeFinder::arithmetic(const Node &n) {
  switch (n.kind) {
  case OpKind::Add:
    return corners(operand(n, 0), operand(n, 1),
                   [](double x, double y) { return x + y; });
  case OpKind::Sub:
    return corners(operand(n, 0), operand(n, 1),
                   [](double x, double y) { return x - y; });
  case OpKind::Mul:
    return corners(operand(n, 0), operand(n, 1),
                   [](double x, double y) { return x * y; });
  case OpKind::Div:
    return divide(operand(n, 0), operand(n, 1), isInteger(n.type.dtype));
  case OpKind::Max: {
    Interval a = operand(n, 0), b = operand(n, 1);
    return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
  }
  case OpKind::Min: {
    Interval a = operand(n, 0), b = operand(n, 1);
    return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
  }
  default:
    return {};
  }
}

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
    r = labels;
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

Interval RangeFinder::unary(const Node &n) {
  Interval x = operand(n, 0);
  switch (n.kind) {
  case OpKind::Cast: // a float cast to an integer truncates toward zero
    return isInteger(n.type.dtype)
               ? Interval{std::trunc(x.lo), std::trunc(x.hi)}
               : x;
  case OpKind::Neg:
    return {-x.hi, -x.lo};
  case OpKind::Abs:
    return {x.lo <= 0 && x.hi >= 0 ? 0
                                   : std::min(std::fabs(x.lo), std::fabs(x.hi)),
            std::max(std::fabs(x.lo), std::fabs(x.hi))};
  case OpKind::Relu:
    return {std::max(0.0, x.lo), std::max(0.0, x.hi)};
  default:
    return {};
  }
}

Interval RangeFinder::compute(const Node &n) {
  if (n.type.dtype == DType::Bool)
    return {0, 1};
  switch (n.kind) {
  case OpKind::Cast:
  case OpKind::Neg:
  case OpKind::Abs:
  case OpKind::Relu:
    return unary(n);
  case OpKind::Add:
  case OpKind::Sub:
  case OpKind::Mul:
  case OpKind::Div:
  case OpKind::Max:
  case OpKind::Min:
    return arithmetic(n);
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
  default:
    return leaf(n);
  }
}

std::string rangeText(Interval r) {
  return "[" + std::to_string(int64_t(r.lo)) + ", " +
         std::to_string(int64_t(r.hi)) + "]";
}

/// One use of an index: the op, the index's name, its bound and the
/// ignored value (cross_entropy's ignore_index) that may lie outside.
struct IndexUse {
  llvm::StringRef op, what;
  int64_t size;
  std::string limit;
  std::optional<int64_t> ignored;
};

/// Whether every value of `index` lies in [0, use.size) or is the ignored
/// value. A `where` is checked branch by branch, so that
/// where(keep, label, ignore_index) passes.
bool inRange(const Graph &graph, RangeFinder &ranges, unsigned index,
             const IndexUse &use, Interval &found) {
  const Node &n = graph.nodes[index];
  if (n.kind == OpKind::Where)
    return inRange(graph, ranges, n.operands[1], use, found) &&
           inRange(graph, ranges, n.operands[2], use, found);
  // The data's labels: its classes, or the ignore_index the runtime lets
  // through, which this use ignores.
  std::optional<IntRange> classes = ranges.labelClasses();
  if (n.kind == OpKind::Label && classes && use.ignored) {
    found = {double(classes->lo), double(classes->hi)};
    return classes->lo >= 0 && classes->hi < use.size;
  }
  found = ranges.of(index);
  if (!found.bounded())
    return false;
  if (use.ignored && found.lo == double(*use.ignored) && found.lo == found.hi)
    return true;
  Interval inside = found;
  if (use.ignored && inside.lo == double(*use.ignored))
    ++inside.lo;
  if (use.ignored && inside.hi == double(*use.ignored))
    --inside.hi;
  return inside.lo >= 0 && inside.hi <= double(use.size - 1);
}

/// Reports, at `user`, an index that is not provably inside its bound.
bool checkIndex(DiagnosticEngine &diags, const Graph &graph,
                RangeFinder &ranges, const Node &user, unsigned index,
                const IndexUse &use) {
  Interval found;
  if (use.size <= 0 || inRange(graph, ranges, index, use, found))
    return true;
  std::string clamp = "clamp them, as minimum(maximum(i, 0), " +
                      std::to_string(use.size - 1) + ") does for " +
                      use.what.str() + " i";
  if (use.ignored)
    clamp += " (or select ignore_index with where)";
  llvm::SMLoc at = user.locs.back();
  if (!found.bounded())
    diags.error(at, use.op + ": the " + use.what +
                        " cannot be bounded at compile time; any outside " +
                        use.limit + " would be read past the end: " + clamp);
  else
    diags.error(at, use.op + ": the " + use.what + " take values in " +
                        rangeText(found) + ", outside " + use.limit + "; " +
                        clamp);
  return false;
}

} // namespace

bool sema::checkIndexRanges(DiagnosticEngine &diags, const Graph &graph,
                            const LeafRanges &leaves) {
  RangeFinder ranges(graph, leaves);
  bool ok = true;
  for (const Node &n : graph.nodes) {
    if (n.kind == OpKind::Embedding && n.operands[0] != graph.inputs[0]) {
      int64_t rows = graph.nodes[n.operands[1]].type.shape[0].size;
      std::string limit = "the table's " + std::to_string(rows) + " rows [0, " +
                          std::to_string(rows) + ")";
      ok &= checkIndex(diags, graph, ranges, n, n.operands[0],
                       {"embedding_lookup", "ids", rows, limit, {}});
    }
    // The data's labels are checked against the data's classes; they are
    // checked here too where the logits are not the model's output (whose
    // classes Sema compares with the data's).
    if (n.kind == OpKind::CrossEntropy && graph.label &&
        isInteger(graph.nodes[n.operands[1]].type.dtype) &&
        (n.operands[1] != *graph.label || n.operands[0] != graph.output)) {
      const TensorType &logits = graph.nodes[n.operands[0]].type;
      int64_t classes =
          logits.shape.back().isSymbolic() ? 0 : logits.shape.back().size;
      std::vector<int64_t> ignore =
          attrsOf<OpKind::CrossEntropy>(n).ignore_index;
      std::string limit = "the logits' " + std::to_string(classes) +
                          " classes [0, " + std::to_string(classes) + ")";
      ok &= checkIndex(
          diags, graph, ranges, n, n.operands[1],
          {"cross_entropy", "targets", classes, limit,
           ignore.empty() ? std::nullopt : std::optional<int64_t>(ignore[0])});
    }
  }
  return ok;
}
