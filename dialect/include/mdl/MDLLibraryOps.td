//===- MDLLibraryOps.td - Destination-style ops a library computes -*- tablegen -*-===//
//
// The ops convert-mdl-to-linalg emits for work that a library does better
// than generated loops: an f32 groups = 1 2-D convolution (with or without
// a bias) and its two adjoints, and f32 max and average pooling and their
// adjoints, with static channel and spatial sizes (the batch may be dynamic); and an embedding
// table's gradient, a scatter-add by the indices' values; f32
// scaled-dot-product attention and its adjoint, the same on the packed
// layout of a fused projection, and one decoding step of it over a
// key/value cache; and the sum of an f64 buffer over the ranks of a
// data-parallel run. Unlike the rest of
// mdl they are in destination-passing style: their last operand `init` is
// the destination, which they write whole and never read; on tensors they
// return it, after bufferization they work on memrefs and return nothing.
// The CPU pipeline turns each into a call of the runtime
// (modelc-library-to-calls); a target without the library expands them into
// linalg first (modelc-expand-library-ops: im2col and one GEMM for the
// convolutions, the generic window loops for pooling, a masked reduction
// over the positions for the embedding gradient, the unfused products and
// softmax for attention, its adjoint and its decoding step, a copy for the
// sum over the ranks).
//
//===----------------------------------------------------------------------===//

#ifndef MDL_LIBRARY_OPS_TD
#define MDL_LIBRARY_OPS_TD

include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"

/// A rank-4 f32 tensor or memref.
def MDL_LibraryOperand : AnyTypeOf<[TensorRankOf<[F32], [4]>,
                                    MemRefRankOf<[F32], [4]>]>;
/// A rank-1 f32 tensor or memref (a convolution's bias).
def MDL_LibraryBiasOperand : AnyTypeOf<[TensorRankOf<[F32], [1]>,
                                        MemRefRankOf<[F32], [1]>]>;
/// A rank-5 f32 tensor or memref (packed attention's BxTx3xHxD).
def MDL_LibraryOperand5D : AnyTypeOf<[TensorRankOf<[F32], [5]>,
                                      MemRefRankOf<[F32], [5]>]>;

/// The traits and interfaces of every library op: destination style (the
/// last operand), memory effects on memrefs, bufferization in place.
class MDL_LibraryOp<string mnemonic> : MDL_Op<mnemonic, [
    DestinationStyleOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<BufferizableOpInterface,
        ["bufferizesToMemoryRead", "bufferizesToMemoryWrite",
         "getAliasingValues", "bufferize"]>]> {
  let results = (outs Optional<RankedTensorOf<[F32]>>:$result);
  let assemblyFormat = [{
    operands attr-dict `:` type(operands) (`->` type($result)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getInitMutable();
    }
  }];
}

/// Shared definition of the four convolution ops: their operands (named per
/// op below) and the destination `init`; the convolution's stride,
/// symmetric padding and dilation (two entries each).
class MDL_LibraryConvOp<string mnemonic, string what, dag inputs,
                        string operandsDoc>
    : MDL_LibraryOp<mnemonic> {
  let summary = "2-D convolution " # what # " (NCHW, OIHW), for a library";
  let description = [{
    Operands: }] # operandsDoc # [{ Only the batch may be dynamic; the
    output size follows `mdl.conv2d`'s rule. `init` is overwritten, never
    read.

    ```mlir
    %y = mdl.lib_conv2d %x, %w, %init {padding = array<i64: 1, 1>}
        : tensor<?x1x28x28xf32>, tensor<32x1x3x3xf32>, tensor<?x32x28x28xf32>
        -> tensor<?x32x28x28xf32>
    mdl.lib_conv2d %xb, %wb, %yb {padding = array<i64: 1, 1>}
        : memref<?x1x28x28xf32>, memref<32x1x3x3xf32>, memref<?x32x28x28xf32>
    ```
  }];
  let arguments = !con(inputs, (ins
      MDL_LibraryOperand:$init,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$stride,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation));
}

