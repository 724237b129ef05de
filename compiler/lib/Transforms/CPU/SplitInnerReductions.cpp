//===- SplitInnerReductions.cpp - Innermost sums in vector lanes ----------===//
//
// Implements the `modelc-split-inner-reductions` pass. A float sum (or max)
// over the innermost, contiguous dimension of its input is one serial chain
// per output: LLVM may not reorder float additions, so the loop neither
// vectorises nor runs faster than the adder's latency. For a linalg.generic
// on tensors with one reduction loop, innermost, of static extent n = m * L
// (L = 16, 8 or 4, the widest dividing n with at least two terms per lane),
// one output, a float combiner `out = add/max/min(value, out)`, and every
// input that reads the reduction loop reading it as its innermost dimension,
// the pass writes two generics:
//   lanes:   partial[..., l] = combine over r of f(inputs[..., r * L + l])
//            (loops ..., r reduction, l parallel innermost: vectorises);
//   combine: out[...] = combine over l of partial[..., l] into the old init.
// Lane l adds the elements l, l + L, l + 2L, ... in order, whatever the
// threads, so the result is deterministic, and each chain is L times
// shorter, so the sum is at least as accurate. Contractions (which
// modelc-matmul-to-blas takes), ops reading `linalg.index` and other
// combiners are left alone. CPU pipeline only: the GPU splits its
// reductions its own way (GpuSplitReductions).
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_SPLITINNERREDUCTIONSPASS
#include "modelc/Transforms/CPU/Passes.h.inc"

namespace {

/// The op that combines a value into the output in `op`'s body (the
/// yielded `add/max/min(x, out)`), or null.
Operation *combinerOf(linalg::GenericOp op) {
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  Operation *combiner = yield.getOperand(0).getDefiningOp();
  Value out = op.getBody()->getArguments().back();
  if (!combiner || !combiner->hasOneUse() ||
      !isa<arith::AddFOp, arith::MaximumFOp, arith::MinimumFOp,
           arith::MaxNumFOp, arith::MinNumFOp>(combiner))
    return nullptr;
  if (combiner->getOperand(1) != out && combiner->getOperand(0) != out)
    return nullptr;
  return combiner;
}

/// The lane count for `op` (see the file comment), or 0 to leave it.
int64_t lanesFor(linalg::GenericOp op) {
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  if (!op.hasPureTensorSemantics() || op.hasIndexSemantics() ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1 ||
      iters.back() != utils::IteratorType::reduction ||
      linalg::isaContractionOpInterface(op) || !combinerOf(op))
    return 0;
  unsigned inner = iters.size() - 1;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!map.isFunctionOfDim(inner))
      continue;
    unsigned last = map.getNumResults() - 1;
    if (map.getResult(last) != getAffineDimExpr(inner, op.getContext()))
      return 0;
    for (unsigned i = 0; i < last; ++i)
      if (map.getResult(i).isFunctionOfDim(inner))
        return 0;
  }
  int64_t n = op.getStaticLoopRanges()[inner];
  if (ShapedType::isDynamic(n))
    return 0;
  for (int64_t lanes : {16, 8, 4})
    if (n % lanes == 0 && n / lanes >= 2)
      return lanes;
  return 0;
}

/// `value` (whose innermost dimension has `n` elements) as [..., n/L, L].
Value splitInnermost(OpBuilder &b, Location loc, Value value, int64_t lanes) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape(type.getShape().drop_back());
  shape.append({type.getShape().back() / lanes, lanes});
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d + 1 < rank; ++d)
    groups.push_back({d});
  groups.push_back({rank - 1, rank});
  auto expanded = RankedTensorType::get(shape, type.getElementType());
  return tensor::ExpandShapeOp::create(b, loc, expanded, value, groups);
}

/// The maps of the lanes generic: loops (..., r, l) where (..., k) were;
/// inputs reading k read (r, l), the others and the output as before, the
/// output with l appended.
SmallVector<AffineMap> laneMaps(linalg::GenericOp op) {
  MLIRContext *ctx = op.getContext();
  unsigned loops = op.getNumLoops(), inner = loops - 1;
  AffineExpr l = getAffineDimExpr(loops, ctx);
  SmallVector<AffineMap> maps;
  for (AffineMap map : op.getIndexingMapsArray()) {
    SmallVector<AffineExpr> results(map.getResults());
    bool output = int64_t(maps.size()) == op.getNumDpsInputs();
    if (output || map.isFunctionOfDim(inner))
      results.push_back(l); // (..., k) read as (..., r, l); out keeps l
    maps.push_back(AffineMap::get(loops + 1, 0, results, ctx));
  }
  return maps;
}

