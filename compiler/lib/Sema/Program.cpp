//===- Program.cpp - The checked program and its printed form -------------===//
//
// The op registry read from Ops.def (names, sources, typed attributes),
// accessors of the checked program and printProgram(), the user-facing text
// of `modelc --emit=sema`: per model the instantiations and their
// dimension bindings, every value with its type and source location, the
// parameter and state tables; then the data and train configurations, and
// the main model's decoding form (or why it has none).
//
//===----------------------------------------------------------------------===//

#include "modelc/Sema/Program.h"

#include "modelsupport/Precision.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <cassert>

using namespace modelc;
using namespace modelc::sema;

namespace {
/// One row of Ops.def.
struct OpRow {
  const char *name;
  OpSource source;
  std::vector<llvm::StringRef> attrNames;
};
} // namespace

/// Ops.def as a table indexed by OpKind.
static const std::vector<OpRow> &opRows() {
#define MODELC_ATTR(Type, Field) #Field,
#define MODELC_OP(Kind, Name, Source, Attrs) {Name, OpSource::Source, {Attrs}},
  static const std::vector<OpRow> rows = {
#include "modelc/Sema/Ops.def"
  };
  return rows;
}

llvm::StringRef sema::getOpKindName(OpKind kind) {
  return opRows()[unsigned(kind)].name;
}

std::optional<OpKind> sema::lookupOpKind(llvm::StringRef name) {
  const std::vector<OpRow> &rows = opRows();
  for (unsigned i = 0; i < rows.size(); ++i)
    if (name == rows[i].name)
      return OpKind(i);
  return std::nullopt;
}

OpSource sema::getOpSource(OpKind kind) {
  return opRows()[unsigned(kind)].source;
}

std::vector<llvm::StringRef> sema::getOpAttrNames(OpKind kind) {
  return opRows()[unsigned(kind)].attrNames;
}

bool sema::isLossKind(OpKind kind) {
  return kind == OpKind::CrossEntropy || kind == OpKind::MSELoss ||
         kind == OpKind::L1Loss || kind == OpKind::BCEWithLogits;
}

/// A node attribute of each attribute type.
static NodeAttr makeAttr(const char *name, int64_t v) {
  return {name, {v}, 0, "", {}, NodeAttr::Kind::Int};
}
static NodeAttr makeAttr(const char *name, const std::vector<int64_t> &v) {
  return {name, v, 0, "", {}, NodeAttr::Kind::Ints};
}
static NodeAttr makeAttr(const char *name, double v) {
  return {name, {}, v, "", {}, NodeAttr::Kind::Number};
}
static NodeAttr makeAttr(const char *name, const std::vector<double> &v) {
  return {name, {}, 0, "", v, NodeAttr::Kind::Numbers};
}
static NodeAttr makeAttr(const char *name, const std::string &v) {
  return {name, {}, 0, v, {}, NodeAttr::Kind::Text};
}

/// Reads attribute `i` of `n` (named `name`) into a field of each type.
static const NodeAttr &attrAt(const Node &n, unsigned i, const char *name,
                              NodeAttr::Kind kind) {
  assert(i < n.attrs.size() && n.attrs[i].name == name &&
         n.attrs[i].kind == kind && "node attributes out of Ops.def order");
  (void)name;
  (void)kind;
  return n.attrs[i];
}
static void readAttr(const Node &n, unsigned i, const char *name,
                     int64_t &v) {
  v = attrAt(n, i, name, NodeAttr::Kind::Int).ints[0];
}
static void readAttr(const Node &n, unsigned i, const char *name,
                     std::vector<int64_t> &v) {
  v = attrAt(n, i, name, NodeAttr::Kind::Ints).ints;
}
static void readAttr(const Node &n, unsigned i, const char *name, double &v) {
  v = attrAt(n, i, name, NodeAttr::Kind::Number).number;
}
static void readAttr(const Node &n, unsigned i, const char *name,
                     std::vector<double> &v) {
  v = attrAt(n, i, name, NodeAttr::Kind::Numbers).numbers;
}
static void readAttr(const Node &n, unsigned i, const char *name,
                     std::string &v) {
  v = attrAt(n, i, name, NodeAttr::Kind::Text).text;
}

// OpAttrs<K>::toList and OpAttrs<K>::fromNode of every op of Ops.def.
#define MODELC_ATTR(Type, Field) list.push_back(makeAttr(#Field, Field));
#define MODELC_OP(Kind, Name, Source, Attrs)                                   \
  std::vector<NodeAttr> OpAttrs<OpKind::Kind>::toList() const {                \
    std::vector<NodeAttr> list;                                                \
    Attrs return list;                                                         \
  }
#include "modelc/Sema/Ops.def"

