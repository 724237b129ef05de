//===- DataAugment.cpp - Checking a data block's `augment` list -----------===//
//
// `augment = aug(...)` or `[aug(...), ...]` lists training augmentations
// (modelsupport/Augment.def), applied in the order written. Each call's
// arguments are matched against its signature (positional, then keyword,
// defaults filled in), and checked against the data: every augmentation
// needs image samples [H, W] or [C, H, W]; a crop keeps the sample shape
// (the model's input); colour jitter needs u8 or float pixels, contrast one
// or three channels and saturation three. A rotation's fill is in stored
// pixel units; colour jitter gets the pixels' white (255 for u8, 1.0 for
// float pixels; black is 0); the runtime maps both through the data's
// transform per channel.
//
//===----------------------------------------------------------------------===//

#include "Config.h"

#include "llvm/ADT/StringExtras.h"

using namespace modelc;
using namespace modelc::sema;

namespace {
/// One parameter of an augmentation's signature.
struct ParamSpec {
  const char *name;
  /// 1: a number; 2: a list of two numbers, [lo, hi] or [h, w].
  unsigned count;
  double dflt[2];
  bool required;
  bool integer;
  /// count 2: a single number n also means [n, n] (sizes).
  bool numberForPair;
};

/// One augmentation: its name and signature.
struct AugmentSpec {
  const char *name;
  std::vector<ParamSpec> params;
};

const AugmentSpec kAugments[] = {
    {"random_hflip", {{"p", 1, {0.5, 0}, false, false, false}}},
    {"random_crop",
     {{"size", 2, {0, 0}, true, true, true},
      {"pad", 1, {0, 0}, false, true, false}}},
    {"random_resized_crop",
     {{"size", 2, {0, 0}, true, true, true},
      {"scale", 2, {0.08, 1.0}, false, false, false},
      {"ratio", 2, {3.0 / 4, 4.0 / 3}, false, false, false}}},
    {"random_rotation",
     {{"degrees", 1, {0, 0}, true, false, false},
      {"fill", 1, {0, 0}, false, false, false}}},
    {"color_jitter",
     {{"brightness", 1, {0, 0}, false, false, false},
      {"contrast", 1, {0, 0}, false, false, false},
      {"saturation", 1, {0, 0}, false, false, false}}},
    {"random_erasing",
     {{"p", 1, {0.5, 0}, false, false, false},
      {"scale", 2, {0.02, 0.33}, false, false, false},
      {"ratio", 2, {0.3, 3.3}, false, false, false},
      {"value", 1, {0, 0}, false, false, false}}},
};

/// "random_hflip(p=0.5), random_crop(size, pad=0), ..." from Augment.def.
std::string supportedList() {
  std::vector<std::string> names = {
#define MODELRT_AUGMENT(NAME, ENUM, VALUE, ARGS, SIGNATURE) SIGNATURE,
#include "modelsupport/Augment.def"
  };
  return llvm::join(names, ", ");
}

/// Checks one augmentation call.
class AugmentChecker {
public:
  AugmentChecker(DiagnosticEngine &diags, const ConstEnv &env,
                 const CallExpr &call, const AugmentSpec &spec,
                 const DataConfig &cfg)
      : diags(diags), env(env), call(call), spec(spec), cfg(cfg) {}

  /// The checked augmentation, or nullopt after reporting an error.
  std::optional<Augmentation> check();

private:
  bool matchArgs();
  bool readValue(const ParamSpec &p, const Expr &e);
  bool checkImage();
  bool checkSize();
  bool checkKind();
  bool checkColor();
  bool checkRange(const char *name, bool upToOne);
  bool checkProbability();
  /// Reports `msg` at argument `name` (at the call when not given).
  bool fail(llvm::StringRef name, const llvm::Twine &msg);
  std::string signature() const;

  DiagnosticEngine &diags;
  const ConstEnv &env;
  const CallExpr &call;
  const AugmentSpec &spec;
  const DataConfig &cfg;
  std::map<std::string, std::vector<double>> values;
  std::map<std::string, const Expr *> where;
  int64_t channels = 1, height = 0, width = 0;
};
} // namespace

bool AugmentChecker::fail(llvm::StringRef name, const llvm::Twine &msg) {
  auto it = where.find(name.str());
  const Expr &at = it != where.end() ? *it->second : call;
  diags.error(at.getLoc(), msg, {at.getRange()});
  return false;
}

