// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.cross_entropy_grad (a backward-pass helper op): custom and generic
// forms print the same text, and the written result types agree with the
// inferred ones.

// CHECK-LABEL: func.func @mean(
// CHECK: %{{[a-z0-9_]+}} = mdl.cross_entropy_grad mean %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x10xf32>, tensor<?xi64>, tensor<f32> -> tensor<?x10xf32>
// CHECK-LABEL: func.func @sum(
// CHECK: mdl.cross_entropy_grad sum %{{.*}} : tensor<4x3xf64>, tensor<4xi32>, tensor<f64> -> tensor<4x3xf64>
// CHECK-LABEL: func.func @tokens(
// CHECK: mdl.cross_entropy_grad mean %{{.*}} {ignore_index = 0 : i64} : tensor<?x8x5xf32>, tensor<?x8xi32>, tensor<f32> -> tensor<?x8x5xf32>
func.func @mean(%l: tensor<?x10xf32>, %t: tensor<?xi64>, %g: tensor<f32>) -> tensor<?x10xf32> {
  %0 = mdl.cross_entropy_grad mean %l, %t, %g : tensor<?x10xf32>, tensor<?xi64>, tensor<f32> -> tensor<?x10xf32>
  return %0 : tensor<?x10xf32>
}
func.func @sum(%l: tensor<4x3xf64>, %t: tensor<4xi32>, %g: tensor<f64>) -> tensor<4x3xf64> {
  %0 = mdl.cross_entropy_grad sum %l, %t, %g : tensor<4x3xf64>, tensor<4xi32>, tensor<f64> -> tensor<4x3xf64>
  return %0 : tensor<4x3xf64>
}
func.func @tokens(%l: tensor<?x8x5xf32>, %t: tensor<?x8xi32>, %g: tensor<f32>) -> tensor<?x8x5xf32> {
  %0 = mdl.cross_entropy_grad mean %l, %t, %g {ignore_index = 0 : i64} : tensor<?x8x5xf32>, tensor<?x8xi32>, tensor<f32> -> tensor<?x8x5xf32>
  return %0 : tensor<?x8x5xf32>
}
