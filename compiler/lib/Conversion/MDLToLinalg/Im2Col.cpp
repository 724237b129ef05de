//===- Im2Col.cpp - im2col / col2im + GEMM builders for conv2d ------------===//
//
// Implements the builders declared in Im2Col.h: the GEMM operands (im2col
// columns, the channel-major gradient) are rank-4/6 linalg.generic copies
// with affine maps, collapsed into matrices; the weight is a collapse of
// OIHW (no copy). modelc-fuse-elementwise never propagates these reshapes
// into the contraction, which stays rank 2 for modelc-matmul-to-blas. The
// products are rank-2 contraction generics; the result is read back into
// NCHW by a generic with a linearising map; col2im is a gather over kernel
// positions (no scatter: each input element sums the column entries that
// read it, selected by divisibility and range tests on its index).
//
//===----------------------------------------------------------------------===//
#include "Im2Col.h"

using namespace mlir;
using namespace modelc::lowering;

namespace {

/// An affine dim expression.
AffineExpr dimExpr(MLIRContext *ctx, unsigned i) {
  return getAffineDimExpr(i, ctx);
}

/// A generic body that yields its first argument.
void yieldFirst(OpBuilder &b, Location loc, ValueRange args) {
  linalg::YieldOp::create(b, loc, args[0]);
}

/// The column index (oh or ow) that kernel tap `k` reads input row `x` from,
/// and whether such a column exists: x + pad - k*dil = o*stride with
/// 0 <= o < out. Returns (clamped index, valid).
std::pair<Value, Value> sourcePosition(OpBuilder &b, Location loc, Value x,
                                       Value k, int64_t pad, int64_t dil,
                                       int64_t stride, int64_t out) {
  auto cst = [&](int64_t v) {
    return Value(arith::ConstantIndexOp::create(b, loc, v));
  };
  Value shifted = arith::SubIOp::create(
      b, loc, arith::AddIOp::create(b, loc, x, cst(pad)),
      arith::MulIOp::create(b, loc, k, cst(dil)));
  Value zero = cst(0);
  Value o = arith::DivSIOp::create(b, loc, shifted, cst(stride));
  Value rem = arith::RemSIOp::create(b, loc, shifted, cst(stride));
  Value valid = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, shifted, zero),
      arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rem, zero),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, o,
                                cst(out))));
  return {arith::SelectOp::create(b, loc, valid, o, zero), valid};
}

/// The col2im body at loop (n, c, h, w, kh, kw): `acc` plus the entry of
/// `cols` that tap (kh, kw) read from input (h, w) in im2col, or 0 when no
/// output position reads it.
Value col2imTerm(OpBuilder &b, Location loc, Value cols, Value acc,
                 Value zero, const ConvGeometry &g) {
  SmallVector<Value> idx;
  for (unsigned i = 0; i < 6; ++i)
    idx.push_back(linalg::IndexOp::create(b, loc, i));
  auto [oh, rowOk] = sourcePosition(b, loc, idx[2], idx[4], g.padding[0],
                                    g.dilation[0], g.stride[0], g.oh);
  auto [ow, colOk] = sourcePosition(b, loc, idx[3], idx[5], g.padding[1],
                                    g.dilation[1], g.stride[1], g.ow);
  auto lin = [&](ArrayRef<Value> parts, ArrayRef<int64_t> sizes) {
    Value r = parts[0];
    for (size_t i = 1; i < parts.size(); ++i)
      r = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, r,
                                arith::ConstantIndexOp::create(b, loc, sizes[i])),
          parts[i]);
    return r;
  };
  Value row = lin({idx[1], idx[4], idx[5]}, {0, g.kh, g.kw});
  Value col = lin({idx[0], oh, ow}, {0, g.oh, g.ow});
  Value v = tensor::ExtractOp::create(b, loc, cols, ValueRange{row, col});
  Value ok = arith::AndIOp::create(b, loc, rowOk, colOk);
  Value term = arith::SelectOp::create(b, loc, ok, v, zero);
  return arith::AddFOp::create(b, loc, acc, term);
}

} // namespace

LogicalResult modelc::lowering::convGeometry(
    RankedTensorType input, RankedTensorType weight, RankedTensorType output,
    ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
    ArrayRef<int64_t> dilation, ConvGeometry &geom) {
  for (RankedTensorType t : {input, weight, output})
    for (int64_t d = t == weight ? 0 : 1; d < t.getRank(); ++d)
      if (t.isDynamicDim(d))
        return failure();
  geom.channels = input.getDimSize(1);
  geom.height = input.getDimSize(2);
  geom.width = input.getDimSize(3);
  geom.outChannels = weight.getDimSize(0);
  geom.kh = weight.getDimSize(2);
  geom.kw = weight.getDimSize(3);
  geom.oh = output.getDimSize(2);
  geom.ow = output.getDimSize(3);
  for (int i = 0; i < 2; ++i) {
    geom.stride[i] = stride[i];
    geom.padding[i] = padding[i];
    geom.dilation[i] = dilation[i];
  }
  return success();
}

