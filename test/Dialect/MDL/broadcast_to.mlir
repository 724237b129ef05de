// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.broadcast_to a static shape and like another tensor: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @broadcast_to(
// CHECK: %{{[a-z0-9_]+}} = mdl.broadcast_to %{{[a-z0-9_]+}} {shape = array<i64: 4, 128>} : tensor<128xf32> -> tensor<4x128xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<4x128xf32>
// CHECK-LABEL: func.func @broadcast_like(
// CHECK: %{{[a-z0-9_]+}} = mdl.broadcast_to %{{[a-z0-9_]+}} like %{{[a-z0-9_]+}} : tensor<1x128xf32>, tensor<?x128xf32> -> tensor<?x128xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x128xf32>

func.func @broadcast_to(%b: tensor<128xf32>) -> tensor<4x128xf32> {
  %0 = mdl.broadcast_to %b {shape = array<i64: 4, 128>} : tensor<128xf32> -> tensor<4x128xf32>
  return %0 : tensor<4x128xf32>
}
func.func @broadcast_like(%b: tensor<1x128xf32>, %x: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %0 = mdl.broadcast_to %b like %x : tensor<1x128xf32>, tensor<?x128xf32> -> tensor<?x128xf32>
  return %0 : tensor<?x128xf32>
}
