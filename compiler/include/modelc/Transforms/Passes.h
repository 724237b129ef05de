//===- Passes.h - modelc's IR transformations -------------------*- C++ -*-===//
//
// Declares modelc's own passes on the mdl dialect (generated from
// Passes.td) and their registration.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_TRANSFORMS_PASSES_H
#define MODELC_TRANSFORMS_PASSES_H

#include "mdl/MDLOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace modelc {

#define GEN_PASS_DECL
#include "modelc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "modelc/Transforms/Passes.h.inc"

} // namespace modelc

#endif // MODELC_TRANSFORMS_PASSES_H
