// RUN: modelc-opt %s --mdl-autodiff | FileCheck %s
// conv2d's gradients are conv2d_grad_weight (with the forward attributes)
// and a bias sum over N, H, W; the input gradient is not built because the
// input is data. Max pooling routes through max_pool2d_grad, average
// pooling spreads through avg_pool2d_grad, both on the forward input.

mdl.parameter @w : tensor<4x1x3x3xf32> {init = #mdl.init<zeros>}
mdl.parameter @b : tensor<4xf32> {init = #mdl.init<zeros>}
func.func @train_loss(%x: tensor<?x1x8x8xf32>) -> tensor<f32> {
  %w = mdl.param @w : tensor<4x1x3x3xf32>
  %b = mdl.param @b : tensor<4xf32>
  %c = mdl.conv2d %x, %w, %b {padding = array<i64: 1, 1>, stride = array<i64: 1, 1>} : tensor<?x1x8x8xf32>, tensor<4x1x3x3xf32>, tensor<4xf32> -> tensor<?x4x8x8xf32>
  %p = mdl.max_pool2d %c {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x4x8x8xf32> -> tensor<?x4x4x4xf32>
  %a = mdl.avg_pool2d %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x4x4x4xf32> -> tensor<?x4x2x2xf32>
  %l = mdl.reduce_mean %a {axes = array<i64: 0, 1, 2, 3>} : tensor<?x4x2x2xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<?x1x8x8xf32>
// CHECK: %[[C:.*]] = mdl.conv2d
// CHECK: %[[P:.*]] = mdl.max_pool2d %[[C]]
// CHECK: %[[DP:.*]] = mdl.avg_pool2d_grad %{{.*}}, %[[P]] {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x4x2x2xf32>, tensor<?x4x4x4xf32> -> tensor<?x4x4x4xf32>
// CHECK: %[[DC:.*]] = mdl.max_pool2d_grad %[[DP]], %[[C]] {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x4x4x4xf32>, tensor<?x4x8x8xf32> -> tensor<?x4x8x8xf32>
// CHECK-NOT: mdl.conv2d_grad_input
// CHECK: %[[DW:.*]] = mdl.conv2d_grad_weight %[[DC]], %[[X]], %{{.*}} {padding = array<i64: 1, 1>} : tensor<?x4x8x8xf32>, tensor<?x1x8x8xf32>, tensor<4x1x3x3xf32> -> tensor<4x1x3x3xf32>
// CHECK: %[[DB:.*]] = mdl.reduce_sum %[[DC]] {axes = array<i64: 0, 2, 3>} : tensor<?x4x8x8xf32> -> tensor<4xf32>
// CHECK: return %{{.*}}, %[[DW]], %[[DB]]
