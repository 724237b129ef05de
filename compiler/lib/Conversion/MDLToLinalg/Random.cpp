//===- Random.cpp - mdl dropout -> linalg (Philox4x32-10 mask) ------------===//
//
// dropout becomes one linalg.generic with two results (output, mask). For
// the element with row-major linear index i, Philox4x32-10 runs with key
// (lo32(seed), hi32(seed)) and counter (lo32(i / 4), hi32(i / 4), 0, 0);
// its output word i % 4, w, gives u = (w >> 8) * 2^-24 and
// mask = u >= rate, output = mask ? x / (1 - rate) : 0 (docs/dialect.md,
// "Dropout semantics"). Pure function of seed and index: CPU and CUDA agree
// bit for bit. When the element count is a multiple of 4 (known from the
// static sizes), the generic runs over [n / 4, 4]: the Philox rounds depend
// on the outer index only, so LLVM computes them once per 4 elements.
// Per-channel dropout (dropout2d) takes i = n * C + c for every element of
// the feature map [n, c, ...].
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

/// The four words of Philox4x32-10 for counter c and key k (all i32).
std::array<Value, 4> philox(OpBuilder &b, Location loc, std::array<Value, 4> c,
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
  return c;
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

/// The reassociation merging all \p rank dimensions into one.
SmallVector<ReassociationIndices> allDims(int64_t rank) {
  ReassociationIndices all;
  for (int64_t d = 0; d < rank; ++d)
    all.push_back(d);
  return {all};
}

/// `x` reshaped to `runType` (rank 1 or [?, 4]) through its flattening.
Value toRunShape(OpBuilder &b, Location loc, Value x, RankedTensorType runType) {
  auto type = cast<RankedTensorType>(x.getType());
  Value flat = x;
  if (type.getRank() == 0)
    return tensor::ExpandShapeOp::create(b, loc, runType, x,
                                         ArrayRef<ReassociationIndices>{});
  if (type.getRank() > 1)
    flat = tensor::CollapseShapeOp::create(b, loc, x, allDims(type.getRank()));
  if (runType.getRank() == 1)
    return flat;
  SmallVector<OpFoldResult> sizes = {
      OpFoldResult(b.getIndexAttr(runType.getDimSize(0))),
      OpFoldResult(b.getIndexAttr(4))};
  if (runType.isDynamicDim(0))
    sizes[0] = OpFoldResult(Value(arith::DivUIOp::create(
        b, loc, tensor::DimOp::create(b, loc, flat, 0),
        arith::ConstantIndexOp::create(b, loc, 4))));
  return tensor::ExpandShapeOp::create(b, loc, runType, flat,
                                       ArrayRef<ReassociationIndices>{{0, 1}},
                                       sizes);
}

/// The inverse of toRunShape: `v` back to `type` (sizes from `like`).
Value fromRunShape(OpBuilder &b, Location loc, Value v, RankedTensorType type,
                   Value like) {
  auto runType = cast<RankedTensorType>(v.getType());
  if (type.getRank() == 0)
    return tensor::CollapseShapeOp::create(b, loc, type, v,
                                           ArrayRef<ReassociationIndices>{});
  Value flat = v;
  if (runType.getRank() == 2)
    flat = tensor::CollapseShapeOp::create(
        b, loc, v, ArrayRef<ReassociationIndices>{{0, 1}});
  if (type.getRank() == 1)
    return flat;
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(type.isDynamicDim(d)
                        ? OpFoldResult(Value(tensor::DimOp::create(b, loc, like, d)))
                        : OpFoldResult(b.getIndexAttr(type.getDimSize(d))));
  return tensor::ExpandShapeOp::create(b, loc, type, flat,
                                       allDims(type.getRank()), sizes);
}

/// The dropout body for the element whose Philox counter is `group` and
/// word `word` (index values): (output, keep).
std::pair<Value, Value> dropoutElement(OpBuilder &b, Location l, Value x,
                                       Value group, Value word,
                                       std::array<Value, 2> key, double rate) {
  auto [lo, hi] =
      split64(b, l, arith::IndexCastOp::create(b, l, b.getI64Type(), group));
  Value zero = i32Const(b, l, 0);
  std::array<Value, 4> words = philox(b, l, {lo, hi, zero, zero}, key);
  Value w = words[3];
  for (int64_t j = 2; j >= 0; --j) {
    Value is = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, word,
                                     arith::ConstantIndexOp::create(b, l, j));
    w = arith::SelectOp::create(b, l, is, words[j], w);
  }
  Value top = arith::ShRUIOp::create(b, l, w, i32Const(b, l, 8));
  Value u = arith::MulFOp::create(
      b, l, arith::UIToFPOp::create(b, l, b.getF64Type(), top),
      scalarConstant(b, l, b.getF64Type(), 0x1p-24));
  Value keep =
      arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGE, u,
                            scalarConstant(b, l, b.getF64Type(), rate));
  Type elem = x.getType();
  Value scaled =
      arith::DivFOp::create(b, l, x, scalarConstant(b, l, elem, 1.0 - rate));
  Value out =
      arith::SelectOp::create(b, l, keep, scaled, scalarConstant(b, l, elem, 0));
  return {out, keep};
}

/// Whether the element count of `type` is a multiple of 4 whatever its
/// dynamic sizes are.
bool countDivisibleBy4(RankedTensorType type) {
  int64_t known = 1;
  for (int64_t size : type.getShape())
    if (!ShapedType::isDynamic(size))
      known *= size;
  return type.getRank() > 0 && known % 4 == 0;
}

