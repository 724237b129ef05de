//===- Passes.td - modelc's IR transformations -------------*- tablegen -*-===//
//
// Declarations of modelc's own passes on the mdl dialect (one pass per file
// in compiler/lib/Transforms).
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_TRANSFORMS_PASSES_TD
#define MODELC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MDLAutodiff : Pass<"mdl-autodiff", "::mlir::ModuleOp"> {
  let summary = "Symbolic reverse-mode differentiation of an mdl function";
  let description = [{
    Builds a new function (`result`, default `train_step`) from the function
    `func` (default `train_loss`), which must have one block and return a
    single 0-d float loss. The new function takes the same arguments and
    returns the loss followed by one gradient per differentiated source:
    every `mdl.parameter` of the module in declaration order when `func`
    reads parameters with `mdl.param`, otherwise every float tensor argument
    of `func` in order. Backward ops come from each op's
    GradientOpInterface rule, reuse the forward values, accumulate at
    fan-out, and are limited to what the loss needs; the result is
    canonicalised and CSE'd. Unreached sources get a zero gradient and a
    warning (`warn-unreached=false` keeps only the warning for a source the
    loss reaches solely through integer values); a loss depending on an op without gradient (argmax, cmp,
    integer casts) through a differentiable path is an error. See
    docs/autodiff.md.
  }];
  let options = [
    Option<"func", "func", "std::string", /*default=*/"\"train_loss\"",
           "The function to differentiate">,
    Option<"result", "result", "std::string", /*default=*/"\"train_step\"",
           "The name of the function to create">,
    Option<"warnUnreached", "warn-unreached", "bool", /*default=*/"true",
           "Warn about a source the loss does not depend on (off where the "
           "front end has already said so at the source)">,
  ];
  let dependentDialects = ["::mlir::mdl::MDLDialect",
                           "::mlir::func::FuncDialect"];
}

def MDLPackAttention : Pass<"mdl-pack-attention", "::mlir::ModuleOp"> {
  let summary = "Attention on a fused projection's BxTx3xHxD layout";
  let description = [{
    Replaces self-attention whose query, key and value are the three parts
    of one BxTx3xHxD tensor moved to BxHxTxD (a transpose, three slices and
    reshapes), and whose result is moved back to BxTxHxD, by one
    `mdl.attention_packed` of that tensor: the CPU kernels then read the
    projection and write the output in place, and the gradient is one op
    laid out as the projection, with none of the moves' copies. Runs before
    mdl-autodiff; other attention is left alone.
  }];
  let dependentDialects = ["::mlir::mdl::MDLDialect"];
}

def MDLPoolBeforeRelu : Pass<"mdl-pool-before-relu", "::mlir::ModuleOp"> {
  let summary = "Max pooling of a relu becomes the relu of the max pooling";
  let description = [{
    `mdl.max_pool2d(mdl.relu(x))` becomes `mdl.relu(mdl.max_pool2d(x))`
    when the pooling is the relu's only user. The two are equal bit for bit,
    and so are their gradients: relu is nondecreasing and the identity
    above 0 (NaN stays NaN, -0 and +0 both give +0), so a window whose
    maximum is positive picks the same element either way, and a window
    without a positive element gets a zero gradient either way. The relu,
    and its gradient's mask, then run on the pooled tensor (a quarter of
    the elements for 2x2 windows) instead of the convolution's output.
    Runs before mdl-autodiff; average pooling, other activations and a
    relu with other users are left alone.
  }];
  let dependentDialects = ["::mlir::mdl::MDLDialect"];
}

def MDLSumThroughMaxPool : Pass<"mdl-sum-through-max-pool", "::mlir::ModuleOp"> {
  let summary = "Sums of a max pooling's gradient over its planes read the pooled gradient";
  let description = [{
    `mdl.reduce_sum(mdl.max_pool2d_grad(dy, x))` over axes that include
    both spatial ones (2 and 3) becomes `mdl.reduce_sum(dy)` with the same
    axes and `keepdims`: the pooling's gradient adds each element of dy to
    exactly one element of its plane (every window holds a real element,
    since padding is at most half the kernel), so both sums add the same
    terms, only in another order. A convolution's bias gradient is such a
    sum when max pooling reads the convolution (after mdl-pool-before-relu),
    and it then reads dy, a quarter of the elements for 2x2 windows. Runs
    after mdl-autodiff; the max_pool2d_grad stays while other ops read it.
    Sums over other axes and average pooling (whose windows share padding
    and divide) are left alone.
  }];
  let dependentDialects = ["::mlir::mdl::MDLDialect"];
}

def MDLWidenLowPrecision : Pass<"mdl-widen-low-precision", "::mlir::ModuleOp"> {
  let summary = "Computes the ops on bf16 and f16 tensors in f32";
  let description = [{
    The language's bf16 and f16 are storage types: every op whose operands
    or results are bf16 or f16 tensors computes in f32 and rounds its
    result once (docs/language.md, "Mixed precision"). Each such mdl op
    (except mdl.cast, which converts, and mdl.constant, whose value is
    already rounded) is rewritten: its bf16/f16 operands are extended to
    f32 by mdl.cast (exact), the op runs on f32, and each bf16/f16 result
    is rounded back by an mdl.cast to the original type. Products keep
    their f32 accumulation; in a `precision = bf16` program
    mdl-assign-precision then sends them to the bf16 kernels, whose
    rounding of operands that are already bf16 changes nothing. Runs
    before autodiff, so that every gradient rule sees f32 ops and casts,
    and again after it, for the sums of the gradients of a bf16 value used
    several times. Ops of other dialects are left alone.
  }];
  let dependentDialects = ["::mlir::mdl::MDLDialect"];
}

def MDLAssignPrecision : Pass<"mdl-assign-precision", "::mlir::ModuleOp"> {
  let summary = "Chooses the precision of every product and convolution";
  let description = [{
    Reads the training precision (`precision`, else the `precision` key of
    `mdl.config`, else f32). In bf16 or tf32 it becomes the
    `mdl.precision` module attribute, and every f32 mdl.matmul,
    mdl.conv2d, mdl.conv2d_grad_input and mdl.conv2d_grad_weight gets
    `mdl.precision` = the precision: in bf16 its operands are rounded to
    bf16 and multiplied with f32 accumulation (the CPU pipeline calls
    modelrt_gemm_bf16 and the modelrt_conv2d_*_bf16 functions, the GPU
    pipeline modelrt_cuda_gemm_bf16); in tf32 the GPU pipeline calls
    modelrt_cuda_gemm_tf32 and the CPU pipeline f32 products. Everything
    else stays f32: elementwise work, reductions, losses, normalisation,
    batch_matmul, the gradients' accumulation and the optimizer. In bf16
    the weight gradient of a convolution over fewer than 4 input channels
    (a first layer, bound by memory) is tagged "f32" instead: the library
    call made for it reads the op's tag before the module's. In f32
    nothing is tagged (earlier tags are removed). Fails on a
    precision other than f32, bf16 or tf32, at the module or at the op
    that carries it.
  }];
  let options = [
    Option<"precision", "precision", "std::string", /*default=*/"\"\"",
           "f32, bf16 or tf32 (empty: the module's mdl.config)">,
  ];
  let dependentDialects = ["::mlir::mdl::MDLDialect"];
}

#endif // MODELC_TRANSFORMS_PASSES_TD
