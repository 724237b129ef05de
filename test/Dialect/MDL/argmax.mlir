// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.argmax: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @argmax(
// CHECK: %{{[a-z0-9_]+}} = mdl.argmax %{{[a-z0-9_]+}} {axis = 1 : i64} : tensor<?x10xf32> -> tensor<?xi64>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?xi64>
// CHECK-LABEL: func.func @argmax_keep(
// CHECK: %{{[a-z0-9_]+}} = mdl.argmax %{{[a-z0-9_]+}} {axis = 0 : i64, keepdims = true} : tensor<3x4xi32> -> tensor<1x4xi64>
// CHECK: return %{{[a-z0-9_]+}} : tensor<1x4xi64>

func.func @argmax(%x: tensor<?x10xf32>) -> tensor<?xi64> {
  %0 = mdl.argmax %x {axis = 1 : i64} : tensor<?x10xf32> -> tensor<?xi64>
  return %0 : tensor<?xi64>
}
func.func @argmax_keep(%x: tensor<3x4xi32>) -> tensor<1x4xi64> {
  %0 = mdl.argmax %x {axis = 0 : i64, keepdims = true} : tensor<3x4xi32> -> tensor<1x4xi64>
  return %0 : tensor<1x4xi64>
}