Value modelc::lowering::im2colColumns(OpBuilder &b, Location loc, Value input,
                                      const ConvGeometry &g) {
  MLIRContext *ctx = b.getContext();
  Type elem = elementTypeOf(input);
  Value zero = scalarConstant(b, loc, elem, 0);
  Value padded = padSpatial(b, loc, input, g.padding, zero);
  // Loops (c, kh, kw, n, oh, ow) over the columns seen as
  // C x KH x KW x N x OH x OW: every read is affine (no division) and the
  // innermost loop copies a row segment of the padded input.
  // modelc-fuse-elementwise never pushes the collapse into the product.
  auto d = [&](unsigned i) { return dimExpr(ctx, i); };
  auto type = RankedTensorType::get(
      {g.channels, g.kh, g.kw, ShapedType::kDynamic, g.oh, g.ow}, elem);
  Value init = emptyTensor(b, loc, type,
                           {Value(tensor::DimOp::create(b, loc, input, 0))});
  AffineMap read = AffineMap::get(
      6, 0,
      {d(3), d(0), d(4) * g.stride[0] + d(1) * g.dilation[0],
       d(5) * g.stride[1] + d(2) * g.dilation[1]},
      ctx);
  Value cols =
      linalg::GenericOp::create(
          b, loc, TypeRange{type}, ValueRange{padded}, ValueRange{init},
          {read, AffineMap::getMultiDimIdentityMap(6, ctx)},
          parallelIterators(6), yieldFirst)
          .getResult(0);
  auto matrix = RankedTensorType::get(
      {g.channels * g.kh * g.kw, ShapedType::kDynamic}, elem);
  SmallVector<ReassociationIndices> groups = {{0, 1, 2}, {3, 4, 5}};
  return tensor::CollapseShapeOp::create(b, loc, matrix, cols, groups);
}

Value modelc::lowering::gemm(OpBuilder &b, Location loc, Value lhs,
                             bool transLhs, Value rhs, bool transRhs,
                             Value acc) {
  MLIRContext *ctx = b.getContext();
  AffineExpr m = dimExpr(ctx, 0), n = dimExpr(ctx, 1), k = dimExpr(ctx, 2);
  SmallVector<AffineMap> maps = {
      AffineMap::get(3, 0, transLhs ? ArrayRef<AffineExpr>{k, m}
                                    : ArrayRef<AffineExpr>{m, k},
                     ctx),
      AffineMap::get(3, 0, transRhs ? ArrayRef<AffineExpr>{n, k}
                                    : ArrayRef<AffineExpr>{k, n},
                     ctx),
      AffineMap::get(3, 0, {m, n}, ctx)};
  SmallVector<utils::IteratorType> iters = parallelIterators(2);
  iters.push_back(utils::IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, TypeRange{acc.getType()}, ValueRange{lhs, rhs},
             ValueRange{acc}, maps, iters,
             [](OpBuilder &nb, Location nl, ValueRange args) {
               Value prod = arith::MulFOp::create(nb, nl, args[0], args[1]);
               linalg::YieldOp::create(
                   nb, nl, Value(arith::AddFOp::create(nb, nl, args[2], prod)));
             })
      .getResult(0);
}

Value modelc::lowering::weightMatrix(OpBuilder &b, Location loc,
                                     Value weight) {
  // OIHW is already [O, C*KH*KW] in memory: a collapse (no copy), which
  // modelc-fuse-elementwise keeps out of the product.
  auto wType = cast<RankedTensorType>(weight.getType());
  auto type = RankedTensorType::get(
      {wType.getDimSize(0),
       wType.getDimSize(1) * wType.getDimSize(2) * wType.getDimSize(3)},
      wType.getElementType());
  SmallVector<ReassociationIndices> groups = {{0}, {1, 2, 3}};
  return tensor::CollapseShapeOp::create(b, loc, type, weight, groups);
}

