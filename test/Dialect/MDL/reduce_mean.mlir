// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.reduce_mean with and without keepdims: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @reduce_mean(
// CHECK: %{{[a-z0-9_]+}} = mdl.reduce_mean %{{[a-z0-9_]+}} {axes = array<i64: 1>} : tensor<?x10xf32> -> tensor<?xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?xf32>
// CHECK-LABEL: func.func @reduce_mean_keep(
// CHECK: %{{[a-z0-9_]+}} = mdl.reduce_mean %{{[a-z0-9_]+}} {axes = array<i64: -1, 1>, keepdims = true} : tensor<?x4x5xf32> -> tensor<?x1x1xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x1x1xf32>
// CHECK-LABEL: func.func @reduce_mean_all(
// CHECK: %{{[a-z0-9_]+}} = mdl.reduce_mean %{{[a-z0-9_]+}} {axes = array<i64: 0, 1>} : tensor<?x10xf32> -> tensor<f32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<f32>

func.func @reduce_mean(%x: tensor<?x10xf32>) -> tensor<?xf32> {
  %0 = mdl.reduce_mean %x {axes = array<i64: 1>} : tensor<?x10xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func @reduce_mean_keep(%x: tensor<?x4x5xf32>) -> tensor<?x1x1xf32> {
  %0 = mdl.reduce_mean %x {axes = array<i64: -1, 1>, keepdims = true} : tensor<?x4x5xf32> -> tensor<?x1x1xf32>
  return %0 : tensor<?x1x1xf32>
}
func.func @reduce_mean_all(%x: tensor<?x10xf32>) -> tensor<f32> {
  %0 = mdl.reduce_mean %x {axes = array<i64: 0, 1>} : tensor<?x10xf32> -> tensor<f32>
  return %0 : tensor<f32>
}
