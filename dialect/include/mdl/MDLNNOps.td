//===- MDLNNOps.td - Dropout, normalisation, embedding ------*- tablegen -*-===//
//
// Layers with their own semantics: dropout, batch norm (train and eval),
// layer norm, embedding lookup, scaled-dot-product attention with its
// adjoint, and one causal attention step over a key/value cache.
//
//===----------------------------------------------------------------------===//

#ifndef MDL_NN_OPS_TD
#define MDL_NN_OPS_TD

def MDL_DropoutOp : MDL_InferOp<"dropout"> {
  let summary = "Training-mode dropout with an explicit seed";
  let description = [{
    `output = input * mask / (1 - rate)` and `mask` (i1, the input's shape)
    is returned so that the backward pass reuses it. `rate` is in `[0, 1)`.
    The mask is a pure function of `seed` (0-d i64) and each element's
    row-major linear index `i`: Philox4x32-10 with key
    `(lo32(seed), hi32(seed))` and counter `(lo32(i), hi32(i), 0, 0)`; the
    first output word `w` gives `u = (w >> 8) * 2^-24` in [0, 1), and
    `mask[i] = u >= rate`, so `P(mask) = 1 - rate`. Emitted only for
    training; evaluation uses the input unchanged.

    With `per_channel` (an input of rank >= 3, `[N, C, ...]`: PyTorch's
    Dropout2d/3d), the whole feature map `[n, c, ...]` is kept or zeroed:
    the counter index is `i = n * C + c` instead of the element's.

    ```mlir
    %y, %mask = mdl.dropout %x, %seed {rate = 2.500000e-01 : f64}
        : tensor<?x128xf32>, tensor<i64> -> tensor<?x128xf32>, tensor<?x128xi1>
    ```
  }];
  let arguments = (ins MDL_FloatTensor:$input, MDL_SeedTensor:$seed,
                   F64Attr:$rate,
                   DefaultValuedAttr<BoolAttr, "false">:$per_channel);
  let results = (outs MDL_FloatTensor:$output, MDL_BoolTensor:$mask);
  let assemblyFormat = [{
    $input `,` $seed attr-dict `:` type($input) `,` type($seed) `->`
    type($output) `,` type($mask)
  }];
}

def MDL_BatchNormTrainOp : MDL_InferOp<"batch_norm_train"> {
  let summary = "Batch normalisation with batch statistics (training)";
  let description = [{
    `input` is `NxC` or `NxCxHxW` (rank >= 2, channels on dimension 1);
    `gamma` and `beta` are `C`. With the per-channel batch mean `m` and
    biased variance `v` over all other dimensions:
    `output = (input - m) / sqrt(v + epsilon) * gamma + beta`.
    Results: `output`, `batch_mean` (`C`), `batch_var` (`C`, biased).
    The op does not touch state: the caller updates the running statistics
    with `momentum` (PyTorch convention):
    `running_mean = (1 - momentum) * running_mean + momentum * m` and
    `running_var = (1 - momentum) * running_var + momentum * v * n/(n-1)`
    (`n` elements per channel), via `mdl.state_read` / `mdl.state_write`.

    With `sync` (data-parallel training, docs/distributed.md) the
    statistics are those of the global batch: each rank's per-channel sums
    and element counts are summed over the ranks (`mdl.all_reduce`'s
    semantics) before the mean, and again the centred squares before the
    variance, so every rank normalises with the same `m` and `v`. The
    gradient likewise sums its per-channel reductions over the ranks.
    With one process `sync` changes nothing.

    ```mlir
    %y, %m, %v = mdl.batch_norm_train %x, %g, %b {epsilon = 1.000000e-05 : f64}
        : tensor<?x32x28x28xf32>, tensor<32xf32>, tensor<32xf32>
        -> tensor<?x32x28x28xf32>, tensor<32xf32>, tensor<32xf32>
    ```
  }];
  let arguments = (ins MDL_FloatTensor:$input, MDL_FloatTensor:$gamma,
                   MDL_FloatTensor:$beta,
                   DefaultValuedAttr<F64Attr, "1e-5">:$epsilon,
                   DefaultValuedAttr<F64Attr, "0.1">:$momentum,
                   DefaultValuedAttr<BoolAttr, "false">:$sync);
  let results = (outs MDL_FloatTensor:$output, MDL_FloatTensor:$batch_mean,
                 MDL_FloatTensor:$batch_var);
  let assemblyFormat = [{
    $input `,` $gamma `,` $beta attr-dict `:` type($input) `,` type($gamma)
    `,` type($beta) `->` type($output) `,` type($batch_mean) `,`
    type($batch_var)
  }];
}

def MDL_BatchNormEvalOp : MDL_InferOp<"batch_norm_eval"> {
  let summary = "Batch normalisation with running statistics (inference)";
  let description = [{
    `output = (input - running_mean) / sqrt(running_var + epsilon) * gamma
    + beta`, per channel (dimension 1). `gamma`, `beta`, `running_mean`,
    `running_var` are all `C`.

    ```mlir
    %y = mdl.batch_norm_eval %x, %g, %b, %rm, %rv
        : tensor<?x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32> -> tensor<?x32xf32>
    ```
  }];
  let arguments = (ins MDL_FloatTensor:$input, MDL_FloatTensor:$gamma,
                   MDL_FloatTensor:$beta, MDL_FloatTensor:$running_mean,
                   MDL_FloatTensor:$running_var,
                   DefaultValuedAttr<F64Attr, "1e-5">:$epsilon);
  let results = (outs MDL_FloatTensor:$output);
  let assemblyFormat = [{
    $input `,` $gamma `,` $beta `,` $running_mean `,` $running_var attr-dict
    `:` type($input) `,` type($gamma) `,` type($beta) `,`
    type($running_mean) `,` type($running_var) `->` type($output)
  }];
}

def MDL_LayerNormOp : MDL_InferOp<"layer_norm"> {
  let summary = "Layer normalisation over the trailing dimensions";
  let description = [{
    The normalised shape is `gamma`'s shape (= `beta`'s), which must equal
    the trailing dimensions of `input` (static, rank >= 1, less than the
    input's rank). Mean and biased variance are taken over those dimensions:
    `output = (input - mean) / sqrt(var + epsilon) * gamma + beta`.

    ```mlir
    %y = mdl.layer_norm %x, %g, %b : tensor<?x16x64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<?x16x64xf32>
    ```
  }];
  let arguments = (ins MDL_FloatTensor:$input, MDL_FloatTensor:$gamma,
                   MDL_FloatTensor:$beta,
                   DefaultValuedAttr<F64Attr, "1e-5">:$epsilon);
  let results = (outs MDL_FloatTensor:$output);
  let assemblyFormat = [{
    $input `,` $gamma `,` $beta attr-dict `:` type($input) `,` type($gamma)
    `,` type($beta) `->` type($output)
  }];
}

def MDL_EmbeddingOp : MDL_InferOp<"embedding"> {
  let summary = "Looks up rows of a table";
  let description = [{
    `indices` (i32 or i64, any shape S) select rows of `table` (`NxD`,
    float); the result has shape `S x D`. An index outside `[0, N)` is a
    run-time error reported by the runtime.

    ```mlir
    %e = mdl.embedding %tokens, %table : tensor<?x16xi64>, tensor<1000x64xf32> -> tensor<?x16x64xf32>
    ```
  }];
  let arguments = (ins MDL_Tensor:$indices, MDL_FloatTensor:$table);
  let results = (outs MDL_FloatTensor:$result);
  let assemblyFormat = [{
    $indices `,` $table attr-dict `:` type($indices) `,` type($table) `->`
    type($result)
  }];
}

def MDL_AttentionOp : MDL_InferOp<"attention"> {
  let summary = "Scaled-dot-product attention over heads";
  let description = [{
    `query` is `BxHxTqxD`, `key` and `value` are `BxHxTkxD` (B and H equal,
    only B may be dynamic); the result is `BxHxTqxD`:
    `softmax(query @ key^T / sqrt(D) + mask) @ value` along the keys, as
    PyTorch's `scaled_dot_product_attention`. With `causal`, query `i` sees
    the keys `j <= i + Tk - Tq` (the mask aligned at the bottom right, so
    `Tq == Tk` is causal self-attention); then `Tq <= Tk`.

    ```mlir
    %o = mdl.attention %q, %k, %v {causal = true}
        : tensor<?x4x128x32xf32>, tensor<?x4x128x32xf32>, tensor<?x4x128x32xf32> -> tensor<?x4x128x32xf32>
    ```
  }];
  let arguments = (ins MDL_FloatTensor:$query, MDL_FloatTensor:$key,
                   MDL_FloatTensor:$value,
                   DefaultValuedAttr<BoolAttr, "false">:$causal);
  let results = (outs MDL_FloatTensor:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value attr-dict `:` type($query) `,` type($key) `,`
    type($value) `->` type($result)
  }];
}

