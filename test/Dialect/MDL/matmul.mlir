// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.matmul 2-D x 2-D and N-D x 2-D: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @matmul(
// CHECK: %{{[a-z0-9_]+}} = mdl.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x784xf32>, tensor<784x128xf32> -> tensor<?x128xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x128xf32>
// CHECK-LABEL: func.func @matmul_nd(
// CHECK: %{{[a-z0-9_]+}} = mdl.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x16x64xf64>, tensor<64x8xf64> -> tensor<?x16x8xf64>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x16x8xf64>
// CHECK-LABEL: func.func @matmul_int(
// CHECK: %{{[a-z0-9_]+}} = mdl.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<2x3xi32>, tensor<3x5xi32> -> tensor<2x5xi32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<2x5xi32>

func.func @matmul(%x: tensor<?x784xf32>, %w: tensor<784x128xf32>) -> tensor<?x128xf32> {
  %0 = mdl.matmul %x, %w : tensor<?x784xf32>, tensor<784x128xf32> -> tensor<?x128xf32>
  return %0 : tensor<?x128xf32>
}
func.func @matmul_nd(%x: tensor<?x16x64xf64>, %w: tensor<64x8xf64>) -> tensor<?x16x8xf64> {
  %0 = mdl.matmul %x, %w : tensor<?x16x64xf64>, tensor<64x8xf64> -> tensor<?x16x8xf64>
  return %0 : tensor<?x16x8xf64>
}
func.func @matmul_int(%x: tensor<2x3xi32>, %w: tensor<3x5xi32>) -> tensor<2x5xi32> {
  %0 = mdl.matmul %x, %w : tensor<2x3xi32>, tensor<3x5xi32> -> tensor<2x5xi32>
  return %0 : tensor<2x5xi32>
}
