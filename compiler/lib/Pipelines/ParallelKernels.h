//===- ParallelKernels.h - Names shared by the parallel-kernel passes -----===//
//
// The attributes through which modelc-outline-kernels,
// modelc-parallel-kernel-loops and modelc-parallel-kernel-calls hand kernels
// and their parallel parts to each other.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_LIB_PIPELINES_PARALLELKERNELS_H
#define MODELC_LIB_PIPELINES_PARALLELKERNELS_H

namespace modelc {

/// Unit attribute on each function modelc-outline-kernels creates.
constexpr const char *kKernelAttr = "modelc.kernel";

/// Unit attribute on each part function of a kernel's parallel loop
/// (kept by func-to-llvm on the llvm.func).
constexpr const char *kParallelPartAttr = "modelc.parallel_part";

} // namespace modelc

#endif // MODELC_LIB_PIPELINES_PARALLELKERNELS_H
