// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.embedding_grad (a backward-pass helper op): custom and generic
// forms print the same text, and the written result types agree with the
// inferred ones.

// CHECK-LABEL: func.func @embedding_grad(
// CHECK: %{{[a-z0-9_]+}} = mdl.embedding_grad %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x16x64xf32>, tensor<?x16xi64>, tensor<1000x64xf32> -> tensor<1000x64xf32>
func.func @embedding_grad(%g: tensor<?x16x64xf32>, %i: tensor<?x16xi64>, %t: tensor<1000x64xf32>) -> tensor<1000x64xf32> {
  %0 = mdl.embedding_grad %g, %i, %t : tensor<?x16x64xf32>, tensor<?x16xi64>, tensor<1000x64xf32> -> tensor<1000x64xf32>
  return %0 : tensor<1000x64xf32>
}
