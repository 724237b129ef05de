//===- DecodeCheck.cpp - The decoding form computes position by position --===//
//
// checkPositionwise() (Decode.h) compares the decoding form of a model with
// the model, node by node. Both are elaborated from the same source, so
// node i of the form (its Position leaf skipped) is node i of the model,
// with the same operands. Their sizes agree except the batch (B in the
// model, 1 in the form) and the axis of positions (T in the model, 1 in the
// form), which a value has at most once. An op computes position by
// position when its result's axis of positions is where the op's rule puts
// its operands' (an elementwise op keeps it, a transpose moves it, a
// reduction over other axes shifts it) and it combines no two positions:
// it does not reduce, normalise, softmax, concatenate, slice or convolve
// over that axis, reshape it into other axes or contract over it. Causal
// self-attention over axis 2 of its query, key and value is the one op that
// combines positions: the form's attention_decode does it from its cache;
// and the model's positions(table, T) is the form's position_row. Anything
// else means the form does not compute what the model does.
//
//===----------------------------------------------------------------------===//

#include "Decode.h"

#include "llvm/ADT/STLExtras.h"

using namespace modelc;
using namespace modelc::sema;

namespace {

/// A value's axis of positions, if it has one.
using SeqAxis = std::optional<unsigned>;

/// What an op's rule gives its result: the axis of positions it must have,
/// or, when `mixes` is not empty, how the op combines positions.
struct AxisRule {
  SeqAxis axis;
  std::string mixes;
};

/// A rule that rejects the op: `why` says how it combines positions.
AxisRule mixing(std::string why) { return {std::nullopt, std::move(why)}; }

/// The number of symbolic dimensions and the product of the fixed ones
/// before axis `end` of `shape`.
std::pair<unsigned, int64_t> prefix(const Shape &shape, unsigned end) {
  std::pair<unsigned, int64_t> p{0, 1};
  for (unsigned d = 0; d < end; ++d)
    shape[d].isSymbolic() ? void(++p.first) : void(p.second *= shape[d].size);
  return p;
}

/// The check of one decoding form against its model.
class PositionwiseCheck {
public:
  PositionwiseCheck(const Graph &model, const DecodeForm &form,
                    const llvm::SourceMgr &sm)
      : model(model), form(form), one(form.graph), sm(sm),
        axes(form.graph.nodes.size()) {}

  /// "" when the form computes position by position, else why not.
  std::string run();

private:
  /// The model's node for the form's node `i`.
  unsigned counterpart(unsigned i) const {
    return i > form.position ? i - 1 : i;
  }
  /// The operands of `n` that are values of the model (not Position).
  llvm::SmallVector<unsigned> valueOperands(const Node &n) const;
  /// "op at file:line:col" (and the model's call it comes from).
  std::string where(const Node &n) const;
  /// Why node `i` is not the model's node (kind, operands, type).
  std::string matchStructure(unsigned i) const;
  /// Sets axes[i] from the sizes; why not when they differ otherwise.
  std::string findAxis(unsigned i);
  /// The op's rule for node `i`: products, normalisations, attention,
  /// windows, reductions, reshapes, transposes and concatenations...
  AxisRule rule(unsigned i) const;
  /// ... and the others: leaves, elementwise ops, slices, positions,
  /// embeddings.
  AxisRule ruleOthers(unsigned i) const;
  /// Rules shared by several ops.
  AxisRule mapped(const Node &n, bool product) const;
  AxisRule reshaped(const Node &n, unsigned i) const;
  AxisRule dropped(SeqAxis a, llvm::ArrayRef<int64_t> axes, bool keep,
                   llvm::StringRef what) const;
  AxisRule reduced(const Node &n, SeqAxis a) const;

  const Graph &model;
  const DecodeForm &form;
  const Graph &one;
  const llvm::SourceMgr &sm;
  std::vector<SeqAxis> axes;
};

} // namespace

llvm::SmallVector<unsigned>
PositionwiseCheck::valueOperands(const Node &n) const {
  llvm::SmallVector<unsigned> ops;
  for (unsigned o : n.operands)
    if (o != form.position)
      ops.push_back(o);
  return ops;
}

std::string PositionwiseCheck::where(const Node &n) const {
  return describeNode(n, sm);
}

