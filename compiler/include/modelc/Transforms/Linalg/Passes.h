//===- Passes.h - Passes on linalg shared by both pipelines -----*- C++ -*-===//
//
// Declares the passes on linalg, tensor and memref that the CPU and the GPU
// pipelines share (generated from Passes.td: create functions, option
// structs) and their registration, `registerModelcLinalgPasses()`.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_TRANSFORMS_LINALG_PASSES_H
#define MODELC_TRANSFORMS_LINALG_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace modelc {

#define GEN_PASS_DECL
#include "modelc/Transforms/Linalg/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "modelc/Transforms/Linalg/Passes.h.inc"

} // namespace modelc

#endif // MODELC_TRANSFORMS_LINALG_PASSES_H
