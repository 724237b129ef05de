//===- TrainSettings.cpp - Optimizer, schedule and stopping tables --------===//
//
// The optimizers, learning-rate schedules and the early-stopping rule a
// `train` block may name, each with its settings, defaults and valid
// ranges, and the folding of a call such as `adam(lr=1e-3)` against them.
// The ranges are those the runtime accepts (runtime/lib/train/Optimizer.cpp,
// Schedule.cpp), so a program that compiles never fails its configuration
// check at run time.
//
//===----------------------------------------------------------------------===//

#include "TrainSettings.h"

#include <cmath>

using namespace modelc;
using namespace modelc::sema;

namespace {
/// What a setting holds.
enum class SettingType {
  Real,    ///< any number
  Integer, ///< an integer literal
  Flag,    ///< true/false (or 1/0)
  IntList, ///< a non-empty strictly increasing list of integers
};
/// A setting of an optimizer or schedule and its valid range.
struct Setting {
  const char *name;
  double dflt;    ///< NaN when required
  double lo, hi;  ///< valid interval (of each element, for IntList)
  bool loOpen, hiOpen;
  const char *range; ///< the valid values as text, for messages
  SettingType type = SettingType::Real;
};
/// An optimizer or schedule with its settings.
struct Callable {
  const char *name;
  std::vector<Setting> settings;
};
using ST = SettingType;
const double kReq = __builtin_nan("");
const double kInf = __builtin_inf();
const Setting kLr{"lr", kReq, 0, kInf, true, true, "lr > 0"};
const Setting kLrAdam{"lr", 1e-3, 0, kInf, true, true, "lr > 0"};
const Setting kBeta1{"beta1", 0.9, 0, 1, false, true, "0 <= beta1 < 1"};
const Setting kBeta2{"beta2", 0.999, 0, 1, false, true, "0 <= beta2 < 1"};
const Setting kEps{"eps", 1e-8, 0, kInf, true, true, "eps > 0"};
const Setting kMomentum{"momentum", 0, 0, 1, false, true, "0 <= momentum < 1"};
const Setting kDecay{"weight_decay", 0, 0, kInf, false, true,
                     "weight_decay >= 0"};
const Setting kGamma{"gamma", 0.1, 0, 1, true, false, "0 < gamma <= 1"};
const Setting kMinLr{"min_lr", 0, 0, kInf, false, true, "min_lr >= 0"};
const Callable kOptimizers[] = {
    {"sgd",
     {kLr, kMomentum, kDecay,
      {"nesterov", 0, 0, 1, false, false, "true or false", ST::Flag}}},
    {"adam", {kLrAdam, kBeta1, kBeta2, kEps, kDecay}},
    {"adamw",
     {kLrAdam, kBeta1, kBeta2, kEps,
      {"weight_decay", 0.01, 0, kInf, false, true, "weight_decay >= 0"}}},
    {"rmsprop",
     {{"lr", 1e-2, 0, kInf, true, true, "lr > 0"},
      {"alpha", 0.99, 0, 1, true, true, "0 < alpha < 1"}, kEps, kMomentum,
      kDecay}},
};
const Callable kSchedules[] = {
    {"constant", {}},
    {"step_lr",
     {{"every", kReq, 1, kInf, false, true,
       "every >= 1 (an integer number of epochs)", ST::Integer},
      kGamma}},
    {"multistep",
     {{"milestones", kReq, 1, kInf, false, true,
       "a non-empty list of increasing integers >= 1 (epochs)", ST::IntList},
      kGamma}},
    {"exponential", {{"gamma", kReq, 0, 1, true, false, "0 < gamma <= 1"}}},
    {"cosine",
     {{"epochs", 0, 0, kInf, false, true,
       "epochs >= 1, an integer (0: all epochs)", ST::Integer},
      kMinLr,
      {"warmup", 0, 0, kInf, false, true,
       "warmup >= 0 (an integer number of optimizer steps)", ST::Integer}}},
    {"reduce_on_plateau",
     {{"factor", 0.1, 0, 1, true, true, "0 < factor < 1"},
      {"patience", 10, 0, kInf, false, true,
       "patience >= 0 (an integer number of epochs)", ST::Integer},
      {"threshold", 1e-4, 0, kInf, false, true, "threshold >= 0"}, kMinLr}},
};
const Callable kStopping[] = {
    {"patience",
     {{"epochs", kReq, 1, kInf, false, true,
       "epochs >= 1 (an integer number of epochs)", ST::Integer},
      {"min_delta", 0, 0, kInf, false, true, "min_delta >= 0"}}},
};

/// The result of folding one call.
struct Folded {
  std::string name;
  std::vector<std::pair<std::string, double>> args;
  std::vector<int64_t> list; ///< the IntList setting, if any
};

bool inInterval(const Setting &s, double x) {
  return (s.loOpen ? x > s.lo : x >= s.lo) &&
         (s.hiOpen ? x < s.hi : x <= s.hi);
}

/// Checks the elements of a non-empty IntList value; appends them to `list`.
bool checkList(DiagnosticEngine &diags, llvm::StringRef call, const Setting &s,
               const Value &v, std::vector<int64_t> &list) {
  for (size_t i = 0; i < v.list.size(); ++i) {
    const Value &el = v.list[i];
    if (el.kind != Value::Kind::Int || !inInterval(s, double(el.i)) ||
        (i > 0 && el.i <= v.list[i - 1].i)) {
      diags.error(el.range.Start,
                  call + ": " + s.name + " must be " + s.range + ", got " +
                      el.describe(Graph()) +
                      (i ? " after " + std::to_string(v.list[i - 1].i) : ""),
                  {el.range});
      return false;
    }
    list.push_back(el.i);
  }
  return true;
}

/// Checks one value against `s`; sets `x` (or `list`). Reports errors.
bool checkValue(DiagnosticEngine &diags, llvm::StringRef call,
                const Setting &s, const Expr &at, const Value &v, double &x,
                std::vector<int64_t> &list) {
  bool ok = false;
  switch (s.type) {
  case ST::Real:
    ok = v.isNumber() && inInterval(s, x = v.asDouble());
    break;
  case ST::Integer:
    ok = v.kind == Value::Kind::Int && inInterval(s, x = double(v.i));
    break;
  case ST::Flag:
    ok = (v.kind == Value::Kind::Bool ||
          (v.kind == Value::Kind::Int && (v.i == 0 || v.i == 1)));
    x = double(v.i);
    break;
  case ST::IntList:
    if (v.kind == Value::Kind::List && !v.list.empty()) {
      x = double(v.list.size());
      return checkList(diags, call, s, v, list);
    }
    break;
  }
  if (!ok)
    diags.error(at.getLoc(),
                call + ": " + s.name + " must " +
                    (s.type == ST::Real || s.type == ST::Integer ? "satisfy "
                                                                 : "be ") +
                    s.range + ", got " + v.describe(Graph()),
                {at.getRange()});
  return ok;
}

/// The known names of `table`, comma-separated.
template <size_t N> std::string knownNames(const Callable (&table)[N]) {
  std::string known;
  for (const Callable &k : table)
    known += (known.empty() ? "" : ", ") + std::string(k.name);
  return known;
}

/// Reports an argument that names no setting of `c` (or one too many).
void badArgument(DiagnosticEngine &diags, const Callable &c, const Arg &a) {
  std::string names;
  for (const Setting &s : c.settings)
    names += (names.empty() ? "" : ", ") + std::string(s.name);
  diags.error(a.getRange().Start,
              (a.isKeyword() ? "'" + std::string(c.name) +
                                   "' has no setting '" + a.keyword + "'"
                             : "too many arguments to '" +
                                   std::string(c.name) + "'") +
                  "; its settings are: " + (names.empty() ? "none" : names),
              {a.getRange()});
}

/// Folds the arguments of `call` (may be null: a bare name) against `c`.
bool foldArgs(DiagnosticEngine &diags, const Expr &e, const CallExpr *call,
              const Callable &c, Folded &out) {
  out.name = c.name;
  std::vector<std::optional<double>> vals(c.settings.size());
  size_t pos = 0;
  for (const Arg &a : call ? call->getArgs() : llvm::ArrayRef<Arg>()) {
    size_t idx = a.isKeyword() ? c.settings.size() : pos++;
    for (size_t i = 0; a.isKeyword() && i < c.settings.size(); ++i)
      if (a.keyword == c.settings[i].name)
        idx = i;
    if (idx >= c.settings.size()) {
      badArgument(diags, c, a);
      return false;
    }
    Value v = evalConst(diags, *a.value, {});
    double x = 0;
    if (v.isError() ||
        !checkValue(diags, c.name, c.settings[idx], *a.value, v, x, out.list))
      return false;
    vals[idx] = x;
  }
  for (size_t i = 0; i < c.settings.size(); ++i) {
    const Setting &s = c.settings[i];
    if (!vals[i] && std::isnan(s.dflt)) {
      diags.error(e.getLoc(),
                  std::string(c.name) + " needs a value for '" + s.name + "'",
                  {e.getRange()});
      return false;
    }
    if (s.type != ST::IntList)
      out.args.push_back({s.name, vals[i] ? *vals[i] : s.dflt});
  }
  return true;
}

/// Folds `name(args)` (or a bare `name`) against `table`; reports unknown
/// names and settings.
template <size_t N>
bool foldCallable(DiagnosticEngine &diags, const Expr &e,
                  const Callable (&table)[N], llvm::StringRef what,
                  Folded &out) {
  const auto *call = llvm::dyn_cast<CallExpr>(&e);
  const auto *fn = call ? llvm::dyn_cast<NameExpr>(&call->getCallee())
                        : llvm::dyn_cast<NameExpr>(&e);
  for (const Callable &k : table)
    if (fn && fn->getName() == k.name)
      return foldArgs(diags, e, call, k, out);
  diags.error(e.getLoc(),
              "unknown " + what + "; expected one of: " + knownNames(table),
              {e.getRange()});
  return false;
}
} // namespace

