//===- Elementwise.cpp - mdl elementwise ops -> linalg.generic ------------===//
//
// Broadcasting binary arithmetic, unary math, cmp, select and cast become
// one linalg.generic each, with broadcasting indexing maps (no materialised
// broadcast), so upstream elementwise fusion can merge chains. Constants
// become arith.constant.
//
//===----------------------------------------------------------------------===//
#include "Common.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mdl;
using namespace modelc::lowering;

namespace {

bool isFloat(Type type) { return isa<FloatType>(type); }

/// x / y on integers, truncating, with the cases arith.divsi leaves
/// undefined (and x86 traps on) given values: y == 0 gives 0, and
/// x / -1 is the wrapping -x (the smallest value divided by -1 is itself).
Value definedIntegerDivision(OpBuilder &b, Location loc, Value x, Value y) {
  Type t = x.getType();
  Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, 0));
  Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, 1));
  Value minusOne = arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, -1));
  Value byZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, zero);
  Value byMinusOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, minusOne);
  Value special = arith::OrIOp::create(b, loc, byZero, byMinusOne);
  Value safe = arith::SelectOp::create(b, loc, special, one, y);
  Value q = arith::DivSIOp::create(b, loc, x, safe);
  Value negated = arith::SubIOp::create(b, loc, zero, x);
  q = arith::SelectOp::create(b, loc, byMinusOne, negated, q);
  return arith::SelectOp::create(b, loc, byZero, zero, q);
}

/// The scalar computation of a binary op.
template <typename OpTy>
Value binaryScalar(OpBuilder &b, Location loc, Value x, Value y) {
  bool f = isFloat(x.getType());
  if constexpr (std::is_same_v<OpTy, AddOp>)
    return f ? Value(arith::AddFOp::create(b, loc, x, y))
             : Value(arith::AddIOp::create(b, loc, x, y));
  if constexpr (std::is_same_v<OpTy, SubOp>)
    return f ? Value(arith::SubFOp::create(b, loc, x, y))
             : Value(arith::SubIOp::create(b, loc, x, y));
  if constexpr (std::is_same_v<OpTy, MulOp>)
    return f ? Value(arith::MulFOp::create(b, loc, x, y))
             : Value(arith::MulIOp::create(b, loc, x, y));
  if constexpr (std::is_same_v<OpTy, DivOp>)
    return f ? Value(arith::DivFOp::create(b, loc, x, y))
             : definedIntegerDivision(b, loc, x, y);
  if constexpr (std::is_same_v<OpTy, PowOp>)
    return math::PowFOp::create(b, loc, x, y);
  if constexpr (std::is_same_v<OpTy, MaxOp>)
    return f ? Value(arith::MaximumFOp::create(b, loc, x, y))
             : Value(arith::MaxSIOp::create(b, loc, x, y));
  if constexpr (std::is_same_v<OpTy, MinOp>)
    return f ? Value(arith::MinimumFOp::create(b, loc, x, y))
             : Value(arith::MinSIOp::create(b, loc, x, y));
}

template <typename OpTy>
FailureOr<Value> lowerBinary(OpTy op, typename OpTy::Adaptor adaptor,
                             ConversionPatternRewriter &rewriter) {
  return broadcastGeneric(
      rewriter, op.getLoc(), cast<RankedTensorType>(op.getType()),
      {adaptor.getLhs(), adaptor.getRhs()},
      [](OpBuilder &b, Location loc, ValueRange args) {
        return binaryScalar<OpTy>(b, loc, args[0], args[1]);
      });
}

/// x * 0.5 * (1 + erf(x / sqrt(2))), the exact GELU.
Value geluScalar(OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  Value scaled = arith::MulFOp::create(b, loc, x,
                                       scalarConstant(b, loc, t, M_SQRT1_2));
  Value erf = math::ErfOp::create(b, loc, scaled);
  Value onePlus =
      arith::AddFOp::create(b, loc, erf, scalarConstant(b, loc, t, 1.0));
  Value half = arith::MulFOp::create(b, loc, x, scalarConstant(b, loc, t, 0.5));
  return arith::MulFOp::create(b, loc, half, onePlus);
}

