//===- InterleaveReductions.cpp - Sums to few outputs, interleaved --------===//
//
// Implements the `modelc-interleave-reductions` pass. A linalg.generic whose
// innermost loop is a reduction and whose outputs are few (at most
// kMaxOutputs elements, every parallel extent static: a bias gradient summing
// [N, C, H*W] into [C]) runs one serial chain of float additions per output:
// each add waits for the previous one (LLVM may not reorder float sums).
// The pass moves the parallel dimensions innermost, keeping the order of the
// reduction dimensions and of the parallel ones: the chains of different
// outputs then interleave and run at the adder's throughput instead of its
// latency, while each output still adds its terms in the same order, so the
// result is the same to the bit.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_INTERLEAVEREDUCTIONSPASS
#include "modelc/Transforms/CPU/Passes.h.inc"

namespace {

/// Outputs up to which a sum's chains are interleaved (beyond, its output is
/// large enough that the parallel loops already give independent work).
constexpr int64_t kMaxOutputs = 4096;

/// The interchange putting \p op's parallel dimensions innermost, or empty
/// when the pass leaves it alone (see the file comment).
SmallVector<unsigned> interleaving(linalg::GenericOp op) {
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  if (iters.size() < 2 || op.hasIndexSemantics() ||
      iters.back() != utils::IteratorType::reduction ||
      !llvm::is_contained(iters, utils::IteratorType::parallel))
    return {};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t outputs = 1;
  SmallVector<unsigned> reductions, parallels;
  for (auto [d, it] : llvm::enumerate(iters)) {
    if (it == utils::IteratorType::reduction) {
      reductions.push_back(d);
      continue;
    }
    if (ShapedType::isDynamic(ranges[d]))
      return {};
    outputs *= ranges[d];
    if (outputs > kMaxOutputs)
      return {};
    parallels.push_back(d);
  }
  reductions.append(parallels);
  return reductions;
}

/// The pass: see the file comment.
struct InterleaveReductionsPass
    : impl::InterleaveReductionsPassBase<InterleaveReductionsPass> {
  using InterleaveReductionsPassBase::InterleaveReductionsPassBase;
  void runOnOperation() final {
    SmallVector<std::pair<linalg::GenericOp, SmallVector<unsigned>>> work;
    getOperation().walk([&](linalg::GenericOp op) {
      SmallVector<unsigned> perm = interleaving(op);
      if (!perm.empty())
        work.push_back({op, perm});
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, perm] : work) {
      rewriter.setInsertionPoint(op);
      if (failed(linalg::interchangeGenericOp(rewriter, op, perm))) {
        op.emitError("cannot interchange the loops of this sum");
        return signalPassFailure();
      }
    }
  }
};

} // namespace

} // namespace modelc
