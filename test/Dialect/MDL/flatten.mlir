// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.flatten: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @flatten(
// CHECK: %{{[a-z0-9_]+}} = mdl.flatten %{{[a-z0-9_]+}} : tensor<?x64x7x7xf32> -> tensor<?x3136xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x3136xf32>
// CHECK-LABEL: func.func @flatten_range(
// CHECK: %{{[a-z0-9_]+}} = mdl.flatten %{{[a-z0-9_]+}} {end_dim = 2 : i64, start_dim = 0 : i64} : tensor<?x2x3x4xf32> -> tensor<?x4xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x4xf32>

func.func @flatten(%x: tensor<?x64x7x7xf32>) -> tensor<?x3136xf32> {
  %0 = mdl.flatten %x : tensor<?x64x7x7xf32> -> tensor<?x3136xf32>
  return %0 : tensor<?x3136xf32>
}
func.func @flatten_range(%x: tensor<?x2x3x4xf32>) -> tensor<?x4xf32> {
  %0 = mdl.flatten %x {end_dim = 2 : i64, start_dim = 0 : i64} : tensor<?x2x3x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
