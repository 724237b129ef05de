//===- KernelProfile.h - Profiling hooks around outlined kernels -*- C++ -*-===//
//
// Declares the instrumentation helpers of `modelc-outline-kernels`
// (implemented in KernelProfile.cpp): FLOP and byte counts of kernels and
// the calls of the runtime's `modelrt_kernel_enter` / `modelrt_kernel_exit`
// hooks.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_LIB_TRANSFORMS_CPU_KERNELPROFILE_H
#define MODELC_LIB_TRANSFORMS_CPU_KERNELPROFILE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace modelc {

/// Emits, before `op`, the i64 arithmetic work of one execution of the
/// kernel `op`: iteration-domain size x payload arithmetic ops for a linalg
/// op, 2*M*N*K for cblas_sgemm, 2*N*O*OH*OW*C*KH*KW for a runtime
/// convolution, N*C*OH*OW*KH*KW for a runtime pooling call, 0 for data
/// movement.
mlir::Value emitKernelFlops(mlir::OpBuilder &b, mlir::Operation *op);

/// Emits, before `op`, the i64 bytes kernel `op` moves, as the roofline
/// counts them: the size of every distinct buffer it reads or writes (its
/// memref operands, the memrefs its body uses from above, the memrefs a
/// library call's pointers point into), each counted once.
mlir::Value emitKernelBytes(mlir::OpBuilder &b, mlir::Operation *op);

/// Declares `modelrt_kernel_enter(ptr)` and
/// `modelrt_kernel_exit(ptr, i64 flops, i64 bytes)` in `module` unless
/// present.
void declareProfileHooks(mlir::ModuleOp module);

/// Brackets `call` with the hooks; `label` names the kernel in the report
/// and is stored in a global named after `site` (the call site's kernel
/// name, unique in the module: calls of one shared kernel differ in it).
void instrumentKernelCall(mlir::func::CallOp call, llvm::StringRef site,
                          llvm::StringRef label,
                          mlir::Value flops, mlir::Value bytes);

} // namespace modelc

#endif // MODELC_LIB_TRANSFORMS_CPU_KERNELPROFILE_H
