//===- DataNormalize.cpp - Per-channel normalisation of images ------------===//
//
// `image = normalize(<affine in image>, mean=[...], std=[...])` is
// torchvision's Normalize after the affine transform (typically
// `image / 255`, ToTensor): x' = (a * x + b - mean[c]) / std[c] for
// channel c, with one mean and std for every channel or one per channel
// (dimension 0 of [C, H, W] samples). It folds into the runtime's
// normalisation (x * scale - mean'[c]) / std[c] with scale = a and
// mean'[c] = mean[c] - b.
//
//===----------------------------------------------------------------------===//

#include "Config.h"

#include <cmath>

using namespace modelc;
using namespace modelc::sema;

const Expr *sema::normalizeOperand(DiagnosticEngine &diags,
                                   const CallExpr &call) {
  const Expr *operand = nullptr;
  size_t positional = 0;
  for (const Arg &a : call.getArgs())
    if (!a.isKeyword() && positional++ == 0)
      operand = a.value.get();
  if (positional == 1)
    return operand;
  diags.error(call.getLoc(),
              "normalize takes the image and keywords: normalize(image / 255, "
              "mean=[...], std=[...])",
              {call.getRange()});
  return nullptr;
}

/// The numbers of keyword `key` of `call` (a number or a list of them);
/// empty after reporting an error.
static std::vector<double> readValues(DiagnosticEngine &diags,
                                      const CallExpr &call, const ConstEnv &env,
                                      llvm::StringRef key) {
  const Arg *arg = nullptr;
  for (const Arg &a : call.getArgs())
    if (a.keyword == key)
      arg = &a;
  if (!arg) {
    diags.error(call.getLoc(),
                "normalize needs '" + key + "': normalize(image / 255, "
                "mean=[...], std=[...])",
                {call.getRange()});
    return {};
  }
  Value v = evalConst(diags, *arg->value, env);
  std::vector<double> out;
  if (v.isNumber())
    out.push_back(v.asDouble());
  for (const Value &e : v.kind == Value::Kind::List ? v.list : std::vector<Value>{})
    out.push_back(e.isNumber() ? e.asDouble() : NAN);
  bool numbers = !out.empty();
  for (double x : out)
    numbers &= !std::isnan(x);
  if (!numbers && !v.isError())
    diags.error(arg->value->getLoc(),
                "'" + key + "' of normalize must be a number or a list of "
                "numbers, one per channel, got " + v.describe(Graph()),
                {arg->value->getRange()});
  return numbers ? out : std::vector<double>{};
}

/// The argument `key` of `call`, for locating an error.
static const Expr &argExpr(const CallExpr &call, llvm::StringRef key) {
  for (const Arg &a : call.getArgs())
    if (a.keyword == key)
      return *a.value;
  return call;
}

bool sema::checkNormalize(DiagnosticEngine &diags, const CallExpr &call,
                          const ConstEnv &env, DataConfig &cfg) {
  for (const Arg &a : call.getArgs())
    if (a.isKeyword() && a.keyword != "mean" && a.keyword != "std") {
      diags.error(a.keywordRange.Start,
                  "normalize has no argument '" + a.keyword +
                      "'; it takes normalize(image, mean=[...], std=[...])",
                  {a.keywordRange});
      return false;
    }
  std::vector<double> mean = readValues(diags, call, env, "mean");
  std::vector<double> sd = mean.empty() ? mean : readValues(diags, call, env, "std");
  if (sd.empty())
    return false;
  const Shape &s = cfg.sampleShape;
  size_t channels = s.size() == 3 ? size_t(s[0].size) : 1;
  for (const char *key : {"mean", "std"}) {
    size_t n = (llvm::StringRef(key) == "mean" ? mean : sd).size();
    if (n == 1 || n == channels)
      continue;
    const Expr &at = argExpr(call, key);
    diags.error(at.getLoc(),
                "normalize has " + llvm::Twine(n) + " " + key +
                    " values but the samples, of shape " + shapeStr(s) +
                    ", have " + llvm::Twine(channels) +
                    " channel(s); give one value or one per channel",
                {at.getRange()});
    return false;
  }
  size_t n = std::max(mean.size(), sd.size());
  mean.resize(n, mean[0]), sd.resize(n, sd[0]);
  for (double x : sd)
    if (!(x > 0)) {
      const Expr &at = argExpr(call, "std");
      diags.error(at.getLoc(), "'std' of normalize must be > 0, got " + formatNumber(x),
                  {at.getRange()});
      return false;
    }
  cfg.featureMean.clear(), cfg.featureStd = sd;
  for (double m : mean)
    cfg.featureMean.push_back(m - cfg.shift);
  cfg.shift = 0;
  return true;
}
