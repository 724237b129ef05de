//===- MDLGradientOps.td - Helper ops of backward passes ----*- tablegen -*-===//
//
// Ops that only the autodiff pass emits: the adjoints of forward ops whose
// backward cannot be written with the other mdl ops (scatters, transposed
// convolutions, pooling routes, erf-based derivative, one-hot of labels).
// Each takes the incoming gradient and the forward operands it needs; a
// forward operand that only supplies a shape is named `input`/`weight`/
// `table` as in the forward op. The result always has that operand's type.
//
//===----------------------------------------------------------------------===//

#ifndef MDL_GRADIENT_OPS_TD
#define MDL_GRADIENT_OPS_TD

def MDL_GeluGradOp : MDL_Op<"gelu_grad",
    [Pure, SameOperandsAndResultType, InferTypeOpInterface]> {
  let summary = "Gradient of the exact gelu";
  let description = [{
    `result = grad * (Phi(x) + x * phi(x))` elementwise with `x = input`,
    `Phi(x) = 0.5 * (1 + erf(x / sqrt(2)))` and
    `phi(x) = exp(-x^2 / 2) / sqrt(2 * pi)`: the adjoint of `mdl.gelu`.
    Both operands and the result have the same type.

    ```mlir
    %dx = mdl.gelu_grad %x, %g : tensor<?x128xf32>
    ```
  }];
  let arguments = (ins MDL_FloatTensor:$input, MDL_FloatTensor:$grad);
  let results = (outs MDL_FloatTensor:$result);
  let assemblyFormat = "$input `,` $grad attr-dict `:` type($result)";
}

def MDL_CrossEntropyGradOp : MDL_InferOp<"cross_entropy_grad"> {
  let summary = "Gradient of cross_entropy with respect to the logits";
  let description = [{
    The stable adjoint of `mdl.cross_entropy`:
    `result[n, c] = (softmax(logits[n, :])[c] - (c == labels[n])) * grad / D`
    where `grad` is the 0-d adjoint of the loss and `D` is `N` (the run-time
    number of rows: samples, or tokens of `[..., C]` logits) for `mean` and
    1 for `sum`. The softmax is computed
    with the max subtracted; `log(softmax(x))` is never formed. Operands as
    for `mdl.cross_entropy`; the result has the logits' type. With
    `label_smoothing` `e` and class `weight` `w` (as for `mdl.cross_entropy`,
    `p` the softmax, `y = labels[n]`):
    `result[n, c] = ((1 - e) * w[y] * (p[c] - (c == y))
                     + e / C * (p[c] * sum(w) - w[c])) * grad / D`,
    `D` = `sum_n w[labels[n]]` for a weighted `mean`. With `ignore_index`,
    ignored rows get 0 and leave `D` (1 when every row is ignored).

    ```mlir
    %dl = mdl.cross_entropy_grad mean %logits, %labels, %g
        : tensor<?x10xf32>, tensor<?xi64>, tensor<f32> -> tensor<?x10xf32>
    ```
  }];
  let arguments = (ins MDL_ReductionAttr:$reduction, MDL_FloatTensor:$logits,
                   MDL_Tensor:$labels, MDL_FloatScalar:$grad,
                   Optional<MDL_FloatTensor>:$weight,
                   DefaultValuedAttr<F64Attr, "0.0">:$label_smoothing,
                   OptionalAttr<I64Attr>:$ignore_index);
  let results = (outs MDL_FloatTensor:$result);
  let assemblyFormat = [{
    $reduction $logits `,` $labels `,` $grad (`weight` $weight^)? attr-dict
    `:` type($logits) `,` type($labels) `,` type($grad) (`,` type($weight)^)?
    `->` type($result)
  }];
}

def MDL_SliceGradOp : MDL_InferOp<"slice_grad"> {
  let summary = "Scatters a slice's gradient into zeros of the input's shape";
  let description = [{
    The adjoint of `mdl.slice`: a tensor of `input`'s type that is zero
    except at the sliced positions, where
    `result[start + i * stride] = grad[i]` (per dimension). `input` only
    supplies the shape. `grad` has the forward slice's result type (same
    rank and element type as `input`); `start >= 0`, `stride >= 1`, and on a
    static dimension the last index `start + (size - 1) * stride` lies inside
    it. A dynamic `grad` dimension requires a dynamic input dimension,
    start 0 and stride 1 (the whole extent).

    ```mlir
    %dx = mdl.slice_grad %g, %x {start = array<i64: 0, 2>, stride = array<i64: 1, 1>}
        : tensor<?x4xf32>, tensor<?x10xf32> -> tensor<?x10xf32>
    ```
  }];
  let arguments = (ins MDL_FloatTensor:$grad, MDL_FloatTensor:$input,
                   DenseI64ArrayAttr:$start, DenseI64ArrayAttr:$stride);
  let results = (outs MDL_FloatTensor:$result);
  let assemblyFormat = [{
    $grad `,` $input attr-dict `:` type($grad) `,` type($input) `->`
    type($result)
  }];
}

