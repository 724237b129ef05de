//===- ConfigReader.cpp - mdl.config -> the runtime's default config ------===//
//
// Maps the `mdl.config` module attribute written by MLIRGen (keys in
// docs/dialect.md) onto TrainDefaults, i.e. the values of the runtime's
// ModelrtTrainConfig. The options (epochs, batch, seed, clipping,
// accumulation, the optimizer, schedule and early stopping with their
// settings) are read as the schema modelsupport/TrainConfig.def says, an
// absent one taking its schema default; the data set (files, the folded
// (scale, shift) normalisation or per-feature / per-channel mean and std,
// the validation fraction, augmentations, an image folder's resize and
// centre crop) by hand.
//
//===----------------------------------------------------------------------===//

#include "ConfigReader.h"

#include "modelrt/core/Program.h"
#include "modelsupport/TrainSchema.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <type_traits>

using namespace modelc;
namespace ms = modelsupport;

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
  std::vector<std::string> strings(llvm::StringRef key) const {
    std::vector<std::string> out;
    if (auto a = d ? d.getAs<mlir::ArrayAttr>(key) : nullptr)
      for (mlir::Attribute e : a)
        if (auto s = llvm::dyn_cast<mlir::StringAttr>(e))
          out.push_back(s.str());
    return out;
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

namespace {
/// One value of the attribute, as each kind of ABI field wants it.
struct Value {
  double real = 0;
  int64_t integer = 0;
  llvm::ArrayRef<int64_t> list;
};

/// Stores `v` into an ABI field of TrainDefaults.
template <class T> void assign(T &field, const Value &v) {
  if constexpr (std::is_integral_v<T>)
    field = T(v.integer);
  else if constexpr (std::is_floating_point_v<T>)
    field = v.real;
  else
    field.assign(v.list.begin(), v.list.end());
}

using StoreFn = void (*)(TrainDefaults &, const Value &);

/// Where each option and setting goes, in the order of kOptions/kSettings.
const StoreFn kOptionStores[] = {
#define MODELRT_TRAIN_OPTION(NAME, TYPE, DEFAULT, LO, HI, BOUNDS, RANGE, ENC,  \
                             OMIT, ABI, DOC)                                   \
  [](TrainDefaults &c, const Value &v) { assign(c.ABI, v); },
#include "modelsupport/TrainConfig.def"
};
const StoreFn kSettingStores[] = {
#define MODELRT_SETTING(KIND, NAME, TYPE, DEFAULT, LO, HI, BOUNDS, RANGE, KEY, \
                        ENC, ABI, MAP, DOC)                                    \
  [](TrainDefaults &c, const Value &v) { assign(c.ABI, v); },
#include "modelsupport/TrainConfig.def"
};
static_assert(std::size(kOptionStores) == std::size(ms::kOptions));
static_assert(std::size(kSettingStores) == std::size(ms::kSettings));
} // namespace

/// The number under `key`, from an integer or a float attribute.
static std::optional<Value> readNumber(Dict d, llvm::StringRef key) {
  if (!d.d)
    return std::nullopt;
  if (auto a = d.d.getAs<mlir::IntegerAttr>(key))
    return Value{double(a.getInt()), a.getInt(), {}};
  if (auto a = d.d.getAs<mlir::FloatAttr>(key))
    return Value{a.getValueAsDouble(), int64_t(a.getValueAsDouble()), {}};
  return std::nullopt;
}

/// True when the source gave `key` itself (the group's `fixed` list).
static bool isFixed(Dict d, llvm::StringRef key) {
  if (auto fixed = d.d.getAs<mlir::ArrayAttr>("fixed"))
    for (mlir::Attribute a : fixed)
      if (auto s = llvm::dyn_cast<mlir::StringAttr>(a); s && s == key)
        return true;
  return false;
}

/// A RUN_LENGTH setting: a length the source gives is kept in epochs (the
/// runtime counts its own optimizer steps per epoch, after --batch);
/// otherwise 0, the run's own length (also after --epochs).
static void runLength(const ms::SettingInfo &s, Dict d, Value &v) {
  if (!isFixed(d, s.key))
    v = Value{};
}

