//===- ExpandLibraryOps.cpp - mdl library ops -> im2col + GEMM ------------===//
//
// Implements the `modelc-expand-library-ops` pass, for targets that do not
// call the runtime's library (the GPU pipeline; the CPU pipeline with
// `library-ops=false`): each mdl library op on tensors becomes linalg. The
// convolutions become the im2col / col2im builders of Im2Col.h around one
// rank-2 GEMM, which the pipelines' product rewrites (cblas_sgemm, cuBLAS)
// then pick up:
//   lib_conv2d:             Y[O, N*OH*OW] = W[O, C*KH*KW] @ cols;
//   lib_conv2d_bias:        the same, the bias added as Y is laid out;
//   lib_conv2d_grad_input:  dCols = W^T @ dY[O, N*OH*OW], then col2im;
//   lib_conv2d_grad_weight: dW[O, C*KH*KW] = dY[O, N*OH*OW] @ cols^T;
// pooling and its adjoints become the window generics of PoolBuilders.h;
// the embedding gradient, a masked sum over the positions per table entry;
// attention, its adjoint and its decoding step, the unfused mdl ops of
// Attention.cpp (the adjoint's three gradients flattened and joined into
// its flat result),
// which are then lowered with the mdl-to-linalg patterns; the sum over the
// ranks, its input (one process), unless `keep-sum-ranks`. With
// `keep-convolutions` (cuDNN) the three convolutions stay, and
// lib_conv2d_bias becomes lib_conv2d and the addition of the bias.
// The op's destination is not needed (a fresh tensor is built). An op
// already on memrefs cannot be expanded and is reported.
//
//===----------------------------------------------------------------------===//
#include "Im2Col.h"
#include "LibraryOps.h"
#include "PoolBuilders.h"

#include "llvm/ADT/TypeSwitch.h"

namespace modelc {
#define GEN_PASS_DEF_EXPANDLIBRARYOPS
#include "modelc/Conversion/Passes.h.inc"
} // namespace modelc

using namespace mlir;
using namespace mlir::mdl;
using namespace modelc::lowering;

namespace {

/// The geometry of a library convolution whose input, weight and output
/// types are `x`, `w` and `y` (the verifier guarantees it exists).
template <typename LibOp>
ConvGeometry geometryOf(LibOp op, Type x, Type w, Type y) {
  ConvGeometry geom;
  (void)convGeometry(cast<RankedTensorType>(x), cast<RankedTensorType>(w),
                     cast<RankedTensorType>(y), op.getStride(),
                     op.getPadding(), op.getDilation(), geom);
  return geom;
}

/// A zero-filled [rows, cols] accumulator; a dynamic `cols` is read from
/// dimension 1 of `like`.
Value zeroMatrix(OpBuilder &b, Location loc, int64_t rows, int64_t cols,
                 Value like) {
  auto type = RankedTensorType::get({rows, cols}, b.getF32Type());
  SmallVector<Value> sizes;
  if (ShapedType::isDynamic(cols))
    sizes.push_back(tensor::DimOp::create(b, loc, like, 1));
  return filledTensor(b, loc, type, sizes, scalarConstant(b, loc,
                                                          b.getF32Type(), 0));
}

/// The forward convolution `op` (with `bias`, or null) as im2col and one
/// GEMM; the bias is added as the product is laid out in NCHW.
template <typename LibOp>
Value expandForward(OpBuilder &b, LibOp op, Value bias) {
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(op.getResult().getType());
  ConvGeometry geom = geometryOf(op, op.getInput().getType(),
                                 op.getWeight().getType(), type);
  Value cols = im2colColumns(b, loc, op.getInput(), geom);
  Value acc = zeroMatrix(b, loc, geom.outChannels, ShapedType::kDynamic, cols);
  Value product =
      gemm(b, loc, weightMatrix(b, loc, op.getWeight()), false, cols, false,
           acc);
  return fromChannelMajor(b, loc, product, type, op.getInput(), bias);
}

Value expand(OpBuilder &b, LibConv2DOp op) {
  return expandForward(b, op, Value());
}

Value expand(OpBuilder &b, LibConv2DBiasOp op) {
  return expandForward(b, op, op.getBias());
}

/// `op` as mdl.lib_conv2d, which the target's library keeps, then the bias
/// added per output channel.
Value splitBias(OpBuilder &b, LibConv2DBiasOp op) {
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(op.getResult().getType());
  Value conv = LibConv2DOp::create(b, loc, type, op.getInput(), op.getWeight(),
                                   op.getInit(), op.getStride(),
                                   op.getPadding(), op.getDilation())
                   .getResult();
  copyPrecision(op, conv);
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(4),
                                 selectDims(4, {1}, b.getContext())};
  return mapGeneric(b, loc, conv, type.getElementType(),
                    ValueRange{conv, op.getBias()}, maps,
                    [](OpBuilder &nb, Location nl, ValueRange args) {
                      return addFloats(nb, nl, args);
                    });
}

