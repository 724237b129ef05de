//===- Passes.td - Passes on linalg of both pipelines ----*- tablegen -*-===//
//
// Declares the passes on linalg, tensor and memref that the CPU and the GPU
// lowering pipelines share (one pass per file in
// compiler/lib/Transforms/Linalg): the fusion stage's elementwise fusion,
// bool widening and loop-dimension collapsing, the bufferization stage's
// unsharing of empty tensors, copies of repeated results and direct
// deallocation of fresh buffers, and the sgemm rewrite of matrix products. Target-specific passes are in ../CPU and ../GPU.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_TRANSFORMS_LINALG_PASSES_TD
#define MODELC_TRANSFORMS_LINALG_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseElementwisePass
    : Pass<"modelc-fuse-elementwise", "::mlir::ModuleOp"> {
  let summary = "Fuse elementwise linalg.generic ops and propagate reshapes "
                "through them, never into a contraction";
  let description = [{
    MLIR's producer/consumer fusion of linalg.generic ops on tensors and the
    propagation of tensor.expand_shape / tensor.collapse_shape through
    generics, as upstream's `linalg-fuse-elementwise-ops`, except that a
    reshape is never propagated into a contraction (which must stay rank 2
    for `modelc-matmul-to-blas`) nor into a generic that reads linalg.index.
    A producer fuses only when it has one use (tensor.dim of its result does
    not count), into a contraction only when it is a transpose or a
    broadcast, and only while the fused body holds at most 64 ops (each
    fusion clones both bodies: the bound keeps the pass linear in the
    length of an elementwise chain).
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def WidenBoolTensorsPass
    : Pass<"modelc-widen-bool-tensors", "::mlir::ModuleOp"> {
  let summary = "Store i1 tensors passed between linalg.generic ops as i8";
  let description = [{
    A linalg.generic producing an i1 tensor into a fresh tensor.empty, whose
    every use is an input of another linalg.generic (directly or through
    expand_shape / collapse_shape), produces an i8 tensor instead (yield
    arith.extui); its consumers read it back with arith.trunci. The values
    do not change; the buffers become one byte per element, which LLVM's
    loop vectoriser can load and store (it never vectorises i1 memory).
    i1 tensors whose init is read, that cross a function boundary or feed
    anything else are left as they are.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def UnshareEmptyTensorsPass
    : Pass<"modelc-unshare-empty-tensors", "::mlir::ModuleOp"> {
  let summary = "Give each tensor.empty at most 16 uses";
  let description = [{
    A tensor.empty with more than 16 uses (CSE merges every empty of one
    type and size) is cloned, each clone serving at most 16 of them. Run
    before one-shot bufferization: one shared empty puts every op that
    writes it into one alias set, and the conflict analysis, which scans
    that set for each in-place decision, becomes cubic in the program's
    length. Up to 16 uses still share, so an elementwise op can still write
    over an input produced into the same empty.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def CopyRepeatedResultsPass
    : Pass<"modelc-copy-repeated-results", "::mlir::ModuleOp"> {
  let summary = "Return a copy for each repeat of a memref among a function's "
                "results";
  let description = [{
    A function that returns one memref in several result positions (two
    parameters whose gradients are one value after CSE, as in `x + b + c`)
    returns, for each repeat, a fresh buffer of the same type holding a
    `memref.copy` of it. Run after bufferization and before
    `buffer-results-to-out-params`, which makes each result a
    caller-allocated out-param and needs a distinct buffer for each; the
    caller's buffers then hold equal values, as the program says.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def SplitFreshDeallocsPass
    : Pass<"modelc-split-fresh-deallocs", "::mlir::ModuleOp"> {
  let summary = "Write a bufferization.dealloc of distinct fresh buffers as "
                "one memref.dealloc per buffer";
  let description = [{
    A `bufferization.dealloc` whose every memref is the result of its own
    `memref.alloc`, freed unconditionally (constant true conditions), with
    nothing retained, becomes one `memref.dealloc` per memref: such buffers
    cannot alias, so the op means exactly that. Run between ownership-based
    deallocation and upstream's dealloc simplification, which would test
    every pair of memrefs of the op for aliasing (quadratic in the length of
    a function that frees all its buffers at the end). Other deallocs are
    left as they are.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def CollapseLoopDimsPass
    : Pass<"modelc-collapse-loop-dims", "::mlir::ModuleOp"> {
  let summary = "Merge the contiguous iteration dimensions of elementwise "
                "generics";
  let description = [{
    Consecutive iteration dimensions of a linalg.generic on tensors that are
    of one kind (parallel or reduction) and contiguous in every operand are
    merged into one, the operands reshaped with tensor.collapse_shape (free
    after bufferization: the buffers are dense), so that the innermost loop
    is long enough to vectorise. Left as they are: fills (no input),
    generics reading linalg.index, generics with an indexing map that is
    not a projected permutation, runs with two dynamic extents and runs of
    one dimension.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MatmulToBlasPass : Pass<"modelc-matmul-to-blas", "::mlir::ModuleOp"> {
  let summary = "Rewrite f32 matmuls on memrefs into cblas_sgemm calls";
  let description = [{
    Every f32 two-operand contraction on rank-2 memrefs with a unit
    innermost stride (linalg.matmul with any transposition,
    linalg.contract, or an equivalent linalg.generic) becomes a call
      `callee(RowMajor, tA, tB, M, N, K, 1, A, lda, B, ldb, beta, C, ldc)`
    with cblas_sgemm's signature: beta = 0 when the output starts as a zero
    fill (or a copy of one) that nothing else reads, which is then erased;
    beta = 1 otherwise. Other contractions are left for the loop lowering.
    In a module whose `mdl.precision` attribute is "bf16"
    (mdl-assign-precision), the call is to `bf16-callee` (operands rounded
    to bf16, f32 accumulation); in one whose attribute is "tf32", to
    `tf32-callee` (TF32 operands), or to `callee` when that option is empty
    (the CPU's products are f32 in tf32). Fails, at the module, when the
    function called already exists with another signature.
  }];
  let options = [
    Option<"callee", "callee", "std::string", /*default=*/"\"cblas_sgemm\"",
           "The function called (cblas_sgemm's signature): cblas_sgemm on "
           "the CPU, modelrt_cuda_sgemm for the GPU">,
    Option<"bf16Callee", "bf16-callee", "std::string",
           /*default=*/"\"modelrt_gemm_bf16\"",
           "The function called in a bf16 module (cblas_sgemm's signature)">,
    Option<"tf32Callee", "tf32-callee", "std::string", /*default=*/"\"\"",
           "The function called in a tf32 module (cblas_sgemm's signature; "
           "empty: callee)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // MODELC_TRANSFORMS_LINALG_PASSES_TD
