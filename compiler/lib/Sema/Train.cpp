//===- Train.cpp - Checking `train` blocks --------------------------------===//
//
// A train block is checked against its model and data set: the sample shape
// must match the model input without its batch dimension (leading unit
// dimensions may be added), the loss receives the predefined `logits` and
// `label`, the class count must match the labels, and the optimizer,
// schedule, epochs, batch, seed and metrics are validated and folded.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "Config.h"

#include "llvm/Support/Path.h"

#include <cmath>

using namespace modelc;
using namespace modelc::sema;

namespace {
/// A numeric setting of an optimizer or schedule and its valid range.
struct Setting {
  const char *name;
  double dflt;    ///< NaN when required
  double lo, hi;  ///< valid interval
  bool loOpen, hiOpen;
  const char *range; ///< the interval as text, for messages
};
/// An optimizer or schedule with its settings.
struct Callable {
  const char *name;
  std::vector<Setting> settings;
};
const double kReq = __builtin_nan("");
const double kInf = __builtin_inf();
const Setting kLr{"lr", kReq, 0, kInf, true, true, "lr > 0"};
const Setting kLrAdam{"lr", 1e-3, 0, kInf, true, true, "lr > 0"};
const Setting kBeta1{"beta1", 0.9, 0, 1, false, true, "0 <= beta1 < 1"};
const Setting kBeta2{"beta2", 0.999, 0, 1, false, true, "0 <= beta2 < 1"};
const Setting kEps{"eps", 1e-8, 0, kInf, true, true, "eps > 0"};
const Callable kOptimizers[] = {
    {"sgd",
     {kLr,
      {"momentum", 0, 0, 1, false, true, "0 <= momentum < 1"},
      {"weight_decay", 0, 0, kInf, false, true, "weight_decay >= 0"},
      {"nesterov", 0, 0, 1, false, false, "nesterov is 0 or 1"}}},
    {"adam",
     {kLrAdam, kBeta1, kBeta2, kEps,
      {"weight_decay", 0, 0, kInf, false, true, "weight_decay >= 0"}}},
    {"adamw",
     {kLrAdam, kBeta1, kBeta2, kEps,
      {"weight_decay", 0.01, 0, kInf, false, true, "weight_decay >= 0"}}},
};
const Callable kSchedules[] = {
    {"constant", {}},
    {"step_lr",
     {{"every", kReq, 1, kInf, false, true, "every >= 1 (epochs)"},
      {"gamma", 0.1, 0, 1, true, false, "0 < gamma <= 1"}}},
    {"exponential", {{"gamma", kReq, 0, 1, true, false, "0 < gamma <= 1"}}},
    {"cosine",
     {{"epochs", 0, 0, kInf, false, true, "epochs >= 1 (0: all epochs)"},
      {"min_lr", 0, 0, kInf, false, true, "min_lr >= 0"}}},
};
const char *kMetrics[] = {"accuracy", "loss"};
} // namespace

/// Folds `name(args)` against `table`; reports unknown names and settings.
template <size_t N>
static bool foldCallable(DiagnosticEngine &diags, const Expr &e,
                         const Callable (&table)[N], llvm::StringRef what,
                         std::string &name,
                         std::vector<std::pair<std::string, double>> &out) {
  const auto *call = llvm::dyn_cast<CallExpr>(&e);
  const auto *fn = call ? llvm::dyn_cast<NameExpr>(&call->getCallee())
                        : llvm::dyn_cast<NameExpr>(&e);
  const Callable *c = nullptr;
  std::string known;
  for (const Callable &k : table) {
    known += (known.empty() ? "" : ", ") + std::string(k.name);
    if (fn && fn->getName() == k.name)
      c = &k;
  }
  if (!c) {
    diags.error(e.getLoc(), "unknown " + what + "; expected one of: " + known,
                {e.getRange()});
    return false;
  }
  name = c->name;
  std::vector<std::optional<double>> vals(c->settings.size());
  size_t pos = 0;
  for (const Arg &a : call ? call->getArgs() : llvm::ArrayRef<Arg>()) {
    size_t idx = a.isKeyword() ? c->settings.size() : pos++;
    for (size_t i = 0; a.isKeyword() && i < c->settings.size(); ++i)
      if (a.keyword == c->settings[i].name)
        idx = i;
    if (idx >= c->settings.size()) {
      std::string names;
      for (const Setting &s : c->settings)
        names += (names.empty() ? "" : ", ") + std::string(s.name);
      diags.error(a.getRange().Start,
                  (a.isKeyword() ? "'" + name + "' has no setting '" +
                                       a.keyword + "'"
                                 : "too many arguments to '" + name + "'") +
                      "; its settings are: " +
                      (names.empty() ? "none" : names),
                  {a.getRange()});
      return false;
    }
    Value v = evalConst(diags, *a.value, {});
    if (v.isError())
      return false;
    const Setting &s = c->settings[idx];
    double x = v.kind == Value::Kind::Bool ? double(v.i) : v.asDouble();
    bool okType = v.isNumber() || v.kind == Value::Kind::Bool;
    bool inRange = okType && (s.loOpen ? x > s.lo : x >= s.lo) &&
                   (s.hiOpen ? x < s.hi : x <= s.hi);
    if (!inRange) {
      diags.error(a.value->getLoc(),
                  name + ": " + s.name + " must satisfy " + s.range +
                      ", got " + v.describe(Graph()),
                  {a.value->getRange()});
      return false;
    }
    vals[idx] = x;
  }
  for (size_t i = 0; i < c->settings.size(); ++i) {
    const Setting &s = c->settings[i];
    if (!vals[i] && std::isnan(s.dflt)) {
      diags.error(e.getLoc(), name + " needs a value for '" + s.name + "'",
                  {e.getRange()});
      return false;
    }
    out.push_back({s.name, vals[i] ? *vals[i] : s.dflt});
  }
  return true;
}

