//===- GradientFunction.cpp - Builds the gradient function of a loss ------===//
//
// buildGradientFunction: clones the loss function, finds the sources to
// differentiate (parameters or float arguments), marks the values that
// depend on a source (varied) and that the loss depends on (useful), then
// walks the ops backwards asking each op's GradientOpInterface rule for the
// adjoints of its needed operands and accumulating them at fan-out.
//
//===----------------------------------------------------------------------===//

#include "modelc/Transforms/Autodiff.h"

#include "mdl/GradientInterface.h"
#include "mdl/MDLOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace modelc;

namespace {

/// One differentiated source: a parameter (all its mdl.param reads) or a
/// float argument.
struct Source {
  std::string name;             ///< "@sym" or "argument #i" for messages
  Operation *declaration;       ///< mdl.parameter (null for arguments)
  Type type;
  SmallVector<Value> values;    ///< the values whose adjoints sum up
};

/// The state of one differentiation.
class GradientFunctionBuilder {
public:
  GradientFunctionBuilder(func::FuncOp fn, StringRef lossName,
                          bool warnUnreached)
      : fn(fn), lossName(lossName), warnUnreached(warnUnreached),
        builder(fn.getContext()) {}

  LogicalResult run();

private:
  void collectSources();
  void markVaried();
  void markUseful(Value loss);
  LogicalResult propagate(Operation *op);
  LogicalResult reportCut(Operation *op);
  std::string describePath(Operation *op);
  void accumulate(Value value, Value adjoint);
  Value gradientOf(Source &source);
  /// Wraps the location of every op the backward pass added (all but
  /// `forward`) in NameLoc(kBackwardLocName), so that the kernels they end up
  /// in can be told apart (`train --profile`: forward vs backward time).
  void markBackward(ArrayRef<Operation *> forward);

  func::FuncOp fn;
  StringRef lossName;
  bool warnUnreached; ///< warn about sources the loss does not reach
  OpBuilder builder;
  SmallVector<Source> sources;
  llvm::DenseSet<Value> varied, useful;
  llvm::DenseMap<Value, Value> variedFrom; ///< a varied operand it came from
  llvm::DenseMap<Value, Operation *> usedBy; ///< a user on the way to the loss
  llvm::DenseMap<Value, Value> adjoints;
};

} // namespace

static bool isFloatTensor(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && isa<FloatType>(type.getElementType());
}

void GradientFunctionBuilder::collectSources() {
  SmallVector<mdl::ParamOp> reads;
  fn.walk([&](mdl::ParamOp op) { reads.push_back(op); });
  if (reads.empty()) {
    for (BlockArgument arg : fn.getArguments())
      if (isFloatTensor(arg))
        sources.push_back({"argument #" + std::to_string(arg.getArgNumber()),
                           nullptr, arg.getType(), {arg}});
    return;
  }
  auto module = fn->getParentOfType<ModuleOp>();
  for (auto param : module.getOps<mdl::ParameterOp>()) {
    Source source{"@" + param.getSymName().str(), param, param.getType(), {}};
    for (mdl::ParamOp read : reads)
      if (read.getName() == param.getSymName())
        source.values.push_back(read.getResult());
    sources.push_back(std::move(source));
  }
}

void GradientFunctionBuilder::markVaried() {
  for (Source &source : sources)
    varied.insert(source.values.begin(), source.values.end());
  fn.walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      if (!varied.contains(operand))
        continue;
      for (Value result : op->getResults()) {
        varied.insert(result);
        variedFrom.try_emplace(result, operand);
      }
      return;
    }
  });
}

void GradientFunctionBuilder::markUseful(Value loss) {
  useful.insert(loss);
  Block &body = fn.getBody().front();
  for (Operation &op : llvm::reverse(body.without_terminator())) {
    if (llvm::none_of(op.getResults(),
                      [&](Value r) { return useful.contains(r); }))
      continue;
    for (Value operand : op.getOperands())
      if (useful.insert(operand).second)
        usedBy[operand] = &op;
  }
}

/// The first operand of `op` that depends on a source.
static Value firstVaried(Operation *op, const llvm::DenseSet<Value> &varied) {
  for (Value operand : op->getOperands())
    if (varied.contains(operand))
      return operand;
  return nullptr;
}

