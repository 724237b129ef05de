//===- CpuMathApproximation.cpp - exp and erf as vectorisable arithmetic --===//
//
// Implements the `modelc-cpu-math-approximation` pass: every f32 math.exp
// and math.erf (scalar or vector) becomes MLIR's polynomial approximation
// (arith and fma ops, within 5e-7 of libm: the accuracy test of
// test/Transforms/GPU checks the same approximations), so that loops using
// them (GELU and its gradient, softmax, dropout's masks) stay vectors:
// LLVM's x86 back end splits a vector llvm.exp into one libm expf call per
// lane. f64 exp and erf stay libm calls. The other math ops are left to
// convert-math-to-llvm (intrinsics) and convert-math-to-libm.
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
    populateMathPolynomialApproximationPatterns(
        patterns, [](StringRef name) { return name == "math.exp" || name == "math.erf"; });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

} // namespace modelc
