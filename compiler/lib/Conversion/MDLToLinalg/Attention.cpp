//===- Attention.cpp - mdl attention and its adjoint -> library ops -------===//
//
// An f32 mdl.attention whose sizes are static beyond the batch becomes the
// destination-style mdl.lib_attention (a runtime call on the CPU:
// runtime/include/modelrt/core/Attention.h), and its adjoint
// mdl.attention_grad one mdl.lib_attention_grad into a flat buffer that is
// then viewed as dQ, dK and dV (tensor.extract_slice + expand_shape).
// mdl.attention_packed and its adjoint (BxTx3xHxD in, BxTxHxD out) become
// mdl.lib_attention_packed(_grad) in f32, which read and write those
// layouts in place.
// mdl.attention_decode writes its key and value into the caches at the
// position (tensor.insert_slice at a run-time offset) and becomes
// mdl.lib_attention_decode over the updated caches (f32, static sizes).
// Anything else (f64), and the library ops on targets
// without the library (modelc-expand-library-ops), is built unfused from mdl
// ops, which the other families' patterns then lower (the decoding step as
// attention over every cache row, those after the position masked; the
// packed forms through the transposes, slices and reshapes to BxHxTxD and
// back, the gradients joined by mdl.concat):
//   S = Q @ K^T / sqrt(D), masked to -1e30 above the causal diagonal;
//   P = softmax(S) along the keys; O = P @ V;
//   dV = P^T @ G; dS = P * (G @ V^T - rowsum(G * O)) / sqrt(D);
//   dQ = dS @ K; dK = dS^T @ Q.
//
//===----------------------------------------------------------------------===//
#include "Common.h"
#include "LibraryOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mdl;
using namespace modelc::lowering;

namespace {

/// `v` with its last two dimensions swapped.
Value swapLast2(OpBuilder &b, Location loc, Value v) {
  return TransposeOp::create(b, loc, v, ArrayRef<int64_t>{0, 1, 3, 2});
}

/// A 0-d constant `value` of `like`'s element type.
Value scalarOf(OpBuilder &b, Location loc, double value, Value like) {
  Type element = elementTypeOf(like);
  auto type = RankedTensorType::get({}, element);
  return ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, b.getFloatAttr(element, value)));
}

/// The causal mask [Tq, Tk]: query i keeps key j when j <= i + Tk - Tq,
/// computed from the indices (a generic, not a constant: a GPU kernel
/// cannot read a constant held in host memory, and nothing is stored).
Value causalMask(OpBuilder &b, Location loc, int64_t queries, int64_t keys) {
  auto type = RankedTensorType::get({queries, keys}, b.getI1Type());
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), b.getI1Type());
  SmallVector<utils::IteratorType> parallel(2, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
      ArrayRef<AffineMap>{b.getMultiDimIdentityMap(2)}, parallel,
      [&](OpBuilder &nb, Location l, ValueRange) {
        Value i = linalg::IndexOp::create(nb, l, 0);
        Value j = linalg::IndexOp::create(nb, l, 1);
        Value offset = arith::ConstantIndexOp::create(nb, l, keys - queries);
        Value last = arith::AddIOp::create(nb, l, i, offset);
        Value keep = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sle, j, last);
        linalg::YieldOp::create(nb, l, keep);
      });
  return generic.getResult(0);
}

/// The attention weights P = softmax(Q @ K^T / sqrt(D) + mask) (mdl ops).
Value attentionWeights(OpBuilder &b, Location loc, Value q, Value k,
                       bool causal) {
  auto qt = cast<RankedTensorType>(q.getType());
  auto kt = cast<RankedTensorType>(k.getType());
  Value s = BatchMatmulOp::create(b, loc, q, swapLast2(b, loc, k));
  double scale = 1.0 / std::sqrt(double(qt.getDimSize(3)));
  s = MulOp::create(b, loc, s, scalarOf(b, loc, scale, s));
  if (causal)
    s = SelectOp::create(b, loc,
                         causalMask(b, loc, qt.getDimSize(2), kt.getDimSize(2)),
                         s, scalarOf(b, loc, -1e30, s));
  return SoftmaxOp::create(b, loc, s, /*axis=*/3);
}

/// True when the runtime's kernels take these operands: f32 with only the
/// batch dynamic.
bool libraryAttentionApplies(RankedTensorType q, RankedTensorType k) {
  auto staticBeyondBatch = [](RankedTensorType t) {
    return llvm::all_of(t.getShape().drop_front(),
                        [](int64_t s) { return !ShapedType::isDynamic(s); });
  };
  return q.getElementType().isF32() && staticBeyondBatch(q) &&
         staticBeyondBatch(k);
}

