//===- Instantiate.cpp - Call-site instantiation of functions and models --===//
//
// The statement half of the Elaborator: binding arguments to a function's
// parameters, unifying dimension variables (`I`, `N`, `...`) with argument
// shapes, running bodies (let / param / return), declaring parameters with
// stable names and folded initialisers, and checking a model's signature.
//
//===----------------------------------------------------------------------===//

#include "Elaborator.h"

using namespace modelc;
using namespace modelc::sema;

/// The name a function is known by in messages ("nn.linear", "head").
static std::string qualifiedName(const FuncDecl &fn, const ModuleInfo &m) {
  if (m.name.empty())
    return fn.getName().str();
  return m.name + "." + fn.getName().str();
}

/// The name of the function or model a frame evaluates.
static std::string frameName(const Graph &g, const Frame &frame) {
  if (frame.instance < 0)
    return g.modelName;
  return g.instances[frame.instance].callee;
}

bool Elaborator::unifyShape(const TypeRef &pattern, const TensorType &actual,
                            llvm::StringRef what, llvm::SMRange at,
                            const FuncDecl &fn, Frame &frame,
                            const Value *actualValue) {
  const std::vector<Dim> &dims = pattern.dims;
  int ell = -1;
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i].kind == Dim::Kind::Ellipsis)
      ell = i;
  size_t n = dims.size(), rank = actual.rank();
  std::string head = (what + " of '" + frameName(graph, frame) + "' expects " +
                      pattern.str() + ", got " + actual.str())
                         .str();
  auto fail = [&](const llvm::Twine &why) {
    diags.error(at.Start, head + why, {at});
    diags.note(pattern.range.Start,
               "'" + fn.getName() + "' declares it as " + pattern.str());
    if (actualValue)
      noteOrigin(*actualValue,
                 what.starts_with("the ") ? what.str() : "the " + what.str());
    // An argument is checked at the call site: the caller's chain matters.
    Frame chain;
    chain.instance = what.starts_with("argument") && frame.instance >= 0
                         ? graph.instances[frame.instance].parent
                         : frame.instance;
    noteCallStack(chain);
    return false;
  };
  if (ell < 0 ? rank != n : rank + 1 < n)
    return fail(": rank " + llvm::Twine(rank) + " instead of " +
                (ell < 0 ? llvm::Twine(n) : "at least " + llvm::Twine(n - 1)));
  auto match = [&](const Dim &d, const SDim &a, size_t pos) {
    if (d.kind == Dim::Kind::Constant) {
      if (a.is(d.value))
        return true;
      return fail(": dimension " + llvm::Twine(pos) + " must be " +
                  llvm::Twine(d.value) + ", got " + a.str());
    }
    auto it = frame.dims.find(d.name);
    if (it == frame.dims.end()) {
      frame.dims[d.name] = a;
      frame.dimOrigins[d.name] =
          "from " + what.str() + " at " + where(at.Start);
      return true;
    }
    if (it->second == a)
      return true;
    return fail(": " + d.name + " is " + it->second.str() + " (" +
                frame.dimOrigins[d.name] + ") but dimension " +
                llvm::Twine(pos) + " is " + a.str());
  };
  size_t prefix = ell < 0 ? n : ell;
  for (size_t i = 0; i < prefix; ++i)
    if (!match(dims[i], actual.shape[i], i))
      return false;
  if (ell < 0)
    return true;
  size_t suffix = n - ell - 1;
  for (size_t j = 0; j < suffix; ++j)
    if (!match(dims[n - 1 - j], actual.shape[rank - 1 - j], rank - 1 - j))
      return false;
  Shape mid(actual.shape.begin() + ell, actual.shape.end() - suffix);
  if (frame.ellipsis && *frame.ellipsis != mid)
    return fail(": '...' is " + shapeStr(*frame.ellipsis) + " (" +
                frame.dimOrigins["..."] + ") but here it is " + shapeStr(mid));
  if (!frame.ellipsis) {
    frame.ellipsis = mid;
    frame.dimOrigins["..."] = "from " + what.str() + " at " + where(at.Start);
  }
  return true;
}