std::string AugmentChecker::signature() const {
  for (const char *s : {
#define MODELRT_AUGMENT(NAME, ENUM, VALUE, ARGS, SIGNATURE) SIGNATURE,
#include "modelsupport/Augment.def"
       })
    if (llvm::StringRef(s).starts_with(std::string(spec.name) + "("))
      return s;
  return spec.name;
}

/// Reads the value of parameter `p` from `e` into `values`.
bool AugmentChecker::readValue(const ParamSpec &p, const Expr &e) {
  Value v = evalConst(diags, e, env);
  if (v.isError())
    return false;
  std::vector<double> got;
  if (v.isNumber() && (p.count == 1 || p.numberForPair))
    got.assign(p.count, v.asDouble());
  else if (v.kind == Value::Kind::List && p.count == 2 && v.list.size() == 2 &&
           v.list[0].isNumber() && v.list[1].isNumber())
    got = {v.list[0].asDouble(), v.list[1].asDouble()};
  std::string what = p.count == 1        ? "a number"
                     : p.numberForPair   ? "a number or a list [h, w]"
                                         : "a list of two numbers [lo, hi]";
  if (got.empty())
    return fail(p.name, llvm::Twine("'") + p.name + "' of " + spec.name +
                            " must be " + what + ", got " +
                            v.describe(Graph()));
  for (double x : got)
    if (p.integer && x != double(int64_t(x)))
      return fail(p.name, llvm::Twine("'") + p.name + "' of " + spec.name +
                              " must be an integer, got " + formatNumber(x));
  values[p.name] = got;
  return true;
}

/// Matches the call's arguments to the signature; fills in defaults.
bool AugmentChecker::matchArgs() {
  size_t pos = 0;
  for (const Arg &a : call.getArgs()) {
    if (!a.isKeyword() && pos >= spec.params.size()) {
      diags.error(a.value->getLoc(), "too many arguments; " + signature(),
                  {a.value->getRange()});
      return false;
    }
    std::string name = a.isKeyword() ? a.keyword : spec.params[pos++].name;
    const ParamSpec *p = nullptr;
    for (const ParamSpec &q : spec.params)
      if (name == q.name)
        p = &q;
    llvm::SMRange range = a.isKeyword() ? a.keywordRange : a.value->getRange();
    if (!p || values.count(name)) {
      diags.error(range.Start,
                  (p ? "'" + name + "' is given twice; "
                     : spec.name + std::string(" has no argument '") + name +
                           "'; it takes ") +
                      signature(),
                  {range});
      return false;
    }
    where[name] = a.value.get();
    if (!readValue(*p, *a.value))
      return false;
  }
  for (const ParamSpec &p : spec.params) {
    if (values.count(p.name))
      continue;
    if (p.required)
      return fail("", spec.name + llvm::Twine(" needs '") + p.name + "': " +
                          signature());
    values[p.name].assign(p.dflt, p.dflt + p.count);
  }
  return true;
}

/// Every augmentation needs image samples [H, W] or [C, H, W].
bool AugmentChecker::checkImage() {
  const Shape &s = cfg.sampleShape;
  if (s.size() != 2 && s.size() != 3)
    return fail("", spec.name + llvm::Twine(" needs image samples [H, W] or "
                                            "[C, H, W], but the samples of '") +
                        cfg.name + "' have shape " + shapeStr(s));
  channels = s.size() == 3 ? s[0].size : 1;
  height = s[s.size() - 2].size, width = s.back().size;
  return true;
}

/// A crop's size must be the sample's [H, W]: the model's input.
bool AugmentChecker::checkSize() {
  const std::vector<double> &size = values["size"];
  std::string got = formatNumber(size[0]) + "x" + formatNumber(size[1]);
  std::string image = std::to_string(height) + "x" + std::to_string(width);
  if (size[0] > double(height) || size[1] > double(width))
    return fail("size", spec.name + llvm::Twine(" size ") + got +
                            " is larger than the image (" + image + ")");
  if (size[0] != double(height) || size[1] != double(width))
    return fail("size", spec.name + llvm::Twine(" size ") + got +
                            " differs from the image (" + image +
                            "): the augmented sample keeps the data's shape, "
                            "which is the model's input; use size " +
                            std::to_string(height) +
                            (height == width ? "" : " x " + std::to_string(width)));
  return true;
}

