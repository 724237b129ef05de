//===- MDLProductOps.td - Matmul, convolution, pooling ------*- tablegen -*-===//
//
// Products (matmul, batch_matmul, conv2d) and 2-D pooling.
//
//===----------------------------------------------------------------------===//

#ifndef MDL_PRODUCT_OPS_TD
#define MDL_PRODUCT_OPS_TD

def MDL_MatmulOp : MDL_InferOp<"matmul"> {
  let summary = "Matrix product over the last dimension of lhs";
  let description = [{
    `lhs` has rank >= 2 (`...xMxK`, leading dims may include the dynamic
    batch), `rhs` is 2-D `KxN`; the result is `...xMxN`. For rank-2 `lhs`
    this is the ordinary matrix product. Element types must match.

    ```mlir
    %y = mdl.matmul %x, %w : tensor<?x784xf32>, tensor<784x128xf32> -> tensor<?x128xf32>
    ```
  }];
  let arguments = (ins MDL_NumericTensor:$lhs, MDL_NumericTensor:$rhs);
  let results = (outs MDL_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
}

def MDL_BatchMatmulOp : MDL_InferOp<"batch_matmul"> {
  let summary = "Batched matrix product";
  let description = [{
    `lhs` is `[a..., M, K]`, `rhs` is `[b..., K, N]`, both of rank >= 2
    and one of rank >= 3 (`torch.matmul` on two matrices or stacks of
    them). The batch dimensions `a...` and `b...` broadcast by the numpy
    rule (aligned at the last; sizes equal or 1; a missing dimension counts
    as 1) to `c...`, and the result is `[c..., M, N]`.

    ```mlir
    %y = mdl.batch_matmul %q, %k : tensor<?x8x16xf32>, tensor<?x16x8xf32> -> tensor<?x8x8xf32>
    %z = mdl.batch_matmul %a, %w : tensor<?x4x8x16xf32>, tensor<16x8xf32> -> tensor<?x4x8x8xf32>
    ```
  }];
  let arguments = (ins MDL_NumericTensor:$lhs, MDL_NumericTensor:$rhs);
  let results = (outs MDL_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
}

def MDL_Conv2DOp : MDL_InferOp<"conv2d"> {
  let summary = "2-D convolution (NCHW input, OIHW weight)";
  let description = [{
    `input` is `NxCxHxW`, `weight` is `Ox(C/groups)xKHxKW`, the optional
    `bias` is `O`. `stride`, `padding` (symmetric, per spatial dim),
    `dilation` have two entries each (defaults 1, 0, 1); `groups` divides
    both C and O. Output spatial size:
    `(H + 2*pad - dilation*(KH-1) - 1) / stride + 1` (floor), must be >= 1.

    ```mlir
    %y = mdl.conv2d %x, %w, %b {padding = array<i64: 1, 1>}
        : tensor<?x1x28x28xf32>, tensor<32x1x3x3xf32>, tensor<32xf32> -> tensor<?x32x28x28xf32>
    ```
  }];
  let arguments = (ins MDL_FloatTensor:$input, MDL_FloatTensor:$weight,
                   Optional<MDL_FloatTensor>:$bias,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$stride,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
                   DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs MDL_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:` type($input) `,`
    type($weight) (`,` type($bias)^)? `->` type($result)
  }];
}

/// Shared definition of max and average pooling.
class MDL_Pool2DOp<string mnemonic, string what> : MDL_InferOp<mnemonic> {
  let summary = "2-D " # what # " pooling (NCHW)";
  let description = [{
    `input` is `NxCxHxW`. `kernel` and `stride` (two entries each) are
    required; `padding` defaults to 0 and must be at most half the kernel.
    Output spatial size `(H + 2*pad - KH) / stride + 1` (floor).
    Average pooling divides by the full kernel area (padding counted, as
    PyTorch's `count_include_pad=True`); max pooling pads with -inf.

    ```mlir
    %y = mdl.}] # mnemonic # [{ %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}
        : tensor<?x32x28x28xf32> -> tensor<?x32x14x14xf32>
    ```
  }];
  let arguments = (ins MDL_FloatTensor:$input, DenseI64ArrayAttr:$kernel,
                   DenseI64ArrayAttr:$stride,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding);
  let results = (outs MDL_FloatTensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($result)
  }];
}

def MDL_MaxPool2DOp : MDL_Pool2DOp<"max_pool2d", "max">;
def MDL_AvgPool2DOp : MDL_Pool2DOp<"avg_pool2d", "average">;

#endif // MDL_PRODUCT_OPS_TD
