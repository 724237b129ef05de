//===- ConfigAttr.cpp - The mdl.config module attribute -------------------===//
//
// Folds DataConfig and TrainConfig into one dictionary attribute: the model
// name and its input/label signature, the data set (reader, paths, sample
// shape, the folded transform or per-feature standardisation,
// augmentations, class count, validation fraction) and training settings
// (loss, optimizer, schedule, epochs, batch, seed, metrics, gradient
// clipping and accumulation, early stopping). Optional settings that are
// off are absent.
//
//===----------------------------------------------------------------------===//

#include "ConfigAttr.h"

#include "mlir/IR/Builders.h"

using namespace modelc;
using namespace modelc::sema;

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

/// `{kind = "adam", lr = 1.0e-03 : f64, ...}`.
static mlir::DictionaryAttr
callDict(mlir::Builder &b, llvm::StringRef kind,
         const std::vector<std::pair<std::string, double>> &args) {
  DictBuilder d{b, {}};
  d.str("kind", kind);
  for (auto &kv : args)
    d.f64(kv.first, kv.second);
  return d.get();
}

static mlir::DictionaryAttr splitDict(mlir::Builder &b, const DataSplit &s) {
  DictBuilder d{b, {}};
  d.str("format", s.format);
  if (s.format == "idx") {
    d.str("images", s.paths[0]);
    d.str("labels", s.paths[1]);
  } else {
    d.str("path", s.paths[0]);
    d.str("label_column", s.labelColumn);
    llvm::SmallVector<mlir::Attribute> cols;
    for (const std::string &c : s.featureColumns)
      cols.push_back(b.getStringAttr(c));
    d.add("feature_columns", b.getArrayAttr(cols));
  }
  d.i64("samples", s.numSamples);
  return d.get();
}

static mlir::DictionaryAttr dataDict(mlir::Builder &b, const DataConfig &c) {
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
  d.i64("num_classes", c.numClasses);
  llvm::SmallVector<mlir::Attribute> augs;
  for (const Augmentation &a : c.augment) {
    DictBuilder ad{b, {}};
    ad.str("kind", a.kind);
    if (a.kind == "random_hflip")
      ad.f64("p", a.args[0]);
    else {
      ad.i64("size", int64_t(a.args[0]));
      ad.i64("pad", int64_t(a.args[1]));
    }
    augs.push_back(ad.get());
  }
  d.add("augment", b.getArrayAttr(augs));
  if (c.valFraction > 0)
    d.f64("validation", c.valFraction);
  if (!c.featureMean.empty()) {
    d.add("mean", b.getDenseF64ArrayAttr(c.featureMean));
    d.add("std", b.getDenseF64ArrayAttr(c.featureStd));
  }
  return d.get();
}

mlir::DictionaryAttr modelc::buildConfigAttr(mlir::MLIRContext &ctx,
                                             const Program &program,
                                             const Graph &graph) {
  mlir::Builder b(&ctx);
  DictBuilder d{b, {}};
  d.str("model", graph.modelName);
  if (program.data)
    d.add("data", dataDict(b, *program.data));
  if (const auto &t = program.train) {
    d.str("loss", t->lossKind);
    d.add("optimizer", callDict(b, t->optimizer, t->optimizerArgs));
    mlir::DictionaryAttr schedule = callDict(b, t->schedule, t->scheduleArgs);
    if (!t->milestones.empty()) {
      DictBuilder sd{b, llvm::to_vector(schedule.getValue())};
      sd.add("milestones", b.getDenseI64ArrayAttr(t->milestones));
      schedule = sd.get();
    }
    d.add("schedule", schedule);
    if (t->clipNorm > 0)
      d.f64("clip_norm", t->clipNorm);
    if (t->accumulate > 1)
      d.i64("accumulate", t->accumulate);
    if (t->earlyStopPatience > 0) {
      DictBuilder ed{b, {}};
      ed.i64("patience", t->earlyStopPatience);
      ed.f64("min_delta", t->earlyStopMinDelta);
      d.add("early_stopping", ed.get());
    }
    d.i64("epochs", t->epochs);
    d.i64("batch", t->batch);
    d.i64("seed", t->seed);
    llvm::SmallVector<mlir::Attribute> metrics;
    for (const std::string &m : t->metrics)
      metrics.push_back(b.getStringAttr(m));
    d.add("metrics", b.getArrayAttr(metrics));
  }
  return d.get();
}