std::string PositionwiseCheck::matchStructure(unsigned i) const {
  const Node &n = one.nodes[i];
  unsigned c = counterpart(i);
  std::string differs = "the model and its one-position form differ at " +
                        where(n);
  if (c >= model.nodes.size())
    return differs;
  const Node &m = model.nodes[c];
  bool kindOk =
      m.kind == n.kind ||
      (n.kind == OpKind::PositionRow && m.kind == OpKind::Positions) ||
      (n.kind == OpKind::AttentionDecode && m.kind == OpKind::Attention);
  llvm::SmallVector<unsigned> ops = valueOperands(n);
  bool operandsOk = ops.size() == m.operands.size();
  for (size_t k = 0; operandsOk && k < ops.size(); ++k)
    operandsOk = counterpart(ops[k]) == m.operands[k];
  if (!kindOk || !operandsOk || m.type.dtype != n.type.dtype ||
      m.type.rank() != n.type.rank())
    return differs;
  return "";
}

std::string PositionwiseCheck::findAxis(unsigned i) {
  const TensorType &m = model.nodes[counterpart(i)].type;
  const TensorType &n = one.nodes[i].type;
  for (unsigned d = 0; d < n.rank(); ++d) {
    bool batch = m.shape[d].isSymbolic() && n.shape[d].is(1);
    if (m.shape[d] == n.shape[d] || batch)
      continue;
    if (!m.shape[d].is(form.length) || !n.shape[d].is(1))
      return where(one.nodes[i]) + " has a size that depends on the sequence "
             "length (" + m.str() + " in the model, " + n.str() +
             " at one position)";
    if (axes[i])
      return where(one.nodes[i]) + " relates positions to positions (" +
             m.str() + ")";
    axes[i] = d;
  }
  return "";
}

/// Each operand's axis of positions mapped to the result aligned at the
/// last axis (elementwise ops with broadcasting; products, whose
/// contracted axes must not be it).
AxisRule PositionwiseCheck::mapped(const Node &n, bool product) const {
  SeqAxis result;
  llvm::SmallVector<unsigned> ops = valueOperands(n);
  for (size_t k = 0; k < ops.size(); ++k) {
    SeqAxis a = axes[ops[k]];
    if (!a)
      continue;
    unsigned rank = one.nodes[ops[k]].type.rank();
    if (product && *a == (k == 0 ? rank - 1 : rank - 2))
      return mixing("contracts over the positions");
    unsigned to = *a + n.type.rank() - rank;
    if (result && *result != to)
      return mixing("combines positions with positions");
    result = to;
  }
  return {result, ""};
}

/// A reshape keeps the axis of positions when the dimensions before it
/// hold as many elements in the result as in the operand.
AxisRule PositionwiseCheck::reshaped(const Node &n, unsigned i) const {
  unsigned op = valueOperands(n)[0];
  SeqAxis a = axes[op];
  if (!a)
    return {};
  const Shape &from = model.nodes[counterpart(op)].type.shape;
  const Shape &to = model.nodes[counterpart(i)].type.shape;
  for (unsigned j = 0; j < to.size(); ++j)
    if (to[j].is(form.length) && prefix(to, j) == prefix(from, *a))
      return {j, ""};
  return mixing("reshapes the positions into other axes");
}

/// A reduction over `dims` (kept as 1 when `keep`) of a value whose axis
/// of positions is `a`.
AxisRule PositionwiseCheck::dropped(SeqAxis a, llvm::ArrayRef<int64_t> dims,
                                    bool keep, llvm::StringRef what) const {
  if (!a)
    return {};
  if (llvm::is_contained(dims, int64_t(*a)))
    return mixing(what.str() + " over the positions");
  unsigned before = keep ? 0 : llvm::count_if(dims, [&](int64_t d) {
    return d < int64_t(*a);
  });
  return {*a - before, ""};
}

/// The softmaxes and the reductions of a value whose axis of positions is
/// `a`.
AxisRule PositionwiseCheck::reduced(const Node &n, SeqAxis a) const {
  switch (n.kind) {
  case OpKind::Softmax:
    return dropped(a, {attrsOf<OpKind::Softmax>(n).axis}, true, "normalises");
  case OpKind::LogSoftmax:
    return dropped(a, {attrsOf<OpKind::LogSoftmax>(n).axis}, true,
                   "normalises");
  case OpKind::ReduceSum:
    return dropped(a, attrsOf<OpKind::ReduceSum>(n).axes,
                   attrsOf<OpKind::ReduceSum>(n).keepdims, "reduces");
  case OpKind::ReduceMean:
    return dropped(a, attrsOf<OpKind::ReduceMean>(n).axes,
                   attrsOf<OpKind::ReduceMean>(n).keepdims, "reduces");
  case OpKind::ReduceMax:
    return dropped(a, attrsOf<OpKind::ReduceMax>(n).axes,
                   attrsOf<OpKind::ReduceMax>(n).keepdims, "reduces");
  default: // argmax
    return dropped(a, {attrsOf<OpKind::Argmax>(n).axis}, false, "reduces");
  }
}