Value expand(OpBuilder &b, LibConv2DGradInputOp op) {
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(op.getResult().getType());
  ConvGeometry geom = geometryOf(op, type, op.getWeight().getType(),
                                 op.getGrad().getType());
  Value dy = channelMajor(b, loc, op.getGrad());
  Value acc = zeroMatrix(b, loc, geom.channels * geom.kh * geom.kw,
                         ShapedType::kDynamic, dy);
  Value cols =
      gemm(b, loc, weightMatrix(b, loc, op.getWeight()), true, dy, false, acc);
  return col2im(b, loc, cols, type, op.getGrad(), geom);
}

Value expand(OpBuilder &b, LibConv2DGradWeightOp op) {
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(op.getResult().getType());
  ConvGeometry geom = geometryOf(op, op.getInput().getType(), type,
                                 op.getGrad().getType());
  Value cols = im2colColumns(b, loc, op.getInput(), geom);
  Value dy = channelMajor(b, loc, op.getGrad());
  Value acc = zeroMatrix(b, loc, geom.outChannels,
                         geom.channels * geom.kh * geom.kw, Value());
  Value dw = gemm(b, loc, dy, false, cols, true, acc);
  return weightFromMatrix(b, loc, dw, type);
}

/// The pooling window of the library op `op`.
template <typename LibOp>
PoolWindow windowOf(LibOp op) {
  return {op.getKernel(), op.getStride(), op.getPadding()};
}

Value expand(OpBuilder &b, LibMaxPool2DOp op) {
  return buildMaxPool(b, op.getLoc(), op.getInput(),
                      cast<RankedTensorType>(op.getResult().getType()),
                      windowOf(op));
}

Value expand(OpBuilder &b, LibAvgPool2DOp op) {
  return buildAvgPool(b, op.getLoc(), op.getInput(),
                      cast<RankedTensorType>(op.getResult().getType()),
                      windowOf(op));
}

Value expand(OpBuilder &b, LibMaxPool2DGradOp op) {
  return buildMaxPoolGrad(b, op.getLoc(), op.getGrad(), op.getInput(),
                          cast<RankedTensorType>(op.getResult().getType()),
                          windowOf(op));
}

Value expand(OpBuilder &b, LibAvgPool2DGradOp op) {
  return buildAvgPoolGrad(b, op.getLoc(), op.getGrad(),
                          cast<RankedTensorType>(op.getResult().getType()),
                          windowOf(op));
}

/// table[n, d] = sum over positions p of (indices[p] == n ? grad[p, d] : 0):
/// one generic with the positions as its reduction, which maps onto
/// parallel threads (a scatter-add would need atomics); an index outside
/// [0, N) matches no row.
Value expand(OpBuilder &b, LibEmbeddingGradOp op) {
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(op.getResult().getType());
  Value zero = scalarConstant(b, loc, type.getElementType(), 0);
  Value table = filledTensor(b, loc, type, {}, zero);
  MLIRContext *ctx = b.getContext();
  // Loops (n, d, p).
  SmallVector<AffineMap> maps = {selectDims(3, {2}, ctx),
                                 selectDims(3, {2, 1}, ctx),
                                 selectDims(3, {0, 1}, ctx)};
  SmallVector<utils::IteratorType> iterators = {utils::IteratorType::parallel,
                                                utils::IteratorType::parallel,
                                                utils::IteratorType::reduction};
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{op.getIndices(), op.getGrad()},
             ValueRange{table}, maps, iterators,
             [](OpBuilder &nb, Location l, ValueRange a) {
               Value row = linalg::IndexOp::create(nb, l, 0);
               Value n = arith::IndexCastOp::create(nb, l, a[0].getType(), row);
               Value hit = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq,
                                                 a[0], n);
               Value add = arith::AddFOp::create(nb, l, a[2], a[1]);
               linalg::YieldOp::create(
                   nb, l, Value(arith::SelectOp::create(nb, l, hit, add, a[2])));
             })
      .getResult(0);
}

Value expand(OpBuilder &b, LibAttentionOp op) {
  return buildAttention(b, op.getLoc(), op.getQuery(), op.getKey(),
                        op.getValue(), op.getCausal());
}

