// RUN: modelc-opt %s --mdl-autodiff | FileCheck %s
// embedding: the table gradient is embedding_grad (scatter-add of dy rows
// at the ids into the table's shape); the integer ids get no gradient.

mdl.parameter @table : tensor<10x4xf32> {init = #mdl.init<zeros>}
func.func @train_loss(%ids: tensor<?x3xi64>, %t: tensor<?x3x4xf32>) -> tensor<f32> {
  %w = mdl.param @table : tensor<10x4xf32>
  %e = mdl.embedding %ids, %w : tensor<?x3xi64>, tensor<10x4xf32> -> tensor<?x3x4xf32>
  %l = mdl.mse_loss mean %e, %t : tensor<?x3x4xf32>, tensor<?x3x4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[IDS:[a-z0-9]+]]: tensor<?x3xi64>, %[[T:[a-z0-9]+]]: tensor<?x3x4xf32>) -> (tensor<f32>, tensor<10x4xf32>)
// CHECK: %[[W:.*]] = mdl.param @table : tensor<10x4xf32>
// CHECK: %[[E:.*]] = mdl.embedding %[[IDS]], %[[W]]
// CHECK: %[[L:.*]] = mdl.mse_loss mean %[[E]], %[[T]]
// CHECK: %{{.*}} = mdl.sub %[[E]], %[[T]]
// CHECK: %[[DW:.*]] = mdl.embedding_grad %{{[0-9]+}}, %[[IDS]], %[[W]] : tensor<?x3x4xf32>, tensor<?x3xi64>, tensor<10x4xf32> -> tensor<10x4xf32>
// CHECK: return %[[L]], %[[DW]] : tensor<f32>, tensor<10x4xf32>
