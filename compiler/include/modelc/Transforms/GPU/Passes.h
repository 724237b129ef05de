//===- Passes.h - Passes of the GPU (CUDA) lowering pipeline ----*- C++ -*-===//
//
// Declares the passes only the GPU pipeline runs (generated from
// Passes.td: create functions, option structs) and their registration,
// `registerModelcGpuPasses()`.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_TRANSFORMS_GPU_PASSES_H
#define MODELC_TRANSFORMS_GPU_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace modelc {

#define GEN_PASS_DECL
#include "modelc/Transforms/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "modelc/Transforms/GPU/Passes.h.inc"

} // namespace modelc

#endif // MODELC_TRANSFORMS_GPU_PASSES_H
