//===- ConfigReader.cpp - mdl.config -> the runtime's default config ------===//
//
// Maps the `mdl.config` module attribute written by MLIRGen (keys in
// docs/dialect.md) onto TrainDefaults, i.e. the values of the runtime's
// ModelrtTrainConfig: optimizer and schedule kinds and hyperparameters
// (with gradient clipping and accumulation), the data files, the folded
// (scale, shift) normalisation or per-feature standardisation, the
// validation fraction, augmentations, epochs, batch size, seed and early
// stopping.
//
//===----------------------------------------------------------------------===//

#include "ConfigReader.h"

#include "modelrt/core/Program.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>

using namespace modelc;

namespace {
/// Typed lookups in a dictionary, with defaults.
struct Dict {
  mlir::DictionaryAttr d;
  double f(llvm::StringRef key, double dflt = 0) const {
    if (!d)
      return dflt;
    if (auto a = d.getAs<mlir::FloatAttr>(key))
      return a.getValueAsDouble();
    if (auto a = d.getAs<mlir::IntegerAttr>(key))
      return double(a.getInt());
    return dflt;
  }
  int64_t i(llvm::StringRef key, int64_t dflt = 0) const {
    if (!d)
      return dflt;
    if (auto a = d.getAs<mlir::IntegerAttr>(key))
      return a.getInt();
    if (auto a = d.getAs<mlir::FloatAttr>(key))
      return int64_t(a.getValueAsDouble());
    return dflt;
  }
  std::string s(llvm::StringRef key) const {
    if (d)
      if (auto a = d.getAs<mlir::StringAttr>(key))
        return a.str();
    return "";
  }
  Dict sub(llvm::StringRef key) const {
    return Dict{d ? d.getAs<mlir::DictionaryAttr>(key) : nullptr};
  }
};
} // namespace

static llvm::Error configError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "mdl.config: " + msg);
}

static llvm::Error readOptimizer(Dict o, TrainDefaults &c) {
  std::string kind = o.s("kind");
  if (kind == "sgd")
    c.optimizer = MODELRT_OPT_SGD;
  else if (kind == "adam")
    c.optimizer = MODELRT_OPT_ADAM;
  else if (kind == "adamw")
    c.optimizer = MODELRT_OPT_ADAMW;
  else if (kind == "rmsprop")
    c.optimizer = MODELRT_OPT_RMSPROP;
  else
    return configError("unsupported optimizer '" + kind + "'");
  c.lr = o.f("lr", c.lr);
  c.momentum = o.f("momentum");
  c.dampening = o.f("dampening");
  c.nesterov = o.f("nesterov") != 0;
  c.beta1 = o.f("beta1");
  c.beta2 = o.f("beta2");
  c.eps = o.f("eps");
  c.alpha = o.f("alpha");
  c.weightDecay = o.f("weight_decay");
  return llvm::Error::success();
}

/// Optimizer steps per epoch as the runtime counts them (no drop_last):
/// the training split minus the validation hold-out, in batches, grouped
/// by `accumulate`.
static int64_t stepsPerEpoch(Dict data, const TrainDefaults &c) {
  int64_t samples = data.sub("train").i("samples");
  samples -= int64_t(std::llround(double(samples) * data.f("validation")));
  if (samples <= 0 || c.batchSize <= 0)
    return 0;
  int64_t batches = (samples + c.batchSize - 1) / c.batchSize;
  int64_t k = std::max<int64_t>(c.accumulate, 1);
  return (batches + k - 1) / k;
}

/// cosine(epochs, min_lr, warmup): warmup is in optimizer steps already.
static llvm::Error readCosine(Dict s, Dict data, TrainDefaults &c) {
  c.schedule = MODELRT_SCHED_COSINE;
  c.minLr = s.f("min_lr");
  c.warmupSteps = s.i("warmup");
  int64_t epochs = s.i("epochs");
  // 0 or the run's epochs: the runtime uses the actual epochs (also after
  // --epochs); another length is fixed here in steps.
  if (epochs != 0 && epochs != c.epochs) {
    int64_t steps = stepsPerEpoch(data, c);
    if (steps <= 0)
      return configError("cosine(epochs=" + llvm::Twine(epochs) +
                         ") needs the training set's sample count");
    c.totalSteps = epochs * steps;
  }
  return llvm::Error::success();
}

static llvm::Error readSchedule(Dict s, Dict data, TrainDefaults &c) {
  std::string kind = s.s("kind");
  if (kind.empty() || kind == "constant") {
    c.schedule = MODELRT_SCHED_CONSTANT;
  } else if (kind == "step_lr" || kind == "step") {
    c.schedule = MODELRT_SCHED_STEP;
    c.stepSize = s.i("every", s.i("step_size", 1));
    c.gamma = s.f("gamma", 0.1);
  } else if (kind == "multistep") {
    c.schedule = MODELRT_SCHED_MULTISTEP;
    c.gamma = s.f("gamma", 0.1);
    auto ms = s.d.getAs<mlir::DenseI64ArrayAttr>("milestones");
    if (!ms || ms.empty())
      return configError("multistep needs milestones (array<i64>)");
    c.milestones.assign(ms.asArrayRef().begin(), ms.asArrayRef().end());
  } else if (kind == "exponential") {
    c.schedule = MODELRT_SCHED_EXPONENTIAL;
    c.gamma = s.f("gamma", 0.9);
  } else if (kind == "cosine") {
    return readCosine(s, data, c);
  } else if (kind == "reduce_on_plateau") {
    c.schedule = MODELRT_SCHED_PLATEAU;
    c.factor = s.f("factor", 0.1);
    c.patience = s.i("patience", 10);
    c.threshold = s.f("threshold", 1e-4);
    c.minLr = s.f("min_lr");
  } else {
    return configError("unsupported schedule '" + kind + "'");
  }
  return llvm::Error::success();
}

