// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.select with broadcasting: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @select(
// CHECK: %{{[a-z0-9_]+}} = mdl.select %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x10xi1>, tensor<?x10xf32>, tensor<f32> -> tensor<?x10xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x10xf32>
// CHECK-LABEL: func.func @select_cond_broadcast(
// CHECK: %{{[a-z0-9_]+}} = mdl.select %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<1x3xi1>, tensor<4x1xi32>, tensor<i32> -> tensor<4x3xi32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<4x3xi32>

func.func @select(%m: tensor<?x10xi1>, %x: tensor<?x10xf32>, %z: tensor<f32>) -> tensor<?x10xf32> {
  %0 = mdl.select %m, %x, %z : tensor<?x10xi1>, tensor<?x10xf32>, tensor<f32> -> tensor<?x10xf32>
  return %0 : tensor<?x10xf32>
}
func.func @select_cond_broadcast(%m: tensor<1x3xi1>, %x: tensor<4x1xi32>, %y: tensor<i32>) -> tensor<4x3xi32> {
  %0 = mdl.select %m, %x, %y : tensor<1x3xi1>, tensor<4x1xi32>, tensor<i32> -> tensor<4x3xi32>
  return %0 : tensor<4x3xi32>
}
