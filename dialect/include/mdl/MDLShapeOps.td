//===- MDLShapeOps.td - Reshape, transpose, concat, ... -----*- tablegen -*-===//
//
// Ops that move or reinterpret elements without arithmetic: reshape,
// flatten, transpose, broadcast_to, concat, slice.
//
//===----------------------------------------------------------------------===//

#ifndef MDL_SHAPE_OPS_TD
#define MDL_SHAPE_OPS_TD

def MDL_ReshapeOp : MDL_InferOp<"reshape"> {
  let summary = "Reinterprets the elements with a new shape";
  let description = [{
    Row-major reshape to `shape`. Every entry is a static size except that
    entry 0 may be -1 (the dynamic batch dimension, printed `?`), which is
    allowed exactly when the input's dimension 0 is dynamic; then the sizes
    after dimension 0 must hold the same number of elements in input and
    result (the batch is preserved). Static shapes must hold the same number
    of elements. Reshaping to the input's type folds away; a reshape of a
    reshape folds into one.

    ```mlir
    %y = mdl.reshape %x {shape = array<i64: -1, 64, 7, 7>} : tensor<?x3136xf32> -> tensor<?x64x7x7xf32>
    ```
  }];
  let arguments = (ins MDL_Tensor:$input, DenseI64ArrayAttr:$shape);
  let results = (outs MDL_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def MDL_FlattenOp : MDL_InferOp<"flatten"> {
  let summary = "Merges a range of dimensions into one";
  let description = [{
    Merges dimensions `start_dim` .. `end_dim` (inclusive; defaults 1 and -1;
    negative values count from the end; start <= end) into one whose size is
    their product (`?` if any of them is dynamic), like `torch.flatten`.

    ```mlir
    %y = mdl.flatten %x : tensor<?x64x7x7xf32> -> tensor<?x3136xf32>
    ```
  }];
  let arguments = (ins MDL_Tensor:$input,
                   DefaultValuedAttr<I64Attr, "1">:$start_dim,
                   DefaultValuedAttr<I64Attr, "-1">:$end_dim);
  let results = (outs MDL_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def MDL_TransposeOp : MDL_InferOp<"transpose"> {
  let summary = "Permutes the dimensions";
  let description = [{
    `result.shape[i] = input.shape[permutation[i]]`; `permutation` is a
    permutation of `0 .. rank-1`. The identity permutation folds away; a
    transpose of a transpose folds into one with the composed permutation.

    ```mlir
    %y = mdl.transpose %x {permutation = array<i64: 0, 2, 1>} : tensor<?x8x16xf32> -> tensor<?x16x8xf32>
    ```
  }];
  let arguments = (ins MDL_Tensor:$input, DenseI64ArrayAttr:$permutation);
  let results = (outs MDL_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def MDL_BroadcastToOp : MDL_InferOp<"broadcast_to"> {
  let summary = "Broadcasts to a static shape or to another tensor's shape";
  let description = [{
    Exactly one of `shape` (a fully static target shape) or the `like`
    operand (take the target shape, `?` included, from that tensor) gives
    the target. The input must broadcast to it by the numpy rule (aligned at
    the trailing dimension; each input size equals the target size or is 1;
    an input `?` may only meet a target `?` or a size it will equal at run
    time). A broadcast to the input's own static type folds away.

    ```mlir
    %y = mdl.broadcast_to %b {shape = array<i64: 4, 128>} : tensor<128xf32> -> tensor<4x128xf32>
    %z = mdl.broadcast_to %b like %x : tensor<128xf32>, tensor<?x128xf32> -> tensor<?x128xf32>
    ```
  }];
  let arguments = (ins MDL_Tensor:$input, Optional<MDL_Tensor>:$like,
                   OptionalAttr<DenseI64ArrayAttr>:$shape);
  let results = (outs MDL_Tensor:$result);
  let assemblyFormat = [{
    $input (`like` $like^)? attr-dict `:` type($input) (`,` type($like)^)?
    `->` type($result)
  }];
  let hasFolder = 1;
}

def MDL_ConcatOp : MDL_InferOp<"concat"> {
  let summary = "Joins tensors along one axis";
  let description = [{
    At least one input; all have the same rank and element type and equal
    sizes on every dimension but `axis` (in `[-rank, rank)`). The result
    size along `axis` is the sum (`?` if any input's is dynamic).

    ```mlir
    %y = mdl.concat %a, %b {axis = 1 : i64} : tensor<?x3xf32>, tensor<?x5xf32> -> tensor<?x8xf32>
    ```
  }];
  let arguments = (ins Variadic<MDL_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs MDL_Tensor:$result);
  let assemblyFormat = [{
    $inputs attr-dict `:` type($inputs) `->` type($result)
  }];
}

def MDL_SliceOp : MDL_InferOp<"slice"> {
  let summary = "A strided static window";
  let description = [{
    Picks, on every dimension `d`, `size[d]` elements starting at `start[d]`
    `stride[d]` apart (`start >= 0`, `size >= 0`, `stride >= 1`, last index
    `start + (size-1)*stride` within a static dimension). On a dynamic
    dimension `size = -1` takes the whole extent (requires start 0, stride 1)
    and keeps it dynamic. The result shape is `size`.

    ```mlir
    %y = mdl.slice %x {start = array<i64: 0, 2>, size = array<i64: -1, 4>, stride = array<i64: 1, 1>}
        : tensor<?x10xf32> -> tensor<?x4xf32>
    ```
  }];
  let arguments = (ins MDL_Tensor:$input, DenseI64ArrayAttr:$start,
                   DenseI64ArrayAttr:$size, DenseI64ArrayAttr:$stride);
  let results = (outs MDL_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def MDL_PositionRowOp : MDL_InferOp<"position_row", [MDL_NonDifferentiable]> {
  let summary = "One row of a positional table, at a run-time position";
  let description = [{
    Row `position` of a `RxD` table, as a `1xD` tensor: the row a decoding
    step adds at the position it computes (`positions(table, T)` of the
    model, one row at a time). `position` must be in `[0, R)`; it is not
    checked here (the runtime's decoder keeps it below the model's length,
    which is at most R). No gradient: decoding does not train.

    ```mlir
    %row = mdl.position_row %table, %pos : tensor<64x32xf32>, tensor<i64> -> tensor<1x32xf32>
    ```
  }];
  let arguments = (ins MDL_Tensor:$table, MDL_PositionTensor:$position);
  let results = (outs MDL_Tensor:$result);
  let assemblyFormat = [{
    $table `,` $position attr-dict `:` type($table) `,` type($position) `->`
    type($result)
  }];
}

#endif // MDL_SHAPE_OPS_TD
