//===- PoolGradients.cpp - mdl max/avg_pool2d adjoints -> linalg ----------===//
//
// Both adjoints are written as gathers, so every input element is computed
// once, in parallel, without a scatter: dx[n, c, h, w] sums, over the
// ceil(KH/SH) x ceil(KW/SW) candidate windows (oh, ow) that may contain
// (h, w), the window's contribution (read with tensor.extract):
//   avg: grad[n, c, oh, ow] / (KH * KW);
//   max: grad[n, c, oh, ow] if (h, w) is the window's arg-max.
// The arg-max of each window (row-major window order, first maximum wins as
// in PyTorch, padding never wins, NaN counts as the maximum) comes from one
// reduction generic over the -inf padded input with two accumulators.
// When the max-pool windows tile the input (stride = kernel, no padding,
// sizes divisible: max_pool(2) on even sizes), the gradient is instead one
// generic over the input seen as N x C x OH x KH x OW x KW that recomputes
// each window's arg-max in registers (tiledMaxPoolGrad). An f32 adjoint
// with static sizes (but the batch) is instead the library op
// mdl.lib_max_pool2d_grad / mdl.lib_avg_pool2d_grad (LibraryOps.h), which
// the expansion turns into the forms above (PoolBuilders.h).
//
//===----------------------------------------------------------------------===//
#include "LibraryOps.h"
#include "PoolBuilders.h"

using namespace mlir;
using namespace mlir::mdl;
using namespace modelc::lowering;

namespace {

/// Builds the contribution of window (oh, ow) to input element (n, c, h, w),
/// given its in-window position (kh, kw), the window's gradient `g` and
/// whether the window really contains the element (`valid`).
using ContributionFn = llvm::function_ref<Value(
    OpBuilder &, Location, ValueRange nc, ValueRange window,
    ValueRange offset, Value g, Value valid)>;

/// The pooling geometry shared by both adjoints.
struct PoolGeometry {
  ArrayRef<int64_t> kernel, stride, padding;
  int64_t outH, outW, inH, inW;
};

/// The geometry of a pooling adjoint with the output gradient's type `g`
/// and the input's type `x` (static but for the batch).
PoolGeometry geometryOf(RankedTensorType g, RankedTensorType x,
                        const PoolWindow &w) {
  return PoolGeometry{w.kernel,        w.stride,        w.padding,
                      g.getDimSize(2), g.getDimSize(3), x.getDimSize(2),
                      x.getDimSize(3)};
}

/// Reports (at the op) a channel or spatial size that is not static.
template <typename OpTy>
LogicalResult requireStaticWindow(OpTy op) {
  auto g = cast<RankedTensorType>(op.getGrad().getType());
  auto x = cast<RankedTensorType>(op.getInput().getType());
  for (int64_t d = 1; d < 4; ++d)
    if (g.isDynamicDim(d) || x.isDynamicDim(d))
      return op->emitError("cannot lower '")
             << op->getName()
             << "' with a dynamic channel or spatial size (only the batch "
                "dimension may be dynamic)";
  return success();
}

/// Along one dimension: candidate window `out = (i + pad) / stride - t`,
/// its in-window offset `k = i + pad - out * stride`, and whether the
/// window exists and contains i. Returns {clamped out, k, valid}.
std::array<Value, 3> candidate(OpBuilder &b, Location loc, Value i, Value t,
                               int64_t kernel, int64_t stride, int64_t pad,
                               int64_t outSize) {
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value q = arith::AddIOp::create(b, loc, i, cst(pad));
  Value out = arith::SubIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, q, cst(stride)), t);
  Value k = arith::SubIOp::create(
      b, loc, q, arith::MulIOp::create(b, loc, out, cst(stride)));
  using P = arith::CmpIPredicate;
  Value valid = arith::AndIOp::create(
      b, loc, arith::CmpIOp::create(b, loc, P::sge, out, cst(0)),
      arith::AndIOp::create(
          b, loc, arith::CmpIOp::create(b, loc, P::slt, out, cst(outSize)),
          arith::CmpIOp::create(b, loc, P::slt, k, cst(kernel))));
  Value clamped = arith::SelectOp::create(b, loc, valid, out, cst(0));
  return {clamped, k, valid};
}

