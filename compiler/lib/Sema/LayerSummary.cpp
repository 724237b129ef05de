//===- LayerSummary.cpp - The model's layers for `info` -------------------===//
//
// Groups the nodes of a checked graph by the top-level call they come from:
// a node inside an instantiation belongs to its outermost enclosing instance
// (Instance::parent == -1); a non-leaf node of the model body is a layer of
// its own. The summary is computed here, on the checked graph, because the
// graph knows each node's instance and the instance names the parameter
// table uses; the mdl IR keeps only locations.
//
// A parameter declared in the model's body belongs to the first layer that
// reads it (directly, or through nodes computed once per step such as a
// cast). A layer's output is its last node in graph order; its activation bytes
// are that output's bytes per sample (views such as flatten included), as
// the program stores it: 4 per bf16 or f16 element too, since every op on
// them computes and stores f32 values rounded to their type.
// FLOPs come from modelsupport/Flops.h and count the forward pass only,
// elementwise work included (a convolution's bias add too): a different
// quantity from ModelrtProgram.train_flops_per_sample
// (Codegen/FlopCount.cpp), which counts the products of the forward and
// backward passes.
//
//===----------------------------------------------------------------------===//

#include "modelc/Sema/LayerSummary.h"

#include "Elaborator.h"

#include "modelsupport/Flops.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>

using namespace modelc;
using namespace modelc::sema;
namespace flops = modelsupport;

/// Elements of `t` per sample: symbolic dimensions count as 1.
static double sampleElements(const TensorType &t) {
  double n = 1;
  for (const SDim &d : t.shape)
    n *= d.isSymbolic() ? 1.0 : double(d.size);
  return n;
}

/// The shape of `t` without its leading batch (symbolic) dimension.
static std::vector<int64_t> sampleShape(const TensorType &t) {
  std::vector<int64_t> shape;
  for (size_t d = 0; d < t.shape.size(); ++d)
    if (!(d == 0 && t.shape[d].isSymbolic()))
      shape.push_back(t.shape[d].isSymbolic() ? 1 : t.shape[d].size);
  return shape;
}

static int64_t dtypeBytes(DType d) {
  switch (d) {
  case DType::F64:
  case DType::I64:
    return 8;
  case DType::Bool:
    return 1;
  default: // bf16 and f16 too: their buffers hold the f32 values every op
           // on them computes (mdl-widen-low-precision), rounded
    return 4;
  }
}

/// Product of the window sizes in `kernel`.
static double windowElements(const std::vector<int64_t> &kernel) {
  double n = 1;
  for (int64_t k : kernel)
    n *= double(k);
  return n;
}

double sema::nodeFlops(const Graph &graph, const Node &node) {
  double out = sampleElements(node.type);
  auto operand = [&](unsigned i) -> const TensorType & {
    return graph.nodes[node.operands[i]].type;
  };
  switch (node.kind) {
  case OpKind::MatMul:
  case OpKind::BatchMatMul: {
    const Shape &lhs = operand(0).shape;
    double k = lhs.empty() || lhs.back().isSymbolic() ? 1 : lhs.back().size;
    return flops::productFlops(out, k);
  }
  case OpKind::Attention: { // two products of [Tq, Tk] x D per head
    const Shape &k = operand(1).shape;
    double keys = k[2].isSymbolic() ? 1 : double(k[2].size);
    return 2 * flops::productFlops(out, keys);
  }
  case OpKind::Conv2D: {
    const Shape &w = operand(1).shape;
    double window = 1;
    for (size_t i = 1; i < w.size(); ++i)
      window *= w[i].isSymbolic() ? 1.0 : double(w[i].size);
    double bias = node.operands.size() > 2 ? flops::elementwiseFlops(out) : 0;
    return flops::convolutionFlops(out, window) + bias;
  }
  case OpKind::MaxPool2D:
    return flops::poolingFlops(
        out, windowElements(attrsOf<OpKind::MaxPool2D>(node).kernel));
  case OpKind::AvgPool2D:
    return flops::poolingFlops(
        out, windowElements(attrsOf<OpKind::AvgPool2D>(node).kernel));
  case OpKind::Softmax:
  case OpKind::LogSoftmax:
  case OpKind::ReduceSum:
  case OpKind::ReduceMean:
  case OpKind::ReduceMax:
  case OpKind::Argmax:
    return flops::reductionFlops(sampleElements(operand(0)));
  case OpKind::Reshape:
  case OpKind::Flatten:
  case OpKind::Transpose:
  case OpKind::Concat:
  case OpKind::Slice:
  case OpKind::Positions:
  case OpKind::Embedding:
    return 0;
  default:
    return getOpSource(node.kind) == OpSource::Leaf || isLossKind(node.kind)
               ? 0
               : flops::elementwiseFlops(out);
  }
}

