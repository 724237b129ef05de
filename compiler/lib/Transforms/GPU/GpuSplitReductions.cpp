//===- GpuSplitReductions.cpp - Long reductions over few outputs, in two ---===//
//
// Implements `modelc-gpu-split-reductions`, run after
// modelc-gpu-promote-accumulators and before modelc-gpu-map-loops. A
// reduction to few outputs is one scf.parallel over the outputs (a
// convolution's bias gradient: 32 channels; a loss sum: one thread) whose
// thread runs the whole reduction as a loop, 64 x 28 x 28 = 50176 additions
// for that bias gradient at batch 64: a few busy threads on a GPU of
// thousands, each waiting on one load after the other. This pass splits such
// a loop in two stages:
//   stage 1, a new scf.parallel over (k, output), k < K: the loop's
//     iterations k, k + K, k + 2K... (of the loop nest collapsed into one,
//     when it is a perfect nest with a static inner trip count) summed from
//     the combiner's identity into partial[k, output]; k varies fastest
//     between neighbouring threads when the loop reads along a buffer's last
//     dimension (their loads are then neighbours), the output otherwise;
//   stage 2, in the original loop's place: the K partial results combined
//     onto the loop's initial value, in order.
// K is the power of two at or above the square root of the estimated
// length (a dynamic trip count counts as 256), so both stages are short.
// For a long reduction (16384 combines or more) K is then doubled while
// stage 1 has fewer than 131072 threads and each keeps at least 8 combines
// of the estimate, up to 8192 (the square-root choice stops at 1024): a GPU
// hides each thread's load latency behind other threads, so a long
// reduction runs faster over more threads than the square root gives
// (docs/gpu.md has the measurements). Stage 2 is split again while it is
// longer than 64 (by the square root alone: its partial sums are few). The
// combiner must be associative (arith.addf, arith.addi, arith.maximumf):
// floating-point sums change order, as any parallel reduction does.
// Matched: a one-dimensional scf.parallel from 0 by 1 with a static trip
// count of at most 4096, and in its body an scf.for with one loop-carried
// value whose only use is the combiner (at the end of the body, or of the
// body of a loop nested perfectly in it), whose body only reads memory, and
// none of whose buffers the parallel body writes before it (stage 1 runs
// before the parallel loop; buffers told apart as in BufferBase.h).
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/GPU/Passes.h"

#include "BufferBase.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_GPUSPLITREDUCTIONSPASS
#include "modelc/Transforms/GPU/Passes.h.inc"