/// dx = sum over candidate windows of `contribution` (see file comment).
Value gatherWindows(OpBuilder &b, Location loc, Value grad,
                    RankedTensorType inType, const PoolGeometry &geo,
                    ContributionFn contribution) {
  MLIRContext *ctx = b.getContext();
  Type elem = inType.getElementType();
  int64_t th = (geo.kernel[0] + geo.stride[0] - 1) / geo.stride[0];
  int64_t tw = (geo.kernel[1] + geo.stride[1] - 1) / geo.stride[1];
  // Only supplies the extent of the two candidate loops.
  Value candidates = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{th, tw},
                                             elem);
  Value zero = scalarConstant(b, loc, elem, 0);
  Value acc = filledTensor(b, loc, inType,
                           dynamicSizesFrom(b, loc, inType, grad), zero);
  auto dim = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineMap> maps = {
      AffineMap::get(6, 0, {dim(4), dim(5)}, ctx),
      AffineMap::get(6, 0, {dim(0), dim(1), dim(2), dim(3)}, ctx)};
  SmallVector<utils::IteratorType> iters = parallelIterators(4);
  iters.append(2, utils::IteratorType::reduction);
  auto body = [&](OpBuilder &nb, Location nl, ValueRange args) {
    SmallVector<Value> idx;
    for (int64_t d = 0; d < 6; ++d)
      idx.push_back(linalg::IndexOp::create(nb, nl, d));
    auto [oh, kh, vh] = candidate(nb, nl, idx[2], idx[4], geo.kernel[0],
                                  geo.stride[0], geo.padding[0], geo.outH);
    auto [ow, kw, vw] = candidate(nb, nl, idx[3], idx[5], geo.kernel[1],
                                  geo.stride[1], geo.padding[1], geo.outW);
    Value valid = arith::AndIOp::create(nb, nl, vh, vw);
    Value g = tensor::ExtractOp::create(nb, nl, grad,
                                        ValueRange{idx[0], idx[1], oh, ow});
    Value c = contribution(nb, nl, {idx[0], idx[1]}, {oh, ow}, {kh, kw}, g,
                           valid);
    linalg::YieldOp::create(nb, nl,
                            Value(arith::AddFOp::create(nb, nl, args[1], c)));
  };
  return linalg::GenericOp::create(b, loc, TypeRange{inType},
                                   ValueRange{candidates}, ValueRange{acc},
                                   maps, iters, body)
      .getResult(0);
}

/// The in-window index (i64) of the first maximum of `window` (row-major
/// values in registers), a NaN taken over anything before it.
Value scanArgmax(OpBuilder &b, Location loc, ValueRange window) {
  Value best = window[0];
  Value where = scalarConstant(b, loc, b.getI64Type(), 0);
  for (size_t p = 1; p < window.size(); ++p) {
    Value v = window[p];
    Value greater =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, v, best);
    Value nan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
    Value take = arith::OrIOp::create(b, loc, greater, nan);
    best = arith::SelectOp::create(b, loc, take, v, best);
    where = arith::SelectOp::create(
        b, loc, take, scalarConstant(b, loc, b.getI64Type(), int64_t(p)),
        where);
  }
  return where;
}

/// windowArgmax without padding: scanArgmax over each window.
Value unrolledArgmax(OpBuilder &b, Location loc, Value input, Value grad,
                     const PoolGeometry &geo) {
  auto gType = cast<RankedTensorType>(grad.getType());
  auto idxType = RankedTensorType::get(gType.getShape(), b.getI64Type());
  return windowGeneric(b, loc, input, idxType,
                       dynamicSizesFrom(b, loc, gType, grad), geo.kernel,
                       geo.stride, scanArgmax);
}

