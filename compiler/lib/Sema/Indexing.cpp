//===- Indexing.cpp - Subscripts x[i, a:b:c, ...] -------------------------===//
//
// The shape rule of a subscript. Every entry names one dimension, `...`
// stands for the dimensions no entry names (at most one `...`), and the
// dimensions after the last entry are kept whole. An integer index picks one
// element and drops its dimension; a slice `start:stop:step` keeps a strided
// window with Python's rules (negative positions count from the end, bounds
// are clamped, the step is positive). Every index is a compile-time integer.
// A symbolic dimension can only be kept whole (`:`). The result is one Slice
// node (see Ops.def).
//
//===----------------------------------------------------------------------===//

#include "Elaborator.h"

using namespace modelc;
using namespace modelc::sema;

namespace {

/// The window a subscript takes from one dimension.
struct DimWindow {
  int64_t start = 0, size = -1, stride = 1;
  bool drop = false;
};

/// Evaluates the subscript entries of one IndexExpr against a tensor type.
class SubscriptChecker {
public:
  SubscriptChecker(Elaborator &el, Frame &frame, const TensorType &type)
      : el(el), frame(frame), type(type) {}

  /// Maps every entry to its dimension; false after reporting an error.
  bool check(llvm::ArrayRef<IndexItem> items, std::vector<DimWindow> &out);

private:
  /// Evaluates one part of an entry to a compile-time integer.
  std::optional<int64_t> constant(const Expr &e, llvm::StringRef what);
  bool checkIndex(const IndexItem &item, unsigned dim, DimWindow &w);
  bool checkSlice(const IndexItem &item, unsigned dim, DimWindow &w);
  /// "dimension 1 (size 4) of f32[B, 4]".
  std::string dimName(unsigned dim) const {
    return "dimension " + std::to_string(dim) + " (size " +
           type.shape[dim].str() + ") of " + type.str();
  }

  Elaborator &el;
  Frame &frame;
  const TensorType &type;
};

} // namespace

std::optional<int64_t> SubscriptChecker::constant(const Expr &e,
                                                  llvm::StringRef what) {
  Value v = el.eval(e, frame);
  if (v.isError())
    return std::nullopt;
  if (v.kind != Value::Kind::Int) {
    el.error(e.getLoc(), "the " + what + " must be a compile-time integer, got " +
                             v.describe(el.graph), frame);
    return std::nullopt;
  }
  return v.i;
}

bool SubscriptChecker::checkIndex(const IndexItem &item, unsigned dim,
                                  DimWindow &w) {
  std::optional<int64_t> i = constant(*item.index, "index");
  if (!i)
    return false;
  const SDim &d = type.shape[dim];
  if (d.isSymbolic()) {
    el.error(item.range.Start, "cannot index the symbolic dimension '" +
                                   d.symbol + "' of " + type.str() +
                                   " (its size is known only at run time)",
             frame);
    return false;
  }
  if (*i < -d.size || *i >= d.size) {
    el.error(item.range.Start, "index " + llvm::Twine(*i) +
                                   " is out of range for " + dimName(dim),
             frame);
    return false;
  }
  w = DimWindow{*i < 0 ? *i + d.size : *i, 1, 1, true};
  return true;
}

bool SubscriptChecker::checkSlice(const IndexItem &item, unsigned dim,
                                  DimWindow &w) {
  std::optional<int64_t> parts[3];
  const ExprPtr *exprs[3] = {&item.start, &item.stop, &item.step};
  const char *names[3] = {"slice start", "slice stop", "slice step"};
  for (unsigned k = 0; k < 3; ++k)
    if (*exprs[k] && !(parts[k] = constant(**exprs[k], names[k])))
      return false;
  int64_t step = parts[2].value_or(1);
  if (step <= 0) {
    el.error((*exprs[2])->getLoc(),
             step == 0 ? llvm::Twine("the slice step cannot be zero")
                       : llvm::Twine("negative slice steps are not supported"),
             frame);
    return false;
  }
  const SDim &d = type.shape[dim];
  if (d.isSymbolic()) {
    if (parts[0].value_or(0) != 0 || parts[1] || step != 1) {
      el.error(item.range.Start, "cannot slice the symbolic dimension '" +
                                     d.symbol + "' of " + type.str() +
                                     "; only ':' (all of it) is allowed",
               frame);
      return false;
    }
    w = DimWindow{};
    return true;
  }
  // Python's rules: negative positions count from the end; clamp to [0, n].
  auto position = [&](std::optional<int64_t> p, int64_t dflt) {
    int64_t v = p ? (*p < 0 ? *p + d.size : *p) : dflt;
    return std::min(std::max<int64_t>(v, 0), d.size);
  };
  int64_t start = position(parts[0], 0), stop = position(parts[1], d.size);
  int64_t size = stop > start ? (stop - start + step - 1) / step : 0;
  if (size == 0) {
    el.error(item.range.Start, "the slice selects no element of " +
                                   dimName(dim),
             frame);
    return false;
  }
  w = DimWindow{start, size, step, false};
  return true;
}

