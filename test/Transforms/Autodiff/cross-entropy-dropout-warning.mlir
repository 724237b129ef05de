// RUN: modelc-opt %S/cross-entropy-dropout.mlir --mdl-autodiff -o /dev/null 2>&1 | FileCheck %s
// The unreached parameter is reported at its declaration.

// CHECK: cross-entropy-dropout.mlir:10:1: warning: @unused does not affect the loss of @train_loss; its gradient is zero
