// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.log_softmax: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @log_softmax(
// CHECK: %{{[a-z0-9_]+}} = mdl.log_softmax %{{[a-z0-9_]+}} {axis = 1 : i64} : tensor<?x10xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x10xf32>
// CHECK-LABEL: func.func @log_softmax_default(
// CHECK: %{{[a-z0-9_]+}} = mdl.log_softmax %{{[a-z0-9_]+}} : tensor<?x4x10xf64>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x4x10xf64>

func.func @log_softmax(%x: tensor<?x10xf32>) -> tensor<?x10xf32> {
  %0 = mdl.log_softmax %x {axis = 1 : i64} : tensor<?x10xf32>
  return %0 : tensor<?x10xf32>
}
func.func @log_softmax_default(%x: tensor<?x4x10xf64>) -> tensor<?x4x10xf64> {
  %0 = mdl.log_softmax %x : tensor<?x4x10xf64>
  return %0 : tensor<?x4x10xf64>
}