bool Elaborator::bindParam(const Param &p, const Value &v,
                           llvm::SMRange argRange, const FuncDecl &fn,
                           Frame &frame) {
  const TypeRef &t = p.type;
  std::string what = "argument '" + p.name + "'";
  auto fail = [&](const llvm::Twine &msg) {
    diags.error(argRange.Start, msg, {argRange});
    diags.note(p.nameRange.Start, "parameter '" + p.name + "' of '" +
                                      fn.getName() + "' declared here as " +
                                      t.str());
    return false;
  };
  std::optional<DType> dt = parseDType(t.name);
  if (dt && t.hasShape) {
    if (v.kind != Value::Kind::Tensor)
      return fail(what + " of '" + frameName(graph, frame) +
                  "' must be a tensor " + t.str() + ", got " +
                  v.describe(graph));
    if (typeOf(v).dtype != *dt)
      return fail(what + " of '" + frameName(graph, frame) +
                  "' must have element type " + getDTypeName(*dt) + ", got " +
                  typeOf(v).str() + " (no implicit conversion; use cast)");
    if (!unifyShape(t, typeOf(v), what, argRange, fn, frame, &v))
      return false;
  } else if (dt) {
    bool ok = (v.kind == Value::Kind::Tensor && typeOf(v).rank() == 0 &&
               typeOf(v).dtype == *dt) ||
              (*dt == DType::Bool ? v.kind == Value::Kind::Bool
                                  : v.kind == Value::Kind::Int ||
                                        (v.kind == Value::Kind::Float &&
                                         isFloat(*dt)));
    if (!ok)
      return fail(what + " must be a scalar " + t.str() + ", got " +
                  v.describe(graph));
  } else if (t.hasShape) {
    diags.error(t.nameRange.Start, "unknown element type '" + t.name +
                                       "'; expected " + std::string(kDTypeList),
                {t.nameRange});
    return false;
  } else if (t.name == "int" || t.name == "float" || t.name == "str" ||
             t.name == "string") {
    bool ok = t.name == "int"     ? v.kind == Value::Kind::Int
              : t.name == "float" ? v.isNumber()
                                  : v.kind == Value::Kind::String;
    if (!ok)
      return fail(what + " must be " +
                  (t.name == "int" ? "an integer" : "a " + t.name) + ", got " +
                  v.describe(graph));
  } else {
    // `out: N` binds the dimension variable N to a positive integer.
    if (v.kind != Value::Kind::Int || v.i <= 0)
      return fail(what + " binds dimension '" + t.name +
                  "' and must be a positive integer, got " +
                  v.describe(graph));
    auto it = frame.dims.find(t.name);
    if (it != frame.dims.end() && !it->second.is(v.i))
      return fail(what + " binds '" + t.name + "' to " + llvm::Twine(v.i) +
                  " but it is already " + it->second.str() + " (" +
                  frame.dimOrigins[t.name] + ")");
    frame.dims[t.name] = SDim::fixed(v.i);
    frame.dimOrigins[t.name] = "from " + what + " at " + where(argRange.Start);
  }
  Value bound = v;
  if (t.name == "float" && v.kind == Value::Kind::Int) {
    bound.kind = Value::Kind::Float;
    bound.f = double(v.i);
  }
  frame.vars[p.name] = bound;
  return true;
}

/// Matches call arguments to a function's parameters; nullptr = use default.
static bool matchArgs(Elaborator &el, const FuncDecl &fn,
                      llvm::StringRef name, llvm::ArrayRef<ArgValue> args,
                      llvm::SMLoc loc, std::vector<const ArgValue *> &bound) {
  llvm::ArrayRef<Param> params = fn.getParams();
  bound.assign(params.size(), nullptr);
  size_t pos = 0;
  auto declNote = [&] {
    el.diags.note(fn.getNameRange().Start, "'" + name + "' declared here");
    return false;
  };
  for (const ArgValue &a : args) {
    size_t idx = params.size();
    if (a.keyword.empty()) {
      if (pos >= params.size()) {
        el.diags.error(a.range.Start,
                       "too many arguments to '" + name + "': it takes " +
                           llvm::Twine(params.size()) + ", got " +
                           llvm::Twine(args.size()),
                       {a.range});
        return declNote();
      }
      idx = pos++;
    } else {
      for (size_t i = 0; i < params.size(); ++i)
        if (params[i].name == a.keyword)
          idx = i;
      if (idx == params.size()) {
        el.diags.error(a.range.Start,
                       "'" + name + "' has no parameter named '" + a.keyword +
                           "'",
                       {a.range});
        return declNote();
      }
      if (bound[idx]) {
        el.diags.error(a.range.Start,
                       "argument '" + a.keyword + "' of '" + name +
                           "' is given twice",
                       {a.range});
        return declNote();
      }
    }
    bound[idx] = &a;
  }
  for (size_t i = 0; i < params.size(); ++i)
    if (!bound[i] && !params[i].defaultValue) {
      el.diags.error(loc, "missing argument '" + params[i].name +
                              "' in call to '" + name + "'");
      return declNote();
    }
  return true;
}