def MDL_LibConv2DOp : MDL_LibraryConvOp<"lib_conv2d", "forward",
    (ins MDL_LibraryOperand:$input, MDL_LibraryOperand:$weight),
    [{`input` (`NxCxHxW`), `weight` (`OxCxKHxKW`), `init` the output
    (`NxOxOHxOW`).}]>;

def MDL_LibConv2DBiasOp : MDL_LibraryConvOp<"lib_conv2d_bias",
    "forward with a bias per output channel",
    (ins MDL_LibraryOperand:$input, MDL_LibraryOperand:$weight,
         MDL_LibraryBiasOperand:$bias),
    [{`input` (`NxCxHxW`), `weight` (`OxCxKHxKW`), `bias` (`O`, added to
    every element of its output channel), `init` the output (`NxOxOHxOW`).
    The library adds the bias as it writes the output (one pass over it,
    not two); a target that keeps `lib_conv2d` for another library splits
    this op into `lib_conv2d` and the addition.}]>;

def MDL_LibConv2DGradInputOp : MDL_LibraryConvOp<"lib_conv2d_grad_input",
    "input gradient",
    (ins MDL_LibraryOperand:$grad, MDL_LibraryOperand:$weight),
    [{`grad` (the output's gradient, `NxOxOHxOW`), `weight` (`OxCxKHxKW`),
    `init` the input's gradient (`NxCxHxW`), as `mdl.conv2d_grad_input`.}]>;

def MDL_LibConv2DGradWeightOp : MDL_LibraryConvOp<"lib_conv2d_grad_weight",
    "weight gradient",
    (ins MDL_LibraryOperand:$input, MDL_LibraryOperand:$grad),
    [{`input` (`NxCxHxW`), `grad` (the output's gradient, `NxOxOHxOW`),
    `init` the weight's gradient (`OxCxKHxKW`), as
    `mdl.conv2d_grad_weight`.}]>;

/// Shared definition of the four pooling ops: their operands (named per op
/// below) and the destination `init`; the window's kernel, stride and
/// symmetric padding (two entries each; padding at most half the kernel).
class MDL_LibraryPoolOp<string mnemonic, string what, dag inputs,
                        string operandsDoc>
    : MDL_LibraryOp<mnemonic> {
  let summary = "2-D " # what # " (NCHW), for a library";
  let description = [{
    Operands: }] # operandsDoc # [{ Only the batch may be dynamic; the
    window and the output size follow `mdl.max_pool2d`'s rules, and so do
    the values (max: the first maximum in row-major window order, a NaN
    counting as the maximum, padding never; average: divided by the full
    kernel area). `init` is overwritten, never read.

    ```mlir
    %y = mdl.lib_max_pool2d %x, %init {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>}
        : tensor<?x32x28x28xf32>, tensor<?x32x14x14xf32> -> tensor<?x32x14x14xf32>
    ```
  }];
  let arguments = !con(inputs, (ins
      MDL_LibraryOperand:$init, DenseI64ArrayAttr:$kernel,
      DenseI64ArrayAttr:$stride,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding));
}

def MDL_LibMaxPool2DOp : MDL_LibraryPoolOp<"lib_max_pool2d", "max pooling",
    (ins MDL_LibraryOperand:$input),
    [{`input` (`NxCxHxW`), `init` the output (`NxCxOHxOW`).}]>;

def MDL_LibAvgPool2DOp : MDL_LibraryPoolOp<"lib_avg_pool2d",
    "average pooling", (ins MDL_LibraryOperand:$input),
    [{`input` (`NxCxHxW`), `init` the output (`NxCxOHxOW`).}]>;

def MDL_LibMaxPool2DGradOp : MDL_LibraryPoolOp<"lib_max_pool2d_grad",
    "max pooling's input gradient",
    (ins MDL_LibraryOperand:$grad, MDL_LibraryOperand:$input),
    [{`grad` (the output's gradient, `NxCxOHxOW`), `input` (the forward
    input, `NxCxHxW`), `init` the input's gradient (`NxCxHxW`), as
    `mdl.max_pool2d_grad`.}]>;

def MDL_LibAvgPool2DGradOp : MDL_LibraryPoolOp<"lib_avg_pool2d_grad",
    "average pooling's input gradient", (ins MDL_LibraryOperand:$grad),
    [{`grad` (the output's gradient, `NxCxOHxOW`), `init` the input's
    gradient (`NxCxHxW`, which gives the input's shape), as
    `mdl.avg_pool2d_grad`.}]>;

def MDL_LibEmbeddingGradOp : MDL_LibraryOp<"lib_embedding_grad"> {
  let summary = "An embedding table's gradient as a scatter-add, for a library";
  let description = [{
    `indices` (`S`, i32 or i64: the positions' rows), `grad` (`SxD` f32: the
    output gradient of each position), `init` the table's gradient (`NxD`
    f32, static). The result is zero except `init[indices[p], :] +=
    grad[p, :]` for every position `p`, as `mdl.embedding_grad` with its
    leading dimensions collapsed. An index outside `[0, N)` stops the run in
    the runtime's call and adds nothing once expanded.
    `init` is overwritten, never read. Only `S` may be dynamic.

    ```mlir
    %dt = mdl.lib_embedding_grad %ids, %g, %init
        : tensor<?xi64>, tensor<?x16xf32>, tensor<100x16xf32> -> tensor<100x16xf32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[TensorRankOf<[I32, I64], [1]>,
                                  MemRefRankOf<[I32, I64], [1]>]>:$indices,
                   AnyTypeOf<[TensorRankOf<[F32], [2]>,
                              MemRefRankOf<[F32], [2]>]>:$grad,
                   AnyTypeOf<[TensorRankOf<[F32], [2]>,
                              MemRefRankOf<[F32], [2]>]>:$init);
}

def MDL_LibAttentionOp : MDL_LibraryOp<"lib_attention"> {
  let summary = "Scaled-dot-product attention, for a library";
  let description = [{
    `query` (`BxHxTqxD`), `key` and `value` (`BxHxTkxD`), `init` the output
    (`BxHxTqxD`), as `mdl.attention` in f32. Only B may be dynamic. `init`
    is overwritten, never read.

    ```mlir
    %o = mdl.lib_attention %q, %k, %v, %init {causal = true}
        : tensor<?x4x64x16xf32>, tensor<?x4x64x16xf32>, tensor<?x4x64x16xf32>, tensor<?x4x64x16xf32> -> tensor<?x4x64x16xf32>
    ```
  }];
  let arguments = (ins MDL_LibraryOperand:$query, MDL_LibraryOperand:$key,
                   MDL_LibraryOperand:$value, MDL_LibraryOperand:$init,
                   DefaultValuedAttr<BoolAttr, "false">:$causal);
}

def MDL_LibAttentionGradOp : MDL_LibraryOp<"lib_attention_grad"> {
  let summary = "The adjoint of scaled-dot-product attention, for a library";
  let description = [{
    `query`, `key`, `value`, `output` and `grad` as `mdl.attention_grad` in
    f32; `init` is one flat buffer of `B*H*(Tq + 2*Tk)*D` values that
    receives the query's gradient (`BxHxTqxD`), then the key's and the
    value's (`BxHxTkxD` each), one after the other. Only B may be dynamic.
    `init` is overwritten, never read.

    ```mlir
    %d = mdl.lib_attention_grad %q, %k, %v, %o, %g, %init
        : tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>,
          tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>, tensor<?xf32> -> tensor<?xf32>
    ```
  }];
  let arguments = (ins MDL_LibraryOperand:$query, MDL_LibraryOperand:$key,
                   MDL_LibraryOperand:$value, MDL_LibraryOperand:$output,
                   MDL_LibraryOperand:$grad,
                   AnyTypeOf<[TensorRankOf<[F32], [1]>,
                              MemRefRankOf<[F32], [1]>]>:$init,
                   DefaultValuedAttr<BoolAttr, "false">:$causal);
}

def MDL_LibAttentionPackedOp : MDL_LibraryOp<"lib_attention_packed"> {
  let summary = "Self-attention in the packed layout, for a library";
  let description = [{
    `qkv` (`BxTx3xHxD`) and `init` the output (`BxTxHxD`), as
    `mdl.attention_packed` in f32. Only B may be dynamic. `init` is
    overwritten, never read.

    ```mlir
    %o = mdl.lib_attention_packed %qkv, %init {causal = true}
        : tensor<?x64x3x4x16xf32>, tensor<?x64x4x16xf32> -> tensor<?x64x4x16xf32>
    ```
  }];
  let arguments = (ins MDL_LibraryOperand5D:$qkv, MDL_LibraryOperand:$init,
                   DefaultValuedAttr<BoolAttr, "false">:$causal);
}

def MDL_LibAttentionPackedGradOp : MDL_LibraryOp<"lib_attention_packed_grad"> {
  let summary = "The adjoint of packed self-attention, for a library";
  let description = [{
    `qkv` (`BxTx3xHxD`), `output` and `grad` (`BxTxHxD`) as
    `mdl.attention_packed_grad` in f32; `init` (`BxTx3xHxD`) receives the
    gradient with respect to `qkv`. Only B may be dynamic. `init` is
    overwritten, never read.

    ```mlir
    %d = mdl.lib_attention_packed_grad %qkv, %o, %g, %init {causal = true}
        : tensor<?x64x3x4x16xf32>, tensor<?x64x4x16xf32>, tensor<?x64x4x16xf32>,
          tensor<?x64x3x4x16xf32> -> tensor<?x64x3x4x16xf32>
    ```
  }];
  let arguments = (ins MDL_LibraryOperand5D:$qkv, MDL_LibraryOperand:$output,
                   MDL_LibraryOperand:$grad, MDL_LibraryOperand5D:$init,
                   DefaultValuedAttr<BoolAttr, "false">:$causal);
}

def MDL_LibAttentionDecodeOp : MDL_LibraryOp<"lib_attention_decode"> {
  let summary = "One causal attention step over a key/value cache, for a library";
  let description = [{
    `query` (`BxHx1xD`) attends over rows `0..position` of `key_cache` and
    `value_cache` (`BxHxTxD`), as `mdl.attention_decode` after the caches
    were updated, in f32; `init` the output (`BxHx1xD`). All sizes static.
    `init` is overwritten, never read.

    ```mlir
    %o = mdl.lib_attention_decode %q, %kc, %vc, %pos, %init
        : tensor<1x4x1x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>,
          tensor<i64>, tensor<1x4x1x16xf32> -> tensor<1x4x1x16xf32>
    ```
  }];
  let arguments = (ins MDL_LibraryOperand:$query, MDL_LibraryOperand:$key_cache,
                   MDL_LibraryOperand:$value_cache,
                   AnyTypeOf<[0DTensorOf<[I64]>, MemRefRankOf<[I64], [0]>]>:$position,
                   MDL_LibraryOperand:$init);
}

def MDL_LibSumRanksOp : MDL_LibraryOp<"lib_sum_ranks"> {
  let summary = "The sum of an f64 buffer over the ranks of a run";
  let description = [{
    `init` receives the elementwise sum over the ranks of a data-parallel
    run of every rank's `input` (the same shape, f64): `mdl.all_reduce`
    once lowered. With one process it is a copy. `init` is overwritten,
    never read. The CPU pipeline calls the runtime's
    `modelrt_dist_sum_f64`; elsewhere it expands to the copy.

    ```mlir
    %s = mdl.lib_sum_ranks %x, %init : tensor<32xf64>, tensor<32xf64> -> tensor<32xf64>
    ```
  }];
  let arguments = (ins AnyTypeOf<[TensorOf<[F64]>, MemRefOf<[F64]>]>:$input,
                   AnyTypeOf<[TensorOf<[F64]>, MemRefOf<[F64]>]>:$init);
  let results = (outs Optional<RankedTensorOf<[F64]>>:$result);
}

#endif // MDL_LIBRARY_OPS_TD
