//===- MDLLossOps.td - Loss functions -----------------------*- tablegen -*-===//
//
// Losses: each reduces to a 0-d tensor of the input's float element type,
// averaged (`mean`) or summed (`sum`) over the per-element / per-sample
// losses.
//
//===----------------------------------------------------------------------===//

#ifndef MDL_LOSS_OPS_TD
#define MDL_LOSS_OPS_TD

def MDL_CrossEntropyOp : MDL_InferOp<"cross_entropy"> {
  let summary = "Softmax cross-entropy with integer class labels";
  let description = [{
    `logits` is `[..., C]` (float, C static), `labels` is `[...]`, the
    logits' shape without the class dimension (i32 or i64 class indices in
    `[0, C)`; a float label tensor is rejected): one class index per row of
    logits, `N` rows in all (`NxC` logits and `N` labels for one class per
    sample; `BxTxC` and `BxT` for one per token). Per row:
    `loss_n = logsumexp(logits[n, :]) - logits[n, labels[n]]`, then the
    `mean` (over the N rows) or `sum`. The result is a 0-d tensor.

    PyTorch's `label_smoothing` (`e`, in `[0, 1)`) and class `weight` (`C`
    non-negative values `w`, of the logits' element type; all ones when
    absent) generalise it, with `nll_n = lse_n - logits[n, labels[n]]`:
    `loss_n = (1 - e) * w[labels[n]] * nll_n
              + e / C * sum_c w[c] * (lse_n - logits[n, c])`,
    and `mean` divides the sum by `sum_n w[labels[n]]` (N without weights).

    `ignore_index` (PyTorch's, absent by default): rows whose label equals
    it add nothing to the sum and are left out of the `mean`'s divisor
    (their label is never read as a class, so it may lie outside `[0, C)`).
    When every row is ignored, the `mean` is 0 (PyTorch gives NaN).

    ```mlir
    %l = mdl.cross_entropy mean %logits, %labels : tensor<?x10xf32>, tensor<?xi64> -> tensor<f32>
    %s = mdl.cross_entropy mean %logits, %labels weight %w {label_smoothing = 1.000000e-01 : f64}
        : tensor<?x3xf32>, tensor<?xi64>, tensor<3xf32> -> tensor<f32>
    %t = mdl.cross_entropy mean %logits, %labels {ignore_index = -100 : i64}
        : tensor<?x16x65xf32>, tensor<?x16xi64> -> tensor<f32>
    ```
  }];
  let arguments = (ins MDL_ReductionAttr:$reduction, MDL_FloatTensor:$logits,
                   MDL_Tensor:$labels, Optional<MDL_FloatTensor>:$weight,
                   DefaultValuedAttr<F64Attr, "0.0">:$label_smoothing,
                   OptionalAttr<I64Attr>:$ignore_index);
  let results = (outs MDL_FloatScalar:$result);
  let assemblyFormat = [{
    $reduction $logits `,` $labels (`weight` $weight^)? attr-dict `:`
    type($logits) `,` type($labels) (`,` type($weight)^)? `->` type($result)
  }];
}

/// A loss comparing two float tensors of the same shape elementwise.
class MDL_PairLossOp<string mnemonic, string formula>
    : MDL_InferOp<mnemonic> {
  let summary = "Elementwise loss " # formula;
  let description = [{
    `input` and `target` have the same shape (`?` matches `?` only) and
    float element type. Per element: `}] # formula # [{`, then the `mean`
    over all elements or the `sum`. The result is a 0-d tensor.

    ```mlir
    %l = mdl.}] # mnemonic # [{ mean %y, %t : tensor<?x1xf32>, tensor<?x1xf32> -> tensor<f32>
    ```
  }];
  let arguments = (ins MDL_ReductionAttr:$reduction, MDL_FloatTensor:$input,
                   MDL_FloatTensor:$target);
  let results = (outs MDL_FloatScalar:$result);
  let assemblyFormat = [{
    $reduction $input `,` $target attr-dict `:` type($input) `,`
    type($target) `->` type($result)
  }];
}

def MDL_MSELossOp : MDL_PairLossOp<"mse_loss", "(input - target)^2">;
def MDL_L1LossOp : MDL_PairLossOp<"l1_loss", "|input - target|">;
def MDL_BCEWithLogitsOp : MDL_PairLossOp<"bce_with_logits",
    "max(x, 0) - x * t + log(1 + exp(-|x|)) with x = input, t = target">;

#endif // MDL_LOSS_OPS_TD