bool SubscriptChecker::check(llvm::ArrayRef<IndexItem> items,
                             std::vector<DimWindow> &out) {
  const IndexItem *ellipsis = nullptr;
  std::vector<const IndexItem *> named;
  for (const IndexItem &item : items) {
    if (item.kind != IndexItem::Kind::Ellipsis) {
      named.push_back(&item);
      continue;
    }
    if (ellipsis) {
      el.error(item.range.Start, "a subscript can hold at most one '...'",
               frame);
      el.diags.note(ellipsis->range.Start, "the first '...' is here");
      return false;
    }
    ellipsis = &item;
  }
  if (named.size() > type.rank()) {
    el.error(named[type.rank()]->range.Start,
             "too many indices for " + type.str() + ": it has " +
                 llvm::Twine(type.rank()) + " dimensions, the subscript names " +
                 llvm::Twine(named.size()),
             frame);
    return false;
  }
  out.assign(type.rank(), DimWindow{});
  unsigned dim = 0;
  for (const IndexItem &item : items) {
    if (item.kind == IndexItem::Kind::Ellipsis) {
      dim += type.rank() - named.size(); // The dimensions `...` stands for.
      continue;
    }
    bool ok = item.kind == IndexItem::Kind::Index
                  ? checkIndex(item, dim, out[dim])
                  : checkSlice(item, dim, out[dim]);
    if (!ok)
      return false;
    ++dim;
  }
  for (unsigned d = 0; d < type.rank(); ++d)
    if (out[d].size == -1 && !type.shape[d].isSymbolic())
      out[d].size = type.shape[d].size;
  return true;
}

Value Elaborator::evalIndex(const IndexExpr &e, Frame &frame) {
  Value base = eval(e.getBase(), frame);
  if (base.isError())
    return base;
  if (base.kind != Value::Kind::Tensor) {
    error(e.getLBracketLoc(), "cannot subscript " + base.describe(graph) +
                                  ": only tensors can be indexed", frame);
    return Value::error();
  }
  TensorType type = typeOf(base);
  std::vector<DimWindow> windows;
  if (!SubscriptChecker(*this, frame, type).check(e.getItems(), windows))
    return Value::error();
  OpAttrs<OpKind::Slice> attrs;
  TensorType result{type.dtype, {}};
  for (unsigned d = 0; d < type.rank(); ++d) {
    const DimWindow &w = windows[d];
    attrs.start.push_back(w.start);
    attrs.size.push_back(w.size);
    attrs.stride.push_back(w.stride);
    if (w.drop)
      attrs.drop.push_back(d);
    else
      result.shape.push_back(type.shape[d].isSymbolic() ? type.shape[d]
                                                        : SDim::fixed(w.size));
  }
  // Dropping dimensions is a reshape, which keeps a symbolic dimension only
  // in front.
  for (unsigned d = 1; d < type.rank() && !attrs.drop.empty(); ++d)
    if (type.shape[d].isSymbolic()) {
      error(e.getLBracketLoc(), "integer indices on " + type.str() +
                                    " are not supported: its symbolic "
                                    "dimension is not the first",
            frame);
      return Value::error();
    }
  return addNode({base.node}, result, attrs, e.getLBracketLoc(), frame,
                 "the subscript at " + where(e.getLBracketLoc()));
}