def MDL_AttentionGradOp : MDL_InferOp<"attention_grad"> {
  let summary = "The adjoint of mdl.attention";
  let description = [{
    The gradients of `mdl.attention`'s three operands, given its operands,
    its result `output` and the result's gradient `grad` (both `BxHxTqxD`):
    with `P` the attention weights, `dV = P^T @ grad`, `dP = grad @ V^T`,
    `dS = P * (dP - rowsum(grad * output)) / sqrt(D)`, `dQ = dS @ K` and
    `dK = dS^T @ Q`. Same `causal` as the forward.

    ```mlir
    %dq, %dk, %dv = mdl.attention_grad %q, %k, %v, %o, %g {causal = true}
        : tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>
        -> tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>
    ```
  }];
  let arguments = (ins MDL_FloatTensor:$query, MDL_FloatTensor:$key,
                   MDL_FloatTensor:$value, MDL_FloatTensor:$output,
                   MDL_FloatTensor:$grad,
                   DefaultValuedAttr<BoolAttr, "false">:$causal);
  let results = (outs MDL_FloatTensor:$query_grad, MDL_FloatTensor:$key_grad,
                 MDL_FloatTensor:$value_grad);
  let assemblyFormat = [{
    $query `,` $key `,` $value `,` $output `,` $grad attr-dict `:`
    type($query) `,` type($key) `,` type($value) `,` type($output) `,`
    type($grad) `->` type($query_grad) `,` type($key_grad) `,`
    type($value_grad)
  }];
}