/// Whether the windows tile the input exactly: stride == kernel, no
/// padding, and H = OH * KH, W = OW * KW (max_pool(2) on even sizes).
bool windowsTileInput(const PoolGeometry &geo) {
  return geo.kernel[0] == geo.stride[0] && geo.kernel[1] == geo.stride[1] &&
         geo.padding[0] == 0 && geo.padding[1] == 0 &&
         geo.inH == geo.outH * geo.kernel[0] &&
         geo.inW == geo.outW * geo.kernel[1] &&
         canUnrollWindow(geo.kernel, geo.padding);
}

/// The max-pool gradient when the windows tile the input: one generic over
/// (n, c, oh, ow, kh, kw), writing the input seen as N x C x OH x KH x OW x
/// KW, where each element takes its window's gradient if it is the window's
/// arg-max (recomputed from the window's values in registers) and 0
/// otherwise. Every element is written once: no fill, no accumulation, no
/// division, no arg-max tensor.
Value tiledMaxPoolGrad(OpBuilder &b, Location loc, Value input, Value grad,
                       RankedTensorType inType, const PoolGeometry &geo) {
  MLIRContext *ctx = b.getContext();
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  int64_t kh = geo.kernel[0], kw = geo.kernel[1];
  SmallVector<Value> inputs = {grad};
  SmallVector<AffineMap> maps = {
      AffineMap::get(6, 0, {d(0), d(1), d(2), d(3)}, ctx)};
  for (int64_t i = 0; i < kh; ++i)
    for (int64_t j = 0; j < kw; ++j) {
      inputs.push_back(input);
      maps.push_back(AffineMap::get(
          6, 0, {d(0), d(1), d(2) * kh + i, d(3) * kw + j}, ctx));
    }
  // The window loops innermost: LLVM unrolls them and computes the arg-max
  // once per window.
  maps.push_back(
      AffineMap::get(6, 0, {d(0), d(1), d(2), d(4), d(3), d(5)}, ctx));
  auto type = RankedTensorType::get({inType.getDimSize(0), inType.getDimSize(1),
                                     geo.outH, kh, geo.outW, kw},
                                    inType.getElementType());
  Value init =
      emptyTensor(b, loc, type, dynamicSizesFrom(b, loc, inType, input));
  auto body = [&](OpBuilder &nb, Location nl, ValueRange args) {
    Value where = scanArgmax(nb, nl, args.slice(1, kh * kw));
    Value here = arith::AddIOp::create(
        nb, nl,
        arith::MulIOp::create(nb, nl, linalg::IndexOp::create(nb, nl, 4),
                              arith::ConstantIndexOp::create(nb, nl, kw)),
        linalg::IndexOp::create(nb, nl, 5));
    Value hit = arith::CmpIOp::create(
        nb, nl, arith::CmpIPredicate::eq, where,
        arith::IndexCastOp::create(nb, nl, nb.getI64Type(), here));
    linalg::YieldOp::create(
        nb, nl,
        Value(arith::SelectOp::create(
            nb, nl, hit, args[0], scalarConstant(nb, nl, args[0].getType(), 0))));
  };
  Value tiles = linalg::GenericOp::create(b, loc, TypeRange{type}, inputs,
                                          ValueRange{init}, maps,
                                          parallelIterators(6), body)
                    .getResult(0);
  SmallVector<ReassociationIndices> groups = {{0}, {1}, {2, 3}, {4, 5}};
  return tensor::CollapseShapeOp::create(b, loc, inType, tiles, groups);
}

