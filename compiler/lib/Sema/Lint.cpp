//===- Lint.cpp - Warnings over a checked model graph ---------------------===//
//
// Warnings that catch mistakes which are not type errors: a layer whose
// output is never used, a parameter the loss never reaches (it would never be
// trained), and dropout applied right before the model's output.
//
//===----------------------------------------------------------------------===//

#include "Config.h"

#include <set>

using namespace modelc;
using namespace modelc::sema;

void sema::lintGraph(DiagnosticEngine &diags, const Graph &graph) {
  std::vector<unsigned> users(graph.nodes.size(), 0);
  for (const Node &n : graph.nodes)
    for (unsigned o : n.operands)
      ++users[o];
  std::set<const char *> warned;
  for (const auto &kv : graph.letNames) {
    unsigned id = kv.first;
    if (users[id] || id == graph.output || (graph.loss && id == *graph.loss))
      continue;
    if (!warned.insert(kv.second.second.getPointer()).second)
      continue;
    diags.warning(kv.second.second,
                  "the value of '" + kv.second.first +
                      "' is never used (computed by " +
                      graph.nodes[id].origin + ")");
  }
  // Which nodes does the objective (the loss, else the output) depend on?
  std::vector<bool> live(graph.nodes.size(), false);
  live[graph.loss ? *graph.loss : graph.output] = true;
  for (size_t i = graph.nodes.size(); i-- > 0;)
    if (live[i])
      for (unsigned o : graph.nodes[i].operands)
        live[o] = true;
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node &n = graph.nodes[i];
    if (n.kind != OpKind::Param || live[i])
      continue;
    diags.warning(n.locs.front(),
                  "parameter '" + attrsOf<OpKind::Param>(n).symbol + "' never reaches " +
                      (graph.loss ? "the loss" : "the model's output") +
                      ", so it is never trained");
    for (int i = n.instance; i >= 0; i = graph.instances[i].parent)
      diags.note(graph.instances[i].callSite,
                 "in '" + graph.instances[i].callee + "' (instance " +
                     graph.instances[i].name + ") called from here");
  }
  const Node &out = graph.nodes[graph.output];
  if (out.kind == OpKind::Dropout) {
    diags.warning(out.locs.front(),
                  "dropout right before the model's output zeroes logits at "
                  "random during training; apply dropout before the last "
                  "layer instead");
  }
}