Value Elaborator::instantiate(const FuncDecl &fn, const ModuleInfo &module,
                              std::vector<ArgValue> args, llvm::SMLoc loc,
                              Frame &caller) {
  std::string name = qualifiedName(fn, module);
  if (activeCalls.size() >= kMaxCallDepth) {
    diags.error(loc, "call chain too deep: calling '" + name + "' here "
                     "would nest more than " + llvm::Twine(kMaxCallDepth) +
                     " function calls (the limit of elaboration)",
                {});
    return Value::error();
  }
  for (size_t i = 0; i < activeCalls.size(); ++i) {
    if (activeCalls[i].first != &fn)
      continue;
    error(loc, "recursive call to '" + name +
                   "': functions are instantiated at each call site, so "
                   "recursion is not supported",
          caller);
    for (size_t j = i + 1; j < activeCalls.size(); ++j)
      diags.note(activeCalls[j].second,
                 "'" + activeCalls[j - 1].first->getName() + "' calls '" +
                     activeCalls[j].first->getName() + "' here");
    return Value::error();
  }
  if (graph.instances.size() >= kMaxInstances) {
    diags.error(loc,
                "too many function instances: calling '" + name +
                    "' here would make more than " +
                    llvm::Twine(kMaxInstances) +
                    " in one model (each call site instantiates its "
                    "function; do calls multiply along a chain?)",
                {});
    return Value::error();
  }
  std::vector<const ArgValue *> bound;
  if (!matchArgs(*this, fn, name, args, loc, bound))
    return Value::error();

  Instance inst;
  inst.name = (fn.getName() + "_" +
               llvm::Twine(instanceCounters[fn.getName().str()]++))
                  .str();
  inst.callee = name;
  inst.decl = &fn;
  inst.callSite = loc;
  inst.parent = caller.instance;
  graph.instances.push_back(inst);
  Frame frame;
  frame.module = &module;
  frame.instance = graph.instances.size() - 1;
  frame.callStack.push_back(loc);
  frame.callStack.insert(frame.callStack.end(), caller.callStack.begin(),
                         caller.callStack.end());
  frame.paramPrefix = inst.name;

  activeCalls.push_back({&fn, loc});
  Value result;
  bool ok = true;
  for (size_t i = 0; ok && i < fn.getParams().size(); ++i) {
    const Param &p = fn.getParams()[i];
    Value v = bound[i] ? bound[i]->value : eval(*p.defaultValue, frame);
    llvm::SMRange r = bound[i] ? bound[i]->range : p.defaultValue->getRange();
    ok = !v.isError() && bindParam(p, v, r, fn, frame);
  }
  ok = ok && runBody(fn.getBody(), frame, result);
  if (ok && fn.getResultType())
    ok = checkResult(fn, result, frame);
  activeCalls.pop_back();
  Instance &done = graph.instances[frame.instance];
  for (auto &kv : frame.dims)
    done.bindings.push_back({kv.first, kv.second.str()});
  if (frame.ellipsis)
    done.bindings.push_back({"...", shapeStr(*frame.ellipsis)});
  return ok ? result : Value::error();
}

bool Elaborator::checkResult(const FuncDecl &fn, Value &result, Frame &frame) {
  const TypeRef &rt = *fn.getResultType();
  if (result.kind != Value::Kind::Tensor || !rt.hasShape)
    return true;
  std::optional<DType> dt = parseDType(rt.name);
  if (!dt) {
    diags.error(rt.nameRange.Start,
                "unknown element type '" + rt.name + "'; expected " +
                    std::string(kDTypeList),
                {rt.nameRange});
    return false;
  }
  if (*dt != typeOf(result).dtype) {
    diags.error(rt.range.Start,
                "'" + fn.getName() + "' declares result " + rt.str() +
                    " but returns " + typeOf(result).str() +
                    " (no implicit conversion; use cast)",
                {rt.range});
    noteOrigin(result, "the returned value");
    return false;
  }
  return unifyShape(rt, typeOf(result), "the result", rt.range, fn, frame,
                    &result);
}

bool Elaborator::runBody(llvm::ArrayRef<StmtPtr> body, Frame &frame,
                         Value &result) {
  bool ok = true;
  for (const StmtPtr &s : body) {
    if (auto *let = llvm::dyn_cast<LetStmt>(s.get())) {
      Value v = eval(let->getValue(), frame);
      ok &= !v.isError();
      if (v.kind == Value::Kind::Tensor)
        graph.letNames[v.node] = {let->getName().str(),
                                  let->getNameRange().Start};
      frame.vars[let->getName().str()] = v;
    } else if (auto *p = llvm::dyn_cast<ParamStmt>(s.get())) {
      if (!declareParam(*p, frame)) {
        frame.vars[p->getName().str()] = Value::error();
        ok = false;
      }
    } else {
      result = eval(llvm::cast<ReturnStmt>(s.get())->getValue(), frame);
      return ok && !result.isError();
    }
    if (diags.hasTooManyErrors())
      return false;
  }
  if (ok)
    error(frame.instance < 0 ? graph.loc
                             : graph.instances[frame.instance].decl->getLoc(),
          "'" + frameName(graph, frame) + "' has no return statement", frame);
  return false;
}
