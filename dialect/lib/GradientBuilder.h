//===- GradientBuilder.h - Building blocks of mdl gradient rules -*- C++ -*-===//
//
// The context a gradient rule runs in (the op, its result adjoints, which
// operands need adjoints) and the small mdl expressions rules are written
// with: arithmetic, masks, keep-dims reductions, unbroadcasting, element
// counts. The builder owns failure: the first helper that cannot build its
// expression reports an error at the op, and from then on every helper
// returns a null Value and builds nothing, so rules are straight-line maths
// with no failure handling. Internal to the dialect library
// (GradientRules.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MDL_LIB_GRADIENTBUILDER_H
#define MDL_LIB_GRADIENTBUILDER_H

#include "mdl/MDLOps.h"

#include "mlir/IR/Builders.h"

namespace mlir::mdl {

/// What a gradient rule sees and builds with. Rules read `grad(i)`, check
/// `needs(j)` and record operand adjoints with `set` / `setReduced`; the
/// caller reads the outcome from `status()`.
class GradientBuilder {
public:
  GradientBuilder(Operation *op, OpBuilder &builder,
                  ArrayRef<Value> resultGrads, ArrayRef<bool> needed,
                  SmallVectorImpl<Value> &operandGrads);

  /// The adjoint of result `i` (null when the loss does not depend on it).
  Value grad(unsigned i = 0) const { return resultGrads[i]; }
  /// Whether operand `i` needs an adjoint.
  bool needs(unsigned i) const { return needed[i]; }
  /// Records `value` (of exactly operand `i`'s type) as its adjoint.
  void set(unsigned i, Value value);
  /// Sums `value` (of a shape operand `i` broadcasts to) back to operand
  /// `i`'s shape and records it; fails if it cannot.
  void setReduced(unsigned i, Value value);
  /// Fails with `message`: reported at the op unless an earlier failure was.
  void fail(const Twine &message);
  /// Whether a helper or rule has failed.
  bool failed() const { return hasFailed; }
  /// failure() once anything failed (its error already reported).
  LogicalResult status() const { return success(!hasFailed); }

  /// `OpT::create(b, loc, args...)`, or a null Value once failed.
  template <typename OpT, typename... Args>
  Value create(Args &&...args) {
    if (hasFailed)
      return Value();
    return OpT::create(b, loc, std::forward<Args>(args)...);
  }

  /// The results of `OpT::create(b, loc, args...)` for an op with several;
  /// empty once failed.
  template <typename OpT, typename... Args>
  SmallVector<Value> createResults(Args &&...args) {
    if (hasFailed)
      return {};
    return OpT::create(b, loc, std::forward<Args>(args)...)->getResults();
  }

  // Expressions (operands broadcast by the numpy rule); each returns a null
  // Value, building nothing, once the builder has failed.
  Value add(Value a, Value b);
  Value sub(Value a, Value b);
  Value mul(Value a, Value b);
  Value div(Value a, Value b);
  Value neg(Value a);
  /// A 0-d constant of `like`'s float element type.
  Value scalar(double value, Value like);
  Value select(Value condition, Value a, Value b);
  Value cmp(CmpPredicate predicate, Value a, Value b);
  /// `condition ? a : 0` broadcast to the common shape.
  Value maskOrZero(Value condition, Value a);
  /// reduce_sum / reduce_mean over `axes` keeping the reduced dimensions.
  Value sumKeep(Value value, ArrayRef<int64_t> axes);
  Value meanKeep(Value value, ArrayRef<int64_t> axes);
  /// reduce_sum over `axes`, dropping them.
  Value sum(Value value, ArrayRef<int64_t> axes);
  /// `value` reshaped to `shape` (-1 for a dynamic leading dimension);
  /// fails when another dimension is dynamic.
  Value reshape(Value value, ArrayRef<int64_t> shape);
  /// A reduction result re-expanded to the input's shape: `reduced` (the
  /// result of reducing `input` over `axes`, keepdims or not) broadcast like
  /// `input`.
  Value expandLike(Value reduced, Value input, ArrayRef<int64_t> axes);
  /// The number of elements of `value` each reduction over `axes` covers,
  /// as a 0-d tensor (a constant when those sizes are static).
  Value count(Value value, ArrayRef<int64_t> axes);
  /// A per-channel vector `C` reshaped to `C x 1 x ...` so that it
  /// broadcasts along dimension 1 of a rank-`rank` tensor.
  Value perChannel(Value vector, int64_t rank);
  /// `1 / count` for a mean-reduced loss over all of `value`, 1 for sum.
  Value lossScale(Reduction reduction, Value value);

  Operation *op;
  OpBuilder &b;
  Location loc;

private:
  ArrayRef<Value> resultGrads;
  ArrayRef<bool> needed;
  SmallVectorImpl<Value> &operandGrads;
  bool hasFailed = false;
};

/// Which normalisation a norm gradient differentiates.
enum class NormKind {
  Batch, ///< batch_norm_train: batch statistics (results 1, 2), channel dim 1
  SyncBatch, ///< batch_norm_train {sync}: Batch over every rank's slice
  Eval,  ///< batch_norm_eval: running statistics (operands 3, 4), constants
  Layer, ///< layer_norm: statistics over gamma's trailing dimensions
};

/// Sets the adjoints of a normalisation's input (operand 0), gamma (1) and
/// beta (2) from the adjoint of its output (result 0):
/// with xhat = (x - mean) * rstd, dbeta = sum(g), dgamma = sum(g * xhat),
/// dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)) where
/// dxhat = g * gamma (just dxhat * rstd for Eval, whose statistics are
/// constants). For SyncBatch the two means are over the global batch,
/// each rank's adjoint weighted by its share of the batch's samples, the
/// runtime's weighting of the ranks' gradients (docs/distributed.md).
void buildNormGradient(GradientBuilder &e, Value input, Value gamma,
                       llvm::APFloat epsilon, NormKind kind);

/// All axes `0 .. rank-1`.
SmallVector<int64_t> allAxes(int64_t rank);
/// `axes` normalised to [0, rank) (they are verified in range).
SmallVector<int64_t> normalizedAxes(ArrayRef<int64_t> axes, int64_t rank);

} // namespace mlir::mdl

#endif // MDL_LIB_GRADIENTBUILDER_H
