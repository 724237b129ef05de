//===- Elaborator.cpp - Evaluation of expressions and calls ---------------===//
//
// The expression half of the Elaborator: literals, names (locals, dimension
// variables, module declarations, imports, builtins), member paths, pipes,
// calls and argument binding for builtins.
//
//===----------------------------------------------------------------------===//

#include "Elaborator.h"
#include "Fold.h"

#include "modelc/Frontend/SearchPath.h"

#include "llvm/ADT/STLExtras.h"

using namespace modelc;
using namespace modelc::sema;

/// The candidate closest to `name` by edit distance, if reasonably close.
static std::string closest(llvm::StringRef name,
                           llvm::ArrayRef<llvm::StringRef> candidates) {
  std::string best;
  unsigned limit =
      name.size() <= 2 ? 1 : std::max<unsigned>(2, name.size() / 3);
  unsigned bestDist = limit + 1;
  for (llvm::StringRef c : candidates) {
    unsigned d = name.edit_distance(c, true, limit + 1);
    if (d < bestDist && c != name) {
      bestDist = d;
      best = c.str();
    }
  }
  return best;
}

void Elaborator::reportUnknownName(llvm::StringRef name, llvm::SMRange range,
                                   const Frame &frame) {
  // A parameter of some function, used where it is not in scope?
  for (const ModuleInfo *m : allModules)
    for (const DeclPtr &d : m->ast->getDecls())
      if (auto *fn = llvm::dyn_cast<FuncDecl>(d.get()))
        for (const StmtPtr &s : fn->getBody())
          if (auto *p = llvm::dyn_cast<ParamStmt>(s.get()))
            if (p->getName() == name) {
              diags.error(range.Start,
                          "'" + name + "' is a parameter of '" +
                              fn->getName() +
                              "' and cannot be used outside that function",
                          {range});
              diags.note(p->getLoc(), "parameter '" + name + "' declared here");
              return;
            }
  if (frame.module)
    for (const auto &[bound, imported] : frame.module->imports)
      if (imported->name == name) {
        diags.error(range.Start,
                    "unknown name '" + name + "': the module " + name +
                        " is imported as '" + bound + "'",
                    {range});
        return;
      }
  if (frame.module && resolveImport({name.str()}, frame.module->importPath)) {
    diags.error(range.Start,
                "unknown name '" + name + "': the module " + name +
                    ".model is not imported; add `import " + name +
                    "` before the file's declarations",
                {range});
    return;
  }
  std::vector<llvm::StringRef> candidates;
  for (auto &kv : frame.vars)
    candidates.push_back(kv.first);
  for (auto &kv : frame.module->decls)
    candidates.push_back(kv.first);
  for (llvm::StringRef b : getBuiltinNames())
    candidates.push_back(b);
  std::string guess = closest(name, candidates);
  diags.error(range.Start,
              "unknown name '" + name + "'" + frame.nameScope +
                  (guess.empty() ? std::string()
                                 : "; did you mean '" + guess + "'?"),
              {range});
}

Value Elaborator::evalName(const NameExpr &e, Frame &frame) {
  llvm::StringRef name = e.getName();
  Value v;
  v.range = e.getRange();
  auto var = frame.vars.find(name.str());
  if (var != frame.vars.end()) {
    Value r = var->second;
    r.range = e.getRange();
    return r;
  }
  auto dim = frame.dims.find(name.str());
  if (dim != frame.dims.end()) {
    if (dim->second.isSymbolic()) {
      v.kind = Value::Kind::SymDim;
      v.s = dim->second.symbol;
    } else {
      v.kind = Value::Kind::Int;
      v.i = dim->second.size;
    }
    return v;
  }
  auto decl = frame.module->decls.find(name.str());
  if (decl != frame.module->decls.end()) {
    if (auto *fn = llvm::dyn_cast<FuncDecl>(decl->second)) {
      v.kind = Value::Kind::Func;
      v.fn = fn;
      v.module = frame.module;
      return v;
    }
    diags.error(e.getLoc(), "'" + name + "' is a " +
                                (llvm::isa<DataDecl>(decl->second) ? "data"
                                                                   : "train") +
                                " block, not a value",
                {e.getRange()});
    return Value::error();
  }
  auto imp = frame.module->imports.find(name.str());
  if (imp != frame.module->imports.end()) {
    v.kind = Value::Kind::Module;
    v.module = imp->second;
    return v;
  }
  if (const BuiltinInfo *b = lookupBuiltin(name)) {
    v.kind = Value::Kind::Builtin;
    v.builtin = b;
    return v;
  }
  if (std::optional<DType> dt = parseDType(name)) {
    v.kind = Value::Kind::DTypeName;
    v.dtype = *dt;
    return v;
  }
  reportUnknownName(name, e.getRange(), frame);
  return Value::error();
}