/// Elements of one sample (dims 1..3) of a BxHxTxD type.
int64_t sampleSize(RankedTensorType t) {
  return t.getDimSize(1) * t.getDimSize(2) * t.getDimSize(3);
}

/// `count` * the batch of `batchOf` as an index (a constant when static).
OpFoldResult timesBatch(OpBuilder &b, Location loc, int64_t count,
                        Value batchOf) {
  auto type = cast<RankedTensorType>(batchOf.getType());
  if (!type.isDynamicDim(0))
    return b.getIndexAttr(count * type.getDimSize(0));
  Value batch = tensor::DimOp::create(b, loc, batchOf, 0);
  Value c = arith::ConstantIndexOp::create(b, loc, count);
  return arith::MulIOp::create(b, loc, batch, c).getResult();
}

/// The part [offset, offset + size) of the flat `packed` viewed as `type`
/// (whose batch is `batchOf`'s).
Value unpack(OpBuilder &b, Location loc, Value packed, OpFoldResult offset,
             RankedTensorType type, Value batchOf) {
  OpFoldResult size = timesBatch(b, loc, sampleSize(type), batchOf);
  Value part = tensor::ExtractSliceOp::create(
      b, loc, packed, ArrayRef<OpFoldResult>{offset},
      ArrayRef<OpFoldResult>{size}, ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  SmallVector<OpFoldResult> shape = {
      tensor::getMixedSize(b, loc, batchOf, 0)};
  for (int64_t d = 1; d < 4; ++d)
    shape.push_back(b.getIndexAttr(type.getDimSize(d)));
  return tensor::ExpandShapeOp::create(
      b, loc, type, part, SmallVector<ReassociationIndices>{{0, 1, 2, 3}},
      shape);
}

LogicalResult lowerAttention(AttentionOp op, AttentionOp::Adaptor a,
                             ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  auto qt = cast<RankedTensorType>(op.getType());
  auto kt = cast<RankedTensorType>(a.getKey().getType());
  if (!libraryAttentionApplies(qt, kt)) {
    rewriter.replaceOp(op, buildAttention(rewriter, loc, a.getQuery(),
                                          a.getKey(), a.getValue(),
                                          op.getCausal()));
    return success();
  }
  Value init = libraryDestination(rewriter, loc, qt, a.getQuery());
  rewriter.replaceOp(op, LibAttentionOp::create(
                             rewriter, loc, qt, a.getQuery(), a.getKey(),
                             a.getValue(), init, op.getCausal())
                             .getResult());
  return success();
}

LogicalResult lowerAttentionGrad(AttentionGradOp op,
                                 AttentionGradOp::Adaptor a,
                                 ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value q = a.getQuery();
  auto qt = cast<RankedTensorType>(q.getType());
  auto kt = cast<RankedTensorType>(a.getKey().getType());
  if (!libraryAttentionApplies(qt, kt)) {
    rewriter.replaceOp(op, buildAttentionGrad(rewriter, loc, q, a.getKey(),
                                              a.getValue(), a.getOutput(),
                                              a.getGrad(), op.getCausal()));
    return success();
  }
  int64_t perSample = sampleSize(qt) + 2 * sampleSize(kt);
  OpFoldResult total = timesBatch(rewriter, loc, perSample, q);
  Value init = tensor::EmptyOp::create(rewriter, loc,
                                       ArrayRef<OpFoldResult>{total},
                                       rewriter.getF32Type());
  Value packed = LibAttentionGradOp::create(
                     rewriter, loc, init.getType(), q, a.getKey(),
                     a.getValue(), a.getOutput(), a.getGrad(), init,
                     op.getCausal())
                     .getResult();
  OpFoldResult atK = timesBatch(rewriter, loc, sampleSize(qt), q);
  OpFoldResult atV =
      timesBatch(rewriter, loc, sampleSize(qt) + sampleSize(kt), q);
  rewriter.replaceOp(
      op, ValueRange{unpack(rewriter, loc, packed, rewriter.getIndexAttr(0),
                            qt, q),
                     unpack(rewriter, loc, packed, atK, kt, q),
                     unpack(rewriter, loc, packed, atV, kt, q)});
  return success();
}

LogicalResult lowerAttentionPacked(AttentionPackedOp op,
                                   AttentionPackedOp::Adaptor a,
                                   ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  auto ot = cast<RankedTensorType>(op.getType());
  if (!ot.getElementType().isF32()) {
    rewriter.replaceOp(op, buildAttentionPacked(rewriter, loc, a.getQkv(),
                                                op.getCausal()));
    return success();
  }
  Value init = libraryDestination(rewriter, loc, ot, a.getQkv());
  rewriter.replaceOp(op, LibAttentionPackedOp::create(rewriter, loc, ot,
                                                      a.getQkv(), init,
                                                      op.getCausal())
                             .getResult());
  return success();
}

LogicalResult lowerAttentionPackedGrad(AttentionPackedGradOp op,
                                       AttentionPackedGradOp::Adaptor a,
                                       ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  auto qt = cast<RankedTensorType>(op.getType());
  if (!qt.getElementType().isF32()) {
    rewriter.replaceOp(op, buildAttentionPackedGrad(
                               rewriter, loc, a.getQkv(), a.getOutput(),
                               a.getGrad(), op.getCausal()));
    return success();
  }
  Value init = libraryDestination(rewriter, loc, qt, a.getQkv());
  rewriter.replaceOp(op, LibAttentionPackedGradOp::create(
                             rewriter, loc, qt, a.getQkv(), a.getOutput(),
                             a.getGrad(), init, op.getCausal())
                             .getResult());
  return success();
}

/// `row` (BxHx1xD) written into `cache` (BxHxTxD) at row `position`.
Value insertRow(OpBuilder &b, Location loc, Value row, Value cache,
                OpFoldResult position) {
  SmallVector<OpFoldResult> offsets(4, b.getIndexAttr(0)), sizes,
      strides(4, b.getIndexAttr(1));
  offsets[2] = position;
  for (int64_t d = 0; d < 4; ++d)
    sizes.push_back(tensor::getMixedSize(b, loc, row, d));
  return tensor::InsertSliceOp::create(b, loc, row, cache, offsets, sizes,
                                       strides);
}

/// The caches updated at the position (tensor.insert_slice), then the
/// query over them: mdl.lib_attention_decode in f32 with static sizes,
/// else unfused.
LogicalResult lowerAttentionDecode(AttentionDecodeOp op,
                                   AttentionDecodeOp::Adaptor a,
                                   ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value at = indexOfScalar(rewriter, loc, a.getPosition());
  Value kc = insertRow(rewriter, loc, a.getKey(), a.getKeyCache(), at);
  Value vc = insertRow(rewriter, loc, a.getValue(), a.getValueCache(), at);
  auto qt = cast<RankedTensorType>(op.getResult().getType());
  auto ct = cast<RankedTensorType>(kc.getType());
  if (ct.isDynamicDim(2))
    return rewriter.notifyMatchFailure(op, "the caches' length is dynamic");
  Value out;
  if (libraryAttentionApplies(qt, ct) && qt.hasStaticShape()) {
    Value init = libraryDestination(rewriter, loc, qt, Value());
    out = LibAttentionDecodeOp::create(rewriter, loc, qt, a.getQuery(), kc, vc,
                                       a.getPosition(), init)
              .getResult();
  } else {
    out = buildAttentionDecode(rewriter, loc, a.getQuery(), kc, vc,
                               a.getPosition());
  }
  rewriter.replaceOp(op, ValueRange{out, kc, vc});
  return success();
}

/// Adapts the lowering functions above into conversion patterns.
template <typename OpTy, LogicalResult (*Fn)(OpTy, typename OpTy::Adaptor,
                                             ConversionPatternRewriter &)>
struct AttentionPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return Fn(op, adaptor, rewriter);
  }
};

} // namespace