double sema::getSetting(
    const std::vector<std::pair<std::string, double>> &args,
    llvm::StringRef name, double dflt) {
  for (const auto &kv : args)
    if (kv.first == name)
      return kv.second;
  return dflt;
}

bool sema::foldOptimizer(DiagnosticEngine &diags, const Expr &e,
                         TrainConfig &cfg) {
  Folded f;
  if (!foldCallable(diags, e, kOptimizers, "optimizer", f))
    return false;
  if (f.name == "sgd" && getSetting(f.args, "nesterov") != 0 &&
      getSetting(f.args, "momentum") == 0) {
    diags.error(e.getLoc(), "sgd: nesterov=true needs momentum > 0",
                {e.getRange()});
    return false;
  }
  cfg.optimizer = f.name;
  cfg.optimizerArgs = std::move(f.args);
  return true;
}

bool sema::foldSchedule(DiagnosticEngine &diags, const Expr &e,
                        TrainConfig &cfg) {
  Folded f;
  if (!foldCallable(diags, e, kSchedules, "schedule", f))
    return false;
  cfg.schedule = f.name;
  cfg.scheduleArgs = std::move(f.args);
  cfg.milestones = std::move(f.list);
  return true;
}

bool sema::foldEarlyStopping(DiagnosticEngine &diags, const Expr &e,
                             TrainConfig &cfg) {
  if (!llvm::isa<CallExpr>(e) && !llvm::isa<NameExpr>(e)) {
    Value v = evalConst(diags, e, {});
    if (v.isError())
      return false;
    if (v.kind != Value::Kind::Int || v.i < 1) {
      diags.error(e.getLoc(),
                  "early_stopping must be a patience in epochs (an integer "
                  ">= 1) or patience(N, min_delta=0), got " +
                      v.describe(Graph()),
                  {e.getRange()});
      return false;
    }
    cfg.earlyStopPatience = v.i;
    return true;
  }
  Folded f;
  if (!foldCallable(diags, e, kStopping, "early_stopping rule", f))
    return false;
  cfg.earlyStopPatience = int64_t(getSetting(f.args, "epochs"));
  cfg.earlyStopMinDelta = getSetting(f.args, "min_delta");
  return true;
}
