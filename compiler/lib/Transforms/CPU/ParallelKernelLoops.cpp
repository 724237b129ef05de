//===- ParallelKernelLoops.cpp - Kernel loops that may run on every core --===//
//
// Implements the `modelc-parallel-kernel-loops` pass. In each outlined
// kernel (a function marked `modelc.kernel` by modelc-outline-kernels),
// every top-level `scf.parallel` without results and with a unit step in its
// first dimension (the runtime splits the range at its midpoint) moves into
// a new private
// function
//   @<kernel>.part<N>(%begin: index, %end: index, %work: index, captured...)
// that runs the loop over [begin, end) of its first dimension, and is
// replaced by a call to it over the whole range. `%work` estimates the
// loop's cost (its iterations times the operations of one iteration, nested
// loops of known trip count included). The function carries
// `modelc.parallel_part`: modelc-parallel-kernel-calls later turns the call
// into one to the runtime's `modelrt_parallel_for`, which splits the range
// over the cores when the work is large enough. Each iteration of a parallel
// dimension writes its own elements, so the split changes no result.
//
//===----------------------------------------------------------------------===//
#include "ParallelKernels.h"
#include "modelc/Transforms/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_PARALLELKERNELLOOPSPASS
#include "modelc/Transforms/CPU/Passes.h.inc"

namespace {

/// Operations one iteration of \p region runs: nested loops with constant
/// bounds count their trip count times, others kDynamicTrips times.
int64_t costOf(Region &region) {
  constexpr int64_t kDynamicTrips = 16;
  int64_t cost = 0;
  for (Operation &op : region.getOps()) {
    int64_t inner = 0;
    for (Region &r : op.getRegions())
      inner += costOf(r);
    int64_t trips = 1;
    if (auto loop = dyn_cast<LoopLikeOpInterface>(op)) {
      std::optional<SmallVector<OpFoldResult>> lb = loop.getLoopLowerBounds(),
                                                ub = loop.getLoopUpperBounds();
      std::optional<SmallVector<OpFoldResult>> st = loop.getLoopSteps();
      for (size_t i = 0; lb && ub && st && i < lb->size(); ++i) {
        std::optional<int64_t> l = getConstantIntValue((*lb)[i]), u = getConstantIntValue((*ub)[i]),
                               s = getConstantIntValue((*st)[i]);
        trips *= l && u && s && *s > 0 ? std::max<int64_t>((*u - *l + *s - 1) / *s, 0)
                                       : kDynamicTrips;
      }
    }
    cost += 1 + trips * inner;
  }
  return cost;
}

/// (ub - lb) ceildiv step of dimension \p d of \p loop, built before it.
Value tripCount(OpBuilder &b, scf::ParallelOp loop, unsigned d) {
  Location loc = loop.getLoc();
  Value span = arith::SubIOp::create(b, loc, loop.getUpperBound()[d], loop.getLowerBound()[d]);
  return arith::CeilDivSIOp::create(b, loc, span, loop.getStep()[d]);
}

/// The loop's iterations times its per-iteration cost, built before it.
Value workOf(OpBuilder &b, scf::ParallelOp loop) {
  Location loc = loop.getLoc();
  Value work = arith::ConstantIndexOp::create(b, loc, costOf(loop.getRegion()));
  for (unsigned d = 0; d < loop.getNumLoops(); ++d)
    work = arith::MulIOp::create(b, loc, work, tripCount(b, loop, d));
  return work;
}

/// What the part function of \p loop needs from outside it: values passed
/// as arguments (\p captured) and constants cloned in (\p constants).
/// Dimension 0's bounds are not among them: they become begin and end.
void partInputs(scf::ParallelOp loop, llvm::SetVector<Value> &captured,
                SmallVector<Operation *> &constants) {
  llvm::SetVector<Value> used;
  for (unsigned d = 0; d < loop.getNumLoops(); ++d) {
    if (d > 0) {
      used.insert(loop.getLowerBound()[d]);
      used.insert(loop.getUpperBound()[d]);
    }
    used.insert(loop.getStep()[d]);
  }
  getUsedValuesDefinedAbove(loop.getRegion(), used);
  splitOutlinedInputs(used, captured, constants);
}

/// Moves \p loop into `name`; see the file comment.
void outlineLoop(scf::ParallelOp loop, StringRef name, func::FuncOp kernel) {
  llvm::SetVector<Value> captured;
  SmallVector<Operation *> constants;
  partInputs(loop, captured, constants);
  OpBuilder b(kernel);
  Type index = b.getIndexType();
  SmallVector<Type> types = {index, index, index};
  for (Value v : captured)
    types.push_back(v.getType());
  auto part = func::FuncOp::create(b, loop.getLoc(), name, b.getFunctionType(types, {}));
  part.setPrivate();
  part->setAttr(kParallelPartAttr, b.getUnitAttr());
  Block *body = part.addEntryBlock();
  IRMapping map;
  for (auto [v, arg] : llvm::zip(captured, body->getArguments().drop_front(3)))
    map.map(v, arg);
  b.setInsertionPointToStart(body);
  for (Operation *c : constants)
    b.clone(*c, map);
  auto copy = cast<scf::ParallelOp>(b.clone(*loop, map));
  copy.getLowerBoundMutable()[0].assign(body->getArgument(0));
  copy.getUpperBoundMutable()[0].assign(body->getArgument(1));
  func::ReturnOp::create(b, loop.getLoc());

  b.setInsertionPoint(loop);
  SmallVector<Value> args = {loop.getLowerBound()[0], loop.getUpperBound()[0], workOf(b, loop)};
  args.append(captured.begin(), captured.end());
  func::CallOp::create(b, loop.getLoc(), part, args);
  loop.erase();
}

/// The pass: see the file comment.
struct ParallelKernelLoopsPass
    : impl::ParallelKernelLoopsPassBase<ParallelKernelLoopsPass> {
  using ParallelKernelLoopsPassBase::ParallelKernelLoopsPassBase;
  void runOnOperation() final {
    SmallVector<func::FuncOp> kernels;
    for (auto fn : getOperation().getOps<func::FuncOp>())
      if (fn->hasAttr(kKernelAttr) && !fn.isExternal())
        kernels.push_back(fn);
    for (func::FuncOp fn : kernels) {
      SmallVector<scf::ParallelOp> loops;
      for (auto loop : fn.getBody().front().getOps<scf::ParallelOp>())
        if (loop.getNumResults() == 0 && isConstantIntValue(loop.getStep()[0], 1))
          loops.push_back(loop);
      unsigned index = 0;
      for (scf::ParallelOp loop : loops)
        outlineLoop(loop, (fn.getSymName() + ".part" + Twine(index++)).str(), fn);
    }
  }
};

} // namespace

} // namespace modelc
