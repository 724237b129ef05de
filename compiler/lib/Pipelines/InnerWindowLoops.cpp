//===- InnerWindowLoops.cpp - Tiny window loops innermost -----------------===//
//
// Implements the `modelc-inner-window-loops` pass. An all-parallel
// linalg.generic whose innermost loop has a tiny constant extent (at most
// kMaxWindow: a pooling window's column) cannot be vectorised, and when
// another tiny dimension sits further out (the window's row, placed there
// by fusing the max-pool gradient into the relu and dropout gradients that
// iterate in memory order), each element of a window recomputes the
// window's arg-max. The pass moves every tiny constant dimension innermost,
// in its order: LLVM then unrolls the window loops and computes what the
// window's elements share once. Every iteration writes its own element, so
// the order changes no result.
//
//===----------------------------------------------------------------------===//
#include "modelc/Pipelines/CpuPipeline.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace modelc {
namespace {

/// The largest extent that counts as a window dimension.
constexpr int64_t kMaxWindow = 4;

/// The interchange putting \p op's tiny dimensions innermost, or empty when
/// the pass leaves it alone (see the file comment).
SmallVector<unsigned> windowsInnermost(linalg::GenericOp op) {
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  // linalg.index reads are renumbered by the interchange.
  if (iters.size() < 3 ||
      !llvm::all_of(iters, [](auto it) { return it == utils::IteratorType::parallel; }))
    return {};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto tiny = [&](unsigned d) { return !ShapedType::isDynamic(ranges[d]) && ranges[d] <= kMaxWindow; };
  if (!tiny(ranges.size() - 1))
    return {};
  SmallVector<unsigned> outer, inner;
  for (unsigned d = 0; d < ranges.size(); ++d)
    (tiny(d) ? inner : outer).push_back(d);
  // Nothing to gain unless a tiny dimension sits outside a larger one.
  unsigned firstLarge = outer.empty() ? 0 : outer.back();
  if (outer.empty() || llvm::all_of(inner, [&](unsigned d) { return d > firstLarge; }))
    return {};
  outer.append(inner);
  return outer;
}

/// The pass: see the file comment.
struct InnerWindowLoopsPass
    : PassWrapper<InnerWindowLoopsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(InnerWindowLoopsPass)
  StringRef getArgument() const final { return "modelc-inner-window-loops"; }
  StringRef getDescription() const final {
    return "Move the tiny constant dimensions of elementwise generics innermost "
           "(pooling windows)";
  }
  void runOnOperation() final {
    SmallVector<std::pair<linalg::GenericOp, SmallVector<unsigned>>> work;
    getOperation().walk([&](linalg::GenericOp op) {
      SmallVector<unsigned> perm = windowsInnermost(op);
      if (!perm.empty())
        work.push_back({op, perm});
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, perm] : work) {
      rewriter.setInsertionPoint(op);
      if (failed(linalg::interchangeGenericOp(rewriter, op, perm))) {
        op.emitError("cannot interchange the loops of this kernel");
        return signalPassFailure();
      }
    }
  }
};

} // namespace

std::unique_ptr<Pass> createInnerWindowLoopsPass() {
  return std::make_unique<InnerWindowLoopsPass>();
}

void registerInnerWindowLoopsPass() { PassRegistration<InnerWindowLoopsPass>(); }

} // namespace modelc
