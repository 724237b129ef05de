// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.bce_with_logits: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @bce_with_logits(
// CHECK: %{{[a-z0-9_]+}} = mdl.bce_with_logits mean %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x1xf32>, tensor<?x1xf32> -> tensor<f32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<f32>
// CHECK-LABEL: func.func @bce_with_logits_sum(
// CHECK: %{{[a-z0-9_]+}} = mdl.bce_with_logits sum %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<3x2xf64>, tensor<3x2xf64> -> tensor<f64>
// CHECK: return %{{[a-z0-9_]+}} : tensor<f64>

func.func @bce_with_logits(%y: tensor<?x1xf32>, %t: tensor<?x1xf32>) -> tensor<f32> {
  %0 = mdl.bce_with_logits mean %y, %t : tensor<?x1xf32>, tensor<?x1xf32> -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @bce_with_logits_sum(%y: tensor<3x2xf64>, %t: tensor<3x2xf64>) -> tensor<f64> {
  %0 = mdl.bce_with_logits sum %y, %t : tensor<3x2xf64>, tensor<3x2xf64> -> tensor<f64>
  return %0 : tensor<f64>
}