#define MODELC_ATTR(Type, Field) readAttr(node, i++, #Field, attrs.Field);
#define MODELC_OP(Kind, Name, Source, Attrs)                                   \
  OpAttrs<OpKind::Kind> OpAttrs<OpKind::Kind>::fromNode(const Node &node) {    \
    assert(node.kind == OpKind::Kind && "attributes of another op");          \
    OpAttrs attrs;                                                             \
    unsigned i = 0;                                                            \
    Attrs (void)i;                                                             \
    (void)node;                                                                \
    return attrs;                                                              \
  }
#include "modelc/Sema/Ops.def"

std::string sema::formatNumber(double v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%g", v);
  return s;
}

std::string Initializer::str() const {
  std::vector<std::string> parts;
  for (double a : args)
    parts.push_back(formatNumber(a));
  if (parts.empty())
    return kind;
  return kind + "(" + llvm::join(parts, ", ") + ")";
}

const Graph *Program::getMainModel() const {
  if (train)
    for (const Graph &g : models)
      if (g.modelName == train->modelName)
        return &g;
  return models.size() == 1 ? &models[0] : nullptr;
}

/// Prints one node's attributes as `{a = 1, b = [1, 2]}`.
static void printAttrs(llvm::raw_ostream &os, const Node &n) {
  if (n.attrs.empty())
    return;
  os << " {";
  for (size_t i = 0; i < n.attrs.size(); ++i) {
    const NodeAttr &a = n.attrs[i];
    os << (i ? ", " : "") << a.name << " = ";
    if (a.kind == NodeAttr::Kind::Number)
      os << formatNumber(a.number);
    else if (a.kind == NodeAttr::Kind::Text)
      os << '"' << a.text << '"';
    else if (a.kind == NodeAttr::Kind::Int)
      os << a.ints[0];
    else if (a.kind == NodeAttr::Kind::Numbers) {
      os << '[';
      for (size_t j = 0; j < a.numbers.size(); ++j)
        os << (j ? ", " : "") << formatNumber(a.numbers[j]);
      os << ']';
    } else {
      os << '[';
      for (size_t j = 0; j < a.ints.size(); ++j)
        os << (j ? ", " : "") << a.ints[j];
      os << ']';
    }
  }
  os << '}';
}

/// Prints every value of `g`: its op, operands, attributes, type, place.
static void printValues(llvm::raw_ostream &os, const Graph &g,
                        const llvm::SourceMgr &sm) {
  os << "  values:\n";
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node &n = g.nodes[i];
    os << "    %" << i << " = " << getOpKindName(n.kind);
    for (size_t j = 0; j < n.operands.size(); ++j)
      os << (j ? ", %" : " %") << n.operands[j];
    printAttrs(os, n);
    os << " : " << n.type.str() << " @" << formatLoc(sm, n.locs.front());
    if (n.instance >= 0)
      os << " in " << g.instances[n.instance].name;
    auto let = g.letNames.find(i);
    if (let != g.letNames.end())
      os << " (" << let->second.first << ")";
    os << "\n";
  }
}

static void printGraph(llvm::raw_ostream &os, const Graph &g,
                       const llvm::SourceMgr &sm) {
  os << "model " << g.modelName << " @" << formatLoc(sm, g.loc) << "\n";
  if (!g.instances.empty())
    os << "  instances:\n";
  for (const Instance &inst : g.instances) {
    os << "    " << inst.name << " = " << inst.callee << " called at "
       << formatLoc(sm, inst.callSite);
    if (inst.parent >= 0)
      os << " in " << g.instances[inst.parent].name;
    std::vector<std::string> b;
    for (auto &kv : inst.bindings)
      b.push_back(kv.first + " = " + kv.second);
    if (!b.empty())
      os << " {" << llvm::join(b, ", ") << "}";
    os << "\n";
  }
  printValues(os, g, sm);
  os << "  output %" << g.output << " : " << g.nodes[g.output].type.str()
     << "\n";
  if (g.loss)
    os << "  loss %" << *g.loss << " : " << g.nodes[*g.loss].type.str()
       << "\n";
  os << "  parameters:\n";
  int64_t total = 0;
  for (const TableEntry &p : g.params) {
    os << "    " << p.name << " : " << p.type.str() << " = " << p.init.str()
       << " @" << formatLoc(sm, p.loc) << "\n";
    total += numElements(p.type.shape).value_or(0);
  }
  os << "    (" << g.params.size() << " tensors, " << total << " values)\n";
  if (!g.states.empty())
    os << "  state:\n";
  for (const TableEntry &s : g.states)
    os << "    " << s.name << " : " << s.type.str() << " = " << s.init.str()
       << "\n";
}

