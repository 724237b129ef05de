//===- CpuExpandBf16.cpp - bf16 conversions as integer arithmetic ---------===//
//
// Implements the `modelc-cpu-expand-bf16` pass: every conversion to bf16
// becomes integer arithmetic that rounds to nearest, ties to even, keeps
// subnormal values and makes a NaN the quiet NaN 0x7fc0; every conversion
// from bf16 a shift of its bits. Left to LLVM, an f32 -> bf16 truncation
// is vcvtneps2bf16 on AVX512-BF16 CPUs (subnormals flushed to zero) and a
// call of libgcc's __truncsfbf2 elsewhere (as are f64 -> bf16, __truncdfbf2,
// and integer -> bf16 conversions), which GCC 12's libgcc lacks.
//   - f32 <-> bf16: MLIR's expansion (populateExpandBFloat16Patterns).
//   - f64 -> bf16: rounded to f32 by round-to-odd (the value truncated
//     toward zero, its last bit set when inexact), then to bf16: with 24
//     bits against bf16's 8, the two roundings give the one correct
//     rounding. bf16 -> f64: through f32, exactly.
//   - iN -> bf16 (signed or not, N <= 64): the magnitude shifted right to
//     at most 24 bits, a shifted-out bit kept as a sticky last bit (round-
//     to-odd again), converted to f32 exactly, scaled by a power of two,
//     signed, then rounded to bf16.
// Each rewrite of these last three ends in f32 <-> bf16 conversions that
// the first patterns then expand, in the same greedy run.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_CPUEXPANDBF16PASS
#include "modelc/Transforms/CPU/Passes.h.inc"

namespace {

/// \p type (a scalar or a vector) with \p element as its element type.
Type withElement(Type type, Type element) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(element);
  return element;
}

/// True for the types the patterns rewrite: scalars and vectors (a
/// tensor's conversions are left to bufferization first).
bool scalarOrVector(Type type) { return isa<VectorType>(type) || type.isIntOrFloat(); }

/// A scalar or splat integer constant of \p type.
Value intConstant(PatternRewriter &rewriter, Location loc, Type type, int64_t value) {
  return createScalarOrSplatConstant(rewriter, loc, type, value);
}

/// arith.truncf f64 -> bf16: f64 -> f32 by round-to-odd, then f32 -> bf16.
struct TruncF64ToBf16 : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op, PatternRewriter &rewriter) const override {
    Type in = op.getIn().getType();
    if (!scalarOrVector(in) || !getElementTypeOrSelf(in).isF64() ||
        !getElementTypeOrSelf(op.getType()).isBF16() || op.getRoundingmodeAttr())
      return failure(); // a rounding mode other than to nearest: LLVM's
    Location loc = op.getLoc();
    Value x = op.getIn();
    Type f32 = withElement(in, rewriter.getF32Type()), i32 = withElement(in, rewriter.getI32Type());
    Value nearest = arith::TruncFOp::create(rewriter, loc, f32, x);
    Value back = arith::ExtFOp::create(rewriter, loc, in, nearest);
    // ordered: false for a NaN, which stays as rounded
    Value inexact = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::ONE, back, x);
    Value zero = createScalarOrSplatConstant(rewriter, loc, in, APFloat(0.0));
    Value positive = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OGT, x, zero);
    Value above = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OGT, back, x);
    Value below = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OLT, back, x);
    Value away = arith::SelectOp::create(rewriter, loc, positive, above, below);
    Value bits = arith::BitcastOp::create(rewriter, loc, i32, nearest);
    Value one = intConstant(rewriter, loc, i32, 1);
    Value towardZero = arith::SelectOp::create(
        rewriter, loc, away, arith::SubIOp::create(rewriter, loc, bits, one), bits);
    Value odd = arith::SelectOp::create(
        rewriter, loc, inexact, arith::OrIOp::create(rewriter, loc, towardZero, one), bits);
    Value f = arith::BitcastOp::create(rewriter, loc, f32, odd);
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, op.getType(), f);
    return success();
  }
};

/// arith.extf bf16 -> f64: through f32 (both steps exact).
struct ExtBf16ToF64 : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op, PatternRewriter &rewriter) const override {
    Type in = op.getIn().getType();
    if (!scalarOrVector(in) || !getElementTypeOrSelf(in).isBF16() ||
        !getElementTypeOrSelf(op.getType()).isF64())
      return failure();
    Value f = arith::ExtFOp::create(rewriter, op.getLoc(), withElement(in, rewriter.getF32Type()),
                                    op.getIn());
    rewriter.replaceOpWithNewOp<arith::ExtFOp>(op, op.getType(), f);
    return success();
  }
};