/// Whether autodiff cannot propagate through `op` at all.
static bool hasNoGradient(Operation *op) {
  return op->hasTrait<mdl::OpTrait::NonDifferentiable>() ||
         !isa<mdl::GradientOpInterface>(op);
}

std::string GradientFunctionBuilder::describePath(Operation *op) {
  SmallVector<std::string> back;
  for (Value v = firstVaried(op, varied); v; v = variedFrom.lookup(v)) {
    Operation *def = v.getDefiningOp();
    if (auto read = dyn_cast_or_null<mdl::ParamOp>(def)) {
      back.push_back(("@" + read.getName()).str());
      break;
    }
    if (!def) {
      back.push_back("argument #" +
                     std::to_string(cast<BlockArgument>(v).getArgNumber()));
      break;
    }
    back.push_back(def->getName().getStringRef().str());
  }
  std::string path;
  for (const std::string &step : llvm::reverse(back))
    path += step + " -> ";
  path += op->getName().getStringRef().str();
  for (Operation *cur = op; cur;) {
    Operation *next = nullptr;
    for (Value result : cur->getResults())
      if (Operation *user = usedBy.lookup(result))
        next = user;
    if (!next)
      break;
    path += " -> " + next->getName().getStringRef().str();
    cur = next;
  }
  return path + " -> loss";
}

/// `op` receives an adjoint but cannot pass it to any varied operand:
/// report at the op without a gradient on the varied chain above it.
LogicalResult GradientFunctionBuilder::reportCut(Operation *op) {
  Operation *culprit = op;
  for (Value v = firstVaried(op, varied); v && !hasNoGradient(culprit);
       v = variedFrom.lookup(v)) {
    Operation *def = v.getDefiningOp();
    if (!def || isa<mdl::ParamOp>(def))
      break;
    if (hasNoGradient(def))
      culprit = def;
  }
  if (!hasNoGradient(culprit))
    return mdl::emitProgramError(op, "has no gradient with respect to its "
                                     "non-float operands, but the loss of @")
           << lossName << " depends on them through a differentiable path: "
           << describePath(op);
  InFlightDiagnostic diag =
      mdl::emitProgramError(culprit, "has no gradient, but the loss of @")
      << lossName
      << " depends on it through a differentiable path: " << describePath(op);
  if (isa<mdl::CmpOp>(culprit))
    diag.attachNote(culprit->getLoc())
        << "a comparison is a step: to keep or zero values by it, select "
           "with where(condition, x, 0) instead of multiplying by the "
           "cast condition";
  return diag;
}

void GradientFunctionBuilder::accumulate(Value value, Value adjoint) {
  Value &slot = adjoints[value];
  slot = slot ? mdl::AddOp::create(builder, adjoint.getLoc(), slot, adjoint)
                    .getResult()
              : adjoint;
}

LogicalResult GradientFunctionBuilder::propagate(Operation *op) {
  SmallVector<Value> resultGrads;
  for (Value result : op->getResults())
    resultGrads.push_back(adjoints.lookup(result));
  if (llvm::none_of(resultGrads, [](Value g) { return bool(g); }) ||
      !firstVaried(op, varied))
    return success();
  SmallVector<bool> needed;
  for (Value operand : op->getOperands())
    needed.push_back(varied.contains(operand) && isFloatTensor(operand));
  auto rule = dyn_cast<mdl::GradientOpInterface>(op);
  if (!llvm::is_contained(needed, true) || hasNoGradient(op))
    return reportCut(op);
  SmallVector<Value> grads;
  if (failed(rule.buildGradients(builder, resultGrads, needed, grads)))
    return failure();
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    if (!needed[i])
      continue;
    if (!grads[i] || grads[i].getType() != operand.getType())
      return op->emitOpError("gradient rule gave no adjoint of type ")
             << operand.getType() << " for operand #" << i;
    accumulate(operand, grads[i]);
  }
  return success();
}