/// Checks the model input against the data's sample shape.
static bool checkInput(DiagnosticEngine &diags, const TrainDecl &decl,
                       const Graph &graph, const FuncDecl &model,
                       const DataConfig &data) {
  const TensorType &in = graph.nodes[graph.inputs[0]].type;
  Shape rest(in.shape.begin() + (in.rank() ? 1 : 0), in.shape.end());
  Shape trimmed = rest;
  while (trimmed.size() > data.sampleShape.size() && trimmed.front().is(1))
    trimmed.erase(trimmed.begin());
  bool batched = in.rank() && in.shape[0].isSymbolic();
  if (batched && isFloat(in.dtype) && trimmed == data.sampleShape)
    return true;
  std::string s = shapeStr(data.sampleShape);
  diags.error(decl.getDataRange().Start,
              "model '" + graph.modelName + "' takes " +
                  graph.inputNames[0] + ": " + in.str() + " but the samples of '" +
                  data.name + "' are " + data.storedType + s +
                  ": the input must be a float tensor whose shape without its "
                  "leading batch dimension is " + s +
                  ", optionally with leading 1s such as [1, " + s.substr(1),
              {decl.getDataRange()});
  diags.note(model.getParams()[0].range.Start, "model input declared here");
  return false;
}

/// Builds the loss from `loss = ...` with `logits` and `label` predefined.
static bool checkLoss(DiagnosticEngine &diags, const Field &f, Graph &graph,
                      const DataConfig *data, const ModuleInfo &module,
                      const std::vector<const ModuleInfo *> &allModules,
                      TrainConfig &cfg) {
  Elaborator el(diags, graph, allModules);
  Frame frame;
  frame.module = &module;
  frame.paramPrefix = graph.modelName;
  Value logits;
  logits.kind = Value::Kind::Tensor;
  logits.node = graph.output;
  logits.range = f.value->getRange();
  frame.vars["logits"] = logits;
  // A copy: adding nodes below may reallocate graph.nodes.
  const TensorType out = graph.nodes[graph.output].type;
  TensorType labelType{data ? data->labelType : DType::I64,
                       {out.rank() ? out.shape[0] : SDim::fixed(1)}};
  if (data && data->labelType == DType::F32 && out.rank() == 2)
    labelType.shape.push_back(out.shape[1]);
  Value label = el.addNode(OpKind::Label, {}, labelType,
                           {textAttr("name", "label")}, f.nameRange.Start,
                           frame, "the labels of the data set");
  frame.vars["label"] = label;
  graph.label = label.node;
  Value loss = el.eval(*f.value, frame);
  if (loss.isError())
    return false;
  if (loss.kind != Value::Kind::Tensor ||
      !isLossKind(graph.nodes[loss.node].kind)) {
    diags.error(f.value->getLoc(),
                "the loss must be a call of cross_entropy, mse_loss, l1_loss "
                "or bce_with_logits, got " + loss.describe(graph),
                {f.value->getRange()});
    return false;
  }
  graph.loss = loss.node;
  const Node &ln = graph.nodes[loss.node];
  cfg.lossKind = getOpKindName(ln.kind).str();
  if (ln.kind != OpKind::CrossEntropy)
    return true;
  const Node &lg = graph.nodes[ln.operands[0]];
  if (lg.kind == OpKind::Softmax || lg.kind == OpKind::LogSoftmax) {
    diags.warning(f.value->getLoc(),
                  "cross_entropy expects raw logits, but they come from " +
                      getOpKindName(lg.kind) +
                      ": cross_entropy applies log_softmax itself, so this "
                      "normalises twice (a common PyTorch mistake)");
    diags.note(lg.locs.front(), getOpKindName(lg.kind) + " applied here");
  }
  if (!data || data->numClasses < 0 || ln.operands[0] != graph.output)
    return true;
  int64_t width = out.shape.back().size;
  if (width < data->numClasses) {
    diags.error(f.value->getLoc(),
                "model '" + graph.modelName + "' predicts " +
                    llvm::Twine(width) + " classes (its output is " +
                    out.str() + ") but the labels of '" + data->name +
                    "' range over " + llvm::Twine(data->numClasses) +
                    " classes (0.." + llvm::Twine(data->numClasses - 1) +
                    ", read from " +
                    llvm::sys::path::filename(data->train->paths.back()) +
                    ")",
                {f.value->getRange()});
    diags.note(lg.locs.back(), "the model's output is produced here");
    return false;
  }
  if (width > data->numClasses)
    diags.warning(f.value->getLoc(),
                  "model '" + graph.modelName + "' outputs " +
                      llvm::Twine(width) + " classes but the labels of '" +
                      data->name + "' only use " +
                      llvm::Twine(data->numClasses));
  return true;
}

