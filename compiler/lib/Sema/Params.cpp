//===- Params.cpp - Parameters, initialisers and model signatures ---------===//
//
// `param` declarations: their shapes are resolved from the dimension
// variables bound at the call site, their initialisers folded to a kind and
// numbers, and each gets a stable name `<instance>.<name>` in the parameter
// table. Also the entry point that checks a model (inputs, body, result).
//
//===----------------------------------------------------------------------===//

#include "Elaborator.h"

#include "modelsupport/ShapeArith.h"

using namespace modelc;
using namespace modelc::sema;

bool Elaborator::checkSize(const TypeRef &type, const Shape &shape,
                           Frame &frame) {
  return checkSize(type.range.Start, shape, frame);
}

bool Elaborator::checkSize(llvm::SMLoc loc, const Shape &shape, Frame &frame) {
  if (shape.size() > modelsupport::kMaxTensorRank) {
    error(loc,
          "tensor of rank " + llvm::Twine(shape.size()) +
              ": a tensor has at most " +
              llvm::Twine(modelsupport::kMaxTensorRank) + " dimensions",
          frame);
    return false;
  }
  int64_t n = 1;
  for (const SDim &d : shape) {
    if (d.isSymbolic())
      continue;
    std::optional<int64_t> next = modelsupport::checkedMul(n, d.size);
    if (!next || *next > modelsupport::kMaxTensorElements) {
      error(loc,
            "tensor too large: its fixed dimensions have more than " +
                llvm::Twine(modelsupport::kMaxTensorElements) +
                " (2^31) elements, the limit for one tensor",
            frame);
      return false;
    }
    n = *next;
  }
  return true;
}

std::optional<Shape> Elaborator::resolveType(const TypeRef &type, Frame &frame,
                                             bool allowSymbolic) {
  Shape shape;
  for (const Dim &d : type.dims) {
    switch (d.kind) {
    case Dim::Kind::Constant:
      if (d.value <= 0) {
        error(d.range.Start, "dimension sizes must be positive, got " +
                                 llvm::Twine(d.value), frame);
        return std::nullopt;
      }
      shape.push_back(SDim::fixed(d.value));
      break;
    case Dim::Kind::Ellipsis:
      if (!frame.ellipsis) {
        error(d.range.Start, "'...' is not bound by the signature here",
              frame);
        return std::nullopt;
      }
      shape.insert(shape.end(), frame.ellipsis->begin(),
                   frame.ellipsis->end());
      break;
    case Dim::Kind::Symbol: {
      auto it = frame.dims.find(d.name);
      auto var = frame.vars.find(d.name);
      if (it == frame.dims.end() && var != frame.vars.end() &&
          var->second.kind == Value::Kind::Int && var->second.i > 0) {
        // An integer parameter used as a size (`kernel: int` in
        // `f32[N, C, kernel, kernel]`).
        shape.push_back(SDim::fixed(var->second.i));
        break;
      }
      if (it == frame.dims.end()) {
        error(d.range.Start, "dimension '" + d.name +
                                 "' is not bound by the signature; bind it "
                                 "with a parameter such as `out: " +
                                 d.name + "` or a tensor argument's shape",
              frame);
        return std::nullopt;
      }
      shape.push_back(it->second);
      break;
    }
    }
  }
  if (!checkSize(type, shape, frame))
    return std::nullopt;
  if (!allowSymbolic)
    for (const SDim &d : shape)
      if (d.isSymbolic()) {
        error(type.range.Start,
              "a parameter cannot depend on the symbolic dimension '" +
                  d.symbol +
                  "' (the batch size): parameter shapes are fixed at compile "
                  "time",
              frame);
        return std::nullopt;
      }
  return shape;
}

/// The initialisers a `param` may use, as argument specs.
static const BuiltinInfo kInitializers[] = {
    {"kaiming_uniform", {{"fan_in", false}, {"a", true}}, nullptr,
     "kaiming_uniform(fan_in, a=0)"},
    {"uniform", {{"lo", false}, {"hi", false}}, nullptr, "uniform(lo, hi)"},
    {"normal", {{"mean", true}, {"std", true}}, nullptr,
     "normal(mean=0, std=1)"},
    {"zeros", {}, nullptr, "zeros()"},
    {"ones", {}, nullptr, "ones()"},
    {"constant", {{"value", false}}, nullptr, "constant(value)"},
};