/// The row-major in-window index (kh * KW + kw, i64) of each window's
/// maximum, -1 for a window of padding only (N x C x OH x OW).
Value windowArgmax(OpBuilder &b, Location loc, Value input, Value grad,
                   const PoolGeometry &geo) {
  if (canUnrollWindow(geo.kernel, geo.padding) &&
      isa<FloatType>(elementTypeOf(input)))
    return unrolledArgmax(b, loc, input, grad, geo);
  MLIRContext *ctx = b.getContext();
  Type elem = elementTypeOf(input);
  Value lowest = lowestValue(b, loc, elem);
  Value padded = padSpatial(b, loc, input, geo.padding, lowest);
  auto gType = cast<RankedTensorType>(grad.getType());
  auto idxType = RankedTensorType::get(gType.getShape(), b.getI64Type());
  SmallVector<Value> dyn = dynamicSizesFrom(b, loc, gType, grad);
  Value best = filledTensor(b, loc, gType, dyn, lowest);
  Value where = filledTensor(b, loc, idxType, dyn,
                             scalarConstant(b, loc, b.getI64Type(), -1));
  Value window = tensor::EmptyOp::create(b, loc, geo.kernel, elem);
  auto dim = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  AffineMap out = AffineMap::get(6, 0, {dim(0), dim(1), dim(2), dim(3)}, ctx);
  SmallVector<AffineMap> maps = {
      AffineMap::get(6, 0,
                     {dim(0), dim(1), dim(2) * geo.stride[0] + dim(4),
                      dim(3) * geo.stride[1] + dim(5)},
                     ctx),
      AffineMap::get(6, 0, {dim(4), dim(5)}, ctx), out, out};
  SmallVector<utils::IteratorType> iters = parallelIterators(4);
  iters.append(2, utils::IteratorType::reduction);
  auto body = [&](OpBuilder &nb, Location nl, ValueRange args) {
    auto cst = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(nb, nl, v);
    };
    using P = arith::CmpIPredicate;
    Value inRange = arith::ConstantIntOp::create(nb, nl, 1, 1);
    for (int64_t d = 0; d < 2; ++d) {
      Value pos = arith::AddIOp::create(
          nb, nl,
          arith::MulIOp::create(nb, nl, linalg::IndexOp::create(nb, nl, 2 + d),
                                cst(geo.stride[d])),
          linalg::IndexOp::create(nb, nl, 4 + d));
      int64_t size = d == 0 ? geo.inH : geo.inW;
      Value ok = arith::AndIOp::create(
          nb, nl, arith::CmpIOp::create(nb, nl, P::sge, pos, cst(geo.padding[d])),
          arith::CmpIOp::create(nb, nl, P::slt, pos, cst(geo.padding[d] + size)));
      inRange = arith::AndIOp::create(nb, nl, inRange, ok);
    }
    Value v = args[0], cur = args[2], curIdx = args[3];
    // v > cur, or v is NaN (PyTorch: a NaN becomes the maximum).
    Value greater = arith::OrIOp::create(
        nb, nl,
        arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OGT, v, cur),
        arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::UNO, v, v));
    Value none = arith::CmpIOp::create(
        nb, nl, P::slt, curIdx, scalarConstant(nb, nl, nb.getI64Type(), 0));
    Value take = arith::AndIOp::create(
        nb, nl, inRange,
        arith::OrIOp::create(nb, nl, greater, none));
    Value here = arith::IndexCastOp::create(
        nb, nl, nb.getI64Type(),
        arith::AddIOp::create(
            nb, nl,
            arith::MulIOp::create(nb, nl, linalg::IndexOp::create(nb, nl, 4),
                                  cst(geo.kernel[1])),
            linalg::IndexOp::create(nb, nl, 5)));
    linalg::YieldOp::create(
        nb, nl,
        ValueRange{arith::SelectOp::create(nb, nl, take, v, cur),
                   arith::SelectOp::create(nb, nl, take, here, curIdx)});
  };
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{gType, idxType}, ValueRange{padded, window},
      ValueRange{best, where}, maps, iters, body);
  return generic.getResult(1);
}