Value Elaborator::evalMember(const MemberExpr &e, Frame &frame) {
  Value base = eval(e.getBase(), frame);
  if (base.isError())
    return base;
  if (base.kind != Value::Kind::Module) {
    diags.error(e.getNameRange().Start,
                "'." + e.getName() + "' needs a module on its left, got " +
                    base.describe(graph),
                {e.getNameRange()});
    return Value::error();
  }
  const ModuleInfo *m = base.module;
  auto it = m->decls.find(e.getName().str());
  if (it != m->decls.end())
    if (auto *fn = llvm::dyn_cast<FuncDecl>(it->second)) {
      Value v;
      v.kind = Value::Kind::Func;
      v.fn = fn;
      v.module = m;
      v.range = e.getRange();
      return v;
    }
  auto sub = m->imports.find(e.getName().str());
  if (sub != m->imports.end() && it == m->decls.end()) {
    Value v;
    v.kind = Value::Kind::Module;
    v.module = sub->second;
    v.range = e.getRange();
    return v;
  }
  std::vector<llvm::StringRef> names;
  for (auto &kv : m->decls)
    names.push_back(kv.first);
  std::string guess = closest(e.getName(), names);
  diags.error(e.getNameRange().Start,
              "module '" + m->name + "' has no function '" + e.getName() +
                  "'" +
                  (guess.empty() ? std::string()
                                 : "; did you mean '" + guess + "'?"),
              {e.getNameRange()});
  return Value::error();
}

Value Elaborator::eval(const Expr &expr, Frame &frame) {
  Value v = evalKind(expr, frame);
  // A new graph node (a subscript's, a negation's) has no range of its own.
  if (!v.range.isValid())
    v.range = expr.getRange();
  return v;
}

Value Elaborator::evalKind(const Expr &expr, Frame &frame) {
  Value v;
  v.range = expr.getRange();
  switch (expr.getKind()) {
  case Expr::Kind::IntLit:
    v.kind = Value::Kind::Int;
    v.i = llvm::cast<IntLitExpr>(expr).getValue();
    return v;
  case Expr::Kind::FloatLit:
    v.kind = Value::Kind::Float;
    v.f = llvm::cast<FloatLitExpr>(expr).getValue();
    return v;
  case Expr::Kind::StringLit:
    v.kind = Value::Kind::String;
    v.s = llvm::cast<StringLitExpr>(expr).getValue().str();
    return v;
  case Expr::Kind::BoolLit:
    v.kind = Value::Kind::Bool;
    v.i = llvm::cast<BoolLitExpr>(expr).getValue();
    return v;
  case Expr::Kind::Name:
    return evalName(llvm::cast<NameExpr>(expr), frame);
  case Expr::Kind::Member:
    return evalMember(llvm::cast<MemberExpr>(expr), frame);
  case Expr::Kind::Call: {
    auto &c = llvm::cast<CallExpr>(expr);
    return evalCall(c.getCallee(), nullptr, c.getArgs(), c.getLoc(),
                    c.getRange(), frame);
  }
  case Expr::Kind::Pipe: {
    auto &p = llvm::cast<PipeExpr>(expr);
    if (auto *c = llvm::dyn_cast<CallExpr>(&p.getRHS()))
      return evalCall(c->getCallee(), &p.getLHS(), c->getArgs(), p.getOpLoc(),
                      p.getRange(), frame);
    return evalCall(p.getRHS(), &p.getLHS(), {}, p.getOpLoc(), p.getRange(),
                    frame);
  }
  case Expr::Kind::Binary:
    return evalBinary(llvm::cast<BinaryExpr>(expr), frame);
  case Expr::Kind::Unary: {
    Value x = eval(llvm::cast<UnaryExpr>(expr).getOperand(), frame);
    if (x.isError())
      return x;
    if (x.isNumber()) {
      Value r;
      std::string why = foldNegate(x, r);
      if (!why.empty()) {
        error(expr.getLoc(), why, frame);
        return Value::error();
      }
      r.range = expr.getRange();
      return r;
    }
    if (x.kind != Value::Kind::Tensor) {
      diags.error(expr.getLoc(), "cannot negate " + x.describe(graph),
                  {expr.getRange()});
      return Value::error();
    }
    return addNode(OpKind::Neg, {x.node}, typeOf(x), expr.getLoc(), frame,
                   "negation at " + where(expr.getLoc()));
  }
  case Expr::Kind::List: {
    v.kind = Value::Kind::List;
    for (const ExprPtr &e : llvm::cast<ListExpr>(expr).getElements()) {
      Value el = eval(*e, frame);
      if (el.isError())
        return el;
      v.list.push_back(std::move(el));
    }
    return v;
  }
  case Expr::Kind::Index:
    return evalIndex(llvm::cast<IndexExpr>(expr), frame);
  }
  return Value::error();
}

