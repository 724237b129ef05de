//===- Parameters.cpp - mdl.param / state ops -> function arguments -------===//
//
// Makes every lowered function a pure function of its inputs: each
// parameter the function reads becomes a trailing argument (parameter-table
// order, attribute `mdl.param = @sym`), each state symbol it reads or
// writes becomes a further argument (state-table order, `mdl.state = @sym`),
// and each state symbol it writes becomes an extra trailing result
// (`mdl.state = @sym`) holding the last value written. See docs/lowering.md.
//
//===----------------------------------------------------------------------===//
#include "Common.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::mdl;

namespace {

/// The symbols one function uses, in table order.
struct FunctionUses {
  SmallVector<ParameterOp> params;
  SmallVector<StateOp> states;
  SmallVector<StateOp> written;
};

/// Checks that state ops sit directly in a single-block body, so program
/// order is the order in which they run.
LogicalResult checkStateOps(func::FuncOp func) {
  WalkResult result = func.walk([&](Operation *op) {
    if (!isa<StateReadOp, StateWriteOp>(op))
      return WalkResult::advance();
    if (op->getParentOp() != func || !func.getBody().hasOneBlock()) {
      op->emitError("cannot lower state access inside nested regions or "
                    "multi-block functions; state must be read and written "
                    "in the function's single top-level block");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

FunctionUses collectUses(func::FuncOp func, ArrayRef<ParameterOp> params,
                         ArrayRef<StateOp> states) {
  llvm::SmallDenseSet<StringRef> read, used, written;
  func.walk([&](Operation *op) {
    if (auto p = dyn_cast<ParamOp>(op))
      read.insert(p.getName());
    if (auto r = dyn_cast<StateReadOp>(op))
      used.insert(r.getName());
    if (auto w = dyn_cast<StateWriteOp>(op)) {
      used.insert(w.getName());
      written.insert(w.getName());
    }
  });
  FunctionUses uses;
  for (ParameterOp p : params)
    if (read.contains(p.getSymName()))
      uses.params.push_back(p);
  for (StateOp s : states) {
    if (used.contains(s.getSymName()))
      uses.states.push_back(s);
    if (written.contains(s.getSymName()))
      uses.written.push_back(s);
  }
  return uses;
}

/// Appends one argument per symbol, tagged `attrName = @sym`; returns them
/// by symbol name.
template <typename DeclOp>
llvm::StringMap<Value> appendArguments(func::FuncOp func, ArrayRef<DeclOp> decls,
                                       StringRef attrName) {
  llvm::StringMap<Value> args;
  Builder b(func.getContext());
  for (DeclOp decl : decls) {
    unsigned index = func.getNumArguments();
    auto attrs = b.getDictionaryAttr(b.getNamedAttr(
        attrName, FlatSymbolRefAttr::get(decl.getSymNameAttr())));
    (void)func.insertArgument(index, decl.getType(), attrs, decl.getLoc());
    args[decl.getSymName()] = func.getArgument(index);
  }
  return args;
}

/// Rewrites one function's parameter and state accesses.
LogicalResult rewriteFunction(func::FuncOp func, const FunctionUses &uses) {
  llvm::StringMap<Value> params = appendArguments(func, ArrayRef(uses.params),
                                                  "mdl.param");
  llvm::StringMap<Value> current = appendArguments(func, ArrayRef(uses.states),
                                                   "mdl.state");
  func.walk([&](ParamOp op) {
    op.getResult().replaceAllUsesWith(params[op.getName()]);
    op.erase();
  });
  for (Operation &op : llvm::make_early_inc_range(func.getBody().front())) {
    if (auto read = dyn_cast<StateReadOp>(op)) {
      read.getResult().replaceAllUsesWith(current[read.getName()]);
      read.erase();
    } else if (auto write = dyn_cast<StateWriteOp>(op)) {
      current[write.getName()] = write.getValue();
      write.erase();
    }
  }
  if (uses.written.empty())
    return success();
  auto ret = dyn_cast<func::ReturnOp>(func.getBody().front().getTerminator());
  if (!ret)
    return func.emitError("a function writing state must end in func.return");
  Builder b(func.getContext());
  for (StateOp s : uses.written) {
    unsigned index = func.getNumResults();
    auto attrs = b.getDictionaryAttr(
        b.getNamedAttr("mdl.state", FlatSymbolRefAttr::get(s.getSymNameAttr())));
    (void)func.insertResult(index, s.getType(), attrs);
    ret.getOperandsMutable().append(current[s.getSymName()]);
  }
  return success();
}

/// Reports calls to functions whose signature the rewrite changed.
LogicalResult checkCalls(ModuleOp module, const llvm::DenseSet<StringRef> &changed) {
  WalkResult result = module.walk([&](func::CallOp call) {
    if (!changed.contains(call.getCallee()))
      return WalkResult::advance();
    call.emitError("cannot lower a call to @")
        << call.getCallee()
        << ", which reads parameters or state; inline it first";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

} // namespace

LogicalResult modelc::convertParametersToArguments(ModuleOp module,
                                                   bool keepDeclarations) {
  auto params = llvm::to_vector(module.getOps<ParameterOp>());
  auto states = llvm::to_vector(module.getOps<StateOp>());
  llvm::DenseSet<StringRef> changed;
  for (func::FuncOp func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    if (failed(checkStateOps(func)))
      return failure();
    FunctionUses uses = collectUses(func, params, states);
    if (uses.params.empty() && uses.states.empty())
      continue;
    changed.insert(func.getSymName());
    if (failed(rewriteFunction(func, uses)))
      return failure();
  }
  if (failed(checkCalls(module, changed)))
    return failure();
  if (!keepDeclarations) {
    for (ParameterOp p : params)
      p.erase();
    for (StateOp s : states)
      s.erase();
  }
  return success();
}
