// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.max_pool2d: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @max_pool2d(
// CHECK: %{{[a-z0-9_]+}} = mdl.max_pool2d %{{[a-z0-9_]+}} {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x32x28x28xf32> -> tensor<?x32x14x14xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x32x14x14xf32>
// CHECK-LABEL: func.func @max_pool2d_pad(
// CHECK: %{{[a-z0-9_]+}} = mdl.max_pool2d %{{[a-z0-9_]+}} {kernel = array<i64: 3, 3>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<1x1x5x5xf32> -> tensor<1x1x3x3xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<1x1x3x3xf32>

func.func @max_pool2d(%x: tensor<?x32x28x28xf32>) -> tensor<?x32x14x14xf32> {
  %0 = mdl.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x32x28x28xf32> -> tensor<?x32x14x14xf32>
  return %0 : tensor<?x32x14x14xf32>
}
func.func @max_pool2d_pad(%x: tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32> {
  %0 = mdl.max_pool2d %x {kernel = array<i64: 3, 3>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<1x1x5x5xf32> -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}