/// `path` made absolute against the compiler's working directory, so that
/// the executable finds its data from any directory.
static std::string absolute(llvm::StringRef path) {
  if (path.empty())
    return "";
  llvm::SmallString<256> p(path);
  llvm::sys::fs::make_absolute(p);
  llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
  return p.str().str();
}

/// One split: IDX (images, labels) or CSV (path, columns).
static llvm::Error readSplit(Dict split, TrainDefaults &c, bool isTrain) {
  std::string format = split.s("format");
  std::string &in = isTrain ? c.trainInputs : c.testInputs;
  std::string &lab = isTrain ? c.trainLabels : c.testLabels;
  if (format == "idx") {
    c.dataFormat = MODELRT_DATA_IDX;
    in = absolute(split.s("images"));
    lab = absolute(split.s("labels"));
    return llvm::Error::success();
  }
  if (format == "csv") {
    c.dataFormat = MODELRT_DATA_CSV;
    in = absolute(split.s("path"));
    c.labelColumn = split.s("label_column");
    c.columns.clear();
    if (auto cols = split.d.getAs<mlir::ArrayAttr>("feature_columns"))
      for (mlir::Attribute a : cols)
        if (auto s = llvm::dyn_cast<mlir::StringAttr>(a))
          c.columns.push_back(s.str());
    return llvm::Error::success();
  }
  return configError("unsupported data format '" + format + "'");
}

/// The input transform: the folded affine `image = ...` or `standardize`.
static llvm::Error readNormalisation(Dict data, TrainDefaults &c) {
  // Sema folds the image transform to x*scale + shift; the runtime computes
  // (x*scale - mean)/std, so mean = -shift with std 1. `standardize` gives
  // one mean and std per feature instead (scale 1).
  c.scale = data.f("scale", 1);
  double shift = data.f("shift");
  c.mean.clear(), c.stddev.clear();
  auto mean = data.d.getAs<mlir::DenseF64ArrayAttr>("mean");
  auto sd = data.d.getAs<mlir::DenseF64ArrayAttr>("std");
  if (mean && sd && mean.size() == sd.size()) {
    c.mean.assign(mean.asArrayRef().begin(), mean.asArrayRef().end());
    c.stddev.assign(sd.asArrayRef().begin(), sd.asArrayRef().end());
  } else if (mean || sd) {
    return configError("data: 'mean' and 'std' must be f64 arrays of the "
                       "same length");
  } else if (shift != 0) {
    c.mean = {-shift};
    c.stddev = {1.0};
  }
  return llvm::Error::success();
}

static llvm::Error readData(Dict data, TrainDefaults &c) {
  if (!data.d)
    return llvm::Error::success();
  if (Dict train = data.sub("train"); train.d)
    if (llvm::Error e = readSplit(train, c, true))
      return e;
  if (Dict test = data.sub("test"); test.d)
    if (llvm::Error e = readSplit(test, c, false))
      return e;
  if (llvm::Error e = readNormalisation(data, c))
    return e;
  c.valFraction = data.f("validation");
  if (auto augs = data.d.getAs<mlir::ArrayAttr>("augment")) {
    for (mlir::Attribute a : augs) {
      Dict aug{llvm::dyn_cast<mlir::DictionaryAttr>(a)};
      std::string kind = aug.s("kind");
      if (kind == "random_hflip")
        c.flipProb = aug.f("p", 0.5);
      else if (kind == "random_crop")
        c.cropPadding = aug.i("pad");
      else
        return configError("unsupported augmentation '" + kind + "'");
    }
  }
  return llvm::Error::success();
}

llvm::Error modelc::readTrainDefaults(mlir::DictionaryAttr config,
                                      TrainDefaults &c) {
  Dict cfg{config};
  c.epochs = cfg.i("epochs", c.epochs);
  c.batchSize = cfg.i("batch", c.batchSize);
  c.seed = uint64_t(cfg.i("seed", 0));
  c.clipNorm = cfg.f("clip_norm");
  c.accumulate = int32_t(cfg.i("accumulate", 1));
  Dict early = cfg.sub("early_stopping");
  c.earlyStopPatience = early.i("patience");
  c.earlyStopMinDelta = early.f("min_delta");
  if (Dict opt = cfg.sub("optimizer"); opt.d)
    if (llvm::Error e = readOptimizer(opt, c))
      return e;
  if (llvm::Error e = readData(cfg.sub("data"), c))
    return e;
  return readSchedule(cfg.sub("schedule"), cfg.sub("data"), c);
}