def MDL_EmbeddingGradOp : MDL_InferOp<"embedding_grad"> {
  let summary = "Scatter-adds an embedding's gradient into the table's shape";
  let description = [{
    The adjoint of `mdl.embedding` with respect to the table:
    `result[r, :] = sum of grad[p, :] over every index position p with
    indices[p] == r` (zero rows for indices never used). `indices` has
    shape S (i32/i64), `grad` has shape `S x D`, `table` (`NxD`, static)
    only supplies the type of the result.

    ```mlir
    %dt = mdl.embedding_grad %g, %tokens, %table
        : tensor<?x16x64xf32>, tensor<?x16xi64>, tensor<1000x64xf32> -> tensor<1000x64xf32>
    ```
  }];
  let arguments = (ins MDL_FloatTensor:$grad, MDL_Tensor:$indices,
                   MDL_FloatTensor:$table);
  let results = (outs MDL_FloatTensor:$result);
  let assemblyFormat = [{
    $grad `,` $indices `,` $table attr-dict `:` type($grad) `,`
    type($indices) `,` type($table) `->` type($result)
  }];
}

/// Shared arguments of the two conv2d adjoints: the forward op's attributes.
class MDL_Conv2DGradOp<string mnemonic, string target, string formula>
    : MDL_InferOp<mnemonic> {
  let summary = "Gradient of conv2d with respect to its " # target;
  let description = [{
    The adjoint of `mdl.conv2d` with the same `stride`, `padding`,
    `dilation` and `groups`: }] # formula # [{ `grad` has the forward
    result's type (`NxOxOHxOW`), which must match the forward shape rule;
    the result has the type of the `}] # target # [{` operand, which only
    supplies the shape.
  }];
  let arguments = (ins MDL_FloatTensor:$grad, MDL_FloatTensor:$other_operand,
                   MDL_FloatTensor:$target_operand,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$stride,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
                   DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs MDL_FloatTensor:$result);
  let assemblyFormat = [{
    $grad `,` $other_operand `,` $target_operand attr-dict `:` type($grad)
    `,` type($other_operand) `,` type($target_operand) `->` type($result)
  }];
}

def MDL_Conv2DGradInputOp : MDL_Conv2DGradOp<"conv2d_grad_input", "input", [{
    `result[n, c, h, w] = sum over o in c's group, kh, kw with
    h + pad_h = oh * stride_h + kh * dil_h (same for w) of
    grad[n, o, oh, ow] * weight[o, c mod (C/groups), kh, kw]` (a transposed
    convolution). Operands: `grad`, `weight` (the forward weight),
    `input` (the forward input).

    ```mlir
    %dx = mdl.conv2d_grad_input %g, %w, %x {padding = array<i64: 1, 1>}
        : tensor<?x8x6x6xf32>, tensor<8x3x3x3xf32>, tensor<?x3x6x6xf32> -> tensor<?x3x6x6xf32>
    ```
  }]> {
  let extraClassDeclaration = [{
    ::mlir::Value getWeight() { return getOtherOperand(); }
    ::mlir::Value getInput() { return getTargetOperand(); }
  }];
}

def MDL_Conv2DGradWeightOp : MDL_Conv2DGradOp<"conv2d_grad_weight", "weight", [{
    `result[o, ci, kh, kw] = sum over n, oh, ow of grad[n, o, oh, ow] *
    input[n, g * (C/groups) + ci, oh * stride_h + kh * dil_h - pad_h,
    ow * stride_w + kw * dil_w - pad_w]` (g = o's group; out-of-range input
    positions count as 0). Operands: `grad`, `input` (the forward input),
    `weight` (the forward weight).

    ```mlir
    %dw = mdl.conv2d_grad_weight %g, %x, %w {padding = array<i64: 1, 1>}
        : tensor<?x8x6x6xf32>, tensor<?x3x6x6xf32>, tensor<8x3x3x3xf32> -> tensor<8x3x3x3xf32>
    ```
  }]> {
  let extraClassDeclaration = [{
    ::mlir::Value getInput() { return getOtherOperand(); }
    ::mlir::Value getWeight() { return getTargetOperand(); }
  }];
}

/// Shared definition of the pooling adjoints.
class MDL_Pool2DGradOp<string mnemonic, string formula>
    : MDL_InferOp<mnemonic> {
  let summary = "Gradient of " # !subst("_grad", "", mnemonic);
  let description = [{
    The adjoint of `mdl.}] # !subst("_grad", "", mnemonic) # [{` with the
    same `kernel`, `stride` and `padding`: }] # formula # [{ `grad` has
    the forward result's type, `input` is the forward input; the result has
    the input's type.

    ```mlir
    %dx = mdl.}] # mnemonic # [{ %g, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}
        : tensor<?x8x14x14xf32>, tensor<?x8x28x28xf32> -> tensor<?x8x28x28xf32>
    ```
  }];
  let arguments = (ins MDL_FloatTensor:$grad, MDL_FloatTensor:$input,
                   DenseI64ArrayAttr:$kernel, DenseI64ArrayAttr:$stride,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding);
  let results = (outs MDL_FloatTensor:$result);
  let assemblyFormat = [{
    $grad `,` $input attr-dict `:` type($grad) `,` type($input) `->`
    type($result)
  }];
}

def MDL_MaxPool2DGradOp : MDL_Pool2DGradOp<"max_pool2d_grad", [{
    each output gradient `grad[n, c, oh, ow]` is added to the input
    position of its window's maximum (the first one in row-major window
    order on ties, as PyTorch; padding never wins); other positions get 0.
  }]>;

def MDL_AvgPool2DGradOp : MDL_Pool2DGradOp<"avg_pool2d_grad", [{
    each output gradient is spread over its window:
    `grad[n, c, oh, ow] / (KH * KW)` is added to every in-range input
    position of the window (padding counted in the divisor, as the forward
    `count_include_pad`).
  }]>;

#endif // MDL_GRADIENT_OPS_TD
