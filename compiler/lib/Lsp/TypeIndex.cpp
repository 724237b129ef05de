//===- TypeIndex.cpp - Inferred types by source location ------------------===//
//
// Builds the type index from the checked (possibly partial) program. Every
// graph node carries its location and the call sites it was instantiated
// from; for each of those locations in the main file, the value computed
// there is the last node attributed to it (operands precede their users),
// once per instantiation of the enclosing function. Bindings, model inputs
// and parameters are added by name. Also the parameters of a layer call.
//
//===----------------------------------------------------------------------===//

#include "modelc/Lsp/Analysis.h"

#include <set>

using namespace modelc;
using namespace modelc::lsp;
using namespace modelc::sema;

namespace {
/// Collects (location, enclosing instance) -> node for one graph.
class GraphIndexer {
public:
  GraphIndexer(Analysis &a, unsigned graphId)
      : a(a), g(a.program->models[graphId]), graphId(graphId) {
    const llvm::MemoryBuffer *b = a.sourceMgr.getMemoryBuffer(a.mainBuffer);
    begin = b->getBufferStart();
    end = b->getBufferEnd();
  }

  /// Fills a.types with this graph's values.
  void run() {
    for (unsigned i = 0; i < g.nodes.size(); ++i)
      indexNode(i);
    for (const auto &[key, node] : last)
      add(key.first, node, key.second);
    for (const auto &[node, let] : g.letNames)
      if (node < g.nodes.size() && inMain(let.second.getPointer()))
        add(let.second.getPointer(), node, g.nodes[node].instance);
    indexInputs();
    for (const TableEntry &p : g.params)
      if (inMain(p.loc.getPointer()))
        addParam(p);
  }

private:
  bool inMain(const char *p) const { return p && p >= begin && p <= end; }

  /// The instance `depth` levels above `instance` (-1: the model's body).
  int ancestor(int instance, size_t depth) const {
    for (; depth > 0 && instance >= 0; --depth)
      instance = g.instances[instance].parent;
    return instance;
  }

  void indexNode(unsigned id) {
    const Node &n = g.nodes[id];
    for (size_t k = 0; k < n.locs.size(); ++k)
      if (inMain(n.locs[k].getPointer()))
        last[{n.locs[k].getPointer(), ancestor(n.instance, k)}] = id;
  }

  std::string contextName(int instance) const {
    return instance < 0 ? std::string() : g.instances[instance].name;
  }

  void add(const char *loc, unsigned node, int instance) {
    std::vector<TypeAt> &types = a.types.byLoc[loc];
    std::string context = contextName(instance);
    for (TypeAt &t : types)
      if (t.context == context && t.graph == graphId) {
        t.type = g.nodes[node].type.str();
        t.node = node;
        return;
      }
    types.push_back({g.nodes[node].type.str(), context, graphId, node});
  }

  /// A parameter, unless its node already gave its declaration a type.
  void addParam(const TableEntry &p) {
    std::vector<TypeAt> &types = a.types.byLoc[p.loc.getPointer()];
    std::string context = contextName(p.instance);
    for (const TypeAt &t : types)
      if (t.context == context && t.graph == graphId)
        return;
    types.push_back({p.type.str(), context, graphId, 0});
  }

  /// The model's inputs, by the names of its signature.
  void indexInputs() {
    for (const DeclPtr &d : a.module->getDecls()) {
      auto *fn = llvm::dyn_cast<FuncDecl>(d.get());
      if (!fn || !fn->isModel() || fn->getName() != g.modelName)
        continue;
      for (size_t i = 0; i < fn->getParams().size() && i < g.inputs.size(); ++i)
        add(fn->getParams()[i].nameRange.Start.getPointer(), g.inputs[i], -1);
    }
  }

  Analysis &a;
  const Graph &g;
  unsigned graphId;
  const char *begin, *end;
  std::map<std::pair<const char *, int>, unsigned> last;
};
} // namespace

void lsp::buildTypeIndex(Analysis &a) {
  if (!a.program)
    return;
  for (unsigned i = 0; i < a.program->models.size(); ++i)
    GraphIndexer(a, i).run();
}

/// True when `instance` is `root` or one it calls.
static bool within(const Graph &g, int instance, int root) {
  for (; instance >= 0; instance = g.instances[instance].parent)
    if (instance == root)
      return true;
  return false;
}

std::vector<LayerParam> Analysis::layerParams(llvm::SMLoc key) const {
  std::vector<LayerParam> params;
  if (!program)
    return params;
  for (const Graph &g : program->models) {
    for (int i = 0; i < int(g.instances.size()); ++i) {
      if (g.instances[i].callSite != key)
        continue;
      for (const TableEntry &p : g.params)
        if (within(g, p.instance, i))
          params.push_back(
              {p.name, p.type.str(), numElements(p.type.shape).value_or(0)});
      return params;
    }
  }
  return params;
}