/// The outermost instance enclosing `instance` (-1 stays -1).
static int rootInstance(const Graph &graph, int instance) {
  while (instance >= 0 && graph.instances[instance].parent >= 0)
    instance = graph.instances[instance].parent;
  return instance;
}

/// Marks the nodes the model's output depends on.
static std::vector<bool> outputCone(const Graph &graph) {
  std::vector<bool> live(graph.nodes.size(), false);
  if (graph.output < live.size())
    live[graph.output] = true;
  for (size_t i = graph.nodes.size(); i-- > 0;)
    if (live[i])
      for (unsigned o : graph.nodes[i].operands)
        live[o] = true;
  return live;
}

/// Marks the nodes that depend on a model input: the others (a parameter's
/// cast, say) are computed once per step, not per sample; they are no
/// layer of their own and add nothing to their instance's row.
static std::vector<bool> inputCone(const Graph &graph) {
  std::vector<bool> fromInput(graph.nodes.size(), false);
  for (unsigned in : graph.inputs)
    if (in < fromInput.size())
      fromInput[in] = true;
  for (size_t i = 0; i < graph.nodes.size(); ++i)
    for (unsigned o : graph.nodes[i].operands)
      fromInput[i] = fromInput[i] || fromInput[o];
  return fromInput;
}

/// The model-level parameters (declared in the model's body) each node
/// reads with no model input on the way: a Param node's own, and those of
/// the operands of a node computed once per step (a weight's cast).
static std::vector<std::vector<std::string>>
modelParamsRead(const Graph &graph, const std::vector<bool> &perSample) {
  std::vector<std::vector<std::string>> reads(graph.nodes.size());
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node &n = graph.nodes[i];
    if (n.kind == OpKind::Param && n.instance < 0)
      reads[i].push_back(attrsOf<OpKind::Param>(n).symbol);
    if (!perSample[i])
      for (unsigned o : n.operands)
        reads[i].insert(reads[i].end(), reads[o].begin(), reads[o].end());
    llvm::sort(reads[i]); // once each: a chain of diamonds would double them
    reads[i].erase(std::unique(reads[i].begin(), reads[i].end()),
                   reads[i].end());
  }
  return reads;
}

/// What the user calls `kind`: the first builtin of the table that adds
/// it ("max_pool" for max_pool2d), else the op's name ("add", "matmul").
static llvm::StringRef spelledName(OpKind kind) {
  for (const BuiltinInfo &b : getBuiltins())
    if (b.op == kind)
      return b.name;
  return getOpKindName(kind);
}

/// A model-level op's layer name: "relu", then "relu_1", "relu_2", ...
static std::string opLayerName(std::map<std::string, int> &seen,
                               OpKind kind) {
  llvm::StringRef op = spelledName(kind);
  int n = seen[op.str()]++;
  return n == 0 ? op.str() : op.str() + "_" + std::to_string(n);
}

std::vector<LayerSummary> sema::summarizeLayers(const Graph &graph) {
  std::vector<LayerSummary> layers;
  std::map<int, size_t> byInstance; // root instance -> index in `layers`
  std::map<std::string, int> seen;
  std::map<std::string, size_t> ownerOf; // model-level parameter -> row
  std::vector<bool> live = outputCone(graph), perSample = inputCone(graph);
  std::vector<std::vector<std::string>> reads =
      modelParamsRead(graph, perSample);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node &n = graph.nodes[i];
    if (!live[i] || getOpSource(n.kind) == OpSource::Leaf)
      continue;
    int root = rootInstance(graph, n.instance);
    if (!perSample[i] && root < 0)
      continue;
    size_t index = layers.size();
    if (root >= 0 && byInstance.count(root)) {
      index = byInstance[root];
    } else {
      layers.emplace_back();
      layers.back().name = root >= 0 ? graph.instances[root].name
                                     : opLayerName(seen, n.kind);
      if (root >= 0)
        byInstance[root] = index;
    }
    // A node of no model input leaves the row (which carries its
    // instance's parameters) as it is.
    if (!perSample[i])
      continue;
    for (unsigned o : n.operands) // the first row reading it owns it
      for (const std::string &param :
           perSample[o] ? std::vector<std::string>() : reads[o])
        ownerOf.emplace(param, index);
    LayerSummary &l = layers[index];
    l.flops += nodeFlops(graph, n);
    l.shape = sampleShape(n.type);
    l.activationBytes = int64_t(sampleElements(n.type)) * dtypeBytes(n.type.dtype);
  }
  for (const TableEntry &p : graph.params) {
    auto it = byInstance.find(rootInstance(graph, p.instance));
    auto own = ownerOf.find(p.name);
    if (p.instance >= 0 && it != byInstance.end())
      layers[it->second].params += int64_t(sampleElements(p.type));
    else if (p.instance < 0 && own != ownerOf.end())
      layers[own->second].params += int64_t(sampleElements(p.type));
  }
  return layers;
}
