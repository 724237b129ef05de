// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.batch_norm_eval: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @batch_norm_eval(
// CHECK: %{{[a-z0-9_]+}} = mdl.batch_norm_eval %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32> -> tensor<?x32xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x32xf32>

func.func @batch_norm_eval(%x: tensor<?x32xf32>, %g: tensor<32xf32>, %b: tensor<32xf32>, %rm: tensor<32xf32>, %rv: tensor<32xf32>) -> tensor<?x32xf32> {
  %0 = mdl.batch_norm_eval %x, %g, %b, %rm, %rv : tensor<?x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32> -> tensor<?x32xf32>
  return %0 : tensor<?x32xf32>
}
