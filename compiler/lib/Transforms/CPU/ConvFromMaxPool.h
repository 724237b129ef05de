//===- ConvFromMaxPool.h - Convolution gradients from pooling's -*- C++ -*-===//
//
// Declares pairPoolGradConvs (ConvFromMaxPool.cpp), which
// `modelc-library-to-calls` runs on the CPU after pairConvGrads: the
// gradient of a max pooling routed by codes whose result, the output
// gradient of the convolution before the pooling, only that convolution's
// gradients (both f32, or both bf16) read, joins them in one call
// (modelrt_conv2d_backward_from_max_pool2d, or its `_bf16` form), which
// writes that gradient in the layout oneDNN reads it in.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_LIB_TRANSFORMS_CPU_CONVFROMMAXPOOL_H
#define MODELC_LIB_TRANSFORMS_CPU_CONVFROMMAXPOOL_H

#include "mdl/MDLOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

namespace modelc {

/// Pairs each `lib_conv2d_grad_weight` whose precision \p precisionOf
/// gives as "f32" or "bf16", the same as its paired input gradient's,
/// with the max pooling gradient with codes (\p codes, from pairMaxPools)
/// before it in its block whose dx is the weight gradient's dy, when that
/// dy is a dense allocation of its own (ownsItsUses) that only these ops,
/// the input gradient \p grads pairs with the weight gradient and
/// deallocations use, and no op between the pooling gradient and the weight gradient
/// (but that input gradient and the codes' deallocation) may write or free
/// the pooled gradient or the codes, or touch dy. Returns each paired
/// weight gradient's pooling gradient.
llvm::DenseMap<mlir::Operation *, mlir::mdl::LibMaxPool2DGradOp> pairPoolGradConvs(
    mlir::ModuleOp module, const llvm::DenseMap<mlir::Operation *, mlir::Value> &codes,
    const llvm::DenseMap<mlir::Operation *, mlir::mdl::LibConv2DGradInputOp> &grads,
    llvm::function_ref<llvm::StringRef(mlir::Operation *)> precisionOf);

} // namespace modelc

#endif // MODELC_LIB_TRANSFORMS_CPU_CONVFROMMAXPOOL_H