/// The scalar computation of a unary op.
template <typename OpTy>
Value unaryScalar(OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  bool f = isFloat(t);
  if constexpr (std::is_same_v<OpTy, NegOp>)
    return f ? Value(arith::NegFOp::create(b, loc, x))
             : Value(arith::SubIOp::create(b, loc, scalarConstant(b, loc, t, 0),
                                           x));
  if constexpr (std::is_same_v<OpTy, AbsOp>)
    return f ? Value(math::AbsFOp::create(b, loc, x))
             : Value(math::AbsIOp::create(b, loc, x));
  if constexpr (std::is_same_v<OpTy, ExpOp>)
    return math::ExpOp::create(b, loc, x);
  if constexpr (std::is_same_v<OpTy, LogOp>)
    return math::LogOp::create(b, loc, x);
  if constexpr (std::is_same_v<OpTy, SqrtOp>)
    return math::SqrtOp::create(b, loc, x);
  if constexpr (std::is_same_v<OpTy, ReluOp>)
    return arith::MaximumFOp::create(b, loc, x, scalarConstant(b, loc, t, 0));
  if constexpr (std::is_same_v<OpTy, GeluOp>)
    return geluScalar(b, loc, x);
  if constexpr (std::is_same_v<OpTy, TanhOp>)
    return math::TanhOp::create(b, loc, x);
  if constexpr (std::is_same_v<OpTy, SigmoidOp>) {
    Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
    Value one = scalarConstant(b, loc, t, 1.0);
    return arith::DivFOp::create(b, loc, one,
                                 arith::AddFOp::create(b, loc, one, e));
  }
}

template <typename OpTy>
FailureOr<Value> lowerUnary(OpTy op, typename OpTy::Adaptor adaptor,
                            ConversionPatternRewriter &rewriter) {
  return broadcastGeneric(rewriter, op.getLoc(),
                          cast<RankedTensorType>(op.getType()),
                          {adaptor.getOperand()},
                          [](OpBuilder &b, Location loc, ValueRange args) {
                            return unaryScalar<OpTy>(b, loc, args[0]);
                          });
}

/// Float compares are ordered except `ne`; integer compares are signed.
Value compareScalar(OpBuilder &b, Location loc, CmpPredicate pred, Value x,
                    Value y) {
  if (isFloat(x.getType())) {
    arith::CmpFPredicate p[] = {
        arith::CmpFPredicate::OEQ, arith::CmpFPredicate::UNE,
        arith::CmpFPredicate::OLT, arith::CmpFPredicate::OLE,
        arith::CmpFPredicate::OGT, arith::CmpFPredicate::OGE};
    return arith::CmpFOp::create(b, loc, p[static_cast<int>(pred)], x, y);
  }
  arith::CmpIPredicate p[] = {
      arith::CmpIPredicate::eq,  arith::CmpIPredicate::ne,
      arith::CmpIPredicate::slt, arith::CmpIPredicate::sle,
      arith::CmpIPredicate::sgt, arith::CmpIPredicate::sge};
  return arith::CmpIOp::create(b, loc, p[static_cast<int>(pred)], x, y);
}

FailureOr<Value> lowerCmp(CmpOp op, CmpOp::Adaptor adaptor,
                          ConversionPatternRewriter &rewriter) {
  CmpPredicate pred = op.getPredicate();
  return broadcastGeneric(
      rewriter, op.getLoc(), cast<RankedTensorType>(op.getType()),
      {adaptor.getLhs(), adaptor.getRhs()},
      [pred](OpBuilder &b, Location loc, ValueRange args) {
        return compareScalar(b, loc, pred, args[0], args[1]);
      });
}

FailureOr<Value> lowerSelect(SelectOp op, SelectOp::Adaptor adaptor,
                             ConversionPatternRewriter &rewriter) {
  return broadcastGeneric(
      rewriter, op.getLoc(), cast<RankedTensorType>(op.getType()),
      {adaptor.getCondition(), adaptor.getTrueValue(), adaptor.getFalseValue()},
      [](OpBuilder &b, Location loc, ValueRange args) -> Value {
        return arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
      });
}

} // namespace

namespace modelc::lowering {
/// Converts scalar `x` to `to` with mdl.cast's rules: float -> int
/// truncates, int -> float rounds, x -> i1 is `x != 0`, i1 -> x is 0 / 1.
Value castScalar(OpBuilder &b, Location loc, Value x, Type to) {
  Type from = x.getType();
  if (from == to)
    return x;
  if (to.isInteger(1)) {
    Value zero = scalarConstant(b, loc, from, 0);
    return isFloat(from) ? Value(arith::CmpFOp::create(
                               b, loc, arith::CmpFPredicate::UNE, x, zero))
                         : Value(arith::CmpIOp::create(
                               b, loc, arith::CmpIPredicate::ne, x, zero));
  }
  if (from.isInteger(1))
    return isFloat(to) ? Value(arith::UIToFPOp::create(b, loc, to, x))
                       : Value(arith::ExtUIOp::create(b, loc, to, x));
  unsigned fromBits = from.getIntOrFloatBitWidth();
  unsigned toBits = to.getIntOrFloatBitWidth();
  if (isFloat(from) && isFloat(to) && fromBits == toBits) // bf16 <-> f16
    return arith::TruncFOp::create(b, loc, to,
                                   arith::ExtFOp::create(b, loc, b.getF32Type(), x));
  if (isFloat(from) && isFloat(to))
    return fromBits < toBits ? Value(arith::ExtFOp::create(b, loc, to, x))
                             : Value(arith::TruncFOp::create(b, loc, to, x));
  if (isFloat(from))
    return arith::FPToSIOp::create(b, loc, to, x);
  if (isFloat(to))
    return arith::SIToFPOp::create(b, loc, to, x);
  return fromBits < toBits ? Value(arith::ExtSIOp::create(b, loc, to, x))
                           : Value(arith::TruncIOp::create(b, loc, to, x));
}
} // namespace modelc::lowering