AxisRule PositionwiseCheck::rule(unsigned i) const {
  const Node &n = one.nodes[i];
  llvm::SmallVector<unsigned> ops = valueOperands(n);
  SeqAxis a = ops.empty() ? SeqAxis() : axes[ops[0]];
  switch (n.kind) {
  case OpKind::MatMul:
  case OpKind::BatchMatMul:
    return mapped(n, /*product=*/true);
  case OpKind::LayerNorm: {
    unsigned normalised = one.nodes[ops[1]].type.rank();
    if (a && *a + normalised >= n.type.rank())
      return mixing("normalises over the positions");
    return mapped(n, false);
  }
  case OpKind::Attention:
    return mixing("is not causal");
  case OpKind::AttentionDecode:
    if (llvm::all_of(ops, [&](unsigned o) { return axes[o] == SeqAxis(2); }))
      return {2, ""};
    return mixing("attends over other keys than the positions of its query");
  case OpKind::Conv2D:
  case OpKind::MaxPool2D:
  case OpKind::AvgPool2D:
    return a ? mixing("slides a window over the positions") : AxisRule{};
  case OpKind::Softmax:
  case OpKind::LogSoftmax:
  case OpKind::ReduceSum:
  case OpKind::ReduceMean:
  case OpKind::ReduceMax:
  case OpKind::Argmax:
    return reduced(n, a);
  case OpKind::Reshape:
  case OpKind::Flatten:
    return reshaped(n, i);
  case OpKind::Transpose: {
    std::vector<int64_t> perm = attrsOf<OpKind::Transpose>(n).permutation;
    if (!a)
      return {};
    return {unsigned(llvm::find(perm, int64_t(*a)) - perm.begin()), ""};
  }
  case OpKind::Concat:
    for (unsigned o : ops)
      if (axes[o] && int64_t(*axes[o]) == attrsOf<OpKind::Concat>(n).axis)
        return mixing("concatenates along the positions");
    return mapped(n, false);
  default:
    return ruleOthers(i);
  }
}

AxisRule PositionwiseCheck::ruleOthers(unsigned i) const {
  const Node &n = one.nodes[i], &m = model.nodes[counterpart(i)];
  llvm::SmallVector<unsigned> ops = valueOperands(n);
  SeqAxis a = ops.empty() ? SeqAxis() : axes[ops[0]];
  switch (n.kind) {
  case OpKind::Slice: {
    OpAttrs<OpKind::Slice> s = attrsOf<OpKind::Slice>(m);
    if (!a)
      return {};
    bool whole = s.start[*a] == 0 && s.stride[*a] == 1 &&
                 (s.size[*a] == -1 || s.size[*a] == form.length);
    if (!whole || llvm::is_contained(s.drop, int64_t(*a)))
      return mixing("picks some of the positions");
    return dropped(a, s.drop, false, "picks");
  }
  case OpKind::PositionRow:
    if (attrsOf<OpKind::Positions>(m).length != form.length)
      return mixing("reads other rows than the sequence's positions");
    return {0, ""};
  case OpKind::Embedding:
    if (axes[ops[1]])
      return mixing("looks up a table of positions");
    return {a, ""};
  case OpKind::Input:
  case OpKind::Label:
  case OpKind::Param:
  case OpKind::Constant:
  case OpKind::CausalMask:
  case OpKind::Positions:
    return {axes[i], ""}; // what its sizes say: the tables were compared
  default:
    if (isLossKind(n.kind))
      return mixing("is a loss");
    return mapped(n, false); // elementwise ops, dropout, batch norm
  }
}

std::string PositionwiseCheck::run() {
  std::vector<bool> live(one.nodes.size(), false);
  live[one.output] = true;
  for (size_t i = one.nodes.size(); i-- > 0;)
    if (live[i])
      for (unsigned o : one.nodes[i].operands)
        live[o] = true;
  for (unsigned i = 0; i < one.nodes.size(); ++i) {
    if (!live[i] || i == form.position)
      continue;
    std::string why = matchStructure(i);
    if (why.empty())
      why = findAxis(i);
    if (!why.empty())
      return why;
    AxisRule e = rule(i);
    if (!e.mixes.empty())
      return where(one.nodes[i]) + " " + e.mixes;
    if (e.axis != axes[i])
      return where(one.nodes[i]) + " combines positions (" +
             model.nodes[counterpart(i)].type.str() + " in the model)";
  }
  if (axes[one.output] != SeqAxis(1))
    return "the output " + model.nodes[model.output].type.str() +
           " has no axis of positions after the batch";
  return "";
}

std::string sema::checkPositionwise(const Graph &model, const DecodeForm &form,
                                    const llvm::SourceMgr &sourceMgr) {
  return PositionwiseCheck(model, form, sourceMgr).run();
}