/// The summed adjoint of `source`, or zeros if no adjoint reaches it: with a
/// warning when the loss depends on it only through values without a
/// gradient, and (if warnUnreached) when the loss does not depend on it.
Value GradientFunctionBuilder::gradientOf(Source &source) {
  Value sum;
  for (Value value : source.values)
    if (Value adjoint = adjoints.lookup(value))
      sum = sum ? mdl::AddOp::create(builder, fn.getLoc(), sum, adjoint)
                      .getResult()
                : adjoint;
  if (sum)
    return sum;
  Location loc = source.declaration ? source.declaration->getLoc() : fn.getLoc();
  if (llvm::any_of(source.values, [&](Value v) { return useful.contains(v); }))
    emitWarning(loc) << "the loss of @" << lossName << " depends on "
                     << source.name
                     << " only through values without a gradient (integers "
                        "such as indices); its gradient is zero";
  else if (warnUnreached)
    emitWarning(loc) << source.name << " does not affect the loss of @"
                     << lossName << "; its gradient is zero";
  auto type = cast<RankedTensorType>(source.type);
  auto zero = builder.getFloatAttr(type.getElementType(), 0.0);
  if (type.hasStaticShape())
    return mdl::ConstantOp::create(builder, fn.getLoc(),
                                   DenseElementsAttr::get(type, zero));
  auto scalar = mdl::ConstantOp::create(
      builder, fn.getLoc(),
      DenseElementsAttr::get(RankedTensorType::get({}, type.getElementType()),
                             zero));
  return mdl::BroadcastToOp::create(builder, fn.getLoc(), scalar,
                                    source.values.front(), nullptr);
}

LogicalResult GradientFunctionBuilder::run() {
  Block &body = fn.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  Value loss = ret.getOperand(0);
  collectSources();
  markVaried();
  markUseful(loss);
  SmallVector<Operation *> forward;
  for (Operation &op : body.without_terminator())
    forward.push_back(&op);
  builder.setInsertionPoint(ret);
  auto lossType = cast<RankedTensorType>(loss.getType());
  adjoints[loss] = mdl::ConstantOp::create(
      builder, ret.getLoc(),
      DenseElementsAttr::get(
          lossType, builder.getFloatAttr(lossType.getElementType(), 1.0)));
  for (Operation *op : llvm::reverse(forward))
    if (failed(propagate(op)))
      return failure();
  SmallVector<Value> results{loss};
  for (Source &source : sources)
    results.push_back(gradientOf(source));
  func::ReturnOp::create(builder, ret.getLoc(), results);
  ret.erase();
  fn.setType(FunctionType::get(fn.getContext(), fn.getArgumentTypes(),
                               ValueRange(results).getTypes()));
  markBackward(forward);
  return success();
}

void GradientFunctionBuilder::markBackward(ArrayRef<Operation *> forward) {
  llvm::SmallPtrSet<Operation *, 32> isForward(forward.begin(), forward.end());
  auto tag = builder.getStringAttr(kBackwardLocName);
  for (Operation &op : fn.getBody().front().without_terminator())
    if (!isForward.contains(&op))
      op.setLoc(NameLoc::get(tag, op.getLoc()));
}

/// Checks that `fn` is a single-block function returning one 0-d float loss.
static LogicalResult checkLossFunction(func::FuncOp fn) {
  if (fn.isDeclaration() || !llvm::hasSingleElement(fn.getBody()))
    return fn.emitError("mdl-autodiff: @")
           << fn.getSymName() << " must have a body of exactly one block";
  ArrayRef<Type> results = fn.getResultTypes();
  auto loss = results.size() == 1 ? dyn_cast<RankedTensorType>(results[0])
                                  : RankedTensorType();
  if (!loss || loss.getRank() != 0 || !isa<FloatType>(loss.getElementType()))
    return fn.emitError("mdl-autodiff: @")
           << fn.getSymName()
           << " must return exactly one 0-d float tensor (the loss)";
  return success();
}

FailureOr<func::FuncOp> modelc::buildGradientFunction(ModuleOp module,
                                                      StringRef funcName,
                                                      StringRef resultName,
                                                      bool warnUnreached) {
  auto fn = module.lookupSymbol<func::FuncOp>(funcName);
  if (!fn)
    return module.emitError("mdl-autodiff: no function named @")
           << funcName << " to differentiate";
  if (module.lookupSymbol(resultName))
    return module.emitError("mdl-autodiff: cannot create @")
           << resultName << ": the module already has a symbol of that name";
  if (failed(checkLossFunction(fn)))
    return failure();
  OpBuilder builder(fn);
  builder.setInsertionPointAfter(fn);
  auto gradFn = cast<func::FuncOp>(builder.clone(*fn));
  gradFn.setSymName(resultName);
  GradientFunctionBuilder differentiator(gradFn, fn.getSymName(),
                                         warnUnreached);
  if (failed(differentiator.run())) {
    gradFn.erase();
    return failure();
  }
  return gradFn;
}