static void printData(llvm::raw_ostream &os, const DataConfig &d) {
  os << "data " << d.name << "\n";
  for (const auto *split : {&d.train, &d.test}) {
    if (!*split)
      continue;
    os << "  " << (split == &d.train ? "train" : "test") << ": "
       << (*split)->format << " " << llvm::join((*split)->paths, ", ");
    if ((*split)->numSamples >= 0)
      os << " (" << (*split)->numSamples << " samples)";
    os << "\n";
  }
  os << "  sample: " << d.storedType << shapeStr(d.sampleShape);
  if (d.featureMean.empty()) {
    os << ", transform: x * " << formatNumber(d.scale) << " + " << formatNumber(d.shift) << "\n";
  } else {
    auto list = [](const std::vector<double> &v) {
      std::vector<std::string> s;
      for (double x : v)
        s.push_back(formatNumber(x));
      return "[" + llvm::join(s, ", ") + "]";
    };
    os << ", transform: (x * " << formatNumber(d.scale) << " - " << list(d.featureMean)
       << ") / " << list(d.featureStd) << "\n";
  }
  os << "  labels: " << getDTypeName(d.labelType);
  if (!d.labelShape.empty())
    os << shapeStr(d.labelShape);
  if (d.numClasses >= 0)
    os << ", " << d.numClasses << " classes";
  if (!d.classNames.empty())
    os << " (" << llvm::join(d.classNames, ", ") << ")";
  os << "\n";
  if (d.seqLen > 0)
    os << "  windows: seq " << d.seqLen << ", tokens "
       << (d.tokens.empty() ? "ids" : d.tokens) << ", vocabulary "
       << d.numClasses << "\n";
  if (!d.resize.empty())
    os << "  resize: [" << d.resize[0] << ", " << d.resize[1] << "]\n";
  if (d.centerCrop)
    os << "  center_crop: " << shapeStr(Shape(d.sampleShape.begin() + 1, d.sampleShape.end()))
       << "\n";
  if (d.train && d.train->format == "csv")
    os << "  columns: label " << llvm::join(d.train->labelColumns, ", ")
       << "; features " << llvm::join(d.train->featureColumns, ", ") << "\n";
  for (const Augmentation &a : d.augment) {
    std::vector<std::string> args;
    for (const AugmentationArg &arg : a.args) {
      std::vector<std::string> values;
      for (double v : arg.values)
        values.push_back(formatNumber(v));
      args.push_back(arg.name + "=" +
                     (values.size() == 1 ? values[0]
                                         : "[" + llvm::join(values, ", ") + "]"));
    }
    os << "  augment: " << a.kind << "(" << llvm::join(args, ", ") << ")\n";
  }
}

/// "adam(lr=0.001, beta1=0.9)".
static std::string callStr(const std::string &name,
                           const std::vector<std::pair<std::string, double>> &a) {
  std::vector<std::string> parts;
  for (auto &kv : a)
    parts.push_back(kv.first + "=" + formatNumber(kv.second));
  return name + "(" + llvm::join(parts, ", ") + ")";
}

void sema::printProgram(llvm::raw_ostream &os, const Program &program,
                        const llvm::SourceMgr &sourceMgr) {
  for (const Graph &g : program.models)
    printGraph(os, g, sourceMgr);
  if (program.data)
    printData(os, *program.data);
  if (const auto &t = program.train) {
    os << "train " << t->modelName << " on " << t->dataName << "\n";
    os << "  loss: " << t->lossKind << (t->usesLabels ? "" : ", labels unused")
       << "\n";
    os << "  optimizer: " << callStr(t->optimizer, t->optimizerArgs) << "\n";
    os << "  schedule: " << callStr(t->schedule, t->scheduleArgs) << "\n";
    os << "  epochs: " << t->epochs << ", batch: " << t->batch
       << ", seed: " << t->seed << "\n";
    os << "  metrics: " << llvm::join(t->metrics, ", ") << "\n";
    if (t->batchNorm != "sync")
      os << "  batch_norm: " << t->batchNorm
         << " (each rank's slice alone under mpirun)\n";
    if (t->precision != "f32")
      os << "  precision: " << t->precision << " ("
         << modelsupport::precisionSummary(t->precision) << ")\n";
  }
  if (const auto &d = program.decode) {
    os << "decode " << d->graph.modelName << ": one position of "
       << d->length << ", " << d->numCaches << " key/value caches\n";
    printValues(os, d->graph, sourceMgr);
    os << "  output %" << d->graph.output << " : "
       << d->graph.nodes[d->graph.output].type.str() << "\n";
  } else if (!program.noDecode.empty()) {
    os << "no decode step: " << program.noDecode << "\n";
  }
}
