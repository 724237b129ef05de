// RUN: modelc-opt %s --mdl-autodiff | FileCheck %s
// softmax (axis 0): dx = y * (dy - sum(dy * y, axis, keepdims)), on the
// forward output y. log_softmax (last axis): dx = dy - exp(y) * sum(dy,
// axis, keepdims), on the forward output. The two input gradients add up.

func.func @train_loss(%x: tensor<4x5xf32>, %t: tensor<4x5xf32>) -> tensor<f32> {
  %s = mdl.softmax %x {axis = 0 : i64} : tensor<4x5xf32>
  %ls = mdl.log_softmax %x : tensor<4x5xf32>
  %p = mdl.mul %s, %t : tensor<4x5xf32>, tensor<4x5xf32> -> tensor<4x5xf32>
  %q = mdl.mul %ls, %t : tensor<4x5xf32>, tensor<4x5xf32> -> tensor<4x5xf32>
  %a = mdl.add %p, %q : tensor<4x5xf32>, tensor<4x5xf32> -> tensor<4x5xf32>
  %l = mdl.reduce_sum %a {axes = array<i64: 0, 1>} : tensor<4x5xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<4x5xf32>, %[[T:[a-z0-9]+]]: tensor<4x5xf32>) -> (tensor<f32>, tensor<4x5xf32>, tensor<4x5xf32>)
// CHECK: %[[S:.*]] = mdl.softmax %[[X]] {axis = 0 : i64} : tensor<4x5xf32>
// CHECK: %[[LS:.*]] = mdl.log_softmax %[[X]] : tensor<4x5xf32>
// CHECK: %[[L:.*]] = mdl.reduce_sum
// CHECK: %[[DY:.*]] = mdl.mul %{{.*}}, %[[T]] : tensor<4x5xf32>, tensor<4x5xf32> -> tensor<4x5xf32>
// CHECK: %[[E:.*]] = mdl.exp %[[LS]] : tensor<4x5xf32>
// CHECK: %[[SUM:.*]] = mdl.reduce_sum %[[DY]] {axes = array<i64: 1>, keepdims = true} : tensor<4x5xf32> -> tensor<4x1xf32>
// CHECK: %[[ES:.*]] = mdl.mul %[[E]], %[[SUM]] : tensor<4x5xf32>, tensor<4x1xf32> -> tensor<4x5xf32>
// CHECK: %[[DLS:.*]] = mdl.sub %[[DY]], %[[ES]] : tensor<4x5xf32>, tensor<4x5xf32> -> tensor<4x5xf32>
// CHECK: %[[DYY:.*]] = mdl.mul %[[DY]], %[[S]] : tensor<4x5xf32>, tensor<4x5xf32> -> tensor<4x5xf32>
// CHECK: %[[DOT:.*]] = mdl.reduce_sum %[[DYY]] {axes = array<i64: 0>, keepdims = true} : tensor<4x5xf32> -> tensor<1x5xf32>
// CHECK: %[[C:.*]] = mdl.sub %[[DY]], %[[DOT]] : tensor<4x5xf32>, tensor<1x5xf32> -> tensor<4x5xf32>
// CHECK: %[[DS:.*]] = mdl.mul %[[S]], %[[C]] : tensor<4x5xf32>, tensor<4x5xf32> -> tensor<4x5xf32>
// CHECK: %[[DX:.*]] = mdl.add %[[DLS]], %[[DS]] : tensor<4x5xf32>, tensor<4x5xf32> -> tensor<4x5xf32>
// CHECK: return %[[L]], %[[DX]], %{{.*}} : tensor<f32>, tensor<4x5xf32>, tensor<4x5xf32>