Value modelc::lowering::channelMajor(OpBuilder &b, Location loc, Value y) {
  MLIRContext *ctx = b.getContext();
  auto yType = cast<RankedTensorType>(y.getType());
  // Loops (c, n, h, w) over C x N x H x W, collapsed into the matrix
  // [C, N*H*W] (the collapse stays out of the product it feeds).
  auto type = RankedTensorType::get(
      {yType.getDimSize(1), yType.getDimSize(0), yType.getDimSize(2),
       yType.getDimSize(3)},
      yType.getElementType());
  SmallVector<Value> dyn;
  if (type.isDynamicDim(1))
    dyn.push_back(tensor::DimOp::create(b, loc, y, 0));
  Value init = emptyTensor(b, loc, type, dyn);
  auto d = [&](unsigned i) { return dimExpr(ctx, i); };
  Value t = linalg::GenericOp::create(
                b, loc, TypeRange{type}, ValueRange{y}, ValueRange{init},
                {AffineMap::get(4, 0, {d(1), d(0), d(2), d(3)}, ctx),
                 AffineMap::getMultiDimIdentityMap(4, ctx)},
                parallelIterators(4), yieldFirst)
                .getResult(0);
  auto matrix = RankedTensorType::get(
      {yType.getDimSize(1), ShapedType::kDynamic}, yType.getElementType());
  SmallVector<ReassociationIndices> groups = {{0}, {1, 2, 3}};
  return tensor::CollapseShapeOp::create(b, loc, matrix, t, groups);
}

Value modelc::lowering::fromChannelMajor(OpBuilder &b, Location loc,
                                         Value matrix, RankedTensorType type,
                                         Value batchOf, Value bias) {
  MLIRContext *ctx = b.getContext();
  // Loops (n, o, hw) over the result seen as N x O x (H*W), expanded to
  // NCHW afterwards: the innermost loop runs over H*W contiguous elements
  // of both the matrix row and the result (a loop over W alone, 28 or 14
  // iterations, hardly vectorises). The matrix is read in place: its map
  // (o, n*HW + hw) is not a projected permutation, so reshape propagation
  // pushes no reshape into the GEMM (which would make it a rank-3
  // contraction that BLAS cannot take).
  auto d = [&](unsigned i) { return dimExpr(ctx, i); };
  int64_t hw = type.getDimSize(2) * type.getDimSize(3);
  auto flatType = RankedTensorType::get(
      {type.getDimSize(0), type.getDimSize(1), hw}, type.getElementType());
  SmallVector<Value> dyn;
  if (flatType.isDynamicDim(0))
    dyn.push_back(tensor::DimOp::create(b, loc, batchOf, 0));
  Value init = emptyTensor(b, loc, flatType, dyn);
  SmallVector<Value> inputs = {matrix};
  SmallVector<AffineMap> maps = {
      AffineMap::get(3, 0, {d(1), d(0) * hw + d(2)}, ctx)};
  if (bias) {
    inputs.push_back(bias);
    maps.push_back(AffineMap::get(3, 0, {d(1)}, ctx));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(3, ctx));
  Value flat =
      linalg::GenericOp::create(
          b, loc, TypeRange{flatType}, inputs, ValueRange{init}, maps,
          parallelIterators(3),
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            Value v = args[0];
            if (bias)
              v = arith::AddFOp::create(nb, nl, v, args[1]);
            linalg::YieldOp::create(nb, nl, v);
          })
          .getResult(0);
  SmallVector<ReassociationIndices> groups = {{0}, {1}, {2, 3}};
  return tensor::ExpandShapeOp::create(b, loc, type, flat, groups);
}

Value modelc::lowering::weightFromMatrix(OpBuilder &b, Location loc,
                                         Value matrix,
                                         RankedTensorType type) {
  SmallVector<ReassociationIndices> groups = {{0}, {1, 2, 3}};
  return tensor::ExpandShapeOp::create(b, loc, type, matrix, groups);
}

Value modelc::lowering::col2im(OpBuilder &b, Location loc, Value cols,
                               RankedTensorType type, Value batchOf,
                               const ConvGeometry &g) {
  MLIRContext *ctx = b.getContext();
  Type elem = type.getElementType();
  Value zero = scalarConstant(b, loc, elem, 0);
  Value acc = filledTensor(b, loc, type,
                           dynamicSizesFrom(b, loc, type, batchOf), zero);
  // The kernel taps only give the reduction loops their extent.
  Value taps = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{g.kh, g.kw},
                                       elem);
  // Loops (n, c, h, w | kh, kw).
  SmallVector<AffineMap> maps = {
      AffineMap::get(6, 0, {dimExpr(ctx, 4), dimExpr(ctx, 5)}, ctx),
      AffineMap::get(6, 0,
                     {dimExpr(ctx, 0), dimExpr(ctx, 1), dimExpr(ctx, 2),
                      dimExpr(ctx, 3)},
                     ctx)};
  SmallVector<utils::IteratorType> iters = parallelIterators(4);
  iters.append(2, utils::IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{taps}, ValueRange{acc}, maps,
             iters,
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(
                   nb, nl, col2imTerm(nb, nl, cols, args[1], zero, g));
             })
      .getResult(0);
}
