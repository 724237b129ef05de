// RUN: modelc-opt %s --mdl-autodiff | FileCheck %s
// A linear layer: the weight gradient is x^T @ dy and the input-side
// product dy @ w^T is not built (x is data); the broadcast bias gradient is
// a sum over the batch. Gradients come in parameter-table order.

mdl.parameter @w : tensor<4x3xf32> {init = #mdl.init<zeros>}
mdl.parameter @b : tensor<3xf32> {init = #mdl.init<zeros>}
func.func @train_loss(%x: tensor<?x4xf32>, %t: tensor<?x3xf32>) -> tensor<f32> {
  %w = mdl.param @w : tensor<4x3xf32>
  %b = mdl.param @b : tensor<3xf32>
  %h = mdl.matmul %x, %w : tensor<?x4xf32>, tensor<4x3xf32> -> tensor<?x3xf32>
  %y = mdl.add %h, %b : tensor<?x3xf32>, tensor<3xf32> -> tensor<?x3xf32>
  %l = mdl.mse_loss sum %y, %t : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<?x4xf32>, %{{.*}}: tensor<?x3xf32>) -> (tensor<f32>, tensor<4x3xf32>, tensor<3xf32>)
// CHECK: %[[Y:.*]] = mdl.add
// CHECK: %[[L:.*]] = mdl.mse_loss sum %[[Y]]
// CHECK: %[[DB:.*]] = mdl.reduce_sum %[[DY:[0-9]+]] {axes = array<i64: 0>} : tensor<?x3xf32> -> tensor<3xf32>
// CHECK: %[[XT:.*]] = mdl.transpose %[[X]] {permutation = array<i64: 1, 0>} : tensor<?x4xf32> -> tensor<4x?xf32>
// CHECK: %[[DW:.*]] = mdl.matmul %[[XT]], %[[DY]] : tensor<4x?xf32>, tensor<?x3xf32> -> tensor<4x3xf32>
// CHECK-NOT: mdl.matmul
// CHECK: return %[[L]], %[[DW]], %[[DB]] : tensor<f32>, tensor<4x3xf32>, tensor<3xf32>
