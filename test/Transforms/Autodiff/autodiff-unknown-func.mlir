// RUN: not modelc-opt %s --mdl-autodiff=func=nope 2>&1 | FileCheck %s
// Asking for a function that does not exist fails with a clear message and
// a non-zero exit.

// CHECK: error: mdl-autodiff: no function named @nope to differentiate
func.func @train_loss(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