def MDL_AttentionPackedOp : MDL_InferOp<"attention_packed"> {
  let summary = "Self-attention over the packed output of a fused projection";
  let description = [{
    `qkv` is `BxTx3xHxD`: each position's query, key and value for every
    head, as a transformer's one `3*H*D`-wide projection computes them.
    The result is `BxTxHxD`, each position's heads side by side. With
    `q = qkv[:, :, 0]` (and `k`, `v` at 1, 2) moved to `BxHxTxD`, it is
    `mdl.attention %q, %k, %v` moved back to `BxTxHxD`: the op
    modelc-pack-attention forms from exactly that pattern of transposes,
    slices and reshapes, so that the CPU kernels read and write these
    layouts in place. Only B may be dynamic.

    ```mlir
    %o = mdl.attention_packed %qkv {causal = true}
        : tensor<?x128x3x4x32xf32> -> tensor<?x128x4x32xf32>
    ```
  }];
  let arguments = (ins MDL_FloatTensor:$qkv,
                   DefaultValuedAttr<BoolAttr, "false">:$causal);
  let results = (outs MDL_FloatTensor:$result);
  let assemblyFormat = [{
    $qkv attr-dict `:` type($qkv) `->` type($result)
  }];
}

def MDL_AttentionPackedGradOp : MDL_InferOp<"attention_packed_grad"> {
  let summary = "The adjoint of mdl.attention_packed";
  let description = [{
    The gradient of `mdl.attention_packed` with respect to `qkv`
    (`BxTx3xHxD`, laid out as `qkv`), given `qkv`, the forward's result
    `output` and the result's gradient `grad` (both `BxTxHxD`): the
    gradients of `mdl.attention_grad` for the query, key and value, each
    in its place. Same `causal` as the forward.

    ```mlir
    %d = mdl.attention_packed_grad %qkv, %o, %g {causal = true}
        : tensor<?x128x3x4x32xf32>, tensor<?x128x4x32xf32>, tensor<?x128x4x32xf32>
        -> tensor<?x128x3x4x32xf32>
    ```
  }];
  let arguments = (ins MDL_FloatTensor:$qkv, MDL_FloatTensor:$output,
                   MDL_FloatTensor:$grad,
                   DefaultValuedAttr<BoolAttr, "false">:$causal);
  let results = (outs MDL_FloatTensor:$qkv_grad);
  let assemblyFormat = [{
    $qkv `,` $output `,` $grad attr-dict `:` type($qkv) `,` type($output)
    `,` type($grad) `->` type($qkv_grad)
  }];
}

def MDL_AttentionDecodeOp
    : MDL_InferOp<"attention_decode", [MDL_NonDifferentiable]> {
  let summary = "Causal attention of one position over a key/value cache";
  let description = [{
    One step of causal self-attention decoding: `query`, `key` and `value`
    are `BxHx1xD`, the caches `BxHxTxD` (T the positions a decoder steps
    through). The results are the caches with rows `position` replaced by
    `key` and `value`, and the attention of `query` over rows `0..position`
    of the new caches: as `mdl.attention` with `causal` over the whole
    sequence, at query `position`. `position` must be in `[0, T)`; rows
    after it are never read. No gradient: decoding does not train.

    ```mlir
    %o, %kc2, %vc2 = mdl.attention_decode %q, %k, %v, %kc, %vc, %pos
        : tensor<1x4x1x16xf32>, tensor<1x4x1x16xf32>, tensor<1x4x1x16xf32>,
          tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<i64>
        -> tensor<1x4x1x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>
    ```
  }];
  let arguments = (ins MDL_FloatTensor:$query, MDL_FloatTensor:$key,
                   MDL_FloatTensor:$value, MDL_FloatTensor:$key_cache,
                   MDL_FloatTensor:$value_cache,
                   MDL_PositionTensor:$position);
  let results = (outs MDL_FloatTensor:$result, MDL_FloatTensor:$new_key_cache,
                 MDL_FloatTensor:$new_value_cache);
  let assemblyFormat = [{
    $query `,` $key `,` $value `,` $key_cache `,` $value_cache `,` $position
    attr-dict `:` type($query) `,` type($key) `,` type($value) `,`
    type($key_cache) `,` type($value_cache) `,` type($position) `->`
    type($result) `,` type($new_key_cache) `,` type($new_value_cache)
  }];
}

#endif // MDL_NN_OPS_TD
