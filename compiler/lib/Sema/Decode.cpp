//===- Decode.cpp - The decoding form of the main model -------------------===//
//
// A model over sequences [B, T, ...] whose attention is causal computes its
// output at position t from the positions 0..t alone. Generating one
// position after another then needs, per new position, one pass of that
// position alone through the model, each attention reading the keys and
// values of the earlier positions from a cache: O(T) work, not a forward
// pass over the whole window. buildDecodeForm() elaborates the main model a
// second time in that form (the Elaborator's DecodeMode: input [1, 1, ...],
// positions(table, T) the decoded position's row, each causal attention an
// attention_decode node over its own cache) and keeps it only when it is
// the model computed one position at a time (DecodeCheck.cpp). Otherwise
// the program has no decoding form, and Program::noDecode says why: that is
// not an error (the model still trains and predicts).
//
//===----------------------------------------------------------------------===//

#include "Decode.h"

#include "llvm/Support/Path.h"

using namespace modelc;
using namespace modelc::sema;

std::string sema::describeNode(const Node &n, const llvm::SourceMgr &sm) {
  std::string s = getOpKindName(n.kind).str() + " at " +
                  formatLoc(sm, n.locs.front());
  if (n.locs.size() > 1)
    s += " (called at " + formatLoc(sm, n.locs.back()) + ")";
  return s;
}

/// Why `model` has no decoding form before trying one ("" when it may
/// have one); sets `length` to its sequence length T.
static std::string notCandidate(const Graph &model, const llvm::SourceMgr &sm,
                                int64_t &length) {
  for (const Node &n : model.nodes)
    if (n.kind == OpKind::Attention && !attrsOf<OpKind::Attention>(n).causal)
      return "non-causal " + describeNode(n, sm) +
             " sees later positions, which a decoder has not seen yet";
  if (model.inputs.size() != 1)
    return "the model has several inputs";
  const TensorType &in = model.nodes[model.inputs[0]].type;
  if (in.rank() < 2 || !in.shape[0].isSymbolic())
    return "its input " + in.str() + " is not a batch of sequences [B, T, ...]";
  length = in.shape[1].size;
  if (length < 2)
    return "its sequences have one position";
  return "";
}

/// The first line of what a quiet elaboration reported, its path cut down
/// to the file's name.
static std::string firstLine(const std::string &report) {
  std::string line = report.substr(0, report.find('\n'));
  size_t colon = line.find(':');
  if (colon == std::string::npos)
    return line;
  return llvm::sys::path::filename(line.substr(0, colon)).str() +
         line.substr(colon);
}

/// Why the tables of `model` and of its decoding form `one` differ ("" when
/// they do not): a parameter or state tensor whose shape depends on the
/// sequence length.
static std::string compareTables(const Graph &model, const Graph &one) {
  for (const auto &[a, b, what] :
       {std::tuple(&model.params, &one.params, "parameter"),
        std::tuple(&model.states, &one.states, "state tensor")}) {
    if (a->size() != b->size())
      return std::string("the model at one position has other ") + what +
             "s";
    for (size_t i = 0; i < a->size(); ++i)
      if ((*a)[i].name != (*b)[i].name || (*a)[i].type != (*b)[i].type)
        return std::string(what) + " '" + (*a)[i].name + "' is " +
               (*a)[i].type.str() + " in the model but " +
               (*b)[i].type.str() + " at one position";
  }
  return "";
}

std::optional<DecodeForm>
sema::buildDecodeForm(DiagnosticEngine &diags, const Graph &model,
                      const FuncDecl &decl, const ModuleInfo &module,
                      const std::vector<const ModuleInfo *> &allModules,
                      std::string &whyNot) {
  whyNot.clear();
  if (llvm::none_of(model.nodes, [](const Node &n) {
        return n.kind == OpKind::Attention;
      }))
    return std::nullopt;
  llvm::SourceMgr &sm = diags.getSourceMgr();
  DecodeForm form;
  whyNot = notCandidate(model, sm, form.length);
  if (!whyNot.empty())
    return std::nullopt;
  std::string report;
  llvm::raw_string_ostream os(report);
  DiagnosticEngine quiet(sm, os);
  DecodeMode mode{form.length};
  Elaborator el(quiet, form.graph, allModules, &mode);
  if (!el.elaborateModel(decl, module)) {
    whyNot = "at one position: " + firstLine(report);
    return std::nullopt;
  }
  form.position = mode.position;
  form.numCaches = mode.caches;
  whyNot = compareTables(model, form.graph);
  if (whyNot.empty())
    whyNot = checkPositionwise(model, form, sm);
  if (!whyNot.empty())
    return std::nullopt;
  return form;
}
