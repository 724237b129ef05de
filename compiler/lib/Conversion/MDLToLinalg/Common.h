//===- Common.h - Helpers shared by the mdl -> linalg patterns --*- C++ -*-===//
//
// Small builders every op family uses: tensor.empty/fill with dynamic
// sizes, scalar constants, broadcasting linalg.generic (no materialised
// broadcasts), reductions over a set of dimensions (log-sum-exp's among
// them, for softmax and cross-entropy), and the pattern wrapper
// that turns a lowering function into an OpConversionPattern.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_LIB_CONVERSION_MDLTOLINALG_COMMON_H
#define MODELC_LIB_CONVERSION_MDLTOLINALG_COMMON_H

#include "modelc/Conversion/Passes.h"

#include "mdl/MDLOps.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace modelc::lowering {

/// Builds the scalar body of a generic from its block arguments (inputs
/// first, then the output's current value).
using BodyFn = llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                              mlir::ValueRange)>;

/// The element type of a ranked tensor value.
mlir::Type elementTypeOf(mlir::Value tensor);

/// A scalar constant `value` of the int or float type `type`.
mlir::Value scalarConstant(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Type type, double value);

/// The dynamic sizes of `type` taken from `like`, dimension by dimension.
llvm::SmallVector<mlir::Value> dynamicSizesFrom(mlir::OpBuilder &b,
                                                mlir::Location loc,
                                                mlir::RankedTensorType type,
                                                mlir::Value like);

/// `tensor.empty` of `type` with the given dynamic sizes.
mlir::Value emptyTensor(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::RankedTensorType type,
                        mlir::ValueRange dynamicSizes);

/// `tensor.empty` of `type` filled with `value`.
mlir::Value filledTensor(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::RankedTensorType type,
                         mlir::ValueRange dynamicSizes, mlir::Value value);

/// `count` parallel iterators.
llvm::SmallVector<mlir::utils::IteratorType> parallelIterators(unsigned count);

/// One linalg.generic computing `body` over `resultType`'s index space with
/// numpy broadcasting of `inputs` (trailing alignment; a static size-1
/// dimension against a larger one reads index 0). Dynamic result sizes come
/// from the first input that has that dimension dynamic; an input dimension
/// that is dynamic against a static result size is checked with cf.assert.
mlir::Value broadcastGeneric(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::RankedTensorType resultType,
                             mlir::ValueRange inputs, BodyFn body);

/// `args[0] + args[1]` (floats): the merge of partial sums.
mlir::Value addFloats(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::ValueRange args);

/// Reduced elements per block of a staged reduction: a sum over more
/// elements adds partial sums of blocks of at most this many (each block in
/// order, then the blocks' sums, recursively), so the rounding error grows
/// with the block length and the number of blocks rather than with the
/// whole count; the order is fixed, so the result is deterministic.
constexpr int64_t kReductionBlock = 1024;

/// Reduces `input` over the dimensions where `reduced` is true with
/// `combine(element, accumulator)`, starting from `init`, which must be
/// associative with `init` its identity (sum, max): long reductions are
/// staged in blocks (kReductionBlock). The result drops the reduced
/// dimensions (keepdims is a later expand_shape).
mlir::Value reduceDims(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value input, llvm::ArrayRef<bool> reduced,
                       mlir::Value init, BodyFn combine);

/// Like reduceDims, with `aux` tensors indexed by the kept dimensions
/// (e.g. a per-channel mean) passed to `combine` after the element:
/// `combine(element, aux..., accumulator)`. With `merge(partial,
/// accumulator)` (associative, `init` its identity: the sum of a sum of
/// squares) the reduction is staged in blocks as reduceDims's, `merge`
/// combining the blocks' partial results; without, it is one generic.
mlir::Value reduceDimsWith(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value input, mlir::ValueRange aux,
                           llvm::ArrayRef<bool> reduced, mlir::Value init,
                           BodyFn combine, BodyFn merge = nullptr);

/// One parallel linalg.generic over `like`'s shape (the result has `like`'s
/// shape and `elementType`): `inputs[i]` is read through `maps[i]`.
mlir::Value mapGeneric(mlir::OpBuilder &b, mlir::Location loc, mlir::Value like,
                       mlir::Type elementType, mlir::ValueRange inputs,
                       llvm::ArrayRef<mlir::AffineMap> maps, BodyFn body);

/// The map from a rank-`rank` loop nest to the dimensions in `dims`.
mlir::AffineMap selectDims(int64_t rank, llvm::ArrayRef<int64_t> dims,
                           mlir::MLIRContext *ctx);

/// Reshapes `value` (whose reduced dimensions were dropped) to `resultType`
/// that keeps them as size 1.
mlir::Value expandKeptDims(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value value, mlir::RankedTensorType resultType,
                           llvm::ArrayRef<bool> reduced);

