//===- Train.cpp - Checking `train` blocks --------------------------------===//
//
// A train block is checked against its model and data set: the sample shape
// must match the model input without its batch dimension (leading unit
// dimensions may be added), an integer input (ids) takes integer samples
// without transforms and a token stream's vocabulary must fit the
// embedding table the ids index, the loss sees the model's inputs by name and
// the predefined `logits` and `label`, the class count must match the
// labels, and the optimizer,
// schedule, early stopping, epochs, batch, seed, gradient clipping and
// accumulation and metrics are validated and folded (the optimizer and
// schedule tables are in TrainSettings.cpp).
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "Config.h"
#include "IndexRanges.h"
#include "TrainSettings.h"

#include "modelsupport/Precision.h"

#include "llvm/Support/Path.h"

#include <cmath>

using namespace modelc;
using namespace modelc::sema;
using modelsupport::isTrainingPrecision;

namespace {
const char *kMetrics[] = {"accuracy", "loss"};
} // namespace

/// Whether the data's samples are stored as integers (token ids, integer
/// arrays), which an integer model input takes as they are. Image folders
/// are decoded to f32 pixels, never ids.
static bool integerSamples(const DataConfig &data) {
  bool images = data.train && data.train->format == "images";
  return !images && data.storedType != "f32" && data.storedType != "f64";
}

/// Checks the model input against the data's sample shape and element
/// type: a float input takes any samples but token windows, an integer
/// input (ids) integer samples.
static bool checkInput(DiagnosticEngine &diags, const TrainDecl &decl,
                       const Graph &graph, const FuncDecl &model,
                       const DataConfig &data) {
  const TensorType &in = graph.nodes[graph.inputs[0]].type;
  Shape rest(in.shape.begin() + (in.rank() ? 1 : 0), in.shape.end());
  Shape trimmed = rest;
  while (trimmed.size() > data.sampleShape.size() && trimmed.front().is(1))
    trimmed.erase(trimmed.begin());
  bool batched = in.rank() && in.shape[0].isSymbolic();
  bool typed = isInteger(in.dtype) ? integerSamples(data)
                                   : isFloat(in.dtype) && data.seqLen == 0;
  if (batched && typed && trimmed == data.sampleShape)
    return true;
  std::string s = shapeStr(data.sampleShape);
  bool ids = data.storedType == "i32" || data.storedType == "i64";
  std::string kind = data.seqLen > 0 ? "an integer tensor (i64 or i32: token ids)"
                     : ids ? "a float tensor (or, for ids, an i64 or i32 tensor)"
                           : "a float tensor";
  diags.error(decl.getDataRange().Start,
              "model '" + graph.modelName + "' takes " +
                  graph.inputNames[0] + ": " + in.str() + " but the samples of '" +
                  data.name + "' are " + data.storedType + s +
                  ": the input must be " + kind + " whose shape without its "
                  "leading batch dimension is " + s +
                  ", optionally with leading 1s such as [1, " + s.substr(1),
              {decl.getDataRange()});
  diags.note(model.getParams()[0].range.Start, "model input declared here");
  return false;
}

/// Integer inputs are ids: the data block may neither transform nor
/// augment them.
static bool checkIdInput(DiagnosticEngine &diags, const Graph &graph,
                         const FuncDecl &model, const DataConfig &data) {
  const TensorType &in = graph.nodes[graph.inputs[0]].type;
  if (!isInteger(in.dtype))
    return true;
  bool transformed = data.scale != 1 || data.shift != 0 ||
                     !data.featureMean.empty();
  llvm::SMLoc at = transformed ? data.transformLoc
                   : !data.augment.empty() ? data.augmentLoc
                                           : llvm::SMLoc();
  if (!at.isValid())
    return true;
  diags.error(at, "model '" + graph.modelName + "' takes integer ids (" +
                      graph.inputNames[0] + ": " + in.str() + "), which " +
                      (transformed ? "an input transform" : "augmentation") +
                      " would change into other values; remove it from "
                      "data '" + data.name + "'");
  diags.note(model.getParams()[0].range.Start, "model input declared here");
  return false;
}

/// The rows of the smallest embedding table the model input indexes
/// directly (0 when it indexes none), and that lookup's node.
static std::pair<int64_t, const Node *> idLimit(const Graph &graph) {
  std::pair<int64_t, const Node *> best{0, nullptr};
  for (const Node &n : graph.nodes) {
    if (n.kind != OpKind::Embedding || n.operands[0] != graph.inputs[0])
      continue;
    int64_t rows = graph.nodes[n.operands[1]].type.shape[0].size;
    if (!best.second || rows < best.first)
      best = {rows, &n};
  }
  return best;
}