/// Reads setting `i` of the kind from `d` (its schema default if absent).
static llvm::Error readSetting(size_t i, Dict d, TrainDefaults &c) {
  const ms::SettingInfo &s = ms::kSettings[i];
  std::optional<Value> v;
  if (s.type == ms::SettingType::IntList) {
    auto list = d.d ? d.d.getAs<mlir::DenseI64ArrayAttr>(s.key) : nullptr;
    if (list && !list.empty())
      v = Value{0, 0, list.asArrayRef()};
  } else {
    v = readNumber(d, s.key);
    if (!v && !s.required())
      v = Value{s.dflt, int64_t(s.dflt), {}};
  }
  if (!v)
    return configError(llvm::Twine(s.kind) + " needs '" + s.key + "'" +
                       (s.type == ms::SettingType::IntList ? " (array<i64>)"
                                                           : ""));
  if (s.map == ms::SettingMap::RunLength)
    runLength(s, d, *v);
  kSettingStores[i](c, *v);
  return llvm::Error::success();
}

/// Reads the dictionary of `group`: its kind and the kind's settings. An
/// absent schedule is constant; absent early stopping is off.
static llvm::Error readGroup(ms::Group group, Dict cfg, TrainDefaults &c) {
  Dict d = cfg.sub(ms::groupKey(group));
  if (!d.d && group != ms::Group::Schedule)
    return llvm::Error::success();
  std::string name = group == ms::Group::Stopping ? "patience" : d.s("kind");
  if (name.empty() && group == ms::Group::Schedule)
    name = "constant";
  const ms::KindInfo *kind = ms::findKind(group, name.c_str());
  if (!kind)
    return configError("unsupported " +
                       llvm::Twine(group == ms::Group::Optimizer ? "optimizer"
                                                                 : "schedule") +
                       " '" + name + "'");
  if (group == ms::Group::Optimizer)
    c.optimizer.kind = kind->value;
  else if (group == ms::Group::Schedule)
    c.schedule.kind = kind->value;
  for (size_t i = 0; i < std::size(ms::kSettings); ++i)
    if (name == ms::kSettings[i].kind)
      if (llvm::Error e = readSetting(i, d, c))
        return e;
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

/// One split: IDX or NPY (inputs, labels), CSV (path, columns), an image
/// folder (dir) or a token stream (text or NPY: path).
static llvm::Error readSplit(Dict split, TrainDefaults &c, bool isTrain) {
  std::string format = split.s("format");
  std::string &in = isTrain ? c.trainInputs : c.testInputs;
  std::string &lab = isTrain ? c.trainLabels : c.testLabels;
  if (format == "idx" || (format == "npy" && split.s("path").empty())) {
    c.dataFormat = format == "npy" ? MODELRT_DATA_NPY : MODELRT_DATA_IDX;
    in = absolute(split.s("images"));
    lab = absolute(split.s("labels"));
    return llvm::Error::success();
  }
  if (format == "text" || (format == "npy" && !split.s("path").empty())) {
    c.dataFormat = format == "npy" ? MODELRT_DATA_NPY : MODELRT_DATA_TEXT;
    in = absolute(split.s("path"));
    return llvm::Error::success();
  }
  if (format == "images") {
    c.dataFormat = MODELRT_DATA_IMAGES;
    in = absolute(split.s("dir"));
    return llvm::Error::success();
  }
  if (format == "csv") {
    c.dataFormat = MODELRT_DATA_CSV;
    in = absolute(split.s("path"));
    c.labelColumns = split.strings("label_columns");
    c.columns = split.strings("feature_columns");
    return llvm::Error::success();
  }
  return configError("unsupported data format '" + format + "'");
}

/// The input transform: the folded affine `image = ...`, or mean and std
/// (`standardize`, `image = normalize(...)`).
static llvm::Error readNormalisation(Dict data, TrainDefaults &c) {
  // Sema folds the image transform to x*scale + shift; the runtime computes
  // (x*scale - mean)/std, so mean = -shift with std 1. `standardize` (one
  // mean and std per feature, scale 1) and `normalize` (one or one per
  // channel, shift folded into mean) give mean and std instead.
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

namespace {
/// An augmentation of modelsupport/Augment.def: its name, kind and the
/// keys that fill its arguments in order.
struct AugmentKind {
  const char *name;
  int32_t kind;
  const char *keys;
};
const AugmentKind kAugmentKinds[] = {
#define MODELRT_AUGMENT(NAME, ENUM, VALUE, ARGS, SIGNATURE) {#NAME, ENUM, ARGS},
#include "modelsupport/Augment.def"
};
} // namespace

/// Appends the value of `key` (a number, or an array of f64) to `args`.
static llvm::Error readAugmentArg(Dict aug, llvm::StringRef kind,
                                  llvm::StringRef key, std::vector<double> &args) {
  if (auto list = aug.d.getAs<mlir::DenseF64ArrayAttr>(key)) {
    args.insert(args.end(), list.asArrayRef().begin(), list.asArrayRef().end());
  } else if (std::optional<Value> v = readNumber(aug, key)) {
    args.push_back(v->real);
  } else {
    return configError(kind + " needs '" + key + "'");
  }
  if (args.size() > MODELRT_AUGMENT_ARGS)
    return configError(kind + ": more than " +
                       llvm::Twine(MODELRT_AUGMENT_ARGS) + " arguments");
  return llvm::Error::success();
}

/// One augmentation's dictionary: `kind` and the kind's keys in order.
static llvm::Expected<AugmentSpec> readAugment(Dict aug) {
  std::string kind = aug.s("kind");
  for (const AugmentKind &k : kAugmentKinds) {
    if (kind != k.name)
      continue;
    AugmentSpec spec;
    spec.kind = k.kind;
    llvm::SmallVector<llvm::StringRef> keys;
    llvm::StringRef(k.keys).split(keys, ' ', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef key : keys)
      if (llvm::Error e = readAugmentArg(aug, kind, key, spec.args))
        return std::move(e);
    return spec;
  }
  return configError("unsupported augmentation '" + kind + "'");
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
  if (auto resize = data.d.getAs<mlir::DenseI64ArrayAttr>("resize")) {
    if (resize.size() != 2)
      return configError("data: 'resize' must be [height, width]");
    c.resizeHeight = resize[0], c.resizeWidth = resize[1];
  }
  c.centerCrop = data.d.getAs<mlir::BoolAttr>("center_crop") ? 1 : 0;
  c.seqLen = data.i("seq");
  std::string tokens = data.s("tokenize");
  c.tokens = tokens == "chars"   ? MODELRT_TOKENS_CHARS
             : tokens == "bytes" ? MODELRT_TOKENS_BYTES
                                 : 0;
  if (auto vocab = data.d.getAs<mlir::DenseI32ArrayAttr>("vocab"))
    c.vocab.assign(vocab.asArrayRef().begin(), vocab.asArrayRef().end());
  c.augment.clear();
  if (auto augs = data.d.getAs<mlir::ArrayAttr>("augment"))
    for (mlir::Attribute a : augs) {
      llvm::Expected<AugmentSpec> aug =
          readAugment(Dict{llvm::dyn_cast<mlir::DictionaryAttr>(a)});
      if (!aug)
        return aug.takeError();
      c.augment.push_back(*aug);
    }
  return llvm::Error::success();
}

llvm::Error modelc::readTrainDefaults(mlir::DictionaryAttr config,
                                      TrainDefaults &c) {
  Dict cfg{config};
  for (size_t i = 0; i < std::size(ms::kOptions); ++i) {
    const ms::OptionInfo &o = ms::kOptions[i];
    kOptionStores[i](c, readNumber(cfg, o.name)
                            .value_or(Value{o.dflt, int64_t(o.dflt), {}}));
  }
  if (llvm::Error e = readData(cfg.sub("data"), c))
    return e;
  c.inputIdLimit = cfg.i("input_id_limit");
  c.batch_norm_sync = cfg.s("batch_norm") == "sync";
  for (ms::Group g :
       {ms::Group::Optimizer, ms::Group::Stopping, ms::Group::Schedule})
    if (llvm::Error e = readGroup(g, cfg, c))
      return e;
  return llvm::Error::success();
}
