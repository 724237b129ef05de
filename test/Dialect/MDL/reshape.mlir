// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.reshape static and batch-preserving: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @reshape(
// CHECK: %{{[a-z0-9_]+}} = mdl.reshape %{{[a-z0-9_]+}} {shape = array<i64: -1, 64, 7, 7>} : tensor<?x3136xf32> -> tensor<?x64x7x7xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x64x7x7xf32>
// CHECK-LABEL: func.func @reshape_static(
// CHECK: %{{[a-z0-9_]+}} = mdl.reshape %{{[a-z0-9_]+}} {shape = array<i64: 2, 12>} : tensor<4x6xi64> -> tensor<2x12xi64>
// CHECK: return %{{[a-z0-9_]+}} : tensor<2x12xi64>

func.func @reshape(%x: tensor<?x3136xf32>) -> tensor<?x64x7x7xf32> {
  %0 = mdl.reshape %x {shape = array<i64: -1, 64, 7, 7>} : tensor<?x3136xf32> -> tensor<?x64x7x7xf32>
  return %0 : tensor<?x64x7x7xf32>
}
func.func @reshape_static(%x: tensor<4x6xi64>) -> tensor<2x12xi64> {
  %0 = mdl.reshape %x {shape = array<i64: 2, 12>} : tensor<4x6xi64> -> tensor<2x12xi64>
  return %0 : tensor<2x12xi64>
}
