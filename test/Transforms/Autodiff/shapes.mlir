// RUN: modelc-opt %s --mdl-autodiff | FileCheck %s
// Shape ops map the gradient back: broadcast_to -> reduce_sum over the
// broadcast axes, concat -> one slice per operand, slice -> slice_grad
// (scatter into zeros with the forward start/stride), transpose -> the
// inverse permutation, reshape and flatten -> reshape to the input shape.

func.func @train_loss(%x: tensor<2x3x4xf32>, %y: tensor<2x2xf32>, %v: tensor<4xf32>) -> tensor<f32> {
  %0 = mdl.flatten %x : tensor<2x3x4xf32> -> tensor<2x12xf32>
  %1 = mdl.reshape %0 {shape = array<i64: 6, 4>} : tensor<2x12xf32> -> tensor<6x4xf32>
  %2 = mdl.transpose %1 {permutation = array<i64: 1, 0>} : tensor<6x4xf32> -> tensor<4x6xf32>
  %3 = mdl.slice %2 {start = array<i64: 1, 0>, size = array<i64: 2, 3>, stride = array<i64: 2, 2>} : tensor<4x6xf32> -> tensor<2x3xf32>
  %4 = mdl.concat %3, %y {axis = 1 : i64} : tensor<2x3xf32>, tensor<2x2xf32> -> tensor<2x5xf32>
  %5 = mdl.broadcast_to %v {shape = array<i64: 5, 4>} : tensor<4xf32> -> tensor<5x4xf32>
  %6 = mdl.matmul %4, %5 : tensor<2x5xf32>, tensor<5x4xf32> -> tensor<2x4xf32>
  %l = mdl.reduce_sum %6 {axes = array<i64: 0, 1>} : tensor<2x4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x3x4xf32>, %[[Y:[a-z0-9]+]]: tensor<2x2xf32>, %[[V:[a-z0-9]+]]: tensor<4xf32>) -> (tensor<f32>, tensor<2x3x4xf32>, tensor<2x2xf32>, tensor<4xf32>)
// CHECK: %[[T:.*]] = mdl.transpose %{{.*}} {permutation = array<i64: 1, 0>} : tensor<6x4xf32> -> tensor<4x6xf32>
// CHECK: %[[B:.*]] = mdl.broadcast_to %[[V]] {shape = array<i64: 5, 4>} : tensor<4xf32> -> tensor<5x4xf32>
// CHECK: %[[L:.*]] = mdl.reduce_sum
// CHECK: %[[DC:.*]] = mdl.matmul %{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<4x5xf32> -> tensor<2x5xf32>
// CHECK: %[[DB:.*]] = mdl.matmul %{{.*}}, %{{.*}} : tensor<5x2xf32>, tensor<2x4xf32> -> tensor<5x4xf32>
// CHECK: %[[DV:.*]] = mdl.reduce_sum %[[DB]] {axes = array<i64: 0>} : tensor<5x4xf32> -> tensor<4xf32>
// CHECK: %[[DS:.*]] = mdl.slice %[[DC]] {size = array<i64: 2, 3>, start = array<i64: 0, 0>, stride = array<i64: 1, 1>} : tensor<2x5xf32> -> tensor<2x3xf32>
// CHECK: %[[DY:.*]] = mdl.slice %[[DC]] {size = array<i64: 2, 2>, start = array<i64: 0, 3>, stride = array<i64: 1, 1>} : tensor<2x5xf32> -> tensor<2x2xf32>
// CHECK: %[[DT:.*]] = mdl.slice_grad %[[DS]], %[[T]] {start = array<i64: 1, 0>, stride = array<i64: 2, 2>} : tensor<2x3xf32>, tensor<4x6xf32> -> tensor<4x6xf32>
// CHECK: %[[DR:.*]] = mdl.transpose %[[DT]] {permutation = array<i64: 1, 0>} : tensor<4x6xf32> -> tensor<6x4xf32>
// CHECK: %[[DX:.*]] = mdl.reshape %[[DR]] {shape = array<i64: 2, 3, 4>} : tensor<6x4xf32> -> tensor<2x3x4xf32>
// CHECK: return %[[L]], %[[DX]], %[[DY]], %[[DV]] : tensor<f32>, tensor<2x3x4xf32>, tensor<2x2xf32>, tensor<4xf32>
