// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.conv2d_grad_input (a backward-pass helper op): custom and generic
// forms print the same text, and the written result types agree with the
// inferred ones.

// CHECK-LABEL: func.func @conv2d_grad_input(
// CHECK: %{{[a-z0-9_]+}} = mdl.conv2d_grad_input %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {padding = array<i64: 1, 1>} : tensor<?x8x6x6xf32>, tensor<8x3x3x3xf32>, tensor<?x3x6x6xf32> -> tensor<?x3x6x6xf32>
// CHECK-LABEL: func.func @strided_grouped(
// CHECK: mdl.conv2d_grad_input %{{.*}} {dilation = array<i64: 2, 1>, groups = 2 : i64, stride = array<i64: 2, 2>} : tensor<2x4x3x3xf32>, tensor<4x2x2x2xf32>, tensor<2x4x7x7xf32> -> tensor<2x4x7x7xf32>
func.func @conv2d_grad_input(%g: tensor<?x8x6x6xf32>, %w: tensor<8x3x3x3xf32>, %x: tensor<?x3x6x6xf32>) -> tensor<?x3x6x6xf32> {
  %0 = mdl.conv2d_grad_input %g, %w, %x {padding = array<i64: 1, 1>} : tensor<?x8x6x6xf32>, tensor<8x3x3x3xf32>, tensor<?x3x6x6xf32> -> tensor<?x3x6x6xf32>
  return %0 : tensor<?x3x6x6xf32>
}
func.func @strided_grouped(%g: tensor<2x4x3x3xf32>, %w: tensor<4x2x2x2xf32>, %x: tensor<2x4x7x7xf32>) -> tensor<2x4x7x7xf32> {
  %0 = mdl.conv2d_grad_input %g, %w, %x {stride = array<i64: 2, 2>, dilation = array<i64: 2, 1>, groups = 2 : i64} : tensor<2x4x3x3xf32>, tensor<4x2x2x2xf32>, tensor<2x4x7x7xf32> -> tensor<2x4x7x7xf32>
  return %0 : tensor<2x4x7x7xf32>
}
