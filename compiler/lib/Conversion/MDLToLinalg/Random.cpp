//===- Random.cpp - mdl dropout -> linalg (Philox4x32-10 mask) ------------===//
//
// dropout becomes one linalg.generic with two results (output, mask). For
// the element with row-major linear index i, Philox4x32-10 runs with key
// (lo32(seed), hi32(seed)) and counter (lo32(i), hi32(i), 0, 0); the first
// output word w gives u = (w >> 8) * 2^-24 and mask = u >= rate, output =
// mask ? x / (1 - rate) : 0 (docs/dialect.md, "Dropout semantics"). Pure
// function of seed and index: CPU and CUDA agree bit for bit.
//
//===----------------------------------------------------------------------===//
#include "Common.h"

using namespace mlir;
using namespace mlir::mdl;
using namespace modelc::lowering;

namespace {

constexpr uint32_t kPhiloxM0 = 0xD2511F53u, kPhiloxM1 = 0xCD9E8D57u;
constexpr uint32_t kPhiloxW0 = 0x9E3779B9u, kPhiloxW1 = 0xBB67AE85u;

Value i32Const(OpBuilder &b, Location loc, uint32_t v) {
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(b.getI32Type(), static_cast<int64_t>(v)));
}

/// The first word of Philox4x32-10 for counter c and key k (all i32).
Value philoxFirstWord(OpBuilder &b, Location loc, std::array<Value, 4> c,
                      std::array<Value, 2> k) {
  Value m0 = i32Const(b, loc, kPhiloxM0), m1 = i32Const(b, loc, kPhiloxM1);
  Value w0 = i32Const(b, loc, kPhiloxW0), w1 = i32Const(b, loc, kPhiloxW1);
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k[0] = arith::AddIOp::create(b, loc, k[0], w0);
      k[1] = arith::AddIOp::create(b, loc, k[1], w1);
    }
    auto p0 = arith::MulUIExtendedOp::create(b, loc, m0, c[0]);
    auto p1 = arith::MulUIExtendedOp::create(b, loc, m1, c[2]);
    Value n0 = arith::XOrIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, p1.getHigh(), c[1]), k[0]);
    Value n2 = arith::XOrIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, p0.getHigh(), c[3]), k[1]);
    c = {n0, p1.getLow(), n2, p0.getLow()};
  }
  return c[0];
}

/// Splits an i64 into (lo32, hi32).
std::array<Value, 2> split64(OpBuilder &b, Location loc, Value v) {
  Value lo = arith::TruncIOp::create(b, loc, b.getI32Type(), v);
  Value shifted = arith::ShRUIOp::create(
      b, loc, v,
      arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(32)));
  Value hi = arith::TruncIOp::create(b, loc, b.getI32Type(), shifted);
  return {lo, hi};
}

struct DropoutLowering : OpConversionPattern<DropoutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DropoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getInput();
    auto type = cast<RankedTensorType>(x.getType());
    double rate = op.getRate().convertToDouble();
    Value seed = tensor::ExtractOp::create(rewriter, loc, adaptor.getSeed(),
                                           ValueRange{});
    std::array<Value, 2> key = split64(rewriter, loc, seed);
    // One loop over the row-major elements: linalg.index 0 is the linear
    // index, and the loop is as long as the tensor (a nest whose innermost
    // loop has 14 iterations does not vectorise).
    // (A 0-d tensor becomes a 1-element one: no reassociation groups.)
    SmallVector<ReassociationIndices> reassoc;
    if (type.getRank() > 0) {
      reassoc.emplace_back();
      for (int64_t d = 0; d < type.getRank(); ++d)
        reassoc.back().push_back(d);
    }
    Value flat = x;
    if (type.getRank() > 1)
      flat = tensor::CollapseShapeOp::create(rewriter, loc, x, reassoc);
    else if (type.getRank() == 0)
      flat = tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get({1}, type.getElementType()), x, reassoc);
    auto flatType = cast<RankedTensorType>(flat.getType());
    auto maskType = RankedTensorType::get(flatType.getShape(), rewriter.getI1Type());
    SmallVector<Value> dyn = dynamicSizesFrom(rewriter, loc, flatType, flat);
    Value outInit = emptyTensor(rewriter, loc, flatType, dyn);
    Value maskInit = emptyTensor(rewriter, loc, maskType, dyn);
    AffineMap id = AffineMap::getMultiDimIdentityMap(1, rewriter.getContext());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{flatType, maskType}, ValueRange{flat},
        ValueRange{outInit, maskInit}, {id, id, id}, parallelIterators(1),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value linear = linalg::IndexOp::create(b, l, 0);
          auto [lo, hi] = split64(
              b, l, arith::IndexCastOp::create(b, l, b.getI64Type(), linear));
          Value zero = i32Const(b, l, 0);
          Value w = philoxFirstWord(b, l, {lo, hi, zero, zero}, key);
          Value top = arith::ShRUIOp::create(b, l, w, i32Const(b, l, 8));
          Value u = arith::MulFOp::create(
              b, l, arith::UIToFPOp::create(b, l, b.getF64Type(), top),
              scalarConstant(b, l, b.getF64Type(), 0x1p-24));
          Value keep = arith::CmpFOp::create(
              b, l, arith::CmpFPredicate::OGE, u,
              scalarConstant(b, l, b.getF64Type(), rate));
          Type elem = args[0].getType();
          Value scaled = arith::DivFOp::create(
              b, l, args[0], scalarConstant(b, l, elem, 1.0 - rate));
          Value out = arith::SelectOp::create(b, l, keep, scaled,
                                              scalarConstant(b, l, elem, 0));
          linalg::YieldOp::create(b, l, ValueRange{out, keep});
        });
    SmallVector<Value> results(generic.getResults());
    auto fullMask = RankedTensorType::get(type.getShape(), rewriter.getI1Type());
    if (type.getRank() > 1) {
      results[0] = tensor::ExpandShapeOp::create(rewriter, loc, type, results[0], reassoc);
      results[1] = tensor::ExpandShapeOp::create(rewriter, loc, fullMask, results[1], reassoc);
    } else if (type.getRank() == 0) {
      results[0] = tensor::CollapseShapeOp::create(rewriter, loc, type, results[0], reassoc);
      results[1] = tensor::CollapseShapeOp::create(rewriter, loc, fullMask, results[1], reassoc);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void modelc::populateMDLRandomToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<DropoutLowering>(patterns.getContext());
}
