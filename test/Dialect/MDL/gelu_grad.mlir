// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.gelu_grad (a backward-pass helper op): custom and generic
// forms print the same text, and the written result types agree with the
// inferred ones.

// CHECK-LABEL: func.func @gelu_grad(
// CHECK: %{{[a-z0-9_]+}} = mdl.gelu_grad %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x128xf32>
func.func @gelu_grad(%x: tensor<?x128xf32>, %g: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %0 = mdl.gelu_grad %x, %g : tensor<?x128xf32>
  return %0 : tensor<?x128xf32>
}