namespace {

/// grad * (Phi(x) + x * phi(x)), the adjoint of the exact GELU.
FailureOr<Value> lowerGeluGrad(GeluGradOp op, GeluGradOp::Adaptor adaptor,
                               ConversionPatternRewriter &rewriter) {
  return broadcastGeneric(
      rewriter, op.getLoc(), cast<RankedTensorType>(op.getType()),
      {adaptor.getInput(), adaptor.getGrad()},
      [](OpBuilder &b, Location loc, ValueRange a) -> Value {
        Type t = a[0].getType();
        Value x = a[0];
        Value cdf = arith::MulFOp::create(
            b, loc, scalarConstant(b, loc, t, 0.5),
            arith::AddFOp::create(
                b, loc, scalarConstant(b, loc, t, 1.0),
                math::ErfOp::create(b, loc,
                                    arith::MulFOp::create(
                                        b, loc, x,
                                        scalarConstant(b, loc, t, M_SQRT1_2)))));
        Value halfSq = arith::MulFOp::create(
            b, loc, arith::MulFOp::create(b, loc, x, x),
            scalarConstant(b, loc, t, -0.5));
        Value pdf = arith::MulFOp::create(
            b, loc, math::ExpOp::create(b, loc, halfSq),
            scalarConstant(b, loc, t, 0.5 * M_2_SQRTPI * M_SQRT1_2));
        Value d = arith::AddFOp::create(b, loc, cdf,
                                        arith::MulFOp::create(b, loc, x, pdf));
        return arith::MulFOp::create(b, loc, a[1], d);
      });
}

FailureOr<Value> lowerCast(CastOp op, CastOp::Adaptor adaptor,
                           ConversionPatternRewriter &rewriter) {
  auto type = cast<RankedTensorType>(op.getType());
  Type to = type.getElementType();
  return broadcastGeneric(rewriter, op.getLoc(), type, {adaptor.getInput()},
                          [to](OpBuilder &b, Location loc, ValueRange args) {
                            return castScalar(b, loc, args[0], to);
                          });
}

FailureOr<Value> lowerConstant(ConstantOp op, ConstantOp::Adaptor,
                               ConversionPatternRewriter &rewriter) {
  auto value = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!value)
    return rewriter.notifyMatchFailure(op, "not a dense elements attribute");
  return Value(arith::ConstantOp::create(rewriter, op.getLoc(), value));
}

} // namespace

void modelc::populateMDLElementwiseToLinalgPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<FnPattern<AddOp, lowerBinary<AddOp>>,
               FnPattern<SubOp, lowerBinary<SubOp>>,
               FnPattern<MulOp, lowerBinary<MulOp>>,
               FnPattern<DivOp, lowerBinary<DivOp>>,
               FnPattern<PowOp, lowerBinary<PowOp>>,
               FnPattern<MaxOp, lowerBinary<MaxOp>>,
               FnPattern<MinOp, lowerBinary<MinOp>>>(ctx);
  patterns.add<FnPattern<NegOp, lowerUnary<NegOp>>,
               FnPattern<AbsOp, lowerUnary<AbsOp>>,
               FnPattern<ExpOp, lowerUnary<ExpOp>>,
               FnPattern<LogOp, lowerUnary<LogOp>>,
               FnPattern<SqrtOp, lowerUnary<SqrtOp>>,
               FnPattern<ReluOp, lowerUnary<ReluOp>>,
               FnPattern<GeluOp, lowerUnary<GeluOp>>,
               FnPattern<TanhOp, lowerUnary<TanhOp>>,
               FnPattern<SigmoidOp, lowerUnary<SigmoidOp>>>(ctx);
  patterns.add<FnPattern<CmpOp, lowerCmp>, FnPattern<SelectOp, lowerSelect>,
               FnPattern<CastOp, lowerCast>,
               FnPattern<ConstantOp, lowerConstant>,
               FnPattern<GeluGradOp, lowerGeluGrad>>(ctx);
}
