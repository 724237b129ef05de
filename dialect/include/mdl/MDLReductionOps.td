//===- MDLReductionOps.td - Softmax, reductions, argmax -----*- tablegen -*-===//
//
// softmax / log_softmax along one axis, sum / mean / max reductions over a
// set of axes, argmax, and the sum over the ranks of a data-parallel run.
//
//===----------------------------------------------------------------------===//

#ifndef MDL_REDUCTION_OPS_TD
#define MDL_REDUCTION_OPS_TD

/// softmax and log_softmax: same type in and out, one normalised axis.
class MDL_SoftmaxLikeOp<string mnemonic, string formula>
    : MDL_Op<mnemonic, [Pure, SameOperandsAndResultType, InferTypeOpInterface]> {
  let summary = formula # " along one axis";
  let description = [{
    Computes `}] # formula # [{` along `axis` (in `[-rank, rank)`; negative
    counts from the end; default -1), with the usual max-subtraction for
    numerical stability. The result has the operand's type.

    ```mlir
    %p = mdl.}] # mnemonic # [{ %logits {axis = 1 : i64} : tensor<?x10xf32>
    ```
  }];
  let arguments = (ins MDL_FloatTensor:$input,
                   DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs MDL_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def MDL_SoftmaxOp : MDL_SoftmaxLikeOp<"softmax", "exp(x) / sum(exp(x))">;
def MDL_LogSoftmaxOp
    : MDL_SoftmaxLikeOp<"log_softmax", "x - log(sum(exp(x)))">;

/// sum / mean / max over `axes`.
class MDL_ReduceOp<string mnemonic, string what, Type operandType>
    : MDL_InferOp<mnemonic> {
  let summary = what # " over a set of axes";
  let description = [{
    Reduces `input` with }] # what # [{ over `axes` (non-empty, distinct,
    each in `[-rank, rank)`). With `keepdims = true` each reduced dimension
    stays as size 1, otherwise it is removed (reducing every axis gives a
    0-d tensor).

    ```mlir
    %s = mdl.}] # mnemonic # [{ %x {axes = array<i64: 1>} : tensor<?x10xf32> -> tensor<?xf32>
    ```
  }];
  let arguments = (ins operandType:$input, DenseI64ArrayAttr:$axes,
                   DefaultValuedAttr<BoolAttr, "false">:$keepdims);
  let results = (outs operandType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def MDL_ReduceSumOp : MDL_ReduceOp<"reduce_sum", "the sum", MDL_NumericTensor>;
def MDL_ReduceMeanOp : MDL_ReduceOp<"reduce_mean", "the mean", MDL_FloatTensor>;
def MDL_ReduceMaxOp : MDL_ReduceOp<"reduce_max", "the maximum", MDL_NumericTensor>;

def MDL_ArgmaxOp : MDL_InferOp<"argmax", [MDL_NonDifferentiable]> {
  let summary = "Index of the maximum along one axis";
  let description = [{
    The i64 index of the largest element along `axis` (in `[-rank, rank)`,
    default -1); ties pick the first. `keepdims` as for the reductions.

    ```mlir
    %c = mdl.argmax %logits {axis = 1 : i64} : tensor<?x10xf32> -> tensor<?xi64>
    ```
  }];
  let arguments = (ins MDL_NumericTensor:$input,
                   DefaultValuedAttr<I64Attr, "-1">:$axis,
                   DefaultValuedAttr<BoolAttr, "false">:$keepdims);
  let results = (outs MDL_I64Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def MDL_AllReduceOp : MDL_Op<"all_reduce",
    [Pure, SameOperandsAndResultType, InferTypeOpInterface]> {
  let summary = "The sum of a tensor over the ranks of a data-parallel run";
  let description = [{
    Every rank (process) of the run that executes the op contributes its
    `input`; each receives their elementwise sum, in `input`'s type (the
    sum itself is taken in f64). With one process the result is `input`.
    Every rank must execute the same all-reduces in the same order: they
    are emitted by the training step's synchronised batch norm
    (`mdl.batch_norm_train {sync}`), which every rank runs alike. Its
    gradient is the all-reduce of the result's gradient.

    ```mlir
    %g = mdl.all_reduce %n : tensor<f32>
    ```
  }];
  let arguments = (ins MDL_FloatTensor:$input);
  let results = (outs MDL_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

#endif // MDL_REDUCTION_OPS_TD
