//===- Bf16Products.h - The operands of train_step's bf16 products -*- C++ -*-===//
//
// Declares the table stored in ModelrtProgram.bf16_products (private to
// ModelcCodegen): the operand sizes of every product mdl-assign-precision
// tagged bf16, from which `info` counts the runtime's rounded copies.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_LIB_CODEGEN_BF16PRODUCTS_H
#define MODELC_LIB_CODEGEN_BF16PRODUCTS_H

#include "modelc/Codegen/ProgramSpec.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <vector>

namespace modelc {

/// The two operands of each product in `train` (an mdl function after
/// autodiff and mdl-assign-precision) whose `mdl.precision` is bf16, in
/// walk order: a matmul's lhs and rhs, a convolution's (or convolution
/// gradient's) first two operands. An operand with a dynamic dimension (the
/// batch) counts its static elements per sample, any other is fixed.
std::vector<ProductOperandsSpec> collectBf16Products(mlir::func::FuncOp train);

} // namespace modelc

#endif // MODELC_LIB_CODEGEN_BF16PRODUCTS_H
