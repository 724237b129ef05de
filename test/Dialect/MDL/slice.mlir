// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.slice: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @slice(
// CHECK: %{{[a-z0-9_]+}} = mdl.slice %{{[a-z0-9_]+}} {size = array<i64: -1, 4>, start = array<i64: 0, 2>, stride = array<i64: 1, 1>} : tensor<?x10xf32> -> tensor<?x4xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x4xf32>
// CHECK-LABEL: func.func @slice_strided(
// CHECK: %{{[a-z0-9_]+}} = mdl.slice %{{[a-z0-9_]+}} {size = array<i64: 4, 3>, start = array<i64: 1, 0>, stride = array<i64: 2, 4>} : tensor<8x9xi32> -> tensor<4x3xi32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<4x3xi32>

func.func @slice(%x: tensor<?x10xf32>) -> tensor<?x4xf32> {
  %0 = mdl.slice %x {size = array<i64: -1, 4>, start = array<i64: 0, 2>, stride = array<i64: 1, 1>} : tensor<?x10xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
func.func @slice_strided(%x: tensor<8x9xi32>) -> tensor<4x3xi32> {
  %0 = mdl.slice %x {size = array<i64: 4, 3>, start = array<i64: 1, 0>, stride = array<i64: 2, 4>} : tensor<8x9xi32> -> tensor<4x3xi32>
  return %0 : tensor<4x3xi32>
}
