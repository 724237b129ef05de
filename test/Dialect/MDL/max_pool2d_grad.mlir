// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.max_pool2d_grad (a backward-pass helper op): custom and generic
// forms print the same text, and the written result types agree with the
// inferred ones.

// CHECK-LABEL: func.func @pool(
// CHECK: %{{[a-z0-9_]+}} = mdl.max_pool2d_grad %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x8x14x14xf32>, tensor<?x8x28x28xf32> -> tensor<?x8x28x28xf32>
// CHECK-LABEL: func.func @padded(
// CHECK: mdl.max_pool2d_grad %{{.*}} {kernel = array<i64: 3, 3>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<1x1x3x3xf64>, tensor<1x1x5x5xf64> -> tensor<1x1x5x5xf64>
func.func @pool(%g: tensor<?x8x14x14xf32>, %x: tensor<?x8x28x28xf32>) -> tensor<?x8x28x28xf32> {
  %0 = mdl.max_pool2d_grad %g, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x8x14x14xf32>, tensor<?x8x28x28xf32> -> tensor<?x8x28x28xf32>
  return %0 : tensor<?x8x28x28xf32>
}
func.func @padded(%g: tensor<1x1x3x3xf64>, %x: tensor<1x1x5x5xf64>) -> tensor<1x1x5x5xf64> {
  %0 = mdl.max_pool2d_grad %g, %x {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<1x1x3x3xf64>, tensor<1x1x5x5xf64> -> tensor<1x1x5x5xf64>
  return %0 : tensor<1x1x5x5xf64>
}