namespace {

constexpr int64_t kMaxOutputs = 4096;  ///< larger grids are parallel enough
constexpr int64_t kShortChain = 64;    ///< reductions this long stay whole
constexpr int64_t kDynamicTrip = 256;  ///< a batch dimension, for estimates
constexpr int64_t kMaxSqrtSplit = 1024; ///< the square-root choice, at most
constexpr int64_t kMaxSplit = 8192;     ///< the choice that fills the GPU, at most
constexpr int64_t kTargetThreads = 131072; ///< stage 1 threads that keep a GPU busy
constexpr int64_t kMinPerThread = 8;       ///< combines per stage-1 thread, at least
constexpr int64_t kLongReduction = 16384;  ///< from here, K also fills the GPU

/// A reduction loop to split.
struct Reduction {
  scf::ParallelOp par;
  scf::ForOp loop;           ///< in par's body; one iter_arg
  scf::ForOp inner;          ///< perfectly nested in `loop` (or null)
  Operation *combine;        ///< combines the carried value with one input
  int64_t innerTrip = 1;     ///< static trip count of `inner`
  int64_t estimate = 0;      ///< estimated number of combines
  /// A load's last (fastest) index is the innermost reduction index: then
  /// neighbouring threads of stage 1 take neighbouring iterations (coalesced
  /// loads); otherwise neighbouring outputs.
  bool contiguous = false;
};

/// True when a load in `body`'s loop reads its memref's last dimension with
/// the loop's induction variable.
bool readsAlongLastDim(scf::ForOp body) {
  Value iv = body.getInductionVar();
  bool found = false;
  body.getBody()->walk([&](memref::LoadOp load) {
    found |= !load.getIndices().empty() && load.getIndices().back() == iv;
  });
  return found;
}

std::optional<int64_t> constantIndex(Value v) {
  if (auto c = v.getDefiningOp<arith::ConstantIndexOp>())
    return c.value();
  return std::nullopt;
}

/// The static trip count of `loop`, if its bounds and step are constants.
std::optional<int64_t> staticTrip(scf::ForOp loop) {
  auto lb = constantIndex(loop.getLowerBound()), ub = constantIndex(loop.getUpperBound()),
       step = constantIndex(loop.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  return *ub > *lb ? (*ub - *lb + *step - 1) / *step : 0;
}

/// The identity of `combine`'s operation, or null when it is not one this
/// pass may reassociate.
TypedAttr identityOf(Operation *combine) {
  Type t = combine->getResult(0).getType();
  if (isa<arith::AddFOp>(combine))
    return FloatAttr::get(t, 0.0);
  if (isa<arith::AddIOp>(combine))
    return IntegerAttr::get(t, 0);
  if (isa<arith::MaximumFOp>(combine))
    return FloatAttr::get(t, -INFINITY);
  return nullptr;
}

/// The op that combines `carried` (a loop's iter_arg) with a value that does
/// not depend on it, yielded by the loop; null when that is not the shape.
Operation *combinerOf(scf::ForOp loop) {
  BlockArgument carried = loop.getRegionIterArgs()[0];
  if (!carried.hasOneUse())
    return nullptr;
  Operation *combine = *carried.getUsers().begin();
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  if (combine->getBlock() != loop.getBody() || combine->getNumResults() != 1 ||
      yield.getOperand(0) != combine->getResult(0) || !combine->getResult(0).hasOneUse() ||
      !identityOf(combine))
    return nullptr;
  return combine;
}

/// True when the ops of `loop`'s body read memory at most.
bool onlyReads(scf::ForOp loop) {
  WalkResult r = loop.getBody()->walk([](Operation *op) {
    if (isa<memref::LoadOp>(op) || isMemoryEffectFree(op) ||
        op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !r.wasInterrupted();
}

/// True when nothing before `loop` in its parallel body writes memory that
/// `loop` reads (stage 1 runs before the whole parallel loop).
bool readsNothingWrittenBefore(scf::ForOp loop) {
  SmallVector<Value> read;
  bool known = true;
  loop.getBody()->walk([&](memref::LoadOp load) {
    Value base = bufferBase(load.getMemref());
    known &= bool(base);
    read.push_back(base);
  });
  if (!known)
    return false;
  for (Operation *op = loop->getPrevNode(); op; op = op->getPrevNode()) {
    WalkResult r = op->walk([&](Operation *inner) {
      if (auto store = dyn_cast<memref::StoreOp>(inner)) {
        Value base = bufferBase(store.getMemref());
        if (!base || llvm::any_of(read, [&](Value b) { return basesMayAlias(b, base); }))
          return WalkResult::interrupt();
        return WalkResult::advance();
      }
      if (isa<memref::LoadOp>(inner) || isMemoryEffectFree(inner) ||
          inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        return WalkResult::advance();
      return WalkResult::interrupt();
    });
    if (r.wasInterrupted())
      return false;
  }
  return true;
}

/// Matches `loop` (directly in `par`'s body) as a reduction worth splitting.
std::optional<Reduction> match(scf::ParallelOp par, scf::ForOp loop) {
  if (loop.getNumRegionIterArgs() != 1 || !onlyReads(loop) || !readsNothingWrittenBefore(loop))
    return std::nullopt;
  Reduction r{par, loop, nullptr, nullptr};
  r.combine = combinerOf(loop);
  if (!r.combine) { // a perfect nest: the inner loop carries the value on
    auto &ops = loop.getBody()->getOperations();
    auto inner = ops.size() == 2 ? dyn_cast<scf::ForOp>(ops.front()) : scf::ForOp();
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    if (!inner || inner.getNumRegionIterArgs() != 1 ||
        inner.getInitArgs()[0] != loop.getRegionIterArgs()[0] ||
        yield.getOperand(0) != inner.getResult(0) || !staticTrip(inner))
      return std::nullopt;
    if (!(r.combine = combinerOf(inner)))
      return std::nullopt;
    r.inner = inner;
    r.innerTrip = *staticTrip(inner);
  }
  r.estimate = staticTrip(loop).value_or(kDynamicTrip) * r.innerTrip;
  r.contiguous = readsAlongLastDim(r.inner ? r.inner : loop);
  if (r.estimate <= kShortChain)
    return std::nullopt;
  return r;
}

/// The split factor of a reduction of about `estimate` combines into
/// `outputs` results: the square root of the length, then, for a long one,
/// more threads while stage 1 would leave the GPU idle.
int64_t splitFactor(int64_t estimate, int64_t outputs) {
  int64_t k = 1;
  while (k * k < estimate && k < kMaxSqrtSplit)
    k *= 2;
  while (estimate >= kLongReduction && k * outputs < kTargetThreads &&
         2 * k * kMinPerThread <= estimate && k < kMaxSplit)
    k *= 2;
  return k;
}

/// Clones into `b` (mapping `map`) the ops of `par`'s body that `ops` use,
/// in program order: pure ops only; false when another kind is needed.
bool cloneDefinitions(OpBuilder &b, scf::ParallelOp par, ArrayRef<Operation *> ops,
                      IRMapping &map) {
  llvm::SetVector<Operation *> needed;
  SmallVector<Value> work;
  for (Operation *op : ops)
    op->walk([&](Operation *inner) { llvm::append_range(work, inner->getOperands()); });
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getParentOp() != par.getOperation() || needed.contains(def) ||
        llvm::is_contained(ops, def))
      continue;
    if (!isPure(def) || def->getNumRegions())
      return false;
    needed.insert(def);
    llvm::append_range(work, def->getOperands());
  }
  for (Operation &op : par.getBody()->without_terminator())
    if (needed.contains(&op))
      b.clone(op, map);
  return true;
}

/// Stage 1: emits, before `r.par`, the parallel loop that stores the partial
/// results of thread `k` into `partial[k, output]`; false (nothing emitted)
/// when the loop needs a value it cannot recompute.
bool emitPartials(IRRewriter &rewriter, Reduction r, int64_t k, Value partial) {
  Location loc = r.loop.getLoc();
  int64_t outputs = *constantIndex(r.par.getUpperBound()[0]);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value kConst = arith::ConstantIndexOp::create(rewriter, loc, k);
  Value outConst = arith::ConstantIndexOp::create(rewriter, loc, outputs);
  bool ok = true;
  // The innermost dimension of the grid varies fastest between threads.
  SmallVector<Value> ubs = r.contiguous ? SmallVector<Value>{outConst, kConst}
                                        : SmallVector<Value>{kConst, outConst};
  auto stage = scf::ParallelOp::create(
      rewriter, loc, ValueRange{zero, zero}, ubs, ValueRange{one, one},
      [&](OpBuilder &b, Location l, ValueRange grid) {
        SmallVector<Value> ivs = r.contiguous ? SmallVector<Value>{grid[1], grid[0]}
                                              : SmallVector<Value>{grid[0], grid[1]};
        IRMapping map;
        map.map(r.par.getInductionVars()[0], ivs[1]);
        if (!(ok = cloneDefinitions(b, r.par, {r.loop.getOperation()}, map)))
          return;
        scf::ForOp body = r.inner ? r.inner : r.loop;
        Value lb = map.lookupOrDefault(r.loop.getLowerBound());
        Value step = map.lookupOrDefault(r.loop.getStep());
        Value ub = map.lookupOrDefault(r.loop.getUpperBound());
        // Iterations of the (collapsed) nest: ceil((ub - lb) / step) * innerTrip.
        Value span = arith::SubIOp::create(b, l, ub, lb);
        Value count = arith::CeilDivSIOp::create(b, l, span, step);
        Value w = arith::ConstantIndexOp::create(b, l, r.innerTrip);
        Value total = arith::MulIOp::create(b, l, count, w);
        Value init = arith::ConstantOp::create(b, l, identityOf(r.combine));
        Value kStep = arith::ConstantIndexOp::create(b, l, k);
        auto part = scf::ForOp::create(
            b, l, ivs[0], total, kStep, ValueRange{init},
            [&](OpBuilder &ib, Location il, Value it, ValueRange carried) {
              Value outer = arith::DivSIOp::create(ib, il, it, w);
              map.map(r.loop.getInductionVar(),
                      arith::AddIOp::create(ib, il, lb,
                                            arith::MulIOp::create(ib, il, outer, step)));
              if (r.inner) {
                Value in = arith::RemSIOp::create(ib, il, it, w);
                Value ilb = arith::ConstantIndexOp::create(ib, il, *constantIndex(r.inner.getLowerBound()));
                Value ist = arith::ConstantIndexOp::create(ib, il, *constantIndex(r.inner.getStep()));
                map.map(r.inner.getInductionVar(),
                        arith::AddIOp::create(ib, il, ilb, arith::MulIOp::create(ib, il, in, ist)));
              }
              map.map(body.getRegionIterArgs()[0], carried[0]);
              for (Operation &op : body.getBody()->without_terminator())
                ib.clone(op, map);
              scf::YieldOp::create(ib, il, map.lookup(r.combine->getResult(0)));
            });
        memref::StoreOp::create(b, l, part.getResult(0), partial, ValueRange{ivs[0], ivs[1]});
      });
  if (!ok)
    rewriter.eraseOp(stage);
  return ok;
}

/// Stage 2: replaces `r.loop` by the combination of the K partial results
/// onto its initial value.
void emitCombine(IRRewriter &rewriter, Reduction r, int64_t k, Value partial) {
  Location loc = r.loop.getLoc();
  rewriter.setInsertionPoint(r.loop);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value kConst = arith::ConstantIndexOp::create(rewriter, loc, k);
  Value output = r.par.getInductionVars()[0];
  auto sum = scf::ForOp::create(
      rewriter, loc, zero, kConst, one, ValueRange{r.loop.getInitArgs()[0]},
      [&](OpBuilder &b, Location l, Value i, ValueRange carried) {
        Value x = memref::LoadOp::create(b, l, partial, ValueRange{i, output});
        OperationState state(l, r.combine->getName());
        state.addOperands({carried[0], x});
        state.addTypes(x.getType());
        state.addAttributes(r.combine->getAttrs());
        scf::YieldOp::create(b, l, b.create(state)->getResult(0));
      });
  rewriter.replaceOp(r.loop, sum.getResults());
}

/// Splits `r`; false when it could not be (nothing changed).
bool split(IRRewriter &rewriter, Reduction r) {
  int64_t outputs = *constantIndex(r.par.getUpperBound()[0]);
  int64_t k = splitFactor(r.estimate, outputs);
  Location loc = r.loop.getLoc();
  rewriter.setInsertionPoint(r.par);
  auto type = MemRefType::get({k, outputs}, r.combine->getResult(0).getType());
  Value partial = memref::AllocOp::create(rewriter, loc, type);
  if (!emitPartials(rewriter, r, k, partial)) {
    rewriter.eraseOp(partial.getDefiningOp());
    return false;
  }
  emitCombine(rewriter, r, k, partial);
  rewriter.setInsertionPointAfter(r.par);
  memref::DeallocOp::create(rewriter, loc, partial);
  return true;
}

/// The first reduction worth splitting in `func`, other than `refused`.
std::optional<Reduction> findReduction(func::FuncOp func,
                                       const llvm::SmallPtrSetImpl<Operation *> &refused) {
  for (auto par : func.getBody().getOps<scf::ParallelOp>()) {
    auto ub = par.getNumLoops() == 1 ? constantIndex(par.getUpperBound()[0]) : std::nullopt;
    if (!ub || *ub > kMaxOutputs || constantIndex(par.getLowerBound()[0]) != 0 ||
        constantIndex(par.getStep()[0]) != 1 || par.getNumResults())
      continue;
    for (auto loop : par.getBody()->getOps<scf::ForOp>())
      if (auto r = match(par, loop); r && !refused.contains(loop))
        return r;
  }
  return std::nullopt;
}

struct GpuSplitReductionsPass
    : impl::GpuSplitReductionsPassBase<GpuSplitReductionsPass> {
  using GpuSplitReductionsPassBase::GpuSplitReductionsPassBase;
  void runOnOperation() final {
    IRRewriter rewriter(&getContext());
    llvm::SmallPtrSet<Operation *, 8> refused;
    while (auto r = findReduction(getOperation(), refused))
      if (!split(rewriter, *r))
        refused.insert(r->loop);
  }
};

} // namespace

} // namespace modelc
