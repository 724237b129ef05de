//===- FlopCount.h - FLOPs of one training step per sample ------*- C++ -*-===//
//
// Declares the FLOP estimate stored in ModelrtProgram.train_flops_per_sample
// (private to ModelcCodegen).
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_LIB_CODEGEN_FLOPCOUNT_H
#define MODELC_LIB_CODEGEN_FLOPCOUNT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace modelc {

/// FLOPs per sample of the products (matmul, batch_matmul, conv2d and its
/// adjoints) in `train`, an mdl function after autodiff.
double countTrainFlopsPerSample(mlir::func::FuncOp train);

} // namespace modelc

#endif // MODELC_LIB_CODEGEN_FLOPCOUNT_H
