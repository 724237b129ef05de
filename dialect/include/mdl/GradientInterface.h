//===- GradientInterface.h - Gradient rules of mdl ops ----------*- C++ -*-===//
//
// Declares `mlir::mdl::GradientOpInterface` (generated from MDLInterfaces.td)
// and the function that attaches every mdl op's gradient rule to it.
//
//===----------------------------------------------------------------------===//

#ifndef MDL_GRADIENTINTERFACE_H
#define MDL_GRADIENTINTERFACE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

#include "mdl/MDLInterfaces.h.inc"

namespace mlir {
class MLIRContext;
namespace mdl {

/// Attaches the gradient rule of every differentiable mdl op
/// (GradientRules.cpp) as an external model of GradientOpInterface. Called
/// by MDLDialect::initialize, so every context that loads mdl has them.
void attachGradientRules(MLIRContext &context);

} // namespace mdl
} // namespace mlir

#endif // MDL_GRADIENTINTERFACE_H
