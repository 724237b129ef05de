//===- TrainSettings.cpp - Optimizer, schedule and stopping tables --------===//
//
// The folding of a train block's options against the schema
// (modelsupport/TrainConfig.def): a scalar option such as `epochs = 10`,
// and a call such as `adam(lr=1e-3)` naming an optimizer, a learning-rate
// schedule or the early-stopping rule, with its settings, defaults and
// valid ranges. The ranges are those the runtime accepts
// (runtime/lib/train/Optimizer.cpp, Schedule.cpp), so a program that compiles
// never fails its configuration check at run time. The checks spanning
// several settings are written here (nesterov) and in Train.cpp.
//
//===----------------------------------------------------------------------===//

#include "TrainSettings.h"

#include "modelsupport/TrainSchema.h"

#include <array>
#include <cmath>

using namespace modelc;
using namespace modelc::sema;

namespace {
namespace ms = modelsupport;
using ST = ms::SettingType;
using Setting = ms::SettingInfo;

/// An optimizer, schedule or stopping rule with its settings, in order.
struct Callable {
  const char *name;
  std::vector<const Setting *> settings;
};

/// The kinds of `group` with their settings, from the schema.
const std::vector<Callable> &callables(ms::Group group) {
  static const auto tables = [] {
    std::vector<Callable> t[3];
    for (const ms::KindInfo &k : ms::kKinds) {
      Callable c{k.name, {}};
      for (const Setting &s : ms::kSettings)
        if (llvm::StringRef(s.kind) == k.name)
          c.settings.push_back(&s);
      t[int(k.group)].push_back(std::move(c));
    }
    return std::array<std::vector<Callable>, 3>{t[0], t[1], t[2]};
  }();
  return tables[int(group)];
}

/// The result of folding one call.
struct Folded {
  std::string name;
  std::vector<std::pair<std::string, double>> args;
  std::vector<int64_t> list; ///< the IntList setting, if any
  /// The RunLength settings given a length (not 0) in the source.
  std::vector<std::string> fixed;
};

bool inInterval(const Setting &s, double x) { return s.range.contains(x); }

/// Checks the elements of a non-empty IntList value; appends them to `list`.
bool checkList(DiagnosticEngine &diags, llvm::StringRef call, const Setting &s,
               const Value &v, std::vector<int64_t> &list) {
  for (size_t i = 0; i < v.list.size(); ++i) {
    const Value &el = v.list[i];
    if (el.kind != Value::Kind::Int || !inInterval(s, double(el.i)) ||
        (i > 0 && el.i <= v.list[i - 1].i)) {
      diags.error(el.range.Start,
                  call + ": " + s.name + " must be " + s.range.text +
                      ", got " +
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
                    s.range.text + ", got " + v.describe(Graph()),
                {at.getRange()});
  return ok;
}

/// The known names of `table`, comma-separated.
std::string knownNames(const std::vector<Callable> &table) {
  std::string known;
  for (const Callable &k : table)
    known += (known.empty() ? "" : ", ") + std::string(k.name);
  return known;
}

/// Reports an argument that names no setting of `c` (or one too many).
void badArgument(DiagnosticEngine &diags, const Callable &c, const Arg &a) {
  std::string names;
  for (const Setting *s : c.settings)
    names += (names.empty() ? "" : ", ") + std::string(s->name);
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
      if (a.keyword == c.settings[i]->name)
        idx = i;
    if (idx >= c.settings.size()) {
      badArgument(diags, c, a);
      return false;
    }
    Value v = evalConst(diags, *a.value, {});
    double x = 0;
    if (v.isError() ||
        !checkValue(diags, c.name, *c.settings[idx], *a.value, v, x,
                    out.list))
      return false;
    vals[idx] = x;
    if (c.settings[idx]->map == ms::SettingMap::RunLength && x != 0)
      out.fixed.push_back(c.settings[idx]->key);
  }
  for (size_t i = 0; i < c.settings.size(); ++i) {
    const Setting &s = *c.settings[i];
    if (!vals[i] && s.required()) {
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
bool foldCallable(DiagnosticEngine &diags, const Expr &e, ms::Group group,
                  llvm::StringRef what, Folded &out) {
  const std::vector<Callable> &table = callables(group);
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
  if (!foldCallable(diags, e, ms::Group::Optimizer, "optimizer", f))
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
  if (!foldCallable(diags, e, ms::Group::Schedule, "schedule", f))
    return false;
  cfg.schedule = f.name;
  cfg.scheduleArgs = std::move(f.args);
  cfg.milestones = std::move(f.list);
  cfg.scheduleFixed = std::move(f.fixed);
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
    // `early_stopping = N` is the first rule with N as its first setting.
    const Callable &rule = callables(ms::Group::Stopping).front();
    cfg.earlyStopping = rule.name;
    for (const Setting *s : rule.settings)
      cfg.earlyStoppingArgs.push_back(
          {s->name, s == rule.settings.front() ? double(v.i) : s->dflt});
    return true;
  }
  Folded f;
  if (!foldCallable(diags, e, ms::Group::Stopping, "early_stopping rule", f))
    return false;
  cfg.earlyStopping = f.name;
  cfg.earlyStoppingArgs = std::move(f.args);
  return true;
}

/// Stores a checked option's value.
static void setOption(int64_t &field, const Value &v) { field = v.i; }
static void setOption(double &field, const Value &v) { field = v.asDouble(); }

bool sema::checkOption(DiagnosticEngine &diags, const Field &f,
                       TrainConfig &cfg) {
  size_t i = 0;
  while (i < std::size(ms::kOptions) && f.name != ms::kOptions[i].name)
    ++i;
  const ms::OptionInfo &o = ms::kOptions[i];
  Value v = evalConst(diags, *f.value, {});
  if (v.isError())
    return false;
  bool ok = o.type == ST::Integer
                ? v.kind == Value::Kind::Int && o.range.contains(double(v.i))
                : v.isNumber() && o.range.contains(v.asDouble());
  if (!ok) {
    diags.error(f.value->getLoc(),
                f.name + " must be " + o.range.text + ", got " +
                    v.describe(Graph()),
                {f.value->getRange()});
    return false;
  }
  using StoreFn = void (*)(TrainConfig &, const Value &);
  static const StoreFn kStores[] = {
#define MODELRT_TRAIN_OPTION(NAME, TYPE, DEFAULT, LO, HI, BOUNDS, RANGE, ENC,  \
                             OMIT, ABI, DOC)                                   \
  [](TrainConfig &c, const Value &v) { setOption(c.NAME, v); },
#include "modelsupport/TrainConfig.def"
  };
  kStores[i](cfg, v);
  return true;
}

bool sema::isOption(llvm::StringRef name) {
  for (const ms::OptionInfo &o : ms::kOptions)
    if (name == o.name)
      return true;
  return false;
}

std::string sema::trainFieldList() {
  std::string out;
  size_t n = std::size(ms::kTrainFields);
  for (size_t i = 0; i < n; ++i)
    out += (i == 0 ? "" : i + 1 == n ? " or " : ", ") +
           std::string(ms::kTrainFields[i]);
  return out;
}
