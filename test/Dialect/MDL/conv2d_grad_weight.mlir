// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.conv2d_grad_weight (a backward-pass helper op): custom and generic
// forms print the same text, and the written result types agree with the
// inferred ones.

// CHECK-LABEL: func.func @conv2d_grad_weight(
// CHECK: %{{[a-z0-9_]+}} = mdl.conv2d_grad_weight %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {padding = array<i64: 1, 1>} : tensor<?x8x6x6xf32>, tensor<?x3x6x6xf32>, tensor<8x3x3x3xf32> -> tensor<8x3x3x3xf32>
func.func @conv2d_grad_weight(%g: tensor<?x8x6x6xf32>, %x: tensor<?x3x6x6xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<8x3x3x3xf32> {
  %0 = mdl.conv2d_grad_weight %g, %x, %w {padding = array<i64: 1, 1>} : tensor<?x8x6x6xf32>, tensor<?x3x6x6xf32>, tensor<8x3x3x3xf32> -> tensor<8x3x3x3xf32>
  return %0 : tensor<8x3x3x3xf32>
}
