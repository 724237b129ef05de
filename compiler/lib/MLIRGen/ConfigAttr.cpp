//===- ConfigAttr.cpp - The mdl.config module attribute -------------------===//
//
// Folds DataConfig and TrainConfig into one dictionary attribute: the model
// name and its input/label signature, the data set (reader, paths, sample
// shape, the folded transform or per-feature standardisation,
// augmentations, class count (0 when the loss ignores the labels) and
// class names, validation fraction, an image folder's resize and centre
// crop, a token stream's window length, tokenization and vocabulary) and
// the train block (loss, the ids' limit of an integer input, metrics, and
// the options of the schema modelsupport/TrainConfig.def
// under their keys and types: optimizer, schedule, early stopping, epochs,
// batch, seed, gradient clipping and accumulation). Optional settings that
// are off are absent.
//
//===----------------------------------------------------------------------===//

#include "ConfigAttr.h"

#include "modelsupport/TrainSchema.h"

#include "mlir/IR/Builders.h"

#include <iterator>

using namespace modelc;
using namespace modelc::sema;
namespace ms = modelsupport;

namespace {
/// Collects named attributes and builds a dictionary.
struct DictBuilder {
  mlir::Builder &b;
  llvm::SmallVector<mlir::NamedAttribute> entries;

  void add(llvm::StringRef key, mlir::Attribute value) {
    entries.push_back(b.getNamedAttr(key, value));
  }
  void str(llvm::StringRef key, llvm::StringRef v) { add(key, b.getStringAttr(v)); }
  void i64(llvm::StringRef key, int64_t v) { add(key, b.getI64IntegerAttr(v)); }
  void f64(llvm::StringRef key, double v) { add(key, b.getF64FloatAttr(v)); }
  mlir::DictionaryAttr get() { return b.getDictionaryAttr(entries); }
};
} // namespace

/// An array of string attributes.
static mlir::ArrayAttr stringArray(mlir::Builder &b,
                                   llvm::ArrayRef<std::string> strings) {
  llvm::SmallVector<mlir::Attribute> attrs;
  for (const std::string &s : strings)
    attrs.push_back(b.getStringAttr(s));
  return b.getArrayAttr(attrs);
}

static mlir::DictionaryAttr splitDict(mlir::Builder &b, const DataSplit &s) {
  DictBuilder d{b, {}};
  d.str("format", s.format);
  if ((s.format == "idx" || s.format == "npy") && s.paths.size() == 2) {
    d.str("images", s.paths[0]);
    d.str("labels", s.paths[1]);
  } else if (s.format == "text" || s.format == "npy") {
    d.str("path", s.paths[0]);
    d.i64("tokens", s.numTokens);
  } else if (s.format == "images") {
    d.str("dir", s.paths[0]);
  } else {
    d.str("path", s.paths[0]);
    d.add("label_columns", stringArray(b, s.labelColumns));
    d.add("feature_columns", stringArray(b, s.featureColumns));
  }
  d.i64("samples", s.numSamples);
  return d.get();
}

/// One augmentation: `{kind = "random_crop", pad = 2 : i64, size =
/// array<i64: 28, 28>}`; a number is i64 or f64, a pair an i64 or f64
/// array.
static mlir::DictionaryAttr augmentDict(mlir::Builder &b, const Augmentation &a) {
  DictBuilder d{b, {}};
  d.str("kind", a.kind);
  for (const AugmentationArg &arg : a.args) {
    if (arg.values.size() == 1 && arg.integer)
      d.i64(arg.name, int64_t(arg.values[0]));
    else if (arg.values.size() == 1)
      d.f64(arg.name, arg.values[0]);
    else if (arg.integer)
      d.add(arg.name, b.getDenseI64ArrayAttr(llvm::SmallVector<int64_t>(
                          arg.values.begin(), arg.values.end())));
    else
      d.add(arg.name, b.getDenseF64ArrayAttr(arg.values));
  }
  return d.get();
}

/// The data set's dictionary; `classes` is false when the loss ignores the
/// labels, which makes the class count 0 (no classifier).
static mlir::DictionaryAttr dataDict(mlir::Builder &b, const DataConfig &c,
                                     bool classes) {
  DictBuilder d{b, {}};
  d.str("name", c.name);
  if (c.train)
    d.add("train", splitDict(b, *c.train));
  if (c.test)
    d.add("test", splitDict(b, *c.test));
  llvm::SmallVector<int64_t> shape;
  for (const SDim &s : c.sampleShape)
    shape.push_back(s.size);
  d.add("sample_shape", b.getDenseI64ArrayAttr(shape));
  d.str("stored_type", c.storedType);
  d.f64("scale", c.scale);
  d.f64("shift", c.shift);
  d.str("label_type", getDTypeName(c.labelType));
  d.i64("num_classes", classes ? c.numClasses : 0);
  llvm::SmallVector<mlir::Attribute> augs;
  for (const Augmentation &a : c.augment)
    augs.push_back(augmentDict(b, a));
  d.add("augment", b.getArrayAttr(augs));
  if (c.valFraction > 0)
    d.f64("validation", c.valFraction);
  if (!c.featureMean.empty()) {
    d.add("mean", b.getDenseF64ArrayAttr(c.featureMean));
    d.add("std", b.getDenseF64ArrayAttr(c.featureStd));
  }
  if (classes && !c.classNames.empty())
    d.add("class_names", stringArray(b, c.classNames));
  if (!c.resize.empty())
    d.add("resize", b.getDenseI64ArrayAttr(c.resize));
  if (c.centerCrop)
    d.add("center_crop", b.getBoolAttr(true));
  if (c.seqLen > 0) {
    d.i64("seq", c.seqLen);
    if (!c.tokens.empty())
      d.str("tokenize", c.tokens);
    llvm::SmallVector<int32_t> vocab(c.vocab.begin(), c.vocab.end());
    if (!vocab.empty())
      d.add("vocab", b.getDenseI32ArrayAttr(vocab));
  }
  return d.get();
}

