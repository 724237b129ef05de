//===- ConvMaxPool.h - Convolutions only a max pooling reads -*- C++ -*-===//
//
// Declares pairConvPools (ConvMaxPool.cpp), which `modelc-library-to-calls`
// runs after pairMaxPools: a convolution with a bias whose result nothing
// but a 2x2 / 2 max pooling reads becomes one call at the pooling
// (modelrt_conv2d_forward_bias_max_pool2d), which pools the convolution's
// result in the layout oneDNN wrote it.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_LIB_TRANSFORMS_CPU_CONVMAXPOOL_H
#define MODELC_LIB_TRANSFORMS_CPU_CONVMAXPOOL_H

#include "mdl/MDLOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

namespace modelc {

/// Pairs each 2x2 / 2 max pooling without padding, on memrefs, with the
/// `lib_conv2d_bias` before it in its block that writes its x, when x is a
/// dense allocation that only these two ops, the pooling's gradient routed
/// by codes (\p codes, from pairMaxPools) and its deallocation use, and no
/// op between the two may write or free the convolution's inputs (so that
/// the convolution can run at the pooling). Returns each paired pooling's
/// convolution.
llvm::DenseMap<mlir::Operation *, mlir::mdl::LibConv2DBiasOp>
pairConvPools(mlir::ModuleOp module,
              const llvm::DenseMap<mlir::Operation *, mlir::Value> &codes);

} // namespace modelc

#endif // MODELC_LIB_TRANSFORMS_CPU_CONVMAXPOOL_H
