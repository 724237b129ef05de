//===- ConvBackward.h - Both gradients of one convolution -*- C++ -*-===//
//
// Declares pairConvGrads (ConvBackward.cpp), which `modelc-library-to-calls`
// runs on the CPU: a convolution's input and weight gradients on the same
// output gradient become one call (modelrt_conv2d_backward), so that the
// runtime reorders that gradient once for both.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_LIB_TRANSFORMS_CPU_CONVBACKWARD_H
#define MODELC_LIB_TRANSFORMS_CPU_CONVBACKWARD_H

#include "mdl/MDLOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

namespace modelc {

/// Pairs each `lib_conv2d_grad_weight` on memrefs with the latest
/// `lib_conv2d_grad_input` before it in its block on the same memref of
/// the output's gradient, with the same stride, padding and dilation, the
/// same shapes (its x and dx, its w and dw) and the same `mdl.precision`,
/// when dx is an allocation of its own (no view of dy or x; no use hands it
/// on as another memref) and no op between the two may write or free that
/// gradient or the weights, or read, write or free dx (so that the input
/// gradient can run at the weight gradient). Each input gradient pairs at
/// most once.
/// Returns each paired weight gradient's input gradient.
llvm::DenseMap<mlir::Operation *, mlir::mdl::LibConv2DGradInputOp>
pairConvGrads(mlir::ModuleOp module);

} // namespace modelc

#endif // MODELC_LIB_TRANSFORMS_CPU_CONVBACKWARD_H