Value modelc::lowering::buildAttention(OpBuilder &b, Location loc, Value q,
                                       Value k, Value v, bool causal) {
  return BatchMatmulOp::create(b, loc, attentionWeights(b, loc, q, k, causal),
                               v);
}

SmallVector<Value> modelc::lowering::buildAttentionGrad(OpBuilder &b,
                                                        Location loc, Value q,
                                                        Value k, Value v,
                                                        Value out, Value g,
                                                        bool causal) {
  Value p = attentionWeights(b, loc, q, k, causal);
  Value dv = BatchMatmulOp::create(b, loc, swapLast2(b, loc, p), g);
  Value dp = BatchMatmulOp::create(b, loc, g, swapLast2(b, loc, v));
  Value rows = ReduceSumOp::create(b, loc, MulOp::create(b, loc, g, out),
                                   ArrayRef<int64_t>{3}, /*keepdims=*/true);
  double scale =
      1.0 / std::sqrt(double(cast<RankedTensorType>(q.getType()).getDimSize(3)));
  Value ds = MulOp::create(b, loc, p, SubOp::create(b, loc, dp, rows));
  ds = MulOp::create(b, loc, ds, scalarOf(b, loc, scale, ds));
  Value dq = BatchMatmulOp::create(b, loc, ds, k);
  Value dk = BatchMatmulOp::create(b, loc, swapLast2(b, loc, ds), q);
  return {dq, dk, dv};
}

/// `n` with a dynamic size as -1 (mdl.slice's and mdl.reshape's "the whole
/// batch").
static int64_t sizeAttr(int64_t n) { return ShapedType::isDynamic(n) ? -1 : n; }

