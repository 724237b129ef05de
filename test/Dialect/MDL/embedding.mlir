// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.embedding: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @embedding(
// CHECK: %{{[a-z0-9_]+}} = mdl.embedding %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x16xi64>, tensor<1000x64xf32> -> tensor<?x16x64xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x16x64xf32>
// CHECK-LABEL: func.func @embedding_i32(
// CHECK: %{{[a-z0-9_]+}} = mdl.embedding %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?xi32>, tensor<10x3xf64> -> tensor<?x3xf64>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x3xf64>

func.func @embedding(%t: tensor<?x16xi64>, %w: tensor<1000x64xf32>) -> tensor<?x16x64xf32> {
  %0 = mdl.embedding %t, %w : tensor<?x16xi64>, tensor<1000x64xf32> -> tensor<?x16x64xf32>
  return %0 : tensor<?x16x64xf32>
}
func.func @embedding_i32(%t: tensor<?xi32>, %w: tensor<10x3xf64>) -> tensor<?x3xf64> {
  %0 = mdl.embedding %t, %w : tensor<?xi32>, tensor<10x3xf64> -> tensor<?x3xf64>
  return %0 : tensor<?x3xf64>
}
