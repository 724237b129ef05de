// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.transpose: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @transpose(
// CHECK: %{{[a-z0-9_]+}} = mdl.transpose %{{[a-z0-9_]+}} {permutation = array<i64: 0, 2, 1>} : tensor<?x8x16xf32> -> tensor<?x16x8xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x16x8xf32>
// CHECK-LABEL: func.func @transpose_2d(
// CHECK: %{{[a-z0-9_]+}} = mdl.transpose %{{[a-z0-9_]+}} {permutation = array<i64: 1, 0>} : tensor<3x5xi1> -> tensor<5x3xi1>
// CHECK: return %{{[a-z0-9_]+}} : tensor<5x3xi1>

func.func @transpose(%x: tensor<?x8x16xf32>) -> tensor<?x16x8xf32> {
  %0 = mdl.transpose %x {permutation = array<i64: 0, 2, 1>} : tensor<?x8x16xf32> -> tensor<?x16x8xf32>
  return %0 : tensor<?x16x8xf32>
}
func.func @transpose_2d(%x: tensor<3x5xi1>) -> tensor<5x3xi1> {
  %0 = mdl.transpose %x {permutation = array<i64: 1, 0>} : tensor<3x5xi1> -> tensor<5x3xi1>
  return %0 : tensor<5x3xi1>
}