/// Part `part` (0 query, 1 key, 2 value) of `qkvT` (Bx3xHxTxD) as BxHxTxD.
static Value unpackPart(OpBuilder &b, Location loc, Value qkvT, int64_t part) {
  ArrayRef<int64_t> s = cast<RankedTensorType>(qkvT.getType()).getShape();
  Value slice = SliceOp::create(
      b, loc, qkvT, b.getDenseI64ArrayAttr({0, part, 0, 0, 0}),
      b.getDenseI64ArrayAttr({sizeAttr(s[0]), 1, s[2], s[3], s[4]}),
      b.getDenseI64ArrayAttr({1, 1, 1, 1, 1}));
  return ReshapeOp::create(
      b, loc, slice,
      b.getDenseI64ArrayAttr({sizeAttr(s[0]), s[2], s[3], s[4]}));
}

/// `x` (BxAxBxD) with its dimensions 1 and 2 swapped.
static Value swapMiddle(OpBuilder &b, Location loc, Value x) {
  return TransposeOp::create(b, loc, x, ArrayRef<int64_t>{0, 2, 1, 3});
}

/// The query, key and value (BxHxTxD each) of `qkv` (BxTx3xHxD).
static SmallVector<Value> unpackQkv(OpBuilder &b, Location loc, Value qkv) {
  Value qkvT = TransposeOp::create(b, loc, qkv, ArrayRef<int64_t>{0, 2, 3, 1, 4});
  return {unpackPart(b, loc, qkvT, 0), unpackPart(b, loc, qkvT, 1),
          unpackPart(b, loc, qkvT, 2)};
}

Value modelc::lowering::buildAttentionPacked(OpBuilder &b, Location loc,
                                             Value qkv, bool causal) {
  SmallVector<Value> p = unpackQkv(b, loc, qkv);
  return swapMiddle(b, loc, buildAttention(b, loc, p[0], p[1], p[2], causal));
}

Value modelc::lowering::buildAttentionPackedGrad(OpBuilder &b, Location loc,
                                                 Value qkv, Value out, Value g,
                                                 bool causal) {
  SmallVector<Value> p = unpackQkv(b, loc, qkv);
  SmallVector<Value> grads =
      buildAttentionGrad(b, loc, p[0], p[1], p[2], swapMiddle(b, loc, out),
                         swapMiddle(b, loc, g), causal);
  ArrayRef<int64_t> s = cast<RankedTensorType>(qkv.getType()).getShape();
  SmallVector<Value> parts;
  for (Value grad : grads) // BxHxTxD -> Bx1xHxTxD
    parts.push_back(ReshapeOp::create(
        b, loc, grad,
        b.getDenseI64ArrayAttr({sizeAttr(s[0]), 1, s[3], s[1], s[4]})));
  Value joined = ConcatOp::create(b, loc, parts, b.getI64IntegerAttr(1));
  return TransposeOp::create(b, loc, joined, ArrayRef<int64_t>{0, 3, 1, 2, 4});
}

Value modelc::lowering::buildAttentionDecode(OpBuilder &b, Location loc,
                                             Value q, Value keyCache,
                                             Value valueCache,
                                             Value position) {
  auto qt = cast<RankedTensorType>(q.getType());
  int64_t rows = cast<RankedTensorType>(keyCache.getType()).getDimSize(2);
  Value s = BatchMatmulOp::create(b, loc, q, swapLast2(b, loc, keyCache));
  double scale = 1.0 / std::sqrt(double(qt.getDimSize(3)));
  s = MulOp::create(b, loc, s, scalarOf(b, loc, scale, s));
  SmallVector<int64_t> indices(rows);
  for (int64_t j = 0; j < rows; ++j)
    indices[j] = j;
  Value row = ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(RankedTensorType::get({rows}, b.getI64Type()),
                             ArrayRef<int64_t>(indices)));
  Value seen = CmpOp::create(
      b, loc, CmpPredicateAttr::get(b.getContext(), CmpPredicate::le), row,
      position);
  s = SelectOp::create(b, loc, seen, s, scalarOf(b, loc, -1e30, s));
  return BatchMatmulOp::create(b, loc, SoftmaxOp::create(b, loc, s, 3),
                               valueCache);
}

void modelc::populateMDLAttentionToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<AttentionPattern<AttentionOp, lowerAttention>,
               AttentionPattern<AttentionGradOp, lowerAttentionGrad>,
               AttentionPattern<AttentionPackedOp, lowerAttentionPacked>,
               AttentionPattern<AttentionPackedGradOp, lowerAttentionPackedGrad>,
               AttentionPattern<AttentionDecodeOp, lowerAttentionDecode>>(
      patterns.getContext());
}