/// The i64 seed of \p op. MLIRGen gives the k-th dropout the seed
/// `mdl.add(%seed, k * stride)`: that sum becomes scalar arithmetic on the
/// extracted argument here, which the GPU pipeline moves into the dropout's
/// kernel with the key schedule (modelc-gpu-sink-scalars); as a 0-d tensor
/// add it would be a kernel of its own, one thread, per dropout.
Value seedScalar(DropoutOp op, Value convertedSeed, ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  if (auto add = op.getSeed().getDefiningOp<AddOp>()) {
    for (auto [base, other] : {std::pair(add.getLhs(), add.getRhs()),
                               std::pair(add.getRhs(), add.getLhs())}) {
      auto offset = other.getDefiningOp<ConstantOp>();
      if (!isa<BlockArgument>(base) || !offset)
        continue;
      Value s = tensor::ExtractOp::create(rewriter, loc, rewriter.getRemappedValue(base),
                                          ValueRange{});
      APInt k = *cast<ElementsAttr>(offset.getValue()).value_begin<APInt>();
      return arith::AddIOp::create(
          rewriter, loc, s,
          arith::ConstantOp::create(rewriter, loc, rewriter.getI64IntegerAttr(k.getSExtValue())));
    }
  }
  return tensor::ExtractOp::create(rewriter, loc, convertedSeed, ValueRange{});
}

/// Per-channel dropout over `x` [N, C, ...]: one generic over x's own
/// shape whose Philox counter index is `n * C + c`, so a feature map is
/// kept or zeroed whole.
std::pair<Value, Value> perChannelDropout(OpBuilder &b, Location loc, Value x,
                                          std::array<Value, 2> key,
                                          double rate) {
  auto type = cast<RankedTensorType>(x.getType());
  auto maskType = type.clone(b.getI1Type());
  SmallVector<Value> dyn = dynamicSizesFrom(b, loc, type, x);
  Value channels = type.isDynamicDim(1)
                       ? Value(tensor::DimOp::create(b, loc, x, 1))
                       : Value(arith::ConstantIndexOp::create(b, loc, type.getDimSize(1)));
  unsigned rank = type.getRank();
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, b.getContext());
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type, maskType}, ValueRange{x},
      ValueRange{emptyTensor(b, loc, type, dyn), emptyTensor(b, loc, maskType, dyn)},
      {id, id, id}, parallelIterators(rank),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value n = linalg::IndexOp::create(nb, l, 0);
        Value c = linalg::IndexOp::create(nb, l, 1);
        Value i = arith::AddIOp::create(nb, l, arith::MulIOp::create(nb, l, n, channels), c);
        Value four = arith::ConstantIndexOp::create(nb, l, 4);
        auto [out, keep] = dropoutElement(nb, l, args[0],
                                          arith::DivUIOp::create(nb, l, i, four),
                                          arith::RemUIOp::create(nb, l, i, four), key, rate);
        linalg::YieldOp::create(nb, l, ValueRange{out, keep});
      });
  return {generic.getResult(0), generic.getResult(1)};
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
    Value seed = seedScalar(op, adaptor.getSeed(), rewriter);
    std::array<Value, 2> key = split64(rewriter, loc, seed);
    if (op.getPerChannel()) {
      auto [out, mask] = perChannelDropout(rewriter, loc, x, key, rate);
      rewriter.replaceOp(op, {out, mask});
      return success();
    }
    // The row-major elements as [n / 4, 4] (loops: Philox counter, word) or
    // as one long loop [n] (a nest whose innermost loop has 14 iterations
    // does not vectorise). A 0-d tensor becomes a 1-element one.
    bool grouped = countDivisibleBy4(type);
    Type elem = type.getElementType();
    int64_t count = type.hasStaticShape() ? type.getNumElements()
                                          : ShapedType::kDynamic;
    RankedTensorType runType =
        grouped ? RankedTensorType::get(
                      {ShapedType::isDynamic(count) ? count : count / 4, 4},
                      elem)
                : RankedTensorType::get({count}, elem);
    Value run = toRunShape(rewriter, loc, x, runType);
    auto maskType = RankedTensorType::get(runType.getShape(), rewriter.getI1Type());
    SmallVector<Value> dyn = dynamicSizesFrom(rewriter, loc, runType, run);
    Value outInit = emptyTensor(rewriter, loc, runType, dyn);
    Value maskInit = emptyTensor(rewriter, loc, maskType, dyn);
    unsigned rank = runType.getRank();
    AffineMap id = AffineMap::getMultiDimIdentityMap(rank, rewriter.getContext());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{runType, maskType}, ValueRange{run},
        ValueRange{outInit, maskInit}, {id, id, id}, parallelIterators(rank),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value group, word;
          if (grouped) {
            group = linalg::IndexOp::create(b, l, 0);
            word = linalg::IndexOp::create(b, l, 1);
          } else {
            Value i = linalg::IndexOp::create(b, l, 0);
            Value four = arith::ConstantIndexOp::create(b, l, 4);
            group = arith::DivUIOp::create(b, l, i, four);
            word = arith::RemUIOp::create(b, l, i, four);
          }
          auto [out, keep] =
              dropoutElement(b, l, args[0], group, word, key, rate);
          linalg::YieldOp::create(b, l, ValueRange{out, keep});
        });
    auto fullMask = RankedTensorType::get(type.getShape(), rewriter.getI1Type());
    rewriter.replaceOp(
        op, {fromRunShape(rewriter, loc, generic.getResult(0), type, x),
             fromRunShape(rewriter, loc, generic.getResult(1), fullMask, x)});
    return success();
  }
};

} // namespace

void modelc::populateMDLRandomToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<DropoutLowering>(patterns.getContext());
}
