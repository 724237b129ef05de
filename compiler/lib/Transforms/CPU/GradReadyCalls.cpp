//===- GradReadyCalls.cpp - Announce each final gradient to the runtime ---===//
//
// Implements `modelc-grad-ready-calls` (Passes.td): after bufferization,
// each buffer argument marked `modelc.grad = N` gets a call
// `modelrt_grad_ready(N)` after the last top-level operation that uses it
// or one of its aliases (the results of operations taking it: views,
// casts, loops that carry it), so that the runtime may start summing that
// gradient over the ranks while the rest of the step runs.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/CPU/Passes.h"
#include "modelc/Transforms/CPU/RuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_GRADREADYCALLSPASS
#include "modelc/Transforms/CPU/Passes.h.inc"

namespace {

/// One marked gradient buffer.
struct MarkedGrad {
  BlockArgument arg;
  int64_t index;
  Operation *last = nullptr; ///< the top-level op after which it is final
};

/// The marked arguments of \p fn, checked; failure after an error.
FailureOr<SmallVector<MarkedGrad>> markedGrads(func::FuncOp fn) {
  SmallVector<MarkedGrad> grads;
  llvm::DenseMap<int64_t, unsigned> seen;
  for (BlockArgument arg : fn.getArguments()) {
    Attribute mark = fn.getArgAttr(arg.getArgNumber(), kGradAttrName);
    if (!mark)
      continue;
    auto index = dyn_cast<IntegerAttr>(mark);
    if (!index)
      return fn.emitError() << "argument " << arg.getArgNumber() << ": '"
                            << kGradAttrName << "' must be an integer";
    if (!isa<MemRefType>(arg.getType()))
      return fn.emitError() << "argument " << arg.getArgNumber() << ": '"
                            << kGradAttrName
                            << "' marks a value that is not a memref (run "
                               "after bufferization)";
    auto [it, fresh] = seen.try_emplace(index.getInt(), arg.getArgNumber());
    if (!fresh)
      return fn.emitError() << "arguments " << it->second << " and "
                            << arg.getArgNumber() << " are both gradient "
                            << index.getInt();
    grads.push_back({arg, index.getInt()});
  }
  if (!grads.empty() && !fn.getBody().hasOneBlock())
    return fn.emitError() << "gradient buffers are marked but the body has "
                          << fn.getBody().getBlocks().size()
                          << " blocks (run before lowering to control flow)";
  return grads;
}

/// The last top-level op of \p body that uses \p buffer or an alias of it
/// (a memref result of an op that uses one); null when none does.
Operation *lastUse(Block &body, Value buffer,
                   const llvm::DenseMap<Operation *, unsigned> &position) {
  Operation *last = nullptr;
  SmallVector<Value> work = {buffer};
  llvm::SmallPtrSet<Value, 8> visited = {buffer};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      Operation *top = body.findAncestorOpInBlock(*user);
      if (top && (!last || position.lookup(top) > position.lookup(last)))
        last = top;
      for (Value result : user->getResults())
        if (isa<BaseMemRefType>(result.getType()) && visited.insert(result).second)
          work.push_back(result);
    }
  }
  return last;
}

/// The runtime's function, declared in \p module if it is not yet.
FailureOr<func::FuncOp> readyCallee(ModuleOp module) {
  OpBuilder b(module.getContext());
  auto type = b.getFunctionType({b.getI64Type()}, {});
  if (auto fn = module.lookupSymbol<func::FuncOp>(kGradReadyCall)) {
    if (fn.getFunctionType() != type)
      return fn.emitError() << "'" << kGradReadyCall
                            << "' is declared with another type than "
                            << type;
    return fn;
  }
  b.setInsertionPointToEnd(module.getBody());
  auto fn = func::FuncOp::create(b, module.getLoc(), kGradReadyCall, type);
  fn.setPrivate();
  return fn;
}

/// The pass: see the file comment.
struct GradReadyCallsPass
    : impl::GradReadyCallsPassBase<GradReadyCallsPass> {
  using GradReadyCallsPassBase::GradReadyCallsPassBase;

  /// Inserts the calls of \p fn's gradients \p grads.
  void insertCalls(func::FuncOp fn, MutableArrayRef<MarkedGrad> grads,
                   func::FuncOp callee) {
    Block &body = fn.getBody().front();
    llvm::DenseMap<Operation *, unsigned> position;
    for (auto [i, op] : llvm::enumerate(body))
      position[&op] = unsigned(i);
    for (MarkedGrad &g : grads)
      g.last = lastUse(body, g.arg, position);
    // By position (unused buffers first), then by index.
    llvm::stable_sort(grads, [&](const MarkedGrad &a, const MarkedGrad &b) {
      int64_t pa = a.last ? int64_t(position[a.last]) : -1;
      int64_t pb = b.last ? int64_t(position[b.last]) : -1;
      return pa != pb ? pa < pb : a.index < b.index;
    });
    OpBuilder b(fn.getContext());
    Operation *prevLast = nullptr, *prevCall = nullptr;
    for (MarkedGrad &g : grads) {
      if (prevCall && g.last == prevLast) // after the previous call
        b.setInsertionPointAfter(prevCall);
      else if (!g.last)
        b.setInsertionPointToStart(&body);
      else if (g.last->hasTrait<OpTrait::IsTerminator>())
        b.setInsertionPoint(g.last);
      else
        b.setInsertionPointAfter(g.last);
      Location loc = g.last ? g.last->getLoc() : fn.getLoc();
      Value index = arith::ConstantIntOp::create(b, loc, g.index, 64);
      prevCall = func::CallOp::create(b, loc, callee, ValueRange{index});
      prevLast = g.last;
      fn.removeArgAttr(g.arg.getArgNumber(), kGradAttrName);
    }
  }

  void runOnOperation() final {
    ModuleOp module = getOperation();
    SmallVector<std::pair<func::FuncOp, SmallVector<MarkedGrad>>> work;
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (fn.isExternal())
        continue;
      FailureOr<SmallVector<MarkedGrad>> grads = markedGrads(fn);
      if (failed(grads))
        return signalPassFailure();
      if (!grads->empty())
        work.emplace_back(fn, std::move(*grads));
    }
    if (work.empty())
      return;
    FailureOr<func::FuncOp> callee = readyCallee(module);
    if (failed(callee))
      return signalPassFailure();
    for (auto &[fn, grads] : work)
      insertCalls(fn, grads, *callee);
  }
};

} // namespace
} // namespace modelc