/// The element type a sum of `elem` values accumulates in: f64 for f32 (as
/// PyTorch's CPU batch norm does: a long sum, or one whose terms cancel,
/// keeps the f32 result's precision), `elem` otherwise.
mlir::Type sumAccumulatorType(mlir::Type elem);

/// `tensor` with its elements converted to the float type `to` (extf or
/// truncf in one parallel generic, which fusion merges into its producer or
/// consumer); `tensor` itself when it already has that type.
mlir::Value convertFloats(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value tensor, mlir::Type to);

/// The number of elements of `value` over the dimensions where `which` is
/// true, as a float of type `floatType` (dynamic sizes read at run time).
mlir::Value countAsFloat(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value value, llvm::ArrayRef<bool> which,
                         mlir::Type floatType);

/// `mdl.lib_sum_ranks` of the f64 tensor `x` into a fresh tensor: its sum
/// over the ranks of a data-parallel run (`mdl.all_reduce`).
mlir::Value sumOverRanks(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x);

/// sumOverRanks of the f64 scalar `x` (through a one-element tensor).
mlir::Value sumScalarOverRanks(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Value x);

/// Converts scalar `x` to `to` with mdl.cast's rules (Elementwise.cpp).
mlir::Value castScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                       mlir::Type to);

/// The two reductions of a max-subtracted log-sum-exp of the float tensor
/// `x` over the dimensions where `reduced` is true, both without those
/// dimensions: `max` (x's maximum) and `sumExp` = sum(exp(x - max)).
/// log-sum-exp is `max + log(sumExp)`; softmax is `exp(x - max) / sumExp`.
struct LogSumExpParts {
  mlir::Value max, sumExp;
};
LogSumExpParts logSumExpParts(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value x, llvm::ArrayRef<bool> reduced);

/// The largest finite-or-infinite lowest value of `type` (-inf for floats,
/// the minimum for integers): the identity of max.
mlir::Value lowestValue(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Type type);

/// Pads the two trailing (spatial) dimensions of an NCHW tensor by
/// `pad[0]`, `pad[1]` on both sides with `value`; returns `input` unchanged
/// when both are 0.
mlir::Value padSpatial(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value input, llvm::ArrayRef<int64_t> pad,
                       mlir::Value value);

/// The largest window (KH * KW) that windowGeneric unrolls.
constexpr int64_t kMaxUnrolledWindow = 16;

/// Whether a pooling window can be unrolled: no padding (every window lies
/// inside the input) and at most kMaxUnrolledWindow positions.
bool canUnrollWindow(llvm::ArrayRef<int64_t> kernel,
                     llvm::ArrayRef<int64_t> padding);

/// An all-parallel linalg.generic over the N x C x OH x OW windows of the
/// NCHW `input` (no padding): the body gets the KH * KW values of one window
/// in row-major window order, each read through its own affine input map
/// (n, c, oh * SH + kh, ow * SW + kw), and returns the window's value of
/// `resultType`. No reduction loop: the window is combined in registers and
/// the OW loop reads the input with a constant stride, which vectorises.
mlir::Value windowGeneric(
    mlir::OpBuilder &b, mlir::Location loc, mlir::Value input,
    mlir::RankedTensorType resultType, mlir::ValueRange resultDynamicSizes,
    llvm::ArrayRef<int64_t> kernel, llvm::ArrayRef<int64_t> stride,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                   mlir::ValueRange)>
        body);

/// A DenseIntElementsAttr `tensor<Nxi64>` (the strides/dilations form of
/// linalg convolution and pooling ops).
mlir::DenseIntElementsAttr i64Elements(mlir::OpBuilder &b,
                                       llvm::ArrayRef<int64_t> values);

/// The value of a 0-d integer tensor (a decoded position) as an index.
mlir::Value indexOfScalar(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value scalar);

/// Adapts a function `FailureOr<Value> fn(OpTy, OpAdaptor, Rewriter&)` into
/// a conversion pattern that replaces the op's single result.
template <typename OpTy,
          llvm::FailureOr<mlir::Value> (*Fn)(OpTy, typename OpTy::Adaptor,
                                             mlir::ConversionPatternRewriter &)>
struct FnPattern : mlir::OpConversionPattern<OpTy> {
  using mlir::OpConversionPattern<OpTy>::OpConversionPattern;
  llvm::LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const override {
    llvm::FailureOr<mlir::Value> result = Fn(op, adaptor, rewriter);
    if (failed(result))
      return mlir::failure();
    rewriter.replaceOp(op, *result);
    return mlir::success();
  }
};

} // namespace modelc::lowering

#endif // MODELC_LIB_CONVERSION_MDLTOLINALG_COMMON_H