/// A token stream's vocabulary must fit the embedding table its ids index;
/// records the table's rows as the ids' limit.
static bool checkVocabulary(DiagnosticEngine &diags, const TrainDecl &decl,
                            const Graph &graph, const DataConfig *data,
                            TrainConfig &cfg) {
  auto [rows, lookup] = idLimit(graph);
  cfg.inputIdLimit = rows;
  if (!data || data->seqLen == 0 || !lookup || data->numClasses <= rows)
    return true;
  std::string what =
      data->tokens == "chars"
          ? "the distinct characters of " +
                llvm::sys::path::filename(data->train->paths[0]).str()
      : data->tokens == "bytes" ? std::string("bytes")
                                : "the largest id + 1 of " +
                                      llvm::sys::path::filename(
                                          data->train->paths[0])
                                          .str();
  diags.error(decl.getDataRange().Start,
              "the vocabulary of '" + data->name + "' has " +
                  llvm::Twine(data->numClasses) + " tokens (" + what +
                  ") but model '" + graph.modelName +
                  "' looks its ids up in an embedding table of " +
                  llvm::Twine(rows) + " rows; make the table at least " +
                  llvm::Twine(data->numClasses) + " rows",
              {decl.getDataRange()});
  diags.note(lookup->locs.back(), "the embedding table is indexed here");
  return false;
}

/// The ranges the runtime guarantees for the leaves as it reads them:
/// token ids within the vocabulary, ids within the embedding table they
/// index directly, class labels within the classes, and bytes (images,
/// without augmentation or per-feature normalisation) through the transform
/// x * scale + shift.
static LeafRanges leafRanges(const DataConfig *data, const TrainConfig &cfg) {
  LeafRanges leaves;
  if (data && data->seqLen > 0 && data->numClasses > 0)
    leaves.input = IntRange{0, data->numClasses - 1};
  else if (cfg.inputIdLimit > 0)
    leaves.input = IntRange{0, cfg.inputIdLimit - 1};
  if (data && isInteger(data->labelType) && data->numClasses > 0)
    leaves.label = IntRange{0, data->numClasses - 1};
  if (data && data->storedType == "u8" && data->augment.empty() &&
      data->featureMean.empty()) {
    double a = data->shift, b = 255 * data->scale + data->shift;
    leaves.values = std::make_pair(std::min(a, b), std::max(a, b));
  }
  return leaves;
}

/// The loss function `lossExpr` calls when one of its arguments is `label`.
static const NameExpr *lossOnLabel(const Expr &lossExpr) {
  const auto *call = llvm::dyn_cast<CallExpr>(&lossExpr);
  if (!call)
    return nullptr;
  for (const Arg &a : call->getArgs())
    if (const auto *n = llvm::dyn_cast<NameExpr>(a.value.get());
        n && n->getName() == "label")
      return llvm::dyn_cast<NameExpr>(&call->getCallee());
  return nullptr;
}

/// After a failed regression loss on integer CSV labels, explains that such
/// a column is read as class indices.
static void noteIntegerTargets(DiagnosticEngine &diags, const Expr &lossExpr,
                               const DataConfig *data) {
  const NameExpr *fn = lossOnLabel(lossExpr);
  if (!fn || !data || data->labelType != DType::I64 || !data->train ||
      data->train->format != "csv" ||
      !llvm::is_contained({"mse_loss", "l1_loss", "bce_with_logits"},
                          fn->getName()))
    return;
  diags.note(data->loc,
             "the label column '" + data->train->labelColumns[0] + "' of '" +
                 llvm::sys::path::filename(data->train->paths[0]) +
                 "' holds only non-negative integers, so it is read as "
                 "class indices; write regression targets with a decimal "
                 "point (151.0)");
}

/// After a failed cross_entropy on f32 CSV labels, points at the first
/// label that is not a class index.
static void noteFloatLabels(DiagnosticEngine &diags, const Expr &lossExpr,
                            const DataConfig *data) {
  const NameExpr *fn = lossOnLabel(lossExpr);
  if (fn && fn->getName() == "cross_entropy" && data &&
      data->labelType == DType::F32 && !data->labelNote.empty())
    diags.note(data->labelNoteLoc, data->labelNote);
}

