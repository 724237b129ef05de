// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.cast between element types: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @cast(
// CHECK: %{{[a-z0-9_]+}} = mdl.cast %{{[a-z0-9_]+}} : tensor<?xi64> -> tensor<?xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?xf32>
// CHECK-LABEL: func.func @cast_bool(
// CHECK: %{{[a-z0-9_]+}} = mdl.cast %{{[a-z0-9_]+}} : tensor<2x3xi1> -> tensor<2x3xf64>
// CHECK: return %{{[a-z0-9_]+}} : tensor<2x3xf64>

func.func @cast(%l: tensor<?xi64>) -> tensor<?xf32> {
  %0 = mdl.cast %l : tensor<?xi64> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func @cast_bool(%m: tensor<2x3xi1>) -> tensor<2x3xf64> {
  %0 = mdl.cast %m : tensor<2x3xi1> -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}
