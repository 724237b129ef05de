// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.cross_entropy: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @cross_entropy(
// CHECK: %{{[a-z0-9_]+}} = mdl.cross_entropy mean %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x10xf32>, tensor<?xi64> -> tensor<f32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<f32>
// CHECK-LABEL: func.func @cross_entropy_sum(
// CHECK: %{{[a-z0-9_]+}} = mdl.cross_entropy sum %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<4x3xf64>, tensor<4xi32> -> tensor<f64>
// CHECK: return %{{[a-z0-9_]+}} : tensor<f64>
// CHECK-LABEL: func.func @cross_entropy_options(
// CHECK: mdl.cross_entropy mean %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} weight %{{[a-z0-9_]+}} {label_smoothing = 1.000000e-01 : f64} : tensor<?x3xf32>, tensor<?xi64>, tensor<3xf32> -> tensor<f32>
// CHECK: mdl.cross_entropy sum %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {label_smoothing = 2.000000e-01 : f64} : tensor<?x3xf32>, tensor<?xi64> -> tensor<f32>
// CHECK-LABEL: func.func @cross_entropy_tokens(
// CHECK: mdl.cross_entropy mean %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {ignore_index = -100 : i64} : tensor<?x16x65xf32>, tensor<?x16xi64> -> tensor<f32>

func.func @cross_entropy(%x: tensor<?x10xf32>, %l: tensor<?xi64>) -> tensor<f32> {
  %0 = mdl.cross_entropy mean %x, %l : tensor<?x10xf32>, tensor<?xi64> -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @cross_entropy_sum(%x: tensor<4x3xf64>, %l: tensor<4xi32>) -> tensor<f64> {
  %0 = mdl.cross_entropy sum %x, %l : tensor<4x3xf64>, tensor<4xi32> -> tensor<f64>
  return %0 : tensor<f64>
}
func.func @cross_entropy_options(%x: tensor<?x3xf32>, %l: tensor<?xi64>, %w: tensor<3xf32>) -> (tensor<f32>, tensor<f32>) {
  %0 = mdl.cross_entropy mean %x, %l weight %w {label_smoothing = 1.000000e-01 : f64} : tensor<?x3xf32>, tensor<?xi64>, tensor<3xf32> -> tensor<f32>
  %1 = mdl.cross_entropy sum %x, %l {label_smoothing = 2.000000e-01 : f64} : tensor<?x3xf32>, tensor<?xi64> -> tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}
func.func @cross_entropy_tokens(%x: tensor<?x16x65xf32>, %l: tensor<?x16xi64>) -> tensor<f32> {
  %0 = mdl.cross_entropy mean %x, %l {ignore_index = -100 : i64} : tensor<?x16x65xf32>, tensor<?x16xi64> -> tensor<f32>
  return %0 : tensor<f32>
}
