// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.batch_matmul: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @batch_matmul(
// CHECK: %{{[a-z0-9_]+}} = mdl.batch_matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x8x16xf32>, tensor<?x16x8xf32> -> tensor<?x8x8xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x8x8xf32>
// CHECK-LABEL: func.func @batch_matmul_static(
// CHECK: %{{[a-z0-9_]+}} = mdl.batch_matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<4x2x3xf32>, tensor<?x3x5xf32> -> tensor<4x2x5xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<4x2x5xf32>
// CHECK-LABEL: func.func @batch_matmul_broadcast(
// CHECK: mdl.batch_matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x1x8x16xf32>, tensor<4x16x8xf32> -> tensor<?x4x8x8xf32>
// CHECK-LABEL: func.func @batch_matmul_matrix(
// CHECK: mdl.batch_matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<8x16xf32>, tensor<?x2x16x8xf32> -> tensor<?x2x8x8xf32>

func.func @batch_matmul(%q: tensor<?x8x16xf32>, %k: tensor<?x16x8xf32>) -> tensor<?x8x8xf32> {
  %0 = mdl.batch_matmul %q, %k : tensor<?x8x16xf32>, tensor<?x16x8xf32> -> tensor<?x8x8xf32>
  return %0 : tensor<?x8x8xf32>
}
func.func @batch_matmul_static(%q: tensor<4x2x3xf32>, %k: tensor<?x3x5xf32>) -> tensor<4x2x5xf32> {
  %0 = mdl.batch_matmul %q, %k : tensor<4x2x3xf32>, tensor<?x3x5xf32> -> tensor<4x2x5xf32>
  return %0 : tensor<4x2x5xf32>
}
func.func @batch_matmul_broadcast(%q: tensor<?x1x8x16xf32>, %k: tensor<4x16x8xf32>) -> tensor<?x4x8x8xf32> {
  %0 = mdl.batch_matmul %q, %k : tensor<?x1x8x16xf32>, tensor<4x16x8xf32> -> tensor<?x4x8x8xf32>
  return %0 : tensor<?x4x8x8xf32>
}
func.func @batch_matmul_matrix(%w: tensor<8x16xf32>, %x: tensor<?x2x16x8xf32>) -> tensor<?x2x8x8xf32> {
  %0 = mdl.batch_matmul %w, %x : tensor<8x16xf32>, tensor<?x2x16x8xf32> -> tensor<?x2x8x8xf32>
  return %0 : tensor<?x2x8x8xf32>
}