/// The arith reduction kind of `combiner` (one combinerOf accepts).
arith::AtomicRMWKind kindOf(Operation *combiner) {
  if (isa<arith::AddFOp>(combiner))
    return arith::AtomicRMWKind::addf;
  if (isa<arith::MaximumFOp>(combiner))
    return arith::AtomicRMWKind::maximumf;
  if (isa<arith::MinimumFOp>(combiner))
    return arith::AtomicRMWKind::minimumf;
  if (isa<arith::MaxNumFOp>(combiner))
    return arith::AtomicRMWKind::maxnumf;
  return arith::AtomicRMWKind::minnumf;
}

/// The lanes generic of `op`: partial results [..., L] from the neutral
/// element of `combiner`.
Value buildLanes(OpBuilder &b, linalg::GenericOp op, Operation *combiner,
                 int64_t lanes) {
  Location loc = op.getLoc();
  unsigned inner = op.getNumLoops() - 1;
  SmallVector<Value> inputs;
  for (OpOperand *input : op.getDpsInputOperands())
    inputs.push_back(op.getMatchingIndexingMap(input).isFunctionOfDim(inner)
                         ? splitInnermost(b, loc, input->get(), lanes)
                         : input->get());
  Value init = op.getDpsInits()[0];
  auto initType = cast<RankedTensorType>(init.getType());
  SmallVector<int64_t> shape(initType.getShape());
  shape.push_back(lanes);
  SmallVector<Value> dynamic;
  for (int64_t d = 0; d < initType.getRank(); ++d)
    if (initType.isDynamicDim(d))
      dynamic.push_back(tensor::DimOp::create(b, loc, init, d));
  auto partialType = RankedTensorType::get(shape, initType.getElementType());
  Value empty = tensor::EmptyOp::create(b, loc, partialType, dynamic);
  TypedAttr neutral = arith::getIdentityValueAttr(
      kindOf(combiner), initType.getElementType(), b, loc);
  Value zero = arith::ConstantOp::create(b, loc, neutral);
  Value filled = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  iters.push_back(utils::IteratorType::parallel);
  auto lanesOp = linalg::GenericOp::create(b, loc, TypeRange{partialType},
                                           inputs, ValueRange{filled},
                                           laneMaps(op), iters);
  IRMapping mapping;
  op.getRegion().cloneInto(&lanesOp.getRegion(), mapping);
  return lanesOp.getResult(0);
}

/// The combine generic: `op`'s init combined with the lanes of `partial`.
Value buildCombine(OpBuilder &b, linalg::GenericOp op, Operation *combiner,
                   Value partial) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  Value init = op.getDpsInits()[0];
  unsigned rank = cast<RankedTensorType>(init.getType()).getRank();
  AffineMap all = AffineMap::getMultiDimIdentityMap(rank + 1, ctx);
  SmallVector<AffineMap> maps = {
      all, AffineMap::get(rank + 1, 0, all.getResults().take_front(rank), ctx)};
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  iters.push_back(utils::IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{partial},
             ValueRange{init}, maps, iters,
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               OperationState state(nl, combiner->getName(), args,
                                    combiner->getResultTypes(),
                                    combiner->getAttrs());
               linalg::YieldOp::create(nb, nl,
                                       nb.create(state)->getResult(0));
             })
      .getResult(0);
}

struct SplitInnerReductionsPass
    : impl::SplitInnerReductionsPassBase<SplitInnerReductionsPass> {
  void runOnOperation() final {
    SmallVector<std::pair<linalg::GenericOp, int64_t>> work;
    getOperation().walk([&](linalg::GenericOp op) {
      if (int64_t lanes = lanesFor(op))
        work.emplace_back(op, lanes);
    });
    for (auto &[op, lanes] : work) {
      OpBuilder b(op);
      Operation *combiner = combinerOf(op);
      Value partial = buildLanes(b, op, combiner, lanes);
      op.getResult(0).replaceAllUsesWith(
          buildCombine(b, op, combiner, partial));
      op.erase();
    }
  }
};

} // namespace

} // namespace modelc