/// Reads a positive (or non-negative) integer setting.
static bool intSetting(DiagnosticEngine &diags, const Field &f, int64_t min,
                       int64_t &out) {
  Value v = evalConst(diags, *f.value, {});
  if (v.isError())
    return false;
  if (v.kind != Value::Kind::Int || v.i < min) {
    diags.error(f.value->getLoc(),
                f.name + " must be an integer >= " + llvm::Twine(min) +
                    ", got " + v.describe(Graph()),
                {f.value->getRange()});
    return false;
  }
  out = v.i;
  return true;
}

/// Reads `metrics = [accuracy, ...]`.
static bool checkMetrics(DiagnosticEngine &diags, const Field &f,
                         TrainConfig &cfg) {
  std::vector<const Expr *> items;
  if (auto *l = llvm::dyn_cast<ListExpr>(f.value.get()))
    for (const ExprPtr &e : l->getElements())
      items.push_back(e.get());
  else
    items.push_back(f.value.get());
  for (const Expr *e : items) {
    auto *n = llvm::dyn_cast<NameExpr>(e);
    if (!n || !llvm::is_contained(kMetrics, n->getName())) {
      diags.error(e->getLoc(), "unknown metric; supported metrics: accuracy, "
                               "loss",
                  {e->getRange()});
      return false;
    }
    cfg.metrics.push_back(n->getName().str());
  }
  return true;
}

std::optional<TrainConfig>
sema::checkTrain(DiagnosticEngine &diags, const TrainDecl &decl, Graph &graph,
                 const FuncDecl &modelDecl, const DataConfig *data,
                 const ModuleInfo &module,
                 const std::vector<const ModuleInfo *> &allModules) {
  TrainConfig cfg;
  cfg.modelName = decl.getModelName().str();
  cfg.dataName = decl.getDataName().str();
  cfg.loc = decl.getLoc();
  bool ok = true;
  if (graph.inputs.size() != 1) {
    diags.error(decl.getNameRange().Start,
                "a trained model takes exactly one input, '" +
                    graph.modelName + "' takes " +
                    llvm::Twine(graph.inputs.size()));
    return std::nullopt;
  }
  if (data)
    ok &= checkInput(diags, decl, graph, modelDecl, *data);
  std::map<std::string, llvm::SMLoc> seen;
  for (const Field &f : decl.getFields()) {
    if (seen.count(f.name)) {
      diags.error(f.nameRange.Start, "field '" + f.name + "' is set twice",
                  {f.nameRange});
      diags.note(seen[f.name], "first set here");
      ok = false;
      continue;
    }
    seen[f.name] = f.nameRange.Start;
    if (f.name == "loss")
      ok &= checkLoss(diags, f, graph, data, module, allModules, cfg);
    else if (f.name == "optimizer")
      ok &= foldCallable(diags, *f.value, kOptimizers, "optimizer",
                         cfg.optimizer, cfg.optimizerArgs);
    else if (f.name == "schedule")
      ok &= foldCallable(diags, *f.value, kSchedules, "schedule",
                         cfg.schedule, cfg.scheduleArgs);
    else if (f.name == "epochs" || f.name == "batch" || f.name == "seed")
      ok &= intSetting(diags, f, f.name == "seed" ? 0 : 1,
                       f.name == "epochs"  ? cfg.epochs
                       : f.name == "batch" ? cfg.batch
                                           : cfg.seed);
    else if (f.name == "metrics")
      ok &= checkMetrics(diags, f, cfg);
    else {
      diags.error(f.nameRange.Start,
                  "unknown field '" + f.name +
                      "' in train block; expected loss, optimizer, schedule, "
                      "epochs, batch, seed or metrics",
                  {f.nameRange});
      ok = false;
    }
  }
  // cosine(epochs=0) anneals over the whole run.
  for (auto &kv : cfg.scheduleArgs)
    if (cfg.schedule == "cosine" && kv.first == "epochs" && kv.second == 0)
      kv.second = double(cfg.epochs);
  for (const char *req : {"loss", "optimizer"})
    if (ok && !seen.count(req)) {
      diags.error(decl.getNameRange().Start,
                  "train block has no '" + llvm::Twine(req) + "'");
      ok = false;
    }
  if (!ok)
    return std::nullopt;
  return cfg;
}
