//===- Passes.td - Passes of the GPU (CUDA) pipeline -----*- tablegen -*-===//
//
// Declares the passes only the GPU pipeline (and its CPU emulation) runs,
// one pass per file in compiler/lib/Transforms/GPU, in pipeline order: from
// linalg on memrefs to one kernel launch per op, device memory, one
// gpu.module of kernels and their libdevice-free math. docs/gpu.md tells
// the pipeline stage by stage.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_TRANSFORMS_GPU_PASSES_TD
#define MODELC_TRANSFORMS_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def GpuPreparePass : Pass<"modelc-gpu-prepare", "::mlir::ModuleOp"> {
  let summary = "Copies as linalg.copy, parallel loops outermost, scalar ops "
                "in one-iteration scf.parallel (before the GPU mapping)";
  let description = [{
    Leaves every piece of work as a linalg op whose parallel loops come
    first, so that linalg -> scf.parallel -> gpu.launch makes one kernel of
    each: memref.copy becomes linalg.copy (the host never touches device
    memory); linalg.generic ops get their parallel dimensions moved
    outermost; linalg ops without a parallel dimension, and memref.store in
    a function body, are wrapped in a one-iteration scf.parallel (one
    thread on the device).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect"];
}

def GpuFuseLoopsPass : Pass<"modelc-gpu-fuse-loops", "::mlir::func::FuncOp"> {
  let summary = "Make parallel loops adjacent and merge them (one kernel each "
                "after the mapping)";
  let description = [{
    On the top-level scf.parallel loops of a function (each one kernel
    launch after the mapping), repeated until the number of loops stops
    falling: allocations and pure ops between loops move above the first
    loop of their run; adjacent one-iteration loops merge (one thread runs
    both bodies in order); upstream's naive parallel-loop fusion, with
    MLIR's alias analysis, merges adjacent loops with the same bounds when
    each iteration reads only what the same iteration of the earlier loop
    wrote.
  }];
}

def GpuPromoteAccumulatorsPass
    : Pass<"modelc-gpu-promote-accumulators", "::mlir::func::FuncOp"> {
  let summary = "Carry the memory accumulators of loops in kernels as loop "
                "values";
  let description = [{
    In scf.for loops inside scf.parallel or gpu.launch bodies, an element
    that the loop loads and stores back every iteration (a lowered linalg
    reduction's accumulator) is carried in iter_args and stored once after
    the loop, when the store is in the loop's body with its memref and
    indices defined outside, every load of that buffer in the loop reads
    that element before the store, and every other access provably touches
    another buffer (told apart by the allocation, global or entry argument
    it views). The initial value comes from a store just before the loop
    (which goes) or a load. Values and the order of the arithmetic do not
    change.
  }];
}

def GpuSplitReductionsPass
    : Pass<"modelc-gpu-split-reductions", "::mlir::func::FuncOp"> {
  let summary = "Split long reductions to few outputs into a parallel stage "
                "and a short one";
  let description = [{
    A one-dimensional scf.parallel over at most 4096 outputs whose body runs
    a long scf.for reduction (one loop-carried value combined by
    arith.addf, arith.addi or arith.maximumf, a body that only reads memory
    the parallel body did not write before it) becomes two stages: a new
    scf.parallel over (k, output), k < K, where thread k combines the
    iterations k, k + K, ... from the combiner's identity into
    partial[k, output]; then, in the loop's place, the K partial results
    combined onto the loop's initial value in order. K is the power of two
    at or above the square root of the estimated length (a dynamic trip
    count counts as 256), raised for reductions of 16384 or more combines
    while stage 1 has fewer than 131072 threads and each keeps at least 8
    combines, up to 8192. Reductions of 64 combines or fewer stay whole.
    Floating-point sums change order, as in any parallel reduction.
  }];
}

def GpuMapLoopsPass : Pass<"modelc-gpu-map-loops", "::mlir::ModuleOp"> {
  let summary = "Collapse, tile and map each top-level scf.parallel onto a "
                "GPU grid";
  let description = [{
    Every scf.parallel directly in a function body is collapsed to one
    dimension (indices recovered with div/rem), tiled by the block size
    (the intra-tile loop guarded by scf.if) and mapped: tiles to block x,
    the intra-tile loop to thread x, nested scf.parallel loops to
    sequential. convert-parallel-loops-to-gpu then makes one gpu.launch of
    each. A loop not running from 0 with step 1 is an error.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect"];
}

def GpuSinkScalarsPass : Pass<"modelc-gpu-sink-scalars", "::mlir::ModuleOp"> {
  let summary = "Move host loads of 0-d arguments, and what only kernels "
                "compute from them, into the kernels";
  let description = [{
    After convert-parallel-loops-to-gpu: a host load of a 0-d function
    argument (the training seed, a device cell on the GPU) and the pure
    arithmetic computed from it that only kernels use are cloned to the
    start of every gpu.launch body that uses them, and removed from the
    host, so that the host code reads no device memory. A load whose
    results the host needs stays (modelc-gpu-device-memory reports it).
  }];
}

def GpuDeviceMemoryPass : Pass<"modelc-gpu-device-memory", "::mlir::ModuleOp"> {
  let summary = "Host allocations become gpu.alloc/gpu.dealloc; no host "
                "access to device memory";
  let description = [{
    In the host code of each function, memref.alloc becomes gpu.alloc and
    memref.dealloc gpu.dealloc (the runtime's device pool, on one stream).
    Any other host access to memory (memref.load, memref.store,
    memref.alloca) is an error, and so is an allocation inside a kernel.
    A memref.get_global in the host code is copied into each kernel that
    uses it; one with any other use (a library call would read the
    host-memory constant from the GPU) is an error.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def PrefixSymbolsPass : Pass<"modelc-prefix-symbols", "::mlir::ModuleOp"> {
  let summary = "Prefix the names of the public functions";
  let description = [{
    Prepends `prefix` to the name of every public function with a body, and
    to its uses, so that the GPU versions of the entry points (`gpu_...`)
    link beside the CPU ones. A new name that another symbol already has is
    an error.
  }];
  let options = [
    Option<"prefix", "prefix", "std::string", /*default=*/"\"gpu_\"",
           "The prefix">,
  ];
}

def GpuMergeModulesPass : Pass<"modelc-gpu-merge-modules", "::mlir::ModuleOp"> {
  let summary = "Move every outlined kernel into one gpu.module";
  let description = [{
    After gpu-kernel-outlining, which makes one gpu.module per kernel: every
    gpu.func moves into one gpu.module `name`, renamed after its old module
    (unique), and the launches follow. One module is one PTX translation
    unit, set up once at compile time and JIT-compiled once at run time.
    A symbol already named `name` is an error.
  }];
  let options = [
    Option<"mergedName", "name", "std::string", /*default=*/"\"gpu_kernels\"",
           "The merged module's name">,
  ];
}

def GpuMathApproximationPass
    : Pass<"modelc-gpu-math-approximation", "::mlir::ModuleOp"> {
  let summary = "Polynomial approximations of math ops in gpu.module kernels "
                "(no libdevice calls)";
  let description = [{
    Inside every gpu.module, math ops are expanded into a few primitives
    (powf into exp and log, ...) and those replaced by MLIR's f32
    polynomial approximations; fma becomes llvm.intr.fma, abs and floor
    integer and float arith, rsqrt 1 / sqrt, and sqrt the NVPTX intrinsic
    of sqrt.rn.f32. The kernels then need no CUDA libdevice, only the
    driver's PTX JIT. With `host`, the same rewrites (sqrt apart) apply to
    host functions marked `modelc.approximate` instead (the accuracy test
    and the CPU emulation of the kernels).
  }];
  let options = [
    Option<"host", "host", "bool", /*default=*/"false",
           "Rewrite the host functions marked modelc.approximate instead of "
           "gpu.modules (accuracy tests on the CPU)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def GpuEmulateLaunchesPass
    : Pass<"modelc-gpu-emulate-launches", "::mlir::ModuleOp"> {
  let summary = "Turn gpu.launch into loops over blocks and threads (CPU "
                "emulation of the GPU kernels, for tests)";
  let description = [{
    Every gpu.launch becomes six nested scf.for loops (grid x, y, z, then
    block x, y, z) around its body, with the block and thread ids and the
    grid and block sizes bound to the loop indices and the launch operands;
    its function is marked `modelc.approximate` so that the kernels' math
    is approximated as on the GPU. The CPU pipeline then runs the GPU
    kernels' code (`modelc --debug-gpu-emulation`). A launch body with
    several blocks is an error.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // MODELC_TRANSFORMS_GPU_PASSES_TD
