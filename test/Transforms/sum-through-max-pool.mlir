// RUN: modelc-opt %s --mdl-sum-through-max-pool --split-input-file | FileCheck %s
// mdl-sum-through-max-pool: a reduce_sum of max_pool2d_grad over both
// spatial axes (2 and 3, or -2 and -1, with or without other axes) reads
// the pooled gradient instead, with the same axes, keepdims and type; the
// max_pool2d_grad stays while another op reads it. Sums over other axes,
// other reductions and average pooling's gradient stay.

// CHECK-LABEL: func.func @bias_gradient
// CHECK-SAME: (%[[DY:.*]]: tensor<?x32x14x14xf32>, %[[X:.*]]: tensor<?x32x28x28xf32>)
// CHECK-NEXT: %[[G:.*]] = mdl.max_pool2d_grad %[[DY]], %[[X]]
// CHECK-NEXT: %[[S:.*]] = mdl.reduce_sum %[[DY]] {axes = array<i64: 0, 2, 3>} : tensor<?x32x14x14xf32> -> tensor<32xf32>
// CHECK-NEXT: return %[[G]], %[[S]]
func.func @bias_gradient(%dy: tensor<?x32x14x14xf32>, %x: tensor<?x32x28x28xf32>) -> (tensor<?x32x28x28xf32>, tensor<32xf32>) {
  %g = mdl.max_pool2d_grad %dy, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x32x14x14xf32>, tensor<?x32x28x28xf32> -> tensor<?x32x28x28xf32>
  %s = mdl.reduce_sum %g {axes = array<i64: 0, 2, 3>} : tensor<?x32x28x28xf32> -> tensor<32xf32>
  return %g, %s : tensor<?x32x28x28xf32>, tensor<32xf32>
}

// -----

// CHECK-LABEL: func.func @negative_axes_keepdims
// CHECK-SAME: (%[[DY:.*]]: tensor<2x4x4x4xf32>, %[[X:.*]]: tensor<2x4x8x8xf32>)
// CHECK-NEXT: %[[S:.*]] = mdl.reduce_sum %[[DY]] {axes = array<i64: -1, -2>, keepdims = true} : tensor<2x4x4x4xf32> -> tensor<2x4x1x1xf32>
// CHECK-NEXT: %[[T:.*]] = mdl.reduce_sum %[[DY]] {axes = array<i64: 0, 1, 2, 3>} : tensor<2x4x4x4xf32> -> tensor<f32>
// CHECK-NEXT: return %[[S]], %[[T]]
func.func @negative_axes_keepdims(%dy: tensor<2x4x4x4xf32>, %x: tensor<2x4x8x8xf32>) -> (tensor<2x4x1x1xf32>, tensor<f32>) {
  %g = mdl.max_pool2d_grad %dy, %x {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<2x4x4x4xf32>, tensor<2x4x8x8xf32> -> tensor<2x4x8x8xf32>
  %s = mdl.reduce_sum %g {axes = array<i64: -1, -2>, keepdims = true} : tensor<2x4x8x8xf32> -> tensor<2x4x1x1xf32>
  %t = mdl.reduce_sum %g {axes = array<i64: 0, 1, 2, 3>} : tensor<2x4x8x8xf32> -> tensor<f32>
  return %s, %t : tensor<2x4x1x1xf32>, tensor<f32>
}

// -----

// A dynamic batch on one side and a static one on the other: a sum that
// keeps the batch would change its type, so it stays; a sum over the batch
// too reads dy.
// CHECK-LABEL: func.func @batch_differs
// CHECK-SAME: (%[[DY:.*]]: tensor<?x4x4x4xf32>
// CHECK: %[[G:.*]] = mdl.max_pool2d_grad
// CHECK-NEXT: mdl.reduce_sum %[[G]] {axes = array<i64: 2, 3>}
// CHECK-NEXT: mdl.reduce_sum %[[DY]] {axes = array<i64: 0, 2, 3>} : tensor<?x4x4x4xf32> -> tensor<4xf32>
func.func @batch_differs(%dy: tensor<?x4x4x4xf32>, %x: tensor<2x4x8x8xf32>) -> (tensor<2x4xf32>, tensor<4xf32>) {
  %g = mdl.max_pool2d_grad %dy, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x4x4x4xf32>, tensor<2x4x8x8xf32> -> tensor<2x4x8x8xf32>
  %s = mdl.reduce_sum %g {axes = array<i64: 2, 3>} : tensor<2x4x8x8xf32> -> tensor<2x4xf32>
  %t = mdl.reduce_sum %g {axes = array<i64: 0, 2, 3>} : tensor<2x4x8x8xf32> -> tensor<4xf32>
  return %s, %t : tensor<2x4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @left_alone
// CHECK: %[[G:.*]] = mdl.max_pool2d_grad
// CHECK-NEXT: mdl.reduce_sum %[[G]] {axes = array<i64: 0, 2>}
// CHECK-NEXT: mdl.reduce_mean %[[G]] {axes = array<i64: 2, 3>}
// CHECK-NEXT: %[[A:.*]] = mdl.avg_pool2d_grad
// CHECK-NEXT: mdl.reduce_sum %[[A]] {axes = array<i64: 0, 2, 3>}
func.func @left_alone(%dy: tensor<2x4x4x4xf32>, %x: tensor<2x4x8x8xf32>) -> (tensor<4x8xf32>, tensor<2x4xf32>, tensor<4xf32>) {
  %g = mdl.max_pool2d_grad %dy, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<2x4x4x4xf32>, tensor<2x4x8x8xf32> -> tensor<2x4x8x8xf32>
  %s = mdl.reduce_sum %g {axes = array<i64: 0, 2>} : tensor<2x4x8x8xf32> -> tensor<4x8xf32>
  %m = mdl.reduce_mean %g {axes = array<i64: 2, 3>} : tensor<2x4x8x8xf32> -> tensor<2x4xf32>
  %a = mdl.avg_pool2d_grad %dy, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<2x4x4x4xf32>, tensor<2x4x8x8xf32> -> tensor<2x4x8x8xf32>
  %t = mdl.reduce_sum %a {axes = array<i64: 0, 2, 3>} : tensor<2x4x8x8xf32> -> tensor<4xf32>
  return %s, %m, %t : tensor<4x8xf32>, tensor<2x4xf32>, tensor<4xf32>
}