/// The pooling adjoint `op` as the library op `LibOp` on `inputs` when it
/// is one (LibraryOps.h), else as `build`'s linalg form.
template <typename LibOp, typename OpTy, typename BuildFn, typename... Inputs>
FailureOr<Value> lowerPoolGrad(OpTy op, ConversionPatternRewriter &rewriter,
                               BuildFn build, Value grad, Inputs... inputs) {
  if (failed(requireStaticWindow(op)))
    return failure();
  auto inType = cast<RankedTensorType>(op.getType());
  PoolWindow window{op.getKernel(), op.getStride(), op.getPadding()};
  if (libraryPoolApplies(inType, cast<RankedTensorType>(grad.getType())))
    return buildLibraryPool<LibOp>(rewriter, op.getLoc(), inType,
                                   window.kernel, window.stride,
                                   window.padding, grad, inputs...);
  return build(rewriter, op.getLoc(), grad, inputs..., inType, window);
}

FailureOr<Value> lowerAvgPoolGrad(AvgPool2DGradOp op,
                                  AvgPool2DGradOp::Adaptor adaptor,
                                  ConversionPatternRewriter &rewriter) {
  return lowerPoolGrad<LibAvgPool2DGradOp>(op, rewriter, buildAvgPoolGrad,
                                           adaptor.getGrad());
}

FailureOr<Value> lowerMaxPoolGrad(MaxPool2DGradOp op,
                                  MaxPool2DGradOp::Adaptor adaptor,
                                  ConversionPatternRewriter &rewriter) {
  return lowerPoolGrad<LibMaxPool2DGradOp>(op, rewriter, buildMaxPoolGrad,
                                           adaptor.getGrad(),
                                           adaptor.getInput());
}

} // namespace

Value modelc::lowering::buildAvgPoolGrad(OpBuilder &b, Location loc,
                                         Value grad, RankedTensorType inType,
                                         const PoolWindow &w) {
  PoolGeometry geo =
      geometryOf(cast<RankedTensorType>(grad.getType()), inType, w);
  double area = static_cast<double>(geo.kernel[0] * geo.kernel[1]);
  auto contribution = [area](OpBuilder &nb, Location l, ValueRange,
                             ValueRange, ValueRange, Value g, Value valid) {
    Value scaled = arith::DivFOp::create(
        nb, l, g, scalarConstant(nb, l, g.getType(), area));
    return Value(arith::SelectOp::create(
        nb, l, valid, scaled, scalarConstant(nb, l, g.getType(), 0)));
  };
  return gatherWindows(b, loc, grad, inType, geo, contribution);
}

Value modelc::lowering::buildMaxPoolGrad(OpBuilder &b, Location loc,
                                         Value grad, Value input,
                                         RankedTensorType inType,
                                         const PoolWindow &w) {
  PoolGeometry geo =
      geometryOf(cast<RankedTensorType>(grad.getType()), inType, w);
  if (windowsTileInput(geo) && isa<FloatType>(inType.getElementType()))
    return tiledMaxPoolGrad(b, loc, input, grad, inType, geo);
  Value argmax = windowArgmax(b, loc, input, grad, geo);
  int64_t kw = geo.kernel[1];
  auto contribution = [argmax, kw](OpBuilder &b, Location l, ValueRange nc,
                                   ValueRange window, ValueRange offset,
                                   Value g, Value valid) {
    Value at = tensor::ExtractOp::create(
        b, l, argmax, ValueRange{nc[0], nc[1], window[0], window[1]});
    Value here = arith::IndexCastOp::create(
        b, l, b.getI64Type(),
        arith::AddIOp::create(
            b, l,
            arith::MulIOp::create(b, l, offset[0],
                                  arith::ConstantIndexOp::create(b, l, kw)),
            offset[1]));
    Value hit = arith::AndIOp::create(
        b, l, valid,
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, at, here));
    return Value(arith::SelectOp::create(
        b, l, hit, g, scalarConstant(b, l, g.getType(), 0)));
  };
  return gatherWindows(b, loc, grad, inType, geo, contribution);
}


void modelc::populateMDLPoolGradientsToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FnPattern<AvgPool2DGradOp, lowerAvgPoolGrad>,
               FnPattern<MaxPool2DGradOp, lowerMaxPoolGrad>>(
      patterns.getContext());
}
