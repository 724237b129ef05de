// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.concat: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @concat(
// CHECK: %{{[a-z0-9_]+}} = mdl.concat %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {axis = 1 : i64} : tensor<?x3xf32>, tensor<?x5xf32> -> tensor<?x8xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x8xf32>
// CHECK-LABEL: func.func @concat_batch(
// CHECK: %{{[a-z0-9_]+}} = mdl.concat %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {axis = 0 : i64} : tensor<?x3xf32>, tensor<2x3xf32>, tensor<4x3xf32> -> tensor<?x3xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x3xf32>

func.func @concat(%a: tensor<?x3xf32>, %b: tensor<?x5xf32>) -> tensor<?x8xf32> {
  %0 = mdl.concat %a, %b {axis = 1 : i64} : tensor<?x3xf32>, tensor<?x5xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
func.func @concat_batch(%a: tensor<?x3xf32>, %b: tensor<2x3xf32>, %c: tensor<4x3xf32>) -> tensor<?x3xf32> {
  %0 = mdl.concat %a, %b, %c {axis = 0 : i64} : tensor<?x3xf32>, tensor<2x3xf32>, tensor<4x3xf32> -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