Value Elaborator::evalCall(const Expr &calleeExpr, const Expr *piped,
                           llvm::ArrayRef<Arg> args, llvm::SMLoc loc,
                           llvm::SMRange range, Frame &frame) {
  std::vector<ArgValue> values;
  bool failed = false;
  if (piped) { // before the callee: its errors come first in the source
    ArgValue a{"", eval(*piped, frame), piped->getRange()};
    failed |= a.value.isError();
    values.push_back(std::move(a));
  }
  Value callee = eval(calleeExpr, frame);
  if (callee.isError())
    return callee;
  for (const Arg &arg : args) {
    ArgValue a{arg.keyword, eval(*arg.value, frame), arg.getRange()};
    failed |= a.value.isError();
    values.push_back(std::move(a));
  }
  if (failed)
    return Value::error();
  if (callee.kind != Value::Kind::Func && callee.kind != Value::Kind::Builtin) {
    diags.error(calleeExpr.getLoc(),
                "cannot call " + callee.describe(graph) +
                    ": only functions, models and builtins can be called",
                {calleeExpr.getRange()});
    return Value::error();
  }
  Value r = call(callee, std::move(values), loc, range, frame);
  if (!r.isError())
    r.range = range;
  return r;
}

/// Binds `args` to the builtin's parameters; reports arity/keyword errors.
bool sema::bindArgsToSpec(Elaborator &el, const BuiltinInfo &b,
                            llvm::ArrayRef<ArgValue> args, llvm::SMLoc loc,
                            std::vector<Value> &bound) {
  bound.assign(b.params.size(), Value());
  for (Value &v : bound)
    v.kind = Value::Kind::None;
  std::vector<bool> given(b.params.size(), false);
  size_t pos = 0;
  for (const ArgValue &a : args) {
    size_t idx = pos;
    if (a.keyword.empty()) {
      if (pos >= b.params.size()) {
        el.diags.error(a.range.Start,
                       "too many arguments to '" + llvm::Twine(b.name) +
                           "': it takes at most " +
                           llvm::Twine(b.params.size()) + ", got " +
                           llvm::Twine(args.size()),
                       {a.range});
        el.diags.note(loc, "signature: " + llvm::Twine(b.signature));
        return false;
      }
      ++pos;
    } else {
      idx = b.params.size();
      for (size_t i = 0; i < b.params.size(); ++i)
        if (a.keyword == b.params[i].name)
          idx = i;
      if (idx == b.params.size()) {
        el.diags.error(a.range.Start,
                       "'" + llvm::Twine(b.name) +
                           "' has no parameter named '" + a.keyword + "'",
                       {a.range});
        el.diags.note(loc, "signature: " + llvm::Twine(b.signature));
        return false;
      }
      if (given[idx]) {
        el.diags.error(a.range.Start, "argument '" + a.keyword +
                                          "' of '" + b.name +
                                          "' is given twice",
                       {a.range});
        return false;
      }
    }
    given[idx] = true;
    bound[idx] = a.value;
  }
  for (size_t i = 0; i < b.params.size(); ++i)
    if (!given[i] && !b.params[i].optional) {
      el.diags.error(loc, "missing argument '" +
                              llvm::Twine(b.params[i].name) + "' in call to '" +
                              b.name + "'");
      el.diags.note(loc, "signature: " + llvm::Twine(b.signature));
      return false;
    }
  return true;
}

Value Elaborator::call(const Value &callee, std::vector<ArgValue> args,
                       llvm::SMLoc loc, llvm::SMRange range, Frame &frame) {
  if (callee.kind == Value::Kind::Builtin) {
    std::vector<Value> bound;
    if (!bindArgsToSpec(*this, *callee.builtin, args, loc, bound))
      return Value::error();
    return callee.builtin->handler(*this, bound, loc, frame);
  }
  return instantiate(*callee.fn, *callee.module, std::move(args), loc, frame);
}