std::optional<Initializer> Elaborator::evalInitializer(const Expr &e,
                                                       Frame &frame) {
  const char *expected = "expected an initialiser: kaiming_uniform(fan_in), "
                         "uniform(lo, hi), normal(mean, std), zeros(), ones() "
                         "or constant(value)";
  const auto *call = llvm::dyn_cast<CallExpr>(&e);
  const auto *name = call ? llvm::dyn_cast<NameExpr>(&call->getCallee())
                          : llvm::dyn_cast<NameExpr>(&e);
  const BuiltinInfo *spec = nullptr;
  for (const BuiltinInfo &b : kInitializers)
    if (name && name->getName() == b.name)
      spec = &b;
  if (!spec) {
    error(e.getLoc(), expected, frame);
    return std::nullopt;
  }
  std::vector<ArgValue> args;
  if (call)
    for (const Arg &a : call->getArgs()) {
      ArgValue av{a.keyword, eval(*a.value, frame), a.getRange()};
      if (av.value.isError())
        return std::nullopt;
      if (!av.value.isNumber()) {
        error(a.value->getLoc(),
              "initialiser arguments must be compile-time numbers, got " +
                  av.value.describe(graph),
              frame);
        return std::nullopt;
      }
      args.push_back(std::move(av));
    }
  std::vector<Value> bound;
  if (!bindArgsToSpec(*this, *spec, args, e.getLoc(), bound))
    return std::nullopt;
  Initializer init;
  init.kind = spec->name;
  for (const Value &v : bound)
    if (v.kind != Value::Kind::None)
      init.args.push_back(v.asDouble());
  std::string bad;
  if (init.kind == "kaiming_uniform" && init.args[0] <= 0)
    bad = "kaiming_uniform needs fan_in > 0";
  if (init.kind == "uniform" && !(init.args[0] < init.args[1]))
    bad = "uniform(lo, hi) needs lo < hi";
  if (init.kind == "normal") {
    if (bound[0].kind == Value::Kind::None)
      init.args.insert(init.args.begin(), 0.0);
    if (bound[1].kind == Value::Kind::None)
      init.args.push_back(1.0);
    if (init.args[1] <= 0)
      bad = "normal needs std > 0";
  }
  if (!bad.empty()) {
    error(e.getLoc(), bad, frame);
    return std::nullopt;
  }
  return init;
}

/// The values that bound initialiser \p init's draws: constant's value,
/// uniform's lo and hi, normal's mean +- 4 std (a draw beyond falls with
/// probability 6e-5).
static std::vector<double> initializerBounds(const Initializer &init) {
  const std::vector<double> &a = init.args;
  if (init.kind == "constant" && a.size() == 1)
    return {a[0]};
  if (init.kind == "uniform" && a.size() == 2)
    return {a[0], a[1]};
  if (init.kind == "normal" && a.size() == 2)
    return {a[0] - 4 * a[1], a[0] + 4 * a[1]};
  return {};
}

bool Elaborator::initializerFits(const Initializer &init,
                                 const TensorType &type, llvm::StringRef name,
                                 llvm::SMLoc loc, Frame &frame) {
  for (double v : initializerBounds(init))
    if (std::optional<std::string> why = overflowOf(v, type.dtype)) {
      error(loc,
            "the initialiser " + init.str() + " does not fit parameter '" +
                name + "' of type " + getDTypeName(type.dtype) + ": for " +
                formatNumber(v) + ", " + *why,
            frame);
      return false;
    }
  return true;
}

bool Elaborator::declareParam(const ParamStmt &p, Frame &frame) {
  const TypeRef &t = p.getType();
  std::optional<DType> dt = parseDType(t.name);
  if (!dt || !isFloat(*dt)) {
    error(t.nameRange.Start,
          "parameter '" + p.getName() +
              "' must have a floating-point type (f32, bf16 or f16), got '" +
              t.name + "'",
          frame);
    return false;
  }
  std::optional<Shape> shape = resolveType(t, frame, /*allowSymbolic=*/false);
  if (!shape)
    return false;
  std::optional<Initializer> init = evalInitializer(p.getInit(), frame);
  if (!init)
    return false;
  std::string name = frame.paramPrefix + "." + p.getName().str();
  if (!initializerFits(*init, TensorType{*dt, {}}, name, p.getInit().getLoc(),
                       frame))
    return false;
  for (const TableEntry &e : graph.params)
    if (e.name == name) {
      error(p.getNameRange().Start,
            "parameter '" + p.getName() + "' is declared twice", frame);
      diags.note(e.loc, "first declared here");
      return false;
    }
  TensorType type{*dt, *shape};
  graph.params.push_back({name, type, *init, p.getNameRange().Start,
                          frame.instance});
  Value v = addNode({}, type, OpAttrs<OpKind::Param>{name},
                    p.getNameRange().Start, frame,
                    ("parameter '" + p.getName() + "' declared at " +
                     where(p.getNameRange().Start))
                        .str());
  frame.vars[p.getName().str()] = v;
  return true;
}

/// The size of dimension `i` of a model input written as the number
/// `size`: in the decoding form, one position (dimension 1) of the sequence.
static int64_t inputSize(const Elaborator &el, size_t i, int64_t size) {
  return el.decode && i == 1 ? 1 : size;
}

