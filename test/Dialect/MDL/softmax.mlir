// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.softmax: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @softmax(
// CHECK: %{{[a-z0-9_]+}} = mdl.softmax %{{[a-z0-9_]+}} {axis = 1 : i64} : tensor<?x10xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x10xf32>
// CHECK-LABEL: func.func @softmax_default(
// CHECK: %{{[a-z0-9_]+}} = mdl.softmax %{{[a-z0-9_]+}} : tensor<?x4x10xf64>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x4x10xf64>

func.func @softmax(%x: tensor<?x10xf32>) -> tensor<?x10xf32> {
  %0 = mdl.softmax %x {axis = 1 : i64} : tensor<?x10xf32>
  return %0 : tensor<?x10xf32>
}
func.func @softmax_default(%x: tensor<?x4x10xf64>) -> tensor<?x4x10xf64> {
  %0 = mdl.softmax %x : tensor<?x4x10xf64>
  return %0 : tensor<?x4x10xf64>
}