/// The type of a batch of the data set's labels: i64[B] class indices (or
/// i64[B, N], a token window's next tokens), or f32[B, target shape...];
/// one f32 target per sample is f32[B, 1] when the model's output is
/// f32[B, 1].
static TensorType labelTypeFor(const Graph &graph, const DataConfig *data) {
  const TensorType &out = graph.nodes[graph.output].type;
  TensorType t{data ? data->labelType : DType::I64,
               {out.rank() ? out.shape[0] : SDim::fixed(1)}};
  if (!data)
    return t;
  t.shape.insert(t.shape.end(), data->labelShape.begin(),
                 data->labelShape.end());
  if (data->labelType == DType::F32 && data->labelShape.empty() &&
      out.rank() == 2 && out.shape[1].is(1))
    t.shape.push_back(SDim::fixed(1));
  return t;
}

/// The loss's names: the model's inputs by their parameter names (the very
/// tensors the model is fed), `logits` (the model's output) and `label` (the
/// data set's labels); the last two win over an input of the same name.
static void bindLossNames(Elaborator &el, const Field &f, Graph &graph,
                          const DataConfig *data, Frame &frame) {
  std::string names;
  for (size_t i = 0; i < graph.inputs.size(); ++i) {
    Value in;
    in.kind = Value::Kind::Tensor;
    in.node = graph.inputs[i];
    frame.vars[graph.inputNames[i]] = in;
    if (graph.inputNames[i] != "logits" && graph.inputNames[i] != "label")
      names += ", " + graph.inputNames[i];
  }
  frame.nameScope = " in the loss; it can use logits, label" + names;
  Value logits;
  logits.kind = Value::Kind::Tensor;
  logits.node = graph.output;
  logits.range = f.value->getRange();
  frame.vars["logits"] = logits;
  Value label = el.addNode({}, labelTypeFor(graph, data),
                           OpAttrs<OpKind::Label>{"label"}, f.nameRange.Start,
                           frame, "the labels of the data set");
  frame.vars["label"] = label;
  graph.label = label.node;
}

/// Whether node `root` depends on node `leaf` (operands precede their users).
static bool dependsOn(const Graph &graph, unsigned root, unsigned leaf) {
  std::vector<bool> live(root + 1, false);
  live[root] = true;
  for (unsigned i = root + 1; i-- > leaf;)
    if (live[i])
      for (unsigned op : graph.nodes[i].operands)
        live[op] = true;
  return live[leaf];
}

/// Records whether the loss uses the labels: a loss that ignores them
/// still reads them, but the program is no classifier.
static void recordLabelUse(Graph &graph, unsigned loss, TrainConfig &cfg) {
  cfg.usesLabels = dependsOn(graph, loss, *graph.label);
}

/// Checks that the loss's float arguments are f32: the loss is computed in
/// f32 (docs/language.md, "Element types"); a bf16, f16 or f64 argument is
/// an error at the value, naming the cast that fixes it.
static bool checkLossPrecision(DiagnosticEngine &diags, const Graph &graph,
                               const Node &loss) {
  for (size_t i = 0; i < loss.operands.size(); ++i) {
    const Node &arg = graph.nodes[loss.operands[i]];
    if (!isFloat(arg.type.dtype) || arg.type.dtype == DType::F32)
      continue;
    // At the outermost call site (the train block's line), and where an
    // imported function made the value, when that is elsewhere.
    diags.error(arg.locs.back(),
                getOpKindName(loss.kind) + "'s argument " + llvm::Twine(i + 1) +
                    " is " + arg.type.str() +
                    ": the loss is computed in f32; convert it with "
                    "cast(x, f32)");
    if (arg.locs.size() > 1)
      diags.note(arg.locs.front(), "the argument " + arg.type.str() +
                                       " comes from " + arg.origin);
    return false;
  }
  return true;
}

/// Builds the loss from `loss = ...` over the names of bindLossNames.
static bool checkLoss(DiagnosticEngine &diags, const Field &f, Graph &graph,
                      const DataConfig *data, const ModuleInfo &module,
                      const std::vector<const ModuleInfo *> &allModules,
                      TrainConfig &cfg) {
  Elaborator el(diags, graph, allModules);
  Frame frame;
  frame.module = &module;
  frame.paramPrefix = graph.modelName;
  bindLossNames(el, f, graph, data, frame);
  const TensorType out = graph.nodes[graph.output].type;
  Value loss = el.eval(*f.value, frame);
  if (loss.isError()) {
    noteIntegerTargets(diags, *f.value, data);
    noteFloatLabels(diags, *f.value, data);
    return false;
  }
  if (loss.kind != Value::Kind::Tensor ||
      !isLossKind(graph.nodes[loss.node].kind)) {
    diags.error(f.value->getLoc(),
                "the loss must be a call of cross_entropy, mse_loss, l1_loss "
                "or bce_with_logits, got " + loss.describe(graph),
                {f.value->getRange()});
    return false;
  }
  if (!checkLossPrecision(diags, graph, graph.nodes[loss.node]))
    return false;
  graph.loss = loss.node;
  recordLabelUse(graph, loss.node, cfg);
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

/// Reads `metrics = [accuracy, ...]`; remembers where accuracy was asked.
static bool checkMetrics(DiagnosticEngine &diags, const Field &f,
                         TrainConfig &cfg, const Expr *&accuracy) {
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
    if (n->getName() == "accuracy")
      accuracy = e;
    cfg.metrics.push_back(n->getName().str());
  }
  return true;
}

