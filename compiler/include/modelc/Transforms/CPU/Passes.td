//===- Passes.td - Passes of the CPU lowering pipeline -----*- tablegen -*-===//
//
// Declares the passes only the CPU pipeline runs (one pass per file in
// compiler/lib/Transforms/CPU): the runtime calls that announce final
// gradients and those of the library convolutions, kernel outlining with its profiling hooks,
// the parallel split of the kernels' loops, the interleaving of short sums,
// the strided-copy rewrite and the C-interface marking of entry points
// (which the GPU pipeline's host code, CPU code too, also uses).
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_TRANSFORMS_CPU_PASSES_TD
#define MODELC_TRANSFORMS_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def OutlineKernelsPass : Pass<"modelc-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Move each top-level kernel of the entry points into its own "
                "noinline function (optionally with profiling hooks)";
  let description = [{
    Every top-level computation of a public function (a linalg op on
    memrefs, a memref.copy, an scf loop nest, a call to cblas_* or to the
    runtime's convolution, pooling, attention or embedding-gradient
    functions) moves into a private,
    never-inlined function `@<entry>.k<N>.<names>` marked `modelc.kernel`,
    where `<names>` are the mdl ops of its location (at
    most four). Constants are cloned into the kernel, other captured values
    become arguments. With `instrument`, each call is bracketed by the
    runtime's `modelrt_kernel_enter(name)` / `modelrt_kernel_exit(name,
    flops)`, `name` being "<kernel> @ file:line" and `flops` the kernel's
    arithmetic work for the call.
  }];
  let options = [
    Option<"instrument", "instrument", "bool", /*default=*/"false",
           "Call the runtime's profiling hooks around every kernel">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def GradReadyCallsPass : Pass<"modelc-grad-ready-calls", "::mlir::ModuleOp"> {
  let summary = "Call the runtime once each gradient buffer of a training "
                "step holds its final value";
  let description = [{
    After bufferization, on every function with arguments marked
    `modelc.grad = N : i64` (the training step's gradient out-params, in
    table order N; the training pipeline marks the results before
    bufferization, whose out-param rewrite moves the marks onto the
    arguments): a call `modelrt_grad_ready(N)` goes directly after the last
    operation of the function's body that uses the buffer or any view or
    cast of it (in a nested region: after the enclosing top-level op), so no
    later operation of the step reads or writes it. Calls after one
    operation come in the order of N; the gradients are thereby announced
    in the order the backward pass finishes them. The marks are removed and
    the runtime function declared. Errors: a marked function with more than
    one block, a mark that is not an integer or on a value that is not a
    memref, two marks with the same N, and a symbol `modelrt_grad_ready`
    of another type. Functions without marks are left alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

def LibraryToCallsPass : Pass<"modelc-library-to-calls", "::mlir::ModuleOp"> {
  let summary = "Turn the mdl library convolutions on memrefs into calls of "
                "the runtime";
  let description = [{
    After bufferization, every `mdl.lib_conv2d`, `mdl.lib_conv2d_bias`,
    `mdl.lib_conv2d_grad_input` and `mdl.lib_conv2d_grad_weight` becomes a
    call of the runtime's `modelrt_conv2d_forward`,
    `modelrt_conv2d_forward_bias`, `modelrt_conv2d_backward_data` or
    `modelrt_conv2d_backward_weights` (RuntimeCalls.h): the element
    pointers of the operands (two, or with the bias three) and of the
    output, then N, C, H, W, O, KH,
    KW, OH, OW, the strides, paddings and dilations as i64. An operand whose
    layout is not the identity is copied into a dense buffer first (the
    output back afterwards). The other library ops (pooling, embedding
    gradient, attention) likewise call their entry points. Without `gpu`,
    a 2x2 / 2 max pooling and its gradient later in the block, on the same
    memref of x that no op between them may write, call
    `modelrt_max_pool2d_forward_codes` and `_backward_codes` with a fresh
    i8 buffer of each window's arg-max (MaxPoolCodes.h), so that the
    gradient does not read x again; a `mdl.lib_conv2d_bias` whose result,
    a dense allocation, nothing but such a pooling (and its gradient,
    through codes) reads, and whose x, w and bias no op between the two
    may write, joins the pooling in one call of
    `modelrt_conv2d_forward_bias_max_pool2d` (its `_bf16` form in bf16)
    with the codes, or null without a gradient (ConvMaxPool.h), so that
    the runtime may pool the convolution's result in oneDNN's blocked
    layout; a `mdl.lib_conv2d_grad_input` and the
    `mdl.lib_conv2d_grad_weight` after it on the same memref of dy (the
    same window, shapes and precision; no op between them that may write or
    free dy or w, or read, write or free dx) join in one call of
    `modelrt_conv2d_backward` at the weight gradient (ConvBackward.h), so
    that the runtime reorders dy once for both; and a 2x2 max pooling's
    gradient with codes whose dx, an allocation of its own, only the
    gradients of the convolution before the pooling read (both f32, or both
    bf16) joins them at the weight gradient in
    `modelrt_conv2d_backward_from_max_pool2d` (or its `_weights_` form
    without an input gradient, and the `_bf16` forms; ConvFromMaxPool.h), so that
    the runtime writes that dy in oneDNN's layout (FusedCalls.h lists the
    calls). A library op still on tensors, or a
    symbol of one of those names with another signature, is an error. With `gpu`
    (the GPU pipeline, on device buffers), the attention ops call the
    runtime's fused GPU kernels instead (`modelrt_cuda_attention_*`, the
    same arguments), the convolutions cuDNN's (`modelrt_cuda_conv2d_*`,
    with the suffix `_tf32` or `_bf16` in a module whose `mdl.precision` is
    tf32 or bf16, unless the op's own `mdl.precision` says otherwise), and
    any other library op is an error: the GPU pipeline
    expands those first. With `cuda-convolutions` (the GPU emulation with
    the CUDA products), the convolutions call the `modelrt_cuda_conv2d_*`
    forms without `gpu`.
  }];
  let options = [
    Option<"gpu", "gpu", "bool", /*default=*/"false",
           "Call the GPU entry points (attention and convolutions)">,
    Option<"cudaConvolutions", "cuda-convolutions", "bool",
           /*default=*/"false",
           "Call cuDNN's convolution entry points also without gpu">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ParallelKernelLoopsPass
    : Pass<"modelc-parallel-kernel-loops", "::mlir::ModuleOp"> {
  let summary = "Move each top-level scf.parallel of an outlined kernel into "
                "a part function that runs a range of its first dimension";
  let description = [{
    In each function marked `modelc.kernel`, every top-level scf.parallel
    without results and with a unit step in its first dimension moves into
    a private function
      `@<kernel>.part<N>(%begin, %end, %work, captured...)`
    marked `modelc.parallel_part`, running the loop over [begin, end) of its
    first dimension, and is replaced by a call over the whole range.
    `%work` estimates the loop's cost (iterations times operations per
    iteration). `modelc-parallel-kernel-calls` later hands the call to the
    runtime, which may split the range over the cores.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::scf::SCFDialect"];
}

def ParallelKernelCallsPass
    : Pass<"modelc-parallel-kernel-calls", "::mlir::ModuleOp"> {
  let summary = "Turn calls of parallel kernel parts into "
                "modelrt_parallel_for calls";
  let description = [{
    On the LLVM dialect: every call `@P(%begin, %end, %work, args...)` of a
    function marked `modelc.parallel_part` becomes a call
    `@modelrt_parallel_for(@P.run, %ctx, %begin, %end, %work)`, the
    arguments stored in a stack struct `%ctx` that the new internal
    trampoline `@P.run(%ctx, %begin, %end)` loads back before calling @P.
    The part then loses its mark, so a second run changes nothing. A call
    with fewer than three operands is an error.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def SplitInnerReductionsPass
    : Pass<"modelc-split-inner-reductions", "::mlir::ModuleOp"> {
  let summary = "Split float reductions over the innermost dimension into "
                "vector lanes (a fixed order, vectorisable)";
  let description = [{
    A linalg.generic on tensors with one reduction loop, innermost, of
    static extent n, where every input reads that loop as its innermost
    dimension and the output is a float, is split (upstream's split
    reduction, the new dimension parallel and innermost) into L = 16, 8 or
    4 lanes, the widest that divides n with at least two terms per lane:
    one generic keeps the L partial results, lane l adding the elements l,
    l + L, ... in order, which vectorises; a second one combines the lanes.
    The order is fixed, so the result is deterministic and each chain L
    times shorter. Generics reading `linalg.index` or with a combiner the
    split does not know are left alone.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def InterleaveReductionsPass
    : Pass<"modelc-interleave-reductions", "::mlir::ModuleOp"> {
  let summary = "Move the parallel dimensions of sums to few outputs "
                "innermost (same order of terms per output)";
  let description = [{
    A linalg.generic whose innermost loop is a reduction and whose outputs
    are few (at most 4096 elements, every parallel extent static) gets its
    parallel dimensions moved innermost, keeping the order of the reduction
    dimensions and of the parallel ones. The serial chains of float
    additions of different outputs then interleave, while each output adds
    its terms in the same order: the result is the same to the bit.
  }];
}

def MemrefCopyToLinalgPass
    : Pass<"modelc-memref-copy-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Rewrite memref.copy into linalg.copy (loops, no memrefCopy "
                "call)";
  let description = [{
    Every memref.copy whose source or target has a non-identity layout (a
    strided view: pads, concat, grouped convolution, slice gradients)
    becomes a linalg.copy, which convert-linalg-to-loops turns into loops.
    Left alone, such copies lower to calls to `memrefCopy`, a symbol of
    libmlir_c_runner_utils that executables linked with the modelc runtime
    do not have. Copies between contiguous buffers (an llvm.intr.memcpy)
    stay.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def EmitCInterfacePass : Pass<"modelc-emit-c-interface", "::mlir::ModuleOp"> {
  let summary = "Mark public functions llvm.emit_c_interface";
  let description = [{
    Sets `llvm.emit_c_interface` on every public func.func with a body, so
    that func-to-llvm also emits a `_mlir_ciface_<name>` wrapper taking one
    descriptor pointer per memref: the calling convention of the runtime's
    adapters. Used by the CPU pipeline and by the GPU pipeline's host code.
  }];
}

def CpuMathApproximationPass
    : Pass<"modelc-cpu-math-approximation", "::mlir::ModuleOp"> {
  let summary = "Rewrite math.exp and math.erf as arithmetic that vectorises";
  let description = [{
    LLVM has no intrinsic for erf: math-to-libm turns each math.erf into a
    scalar call of libm's erff, which keeps the loops around it (GELU and
    its gradient) from vectorising. math.exp becomes llvm.exp, which the
    x86 back end splits into one libm expf call per vector lane. This pass
    rewrites every f32 math.exp and math.erf (scalar or vector) into MLIR's
    polynomial approximations (populateMathPolynomialApproximationPatterns:
    exp by range reduction to [-ln2/2, ln2/2] and a polynomial, erf by
    rational approximations on three ranges of |x|), plain arith and fma
    ops that stay vectors. Both are within 5e-7 of libm (the accuracy test
    of modelc-gpu-math-approximation checks the same patterns); exp keeps
    exp(-inf) = 0, exp(+inf) = inf and NaN. f64 ops are left alone. Run
    before convert-math-to-llvm.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def CpuExpandBf16Pass : Pass<"modelc-cpu-expand-bf16", "::mlir::ModuleOp"> {
  let summary = "Rewrite conversions to and from bf16 as integer arithmetic";
  let description = [{
    LLVM lowers an f32 -> bf16 truncation to vcvtneps2bf16 on a CPU with
    AVX512-BF16, which flushes subnormal values to zero, and elsewhere to a
    call of libgcc's __truncsfbf2, which GCC 12's libgcc (Debian 12's) does
    not have (nor __truncdfbf2, nor the integer conversions): a model over
    bf16 tensors would not link on such a host, or for
    --target-cpu=x86-64-v3. This pass rewrites the conversions to bf16
    from f32, f64 (rounding to nearest) and integers of up to 64 bits
    (arith.truncf, arith.sitofp, arith.uitofp), and from bf16 to f32 and
    f64 (arith.extf), scalar or vector, as integer arithmetic: f32 <-> bf16 with MLIR's expansion
    (populateExpandBFloat16Patterns), the others through f32 rounded to
    odd, so that the result is the one rounding of the value to nearest,
    ties to even; subnormal values kept, a NaN made the quiet NaN 0x7fc0.
    The same bits on every host, and loops of them stay vectors. Other
    conversions are left alone. Run before convert-math-to-llvm (it makes
    math.ctlz).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::math::MathDialect"];
}

#endif // MODELC_TRANSFORMS_CPU_PASSES_TD
