//===- PoolBuilders.h - Pooling and its adjoints as linalg --------*- C++ -*-===//
//
// The linalg forms of 2-D max and average pooling and of their adjoints
// (Pooling.cpp, PoolGradients.cpp): what convert-mdl-to-linalg emits for a
// pooling op that is no library op, and what modelc-expand-library-ops
// turns the library ones into.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_LIB_CONVERSION_MDLTOLINALG_POOLBUILDERS_H
#define MODELC_LIB_CONVERSION_MDLTOLINALG_POOLBUILDERS_H

#include "Common.h"

namespace modelc::lowering {

/// A pooling window: kernel, stride and symmetric padding (two entries
/// each).
struct PoolWindow {
  llvm::ArrayRef<int64_t> kernel, stride, padding;
};

/// Max pooling of the NCHW `input` into `type`.
mlir::Value buildMaxPool(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value input, mlir::RankedTensorType type,
                         const PoolWindow &window);

/// Average pooling of the NCHW `input` into `type` (divided by the full
/// kernel area).
mlir::Value buildAvgPool(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value input, mlir::RankedTensorType type,
                         const PoolWindow &window);

/// Max pooling's input gradient, of `inType`, from the output's `grad` and
/// the forward `input`. Channel and spatial sizes must be static.
mlir::Value buildMaxPoolGrad(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value grad, mlir::Value input,
                             mlir::RankedTensorType inType,
                             const PoolWindow &window);

/// Average pooling's input gradient, of `inType`, from the output's
/// `grad`. Channel and spatial sizes must be static.
mlir::Value buildAvgPoolGrad(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value grad, mlir::RankedTensorType inType,
                             const PoolWindow &window);

} // namespace modelc::lowering

#endif // MODELC_LIB_CONVERSION_MDLTOLINALG_POOLBUILDERS_H
