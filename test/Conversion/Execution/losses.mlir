// Numerical check of the loss lowering against float64 references
// (Inputs/gen.py: numpy), through the CPU back end (Inputs/runner.cpp).
// RUN: /usr/bin/python3 %S/Inputs/gen.py losses %t.cases
// RUN: modelc-opt %s --convert-mdl-to-linalg -o %t.mlir
// RUN: modelc-backend-test %t.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.exe
// RUN: %t.exe %t.cases | FileCheck %s
// CHECK: 12 cases: PASS

func.func @cross_entropy(%x: tensor<?x10xf32>, %l: tensor<?xi64>) -> (tensor<f32>, tensor<f32>) {
  %0 = mdl.cross_entropy mean %x, %l : tensor<?x10xf32>, tensor<?xi64> -> tensor<f32>
  %1 = mdl.cross_entropy sum %x, %l : tensor<?x10xf32>, tensor<?xi64> -> tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}
func.func @pair_losses(%y: tensor<?x7xf32>, %t: tensor<?x7xf32>, %xb: tensor<?x7xf32>, %tb: tensor<?x7xf32>) -> (tensor<f32>, tensor<f32>, tensor<f32>) {
  %0 = mdl.mse_loss mean %y, %t : tensor<?x7xf32>, tensor<?x7xf32> -> tensor<f32>
  %1 = mdl.l1_loss sum %y, %t : tensor<?x7xf32>, tensor<?x7xf32> -> tensor<f32>
  %2 = mdl.bce_with_logits mean %xb, %tb : tensor<?x7xf32>, tensor<?x7xf32> -> tensor<f32>
  return %0, %1, %2 : tensor<f32>, tensor<f32>, tensor<f32>
}
func.func @cross_entropy_grad(%x: tensor<?x10xf32>, %l: tensor<?xi64>, %g: tensor<f32>) -> (tensor<?x10xf32>, tensor<?x10xf32>) {
  %0 = mdl.cross_entropy_grad mean %x, %l, %g : tensor<?x10xf32>, tensor<?xi64>, tensor<f32> -> tensor<?x10xf32>
  %1 = mdl.cross_entropy_grad sum %x, %l, %g : tensor<?x10xf32>, tensor<?xi64>, tensor<f32> -> tensor<?x10xf32>
  return %0, %1 : tensor<?x10xf32>, tensor<?x10xf32>
}
// [B, T, C] logits and [B, T] labels with ignore_index (and smoothing for
// the mean): PyTorch's flattened tokens; an all-ignored batch gives 0.
func.func @cross_entropy_seq(%x: tensor<?x5x7xf32>, %l: tensor<?x5xi64>, %g: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<?x5x7xf32>, tensor<?x5x7xf32>) {
  %0 = mdl.cross_entropy mean %x, %l {ignore_index = -100 : i64, label_smoothing = 1.000000e-01 : f64} : tensor<?x5x7xf32>, tensor<?x5xi64> -> tensor<f32>
  %1 = mdl.cross_entropy sum %x, %l {ignore_index = -100 : i64} : tensor<?x5x7xf32>, tensor<?x5xi64> -> tensor<f32>
  %2 = mdl.cross_entropy_grad mean %x, %l, %g {ignore_index = -100 : i64, label_smoothing = 1.000000e-01 : f64} : tensor<?x5x7xf32>, tensor<?x5xi64>, tensor<f32> -> tensor<?x5x7xf32>
  %3 = mdl.cross_entropy_grad sum %x, %l, %g {ignore_index = -100 : i64} : tensor<?x5x7xf32>, tensor<?x5xi64>, tensor<f32> -> tensor<?x5x7xf32>
  return %0, %1, %2, %3 : tensor<f32>, tensor<f32>, tensor<?x5x7xf32>, tensor<?x5x7xf32>
}
