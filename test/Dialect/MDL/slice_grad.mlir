// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.slice_grad (a backward-pass helper op): custom and generic
// forms print the same text, and the written result types agree with the
// inferred ones.

// CHECK-LABEL: func.func @slice_grad(
// CHECK: %{{[a-z0-9_]+}} = mdl.slice_grad %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {start = array<i64: 0, 2>, stride = array<i64: 1, 3>} : tensor<?x3xf32>, tensor<?x10xf32> -> tensor<?x10xf32>
func.func @slice_grad(%g: tensor<?x3xf32>, %x: tensor<?x10xf32>) -> tensor<?x10xf32> {
  %0 = mdl.slice_grad %g, %x {start = array<i64: 0, 2>, stride = array<i64: 1, 3>} : tensor<?x3xf32>, tensor<?x10xf32> -> tensor<?x10xf32>
  return %0 : tensor<?x10xf32>
}
