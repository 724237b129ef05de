//===- CpuMathApproximation.cpp - math.erf as vectorisable arithmetic -----===//
//
// Implements the `modelc-cpu-math-approximation` pass: every f32 math.erf
// becomes MLIR's polynomial approximation (arith ops), so that loops using
// it (GELU and its gradient) vectorise instead of calling libm's scalar
// erff per element; f64 erf stays a libm call. The other math ops are left to convert-math-to-llvm
// (intrinsics) and convert-math-to-libm.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_CPUMATHAPPROXIMATIONPASS
#include "modelc/Transforms/CPU/Passes.h.inc"

namespace {

struct CpuMathApproximationPass
    : impl::CpuMathApproximationPassBase<CpuMathApproximationPass> {
  void runOnOperation() final {
    RewritePatternSet patterns(&getContext());
    populatePolynomialApproximateErfPattern(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

} // namespace modelc