Value expand(OpBuilder &b, LibAttentionDecodeOp op) {
  return buildAttentionDecode(b, op.getLoc(), op.getQuery(), op.getKeyCache(),
                              op.getValueCache(), op.getPosition());
}

/// `v` (any rank) as a 1-D tensor.
Value flatten1D(OpBuilder &b, Location loc, Value v) {
  int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
  ReassociationIndices all;
  for (int64_t d = 0; d < rank; ++d)
    all.push_back(d);
  return tensor::CollapseShapeOp::create(
      b, loc, v, SmallVector<ReassociationIndices>{all});
}

Value expand(OpBuilder &b, LibAttentionGradOp op) {
  Location loc = op.getLoc();
  SmallVector<Value> grads = buildAttentionGrad(
      b, loc, op.getQuery(), op.getKey(), op.getValue(), op.getOutput(),
      op.getGrad(), op.getCausal());
  SmallVector<Value> flat;
  for (Value g : grads)
    flat.push_back(flatten1D(b, loc, g));
  return tensor::ConcatOp::create(b, loc, /*dim=*/0, flat);
}

Value expand(OpBuilder &b, LibAttentionPackedOp op) {
  return buildAttentionPacked(b, op.getLoc(), op.getQkv(), op.getCausal());
}

Value expand(OpBuilder &b, LibAttentionPackedGradOp op) {
  return buildAttentionPackedGrad(b, op.getLoc(), op.getQkv(), op.getOutput(),
                                  op.getGrad(), op.getCausal());
}

/// The sum over the ranks of a run of one process: the input itself.
Value expand(OpBuilder &, LibSumRanksOp op) { return op.getInput(); }

/// The head width of an attention op that a fused kernel may take (its
/// first operand's innermost size, static in library ops), or 0.
int64_t fusedAttentionWidth(Operation *op) {
  if (!isa<LibAttentionOp, LibAttentionGradOp, LibAttentionPackedOp,
           LibAttentionPackedGradOp>(op))
    return 0;
  auto type = cast<ShapedType>(op->getOperand(0).getType());
  return type.isDynamicDim(type.getRank() - 1) ? 0 : type.getShape().back();
}

/// The library ops the pass expands, each with its `expand` above.
template <typename... Ops>
struct OpList {
  static bool contains(Operation *op) { return isa<Ops...>(op); }
  static Value expand(OpBuilder &b, Operation *op) {
    return TypeSwitch<Operation *, Value>(op).template Case<Ops...>(
        [&](auto lib) { return ::expand(b, lib); });
  }
};
using Expandable =
    OpList<LibConv2DOp, LibConv2DBiasOp, LibConv2DGradInputOp,
           LibConv2DGradWeightOp, LibMaxPool2DOp, LibAvgPool2DOp,
           LibMaxPool2DGradOp, LibAvgPool2DGradOp, LibEmbeddingGradOp,
           LibAttentionOp, LibAttentionGradOp, LibAttentionDecodeOp,
           LibAttentionPackedOp, LibAttentionPackedGradOp, LibSumRanksOp>;

struct ExpandLibraryOpsPass
    : modelc::impl::ExpandLibraryOpsBase<ExpandLibraryOpsPass> {
  using ExpandLibraryOpsBase::ExpandLibraryOpsBase;

  /// True when `op` stays: for a fused attention kernel, cuDNN's
  /// convolutions, or the runtime's sum over the ranks.
  bool keeps(Operation *op) {
    if (isa<LibSumRanksOp>(op))
      return keepSumRanks;
    if (isa<LibConv2DOp, LibConv2DGradInputOp, LibConv2DGradWeightOp>(op))
      return keepConvolutions;
    if (isa<LibConv2DBiasOp>(op)) // split, or expanded
      return false;
    int64_t width = fusedAttentionWidth(op);
    return width > 0 && width <= keepAttentionWidth;
  }

  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (Expandable::contains(op) && !keeps(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (op->getNumResults() == 0) {
        op->emitOpError("works on memrefs and cannot be expanded; expand "
                        "library ops before bufferization");
        return signalPassFailure();
      }
      OpBuilder b(op);
      auto biased = dyn_cast<LibConv2DBiasOp>(op);
      Value expanded = biased && keepConvolutions ? splitBias(b, biased)
                                                  : Expandable::expand(b, op);
      op->getResult(0).replaceAllUsesWith(expanded);
      op->erase();
    }
    // Attention expands into mdl ops: lower them like convert-mdl-to-linalg.
    RewritePatternSet patterns(&getContext());
    modelc::populateMDLToLinalgPatterns(patterns);
    ConversionTarget target(getContext());
    modelc::configureMDLToLinalgTarget(target);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
