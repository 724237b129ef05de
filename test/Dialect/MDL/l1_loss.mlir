// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.l1_loss: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @l1_loss(
// CHECK: %{{[a-z0-9_]+}} = mdl.l1_loss mean %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x1xf32>, tensor<?x1xf32> -> tensor<f32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<f32>
// CHECK-LABEL: func.func @l1_loss_sum(
// CHECK: %{{[a-z0-9_]+}} = mdl.l1_loss sum %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<3x2xf64>, tensor<3x2xf64> -> tensor<f64>
// CHECK: return %{{[a-z0-9_]+}} : tensor<f64>

func.func @l1_loss(%y: tensor<?x1xf32>, %t: tensor<?x1xf32>) -> tensor<f32> {
  %0 = mdl.l1_loss mean %y, %t : tensor<?x1xf32>, tensor<?x1xf32> -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @l1_loss_sum(%y: tensor<3x2xf64>, %t: tensor<3x2xf64>) -> tensor<f64> {
  %0 = mdl.l1_loss sum %y, %t : tensor<3x2xf64>, tensor<3x2xf64> -> tensor<f64>
  return %0 : tensor<f64>
}