namespace {
/// A scalar option's attribute, or null when it is omitted at its default.
using OptionAttrFn = mlir::Attribute (*)(mlir::Builder &, const TrainConfig &);

mlir::Attribute optionAttr(mlir::Builder &b, int64_t v) {
  return b.getI64IntegerAttr(v);
}
mlir::Attribute optionAttr(mlir::Builder &b, double v) {
  return b.getF64FloatAttr(v);
}

const OptionAttrFn kOptionAttrs[] = {
#define MODELRT_TRAIN_OPTION(NAME, TYPE, DEFAULT, LO, HI, BOUNDS, RANGE, ENC,  \
                             OMIT, ABI, DOC)                                   \
  [](mlir::Builder &b, const TrainConfig &c) -> mlir::Attribute {              \
    if (#OMIT[0] == 'O' && c.NAME == DEFAULT)                                  \
      return {};                                                               \
    return optionAttr(b, c.NAME);                                              \
  },
#include "modelsupport/TrainConfig.def"
};
static_assert(std::size(kOptionAttrs) == std::size(ms::kOptions));
} // namespace

/// The dictionary of a group: `{kind = "adam", lr = 1.0e-03 : f64, ...}`
/// (no kind for early stopping), each setting under its schema key and
/// type, then the lengths the source fixed.
static mlir::DictionaryAttr
callDict(mlir::Builder &b, ms::Group group, llvm::StringRef kind,
         const std::vector<std::pair<std::string, double>> &args,
         llvm::ArrayRef<int64_t> list = {},
         llvm::ArrayRef<std::string> fixed = {}) {
  DictBuilder d{b, {}};
  if (group != ms::Group::Stopping)
    d.str("kind", kind);
  for (const ms::SettingInfo &s : ms::kSettings) {
    if (kind != s.kind)
      continue;
    if (s.type == ms::SettingType::IntList) {
      d.add(s.key, b.getDenseI64ArrayAttr(list));
      continue;
    }
    for (const auto &kv : args)
      if (kv.first == s.name)
        d.add(s.key, s.attr == ms::AttrType::I64
                         ? mlir::Attribute(b.getI64IntegerAttr(
                               int64_t(kv.second)))
                         : b.getF64FloatAttr(kv.second));
  }
  if (!fixed.empty()) {
    llvm::SmallVector<mlir::Attribute> names;
    for (const std::string &f : fixed)
      names.push_back(b.getStringAttr(f));
    d.add("fixed", b.getArrayAttr(names));
  }
  return d.get();
}

/// The train block's entries of the dictionary; `batch_norm` only for a
/// model `g` with batch norm.
static void addTrain(mlir::Builder &b, DictBuilder &d, const TrainConfig &t,
                     const Graph &g) {
  d.str("loss", t.lossKind);
  if (t.inputIdLimit > 0)
    d.i64("input_id_limit", t.inputIdLimit);
  d.add("optimizer", callDict(b, ms::Group::Optimizer, t.optimizer,
                              t.optimizerArgs));
  d.add("schedule", callDict(b, ms::Group::Schedule, t.schedule,
                             t.scheduleArgs, t.milestones, t.scheduleFixed));
  if (!t.earlyStopping.empty())
    d.add("early_stopping", callDict(b, ms::Group::Stopping, t.earlyStopping,
                                     t.earlyStoppingArgs));
  for (size_t i = 0; i < std::size(ms::kOptions); ++i)
    if (mlir::Attribute a = kOptionAttrs[i](b, t))
      d.add(ms::kOptions[i].name, a);
  llvm::SmallVector<mlir::Attribute> metrics;
  for (const std::string &m : t.metrics)
    metrics.push_back(b.getStringAttr(m));
  d.add("metrics", b.getArrayAttr(metrics));
  if (t.precision != "f32")
    d.str("precision", t.precision);
  if (llvm::any_of(g.nodes, [](const Node &n) {
        return n.kind == sema::OpKind::BatchNorm;
      }))
    d.str("batch_norm", t.batchNorm);
}

mlir::DictionaryAttr modelc::buildConfigAttr(mlir::MLIRContext &ctx,
                                             const Program &program,
                                             const Graph &graph) {
  mlir::Builder b(&ctx);
  DictBuilder d{b, {}};
  d.str("model", graph.modelName);
  if (program.data)
    d.add("data", dataDict(b, *program.data,
                           !program.train || program.train->usesLabels));
  if (program.train)
    addTrain(b, d, *program.train, graph);
  return d.get();
}