/// `name` must be a range [lo, hi] with 0 < lo <= hi (and hi <= 1).
bool AugmentChecker::checkRange(const char *name, bool upToOne) {
  const std::vector<double> &r = values[name];
  if (r[0] > 0 && r[0] <= r[1] && (!upToOne || r[1] <= 1))
    return true;
  return fail(name, llvm::Twine("'") + name + "' of " + spec.name +
                        " must be a range [lo, hi] with 0 < lo <= hi" +
                        (upToOne ? " <= 1" : "") + ", got [" +
                        formatNumber(r[0]) + ", " + formatNumber(r[1]) + "]");
}

bool AugmentChecker::checkProbability() {
  double p = values["p"][0];
  if (p >= 0 && p <= 1)
    return true;
  return fail("p", spec.name + llvm::Twine(" probability 'p' must be in "
                                           "[0, 1], got ") +
                       formatNumber(p));
}

/// Colour jitter: non-negative strengths, one of them set, channels that
/// fit, and pixels whose white is known.
bool AugmentChecker::checkColor() {
  bool any = false;
  for (const char *k : {"brightness", "contrast", "saturation"}) {
    double v = values[k][0];
    if (v < 0)
      return fail(k, llvm::Twine("'") + k + "' of color_jitter must be >= 0, got " +
                         formatNumber(v));
    any |= v > 0;
  }
  if (!any)
    return fail("", "color_jitter changes nothing: give brightness, contrast "
                    "or saturation > 0");
  std::string shape = shapeStr(cfg.sampleShape);
  if (values["saturation"][0] > 0 && channels != 3)
    return fail("saturation", "saturation needs RGB images [3, H, W], but the "
                              "samples have shape " + shape);
  if (values["contrast"][0] > 0 && channels != 1 && channels != 3)
    return fail("contrast", "contrast needs grey or RGB images (1 or 3 "
                            "channels), but the samples have shape " + shape);
  bool u8 = cfg.storedType == "u8";
  if (!u8 && cfg.storedType != "f32" && cfg.storedType != "f64")
    return fail("", "color_jitter needs u8 pixels (white 255) or float pixels "
                    "(white 1.0), but the samples are " + cfg.storedType);
  values["white"] = {u8 ? 255.0 : 1.0};
  return true;
}

bool AugmentChecker::checkKind() {
  llvm::StringRef name = spec.name;
  if (name == "random_hflip")
    return checkProbability();
  if (name == "random_crop") {
    if (values["pad"][0] < 0)
      return fail("pad", "'pad' of random_crop must be >= 0, got " +
                             formatNumber(values["pad"][0]));
    return checkSize();
  }
  if (name == "random_resized_crop")
    return checkSize() && checkRange("scale", true) && checkRange("ratio", false);
  if (name == "random_rotation") {
    if (values["degrees"][0] < 0)
      return fail("degrees", "'degrees' of random_rotation must be >= 0, got " +
                                 formatNumber(values["degrees"][0]));
    return true;
  }
  if (name == "color_jitter")
    return checkColor();
  return checkProbability() && checkRange("scale", true) &&
         checkRange("ratio", false);
}

std::optional<Augmentation> AugmentChecker::check() {
  if (!matchArgs() || !checkImage() || !checkKind())
    return std::nullopt;
  Augmentation aug;
  aug.kind = spec.name;
  for (const ParamSpec &p : spec.params)
    aug.args.push_back({p.name, values[p.name], p.integer});
  if (values.count("white"))
    aug.args.push_back({"white", values["white"], false});
  return aug;
}

bool sema::checkAugmentations(DiagnosticEngine &diags, const Expr &e,
                              const ConstEnv &env, DataConfig &cfg) {
  if (auto *list = llvm::dyn_cast<ListExpr>(&e)) {
    for (const ExprPtr &el : list->getElements())
      if (!checkAugmentations(diags, *el, env, cfg))
        return false;
    return true;
  }
  const auto *call = llvm::dyn_cast<CallExpr>(&e);
  const auto *fn = call ? llvm::dyn_cast<NameExpr>(&call->getCallee()) : nullptr;
  for (const AugmentSpec &spec : kAugments) {
    if (!fn || fn->getName() != spec.name)
      continue;
    std::optional<Augmentation> aug =
        AugmentChecker(diags, env, *call, spec, cfg).check();
    if (aug)
      cfg.augment.push_back(std::move(*aug));
    return aug.has_value();
  }
  diags.error(e.getLoc(),
              "unknown augmentation; supported: " + supportedList() +
                  ", or a list of them",
              {e.getRange()});
  return false;
}