/// Creates the Input node of one model parameter. In the decoding form the
/// batch is 1.
static bool bindModelInput(Elaborator &el, const Param &p, Frame &frame,
                           bool first) {
  const TypeRef &t = p.type;
  std::optional<DType> dt = parseDType(t.name);
  if (!dt || !t.hasShape || p.defaultValue) {
    el.diags.error(p.range.Start,
                   "model input '" + p.name +
                       "' must be a tensor with a shape, such as "
                       "f32[B, 784], and no default value",
                   {p.range});
    return false;
  }
  if (isLowPrecisionFloat(*dt)) {
    el.diags.error(t.nameRange.Start,
                   "model input '" + p.name + "' cannot be " + t.name +
                       ": the data arrives in f32; declare it f32 and convert "
                       "inside the model with cast(" + p.name + ", " + t.name + ")",
                   {t.nameRange});
    return false;
  }
  Shape shape;
  for (size_t i = 0; i < t.dims.size(); ++i) {
    const Dim &d = t.dims[i];
    if (d.kind == Dim::Kind::Constant) {
      shape.push_back(SDim::fixed(inputSize(el, i, d.value)));
      continue;
    }
    if (d.kind == Dim::Kind::Ellipsis || i != 0) {
      el.diags.error(d.range.Start,
                     "model input dimensions must be numbers, except the "
                     "leading batch dimension (such as B)",
                     {d.range});
      return false;
    }
    SDim batch = el.decode ? SDim::fixed(1) : SDim::sym(d.name);
    shape.push_back(batch);
    frame.dims[d.name] = batch;
    frame.dimOrigins[d.name] = "the batch dimension of input '" + p.name + "'";
  }
  Value v = el.addNode({}, TensorType{*dt, shape},
                       OpAttrs<OpKind::Input>{p.name}, p.nameRange.Start,
                       frame,
                       "input '" + p.name + "' declared at " +
                           el.where(p.nameRange.Start));
  el.graph.inputs.push_back(v.node);
  el.graph.inputNames.push_back(p.name);
  frame.vars[p.name] = v;
  (void)first;
  return true;
}

/// Parameters are stored and updated in f32 (bf16 and f16 ones are
/// rounded from that f32 where they are read): each f64 one is an error,
/// checked once the model's types are (so that a mixed f32/f64 expression
/// is reported first, where it is written). declareParam accepts f64 for
/// that reason.
static bool checkParamStorage(Elaborator &el) {
  bool ok = true;
  for (const TableEntry &e : el.graph.params)
    if (e.type.dtype == DType::F64) {
      el.diags.error(e.loc, "parameter '" + e.name + "' is " + e.type.str() +
                                ": parameters are stored and updated in f32 "
                                "(the optimizer's state and the checkpoints "
                                "too); declare it f32 and convert where it is "
                                "used with cast(w, f64)");
      ok = false;
    }
  return ok;
}

bool Elaborator::elaborateModel(const FuncDecl &decl,
                                const ModuleInfo &module) {
  unsigned errorsBefore = diags.getNumErrors();
  graph.modelName = decl.getName().str();
  graph.loc = decl.getNameRange().Start;
  Frame frame;
  frame.module = &module;
  frame.paramPrefix = decl.getName().str();
  bool ok = true;
  for (size_t i = 0; i < decl.getParams().size(); ++i)
    ok &= bindModelInput(*this, decl.getParams()[i], frame, i == 0);
  if (!ok)
    return false;
  if (decl.getParams().empty()) {
    diags.error(decl.getNameRange().Start,
                "model '" + decl.getName() + "' has no input");
    return false;
  }
  if (decode)
    decode->position =
        addNode(OpKind::Position, {}, TensorType{DType::I64, {}},
                decl.getNameRange().Start, frame, "the position decoded")
            .node;
  activeCalls.push_back({&decl, decl.getLoc()});
  Value result;
  ok = runBody(decl.getBody(), frame, result);
  activeCalls.pop_back();
  if (!ok)
    return false;
  if (result.kind != Value::Kind::Tensor) {
    diags.error(result.range.Start, "model '" + decl.getName() +
                                        "' must return a tensor, got " +
                                        result.describe(graph),
                {result.range});
    return false;
  }
  graph.output = result.node;
  if (isLowPrecisionFloat(typeOf(result).dtype)) {
    const auto &rt = decl.getResultType();
    llvm::SMRange at = rt ? rt->range : result.range;
    diags.error(at.Start,
                "model '" + decl.getName() + "' returns " + typeOf(result).str() +
                    ": a model's output is f32 (the loss, the metrics and "
                    "predict work in f32); return cast(y, f32)",
                {at});
    noteOrigin(result, "the returned value");
    return false;
  }
  // The decoding form's result is one position of the declared one, which
  // the model as written has matched already.
  if (const auto &rt = decl.getResultType(); rt && !decode) {
    std::optional<DType> dt = parseDType(rt->name);
    if (!dt || *dt != typeOf(result).dtype) {
      diags.error(rt->range.Start,
                  "model '" + decl.getName() + "' declares result " +
                      rt->str() + " but returns " + typeOf(result).str(),
                  {rt->range});
      noteOrigin(result, "the returned value");
      return false;
    }
    if (!unifyShape(*rt, typeOf(result), "the result", result.range, decl,
                    frame, &result))
      return false;
  }
  return diags.getNumErrors() == errorsBefore && checkParamStorage(*this);
}