/// The f32 value of the integer \p n (already i64; \p isSigned) rounded to
/// odd at 24 bits: exact to within a sticky last bit.
Value intToOddF32(PatternRewriter &rewriter, Location loc, Value n, bool isSigned) {
  Type i64 = n.getType(), f32 = withElement(i64, rewriter.getF32Type());
  Type i32 = withElement(i64, rewriter.getI32Type());
  Value zero = intConstant(rewriter, loc, i64, 0);
  Value negative = isSigned ? arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, n,
                                                    zero)
                            : Value();
  Value magnitude = n; // |n| as an unsigned i64 (INT64_MIN's is 2^63)
  if (isSigned)
    magnitude = arith::SelectOp::create(rewriter, loc, negative,
                                        arith::SubIOp::create(rewriter, loc, zero, n), n);
  Value leading = math::CountLeadingZerosOp::create(rewriter, loc, magnitude);
  Value shift = arith::MaxSIOp::create(
      rewriter, loc, arith::SubIOp::create(rewriter, loc, intConstant(rewriter, loc, i64, 40),
                                           leading),
      zero); // 0..40: at most 24 bits remain
  Value one = intConstant(rewriter, loc, i64, 1);
  Value lowMask =
      arith::SubIOp::create(rewriter, loc, arith::ShLIOp::create(rewriter, loc, one, shift), one);
  Value lost = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                     arith::AndIOp::create(rewriter, loc, magnitude, lowMask),
                                     zero);
  Value kept = arith::OrIOp::create(rewriter, loc,
                                    arith::ShRUIOp::create(rewriter, loc, magnitude, shift),
                                    arith::ExtUIOp::create(rewriter, loc, i64, lost));
  Value value = arith::UIToFPOp::create(rewriter, loc, f32,
                                        arith::TruncIOp::create(rewriter, loc, i32, kept));
  // 2^shift as f32 bits: (shift + 127) << 23.
  Value scaleBits = arith::ShLIOp::create(
      rewriter, loc,
      arith::TruncIOp::create(rewriter, loc, i32,
                              arith::AddIOp::create(rewriter, loc, shift,
                                                    intConstant(rewriter, loc, i64, 127))),
      intConstant(rewriter, loc, i32, 23));
  value = arith::MulFOp::create(rewriter, loc, value,
                                arith::BitcastOp::create(rewriter, loc, f32, scaleBits));
  if (isSigned)
    value = arith::SelectOp::create(rewriter, loc, negative,
                                    arith::NegFOp::create(rewriter, loc, value), value);
  return value;
}

/// arith.sitofp / arith.uitofp iN -> bf16: round-to-odd f32, then bf16.
template <typename IntToFp> struct IntToBf16 : OpRewritePattern<IntToFp> {
  using OpRewritePattern<IntToFp>::OpRewritePattern;
  LogicalResult matchAndRewrite(IntToFp op, PatternRewriter &rewriter) const override {
    Type in = op.getIn().getType();
    auto element = dyn_cast<IntegerType>(getElementTypeOrSelf(in));
    if (!scalarOrVector(in) || !element || element.getWidth() > 64 ||
        !getElementTypeOrSelf(op.getType()).isBF16())
      return failure();
    constexpr bool isSigned = std::is_same<IntToFp, arith::SIToFPOp>::value;
    Location loc = op.getLoc();
    Value n = op.getIn();
    Type i64 = withElement(in, rewriter.getI64Type());
    if (element.getWidth() < 64)
      n = isSigned ? Value(arith::ExtSIOp::create(rewriter, loc, i64, n))
                   : Value(arith::ExtUIOp::create(rewriter, loc, i64, n));
    Value f = intToOddF32(rewriter, loc, n, isSigned);
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, op.getType(), f);
    return success();
  }
};

struct CpuExpandBf16Pass : impl::CpuExpandBf16PassBase<CpuExpandBf16Pass> {
  void runOnOperation() final {
    RewritePatternSet patterns(&getContext());
    arith::populateExpandBFloat16Patterns(patterns);
    patterns.add<TruncF64ToBf16, ExtBf16ToF64, IntToBf16<arith::SIToFPOp>,
                 IntToBf16<arith::UIToFPOp>>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

} // namespace modelc
