//===- GpuMathApproximation.cpp - Kernel math without libdevice ------------===//
//
// Implements `modelc-gpu-math-approximation`. convert-gpu-to-nvvm lowers
// math.exp, math.log, math.tanh, math.erf, ... to calls into CUDA's
// libdevice (`__nv_expf`), which would then have to be linked from a CUDA
// toolkit at model-compile time. Instead, inside every gpu.module, math ops
// are first expanded into a few primitives (powf into exp/log, ...) and
// those are replaced by MLIR's f32 polynomial approximations (arith and
// fma only, a few ulp from the exact result). The approximations' own fma
// abs and floor (which convert-gpu-to-nvvm would also send to libdevice)
// become llvm.intr.fma and integer/float arith, rsqrt becomes 1 / sqrt and
// sqrt the NVPTX intrinsic of sqrt.rn.f32. The kernels then need nothing but
// the driver's PTX JIT, and the CPU and GPU results agree within float32
// rounding.
//
// With `host=true` the same rewrites (but sqrt, which stays math.sqrt) apply
// to host functions marked `modelc.approximate` instead: the lit test of the
// approximations' accuracy runs them on the CPU against libm.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_GPUMATHAPPROXIMATIONPASS
#include "modelc/Transforms/GPU/Passes.h.inc"

namespace {

/// The math ops approximated by polynomials (the others lower to PTX);
/// `name` is the full op name, e.g. "math.exp".
bool approximated(StringRef name) {
  if (!name.consume_front("math."))
    return false;
  return llvm::is_contained({"exp", "expm1", "log", "log1p", "log2", "tanh",
                             "erf", "erfc", "atan", "atan2", "sin", "cos",
                             "cbrt", "asin", "acos"},
                            name);
}

/// math.fma -> llvm.intr.fma (a PTX fma.rn instruction).
struct FmaToIntrinsic : OpRewritePattern<math::FmaOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::FmaOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::FMAOp>(op, op.getA(), op.getB(),
                                             op.getC());
    return success();
  }
};

/// |x| of an f32 by clearing the sign bit.
Value clearSign(PatternRewriter &rewriter, Location loc, Value x) {
  Type i32 = rewriter.getI32Type();
  Value bits = arith::BitcastOp::create(rewriter, loc, i32, x);
  Value mask = arith::ConstantIntOp::create(rewriter, loc, 0x7fffffff, 32);
  Value cleared = arith::AndIOp::create(rewriter, loc, bits, mask);
  return arith::BitcastOp::create(rewriter, loc, x.getType(), cleared);
}

/// math.absf on f32 -> the sign bit cleared.
struct AbsToArith : OpRewritePattern<math::AbsFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::AbsFOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return failure();
    rewriter.replaceOp(op, clearSign(rewriter, op.getLoc(), op.getOperand()));
    return success();
  }
};

/// math.rsqrt -> 1 / math.sqrt (sqrt.rn and div.rn in PTX).
struct RsqrtToSqrt : OpRewritePattern<math::RsqrtOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::RsqrtOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value one = arith::ConstantOp::create(
        rewriter, loc, op.getType(), rewriter.getFloatAttr(op.getType(), 1.0));
    Value root = math::SqrtOp::create(rewriter, loc, op.getOperand());
    rewriter.replaceOpWithNewOp<arith::DivFOp>(op, one, root);
    return success();
  }
};

/// math.sqrt on f32 -> the NVPTX intrinsic of sqrt.rn.f32 (IEEE rounding).
struct SqrtToNvvm : OpRewritePattern<math::SqrtOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::SqrtOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return failure();
    auto call = LLVM::CallIntrinsicOp::create(
        rewriter, op.getLoc(), op.getType(),
        rewriter.getStringAttr("llvm.nvvm.sqrt.rn.f"),
        ValueRange{op.getOperand()});
    rewriter.replaceOp(op, call.getResults());
    return success();
  }
};

/// math.floor on f32 without libdevice: t = trunc(x) via an i32 round trip,
/// minus 1 where that rounded up (x < 0); |x| >= 2^23 is already integral.
struct FloorToArith : OpRewritePattern<math::FloorOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::FloorOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return failure();
    Location loc = op.getLoc();
    Value x = op.getOperand();
    Type f32 = rewriter.getF32Type(), i32 = rewriter.getI32Type();
    auto cst = [&](float v) -> Value {
      return arith::ConstantOp::create(rewriter, loc, f32,
                                       rewriter.getF32FloatAttr(v));
    };
    Value i = arith::FPToSIOp::create(rewriter, loc, i32, x);
    Value t = arith::SIToFPOp::create(rewriter, loc, f32, i);
    Value above = arith::CmpFOp::create(rewriter, loc,
                                        arith::CmpFPredicate::OGT, t, x);
    Value down = arith::SubFOp::create(rewriter, loc, t, cst(1.0f));
    Value fl = arith::SelectOp::create(rewriter, loc, above, down, t);
    Value ax = clearSign(rewriter, loc, x);
    Value small = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OLT, ax, cst(8388608.0f));
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, small, fl, x);
    return success();
  }
};

struct GpuMathApproximationPass
    : impl::GpuMathApproximationPassBase<GpuMathApproximationPass> {
  using GpuMathApproximationPassBase::GpuMathApproximationPassBase;

  void runOnOperation() final {
    RewritePatternSet expand(&getContext()), approximate(&getContext()),
        intrinsics(&getContext());
    intrinsics.add<FmaToIntrinsic, AbsToArith, FloorToArith, RsqrtToSqrt>(
        &getContext());
    if (!host)
      intrinsics.add<SqrtToNvvm>(&getContext());
    math::populateExpansionPatterns(expand, {"powf", "sinh", "cosh", "tan",
                                             "fpowi", "exp2"});
    populateMathF32ExpansionPatterns(approximate, approximated);
    populateMathPolynomialApproximationPatterns(approximate, approximated);
    FrozenRewritePatternSet frozenExpand(std::move(expand));
    FrozenRewritePatternSet frozenApprox(std::move(approximate));
    FrozenRewritePatternSet frozenIntrinsics(std::move(intrinsics));
    SmallVector<Operation *> targets;
    if (host) {
      getOperation().walk([&](func::FuncOp f) {
        if (f->hasAttr("modelc.approximate"))
          targets.push_back(f);
      });
    } else {
      for (auto module : getOperation().getOps<gpu::GPUModuleOp>())
        targets.push_back(module);
    }
    for (Operation *target : targets)
      if (failed(applyPatternsGreedily(target, frozenExpand)) ||
          failed(applyPatternsGreedily(target, frozenApprox)) ||
          failed(applyPatternsGreedily(target, frozenIntrinsics)))
        return signalPassFailure();
  }
};

} // namespace

} // namespace modelc
