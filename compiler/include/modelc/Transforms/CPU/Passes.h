//===- Passes.h - Passes of the CPU lowering pipeline -----------*- C++ -*-===//
//
// Declares the passes only the CPU pipeline runs (generated from
// Passes.td: create functions, option structs) and their registration,
// `registerModelcCpuPasses()`.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_TRANSFORMS_CPU_PASSES_H
#define MODELC_TRANSFORMS_CPU_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace modelc {

#define GEN_PASS_DECL
#include "modelc/Transforms/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "modelc/Transforms/CPU/Passes.h.inc"

} // namespace modelc

#endif // MODELC_TRANSFORMS_CPU_PASSES_H
