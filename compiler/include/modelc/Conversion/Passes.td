//===- Passes.td - modelc conversion passes ------------------*- tablegen -*-===//
//
// Declares the passes that lower the mdl dialect: `convert-mdl-to-linalg`
// (mdl -> linalg/tensor/arith/math/scf and the mdl library ops, parameters
// and state -> arguments) and `modelc-expand-library-ops` (the library ops
// -> linalg, for targets that do not call a library).
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_CONVERSION_PASSES_TD
#define MODELC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMDLToLinalg : Pass<"convert-mdl-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lowers the mdl dialect to linalg, tensor, arith and math";
  let description = [{
    First turns every `mdl.param` read into a function argument and every
    `mdl.state_read`/`mdl.state_write` into an argument (state in) and a
    result (state out), then erases the parameter/state table (see
    docs/lowering.md for the resulting signature). Then rewrites every mdl
    op into linalg named ops / `linalg.generic` on tensors with dynamic
    batch dimensions. An f32 convolution with groups = 1 and static channel
    and spatial sizes, and its two adjoints, become the destination-style
    library ops `mdl.lib_conv2d` (`mdl.lib_conv2d_bias` with a bias),
    `mdl.lib_conv2d_grad_input` and `mdl.lib_conv2d_grad_weight`; f32 pooling with static sizes and its
    adjoints `mdl.lib_max_pool2d`, `mdl.lib_avg_pool2d` and their `_grad`
    forms; f32 attention and its adjoint `mdl.lib_attention` and
    `mdl.lib_attention_grad` (MDLLibraryOps.td). Ops that cannot be lowered are reported at
    their location and the pass fails.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::cf::ControlFlowDialect",
    "::mlir::func::FuncDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
  let options = [
    Option<"keepDeclarations", "keep-declarations", "bool", "false",
           "Keep the mdl.parameter / mdl.state declarations in the module">
  ];
}

def ExpandLibraryOps : Pass<"modelc-expand-library-ops", "::mlir::ModuleOp"> {
  let summary = "Expands the mdl library ops into linalg";
  let description = [{
    For targets that do not call the runtime's library (the GPU pipeline,
    and the CPU pipeline with `library-ops=false`): every library op on
    tensors becomes linalg on tensors. `mdl.lib_conv2d`,
    `mdl.lib_conv2d_bias`, `mdl.lib_conv2d_grad_input` and
    `mdl.lib_conv2d_grad_weight` become im2col (or, for the input gradient,
    col2im) around one rank-2 contraction, which the pipelines rewrite into
    a BLAS call (the bias added as the product is laid out in NCHW);
    `mdl.lib_max_pool2d`, `mdl.lib_avg_pool2d` and their `_grad` adjoints
    become the window generics convert-mdl-to-linalg emits for other
    pooling ops; `mdl.lib_attention` and `mdl.lib_attention_grad` the
    unfused products and softmax, built as mdl ops and lowered with
    convert-mdl-to-linalg's patterns. With `keep-attention-width=N` (the
    GPU pipeline), the attention ops (`mdl.lib_attention`,
    `mdl.lib_attention_packed` and their `_grad` adjoints) whose heads are
    at most N wide stay, for the GPU's fused kernels; with
    `keep-convolutions` (the GPU pipeline with cuDNN), the three
    convolution ops without a bias stay, for cuDNN, and
    `mdl.lib_conv2d_bias` becomes `mdl.lib_conv2d` and the addition of the
    bias.
    `mdl.lib_sum_ranks` becomes its input (the sum over one process); with
    `keep-sum-ranks` (the CPU pipeline, which always calls the runtime for
    it) it stays. An op already on memrefs is reported and the pass fails.
  }];
  let options = [
    Option<"keepAttentionWidth", "keep-attention-width", "int64_t",
           /*default=*/"0",
           "Keep the attention ops whose heads are at most this wide (0: "
           "expand every one)">,
    Option<"keepSumRanks", "keep-sum-ranks", "bool", /*default=*/"false",
           "Keep mdl.lib_sum_ranks (the sum over the ranks of a run)">,
    Option<"keepConvolutions", "keep-convolutions", "bool",
           /*default=*/"false",
           "Keep mdl.lib_conv2d and its two adjoints (for cuDNN); split "
           "mdl.lib_conv2d_bias into mdl.lib_conv2d and the addition">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::cf::ControlFlowDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect"
  ];
}

#endif // MODELC_CONVERSION_PASSES_TD