/// Reads `precision = f32 | bf16 | tf32`.
static bool checkPrecision(DiagnosticEngine &diags, const Field &f,
                           TrainConfig &cfg) {
  auto *n = llvm::dyn_cast<NameExpr>(f.value.get());
  if (n && isTrainingPrecision(std::string_view(n->getName()))) {
    cfg.precision = n->getName().str();
    cfg.precisionRange = f.value->getRange();
    return true;
  }
  diags.error(f.value->getLoc(),
              modelsupport::whyNotTrainingPrecision(
                  n ? std::string_view(n->getName()) : ""),
              {f.value->getRange()});
  return false;
}

/// Reads `batch_norm = sync | local`.
static bool checkBatchNorm(DiagnosticEngine &diags, const Field &f,
                           TrainConfig &cfg) {
  auto *n = llvm::dyn_cast<NameExpr>(f.value.get());
  if (n && (n->getName() == "sync" || n->getName() == "local")) {
    cfg.batchNorm = n->getName().str();
    return true;
  }
  diags.error(f.value->getLoc(), "batch_norm must be sync or local",
              {f.value->getRange()});
  return false;
}

namespace {
/// The fields of one train block as they are read.
struct FieldState {
  std::map<std::string, llvm::SMLoc> seen;
  const Expr *schedule = nullptr, *accuracy = nullptr, *early = nullptr;
};
} // namespace

/// Checks and folds one field of a train block.
static bool checkField(DiagnosticEngine &diags, const Field &f, Graph &graph,
                       const DataConfig *data, const ModuleInfo &module,
                       const std::vector<const ModuleInfo *> &allModules,
                       TrainConfig &cfg, FieldState &st) {
  if (f.name == "loss")
    return checkLoss(diags, f, graph, data, module, allModules, cfg);
  if (f.name == "optimizer")
    return foldOptimizer(diags, *f.value, cfg);
  if (f.name == "schedule")
    return (st.schedule = f.value.get()), foldSchedule(diags, *f.value, cfg);
  if (f.name == "early_stopping")
    return (st.early = f.value.get()),
           foldEarlyStopping(diags, *f.value, cfg);
  if (isOption(f.name))
    return checkOption(diags, f, cfg);
  if (f.name == "metrics")
    return checkMetrics(diags, f, cfg, st.accuracy);
  if (f.name == "precision")
    return checkPrecision(diags, f, cfg);
  if (f.name == "batch_norm")
    return checkBatchNorm(diags, f, cfg);
  diags.error(f.nameRange.Start,
              "unknown field '" + f.name + "' in train block; expected " +
                  trainFieldList(),
              {f.nameRange});
  return false;
}

/// Optimizer steps per epoch when the training split's size is known at
/// compile time (0 otherwise), exactly as the runtime counts them: the
/// validation hold-out is removed, a partial last batch counts, and
/// `accumulate` batches make one step.
static int64_t stepsPerEpoch(const DataConfig *data, const TrainConfig &cfg) {
  if (!data || !data->train || data->train->numSamples <= 0)
    return 0;
  int64_t n = data->train->numSamples;
  n -= int64_t(std::llround(double(n) * data->valFraction));
  int64_t batches = (n + cfg.batch - 1) / cfg.batch;
  return (batches + cfg.accumulate - 1) / cfg.accumulate;
}

/// accuracy is computed for cross_entropy on the model's output only; with
/// f32 targets, a note says why the labels are not class indices.
static bool checkAccuracy(DiagnosticEngine &diags, const Graph &graph,
                          const DataConfig *data, const TrainConfig &cfg,
                          const Expr &at) {
  if (!graph.loss)
    return true;
  const Node &ln = graph.nodes[*graph.loss];
  if (ln.kind == OpKind::CrossEntropy && ln.operands[0] == graph.output)
    return true;
  std::string why =
      ln.kind == OpKind::CrossEntropy
          ? "the accuracy metric needs the loss cross_entropy(logits, label) "
            "on the model's output itself"
          : "the accuracy metric needs a classification loss, "
            "cross_entropy(logits, label); this train block's loss is " +
                cfg.lossKind + ", so the model is not a classifier: use "
                "metrics = [loss]";
  diags.error(at.getLoc(), why, {at.getRange()});
  if (data && data->labelType == DType::F32 && !data->labelNote.empty())
    diags.note(data->labelNoteLoc, data->labelNote);
  return false;
}

/// cosine/linear(warmup=N): the warmup must end before the annealing does.
static bool checkWarmup(DiagnosticEngine &diags, const DataConfig *data,
                        TrainConfig &cfg, const Expr &at) {
  int64_t warmup = int64_t(getSetting(cfg.scheduleArgs, "warmup"));
  int64_t epochs = int64_t(getSetting(cfg.scheduleArgs, "epochs"));
  int64_t steps = stepsPerEpoch(data, cfg);
  if (warmup == 0 || steps == 0 || warmup < epochs * steps)
    return true;
  diags.error(at.getLoc(),
              cfg.schedule + ": the warmup of " + llvm::Twine(warmup) +
                  " optimizer steps must be shorter than the annealing, " +
                  llvm::Twine(epochs) + " epochs of " + llvm::Twine(steps) +
                  " steps = " + llvm::Twine(epochs * steps) + " steps",
              {at.getRange()});
  return false;
}

/// Checks that need several fields: metrics against the loss, the cosine
/// warmup against the run's length; warns about settings that monitor the
/// training loss or never take effect.
static bool checkCombined(DiagnosticEngine &diags, const Graph &graph,
                          const DataConfig *data, TrainConfig &cfg,
                          const FieldState &st) {
  // A schedule's epochs = 0 (cosine, one_cycle, linear) spans the whole run
  // (scheduleFixed lacks it, so it follows --epochs too).
  for (auto &kv : cfg.scheduleArgs)
    if (kv.first == "epochs" && kv.second == 0)
      kv.second = double(cfg.epochs);
  if (st.accuracy &&
      !checkAccuracy(diags, graph, data, cfg, *st.accuracy))
    return false;
  if ((cfg.schedule == "cosine" || cfg.schedule == "linear") &&
      !checkWarmup(diags, data, cfg, *st.schedule))
    return false;
  if (cfg.schedule == "multistep" && cfg.milestones.back() >= cfg.epochs)
    diags.warning(st.schedule->getLoc(),
                  "multistep: milestone " +
                      llvm::Twine(cfg.milestones.back()) +
                      " (epochs before the decay) is not below epochs = " +
                      llvm::Twine(cfg.epochs) + ", so it never takes effect");
  bool validated = data && (data->test || data->valFraction > 0);
  for (const Expr *e : {cfg.schedule == "reduce_on_plateau" ? st.schedule
                                                            : nullptr,
                        st.early})
    if (e && data && !validated)
      diags.warning(e->getLoc(),
                    "data '" + data->name +
                        "' has neither a test split nor a validation "
                        "fraction, so this monitors the training loss; add "
                        "`validation = 0.2` to the data block to hold out "
                        "samples");
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
  if (graph.inputs.size() != 1) {
    diags.error(decl.getNameRange().Start,
                "a trained model takes exactly one input, '" +
                    graph.modelName + "' takes " +
                    llvm::Twine(graph.inputs.size()));
    return std::nullopt;
  }
  if (graph.params.empty()) {
    diags.error(decl.getNameRange().Start,
                "model '" + graph.modelName +
                    "' has no parameters to train; give it a `param` or a "
                    "layer with weights (e.g. nn.linear), or drop the train "
                    "block");
    return std::nullopt;
  }
  bool ok = !data || (checkInput(diags, decl, graph, modelDecl, *data) &&
                      checkIdInput(diags, graph, modelDecl, *data));
  ok = ok && checkVocabulary(diags, decl, graph, data, cfg);
  FieldState st;
  for (const Field &f : decl.getFields()) {
    if (st.seen.count(f.name)) {
      diags.error(f.nameRange.Start, "field '" + f.name + "' is set twice",
                  {f.nameRange});
      diags.note(st.seen[f.name], "first set here");
      ok = false;
      continue;
    }
    st.seen[f.name] = f.nameRange.Start;
    ok &= checkField(diags, f, graph, data, module, allModules, cfg, st);
  }
  for (const char *req : {"loss", "optimizer"})
    if (ok && !st.seen.count(req)) {
      diags.error(decl.getNameRange().Start,
                  "train block has no '" + llvm::Twine(req) + "'");
      ok = false;
    }
  if (!ok || !checkCombined(diags, graph, data, cfg, st) ||
      !checkIndexRanges(diags, graph, leafRanges(data, cfg)))
    return std::nullopt;
  return cfg;
}
