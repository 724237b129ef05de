// RUN: modelc-opt %s --mdl-autodiff | FileCheck %s
// reduce_sum spreads dy with broadcast_to; reduce_mean also divides by the
// reduced count (3); reduce_max sends dy to the positions equal to the
// maximum (cmp eq against the broadcast forward result) and splits it
// evenly among ties (divided by the count of maxima).

func.func @train_loss(%x: tensor<3x4xf32>, %y: tensor<3x4xf32>) -> tensor<f32> {
  %m = mdl.reduce_max %x {axes = array<i64: 1>, keepdims = true} : tensor<3x4xf32> -> tensor<3x1xf32>
  %a = mdl.reduce_mean %y {axes = array<i64: 0>} : tensor<3x4xf32> -> tensor<4xf32>
  %p = mdl.mul %m, %a : tensor<3x1xf32>, tensor<4xf32> -> tensor<3x4xf32>
  %l = mdl.reduce_sum %p {axes = array<i64: 0, 1>} : tensor<3x4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<3x4xf32>, %[[Y:[a-z0-9]+]]: tensor<3x4xf32>) -> (tensor<f32>, tensor<3x4xf32>, tensor<3x4xf32>)
// CHECK-DAG: %[[ZERO:.*]] = mdl.constant dense<0.000000e+00> : tensor<f32>
// CHECK-DAG: %[[THREE:.*]] = mdl.constant dense<3.000000e+00> : tensor<f32>
// CHECK: %[[M:.*]] = mdl.reduce_max %[[X]] {axes = array<i64: 1>, keepdims = true} : tensor<3x4xf32> -> tensor<3x1xf32>
// CHECK: %[[P:.*]] = mdl.mul %[[M]], %{{.*}} : tensor<3x1xf32>, tensor<4xf32> -> tensor<3x4xf32>
// CHECK: %[[L:.*]] = mdl.reduce_sum %[[P]] {axes = array<i64: 0, 1>} : tensor<3x4xf32> -> tensor<f32>
// CHECK: %[[DP:.*]] = mdl.broadcast_to %{{.*}} like %[[P]] : tensor<1x1xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
// CHECK: %[[DM:.*]] = mdl.reduce_sum %{{.*}} {axes = array<i64: 1>, keepdims = true} : tensor<3x4xf32> -> tensor<3x1xf32>
// CHECK: %[[DA:.*]] = mdl.reduce_sum %{{.*}} {axes = array<i64: 0>} : tensor<3x4xf32> -> tensor<4xf32>
// CHECK: %[[DAM:.*]] = mdl.div %[[DA]], %[[THREE]] : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
// CHECK: %[[DAR:.*]] = mdl.reshape %[[DAM]] {shape = array<i64: 1, 4>} : tensor<4xf32> -> tensor<1x4xf32>
// CHECK: %[[DY:.*]] = mdl.broadcast_to %[[DAR]] like %[[Y]] : tensor<1x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
// CHECK: %[[MB:.*]] = mdl.broadcast_to %[[M]] like %[[X]] : tensor<3x1xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
// CHECK: %[[EQ:.*]] = mdl.cmp eq, %[[X]], %[[MB]] : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xi1>
// CHECK: %[[ONES:.*]] = mdl.select %[[EQ]], %{{.*}}, %[[ZERO]] : tensor<3x4xi1>, tensor<f32>, tensor<f32> -> tensor<3x4xf32>
// CHECK: %[[COUNT:.*]] = mdl.reduce_sum %[[ONES]] {axes = array<i64: 1>, keepdims = true} : tensor<3x4xf32> -> tensor<3x1xf32>
// CHECK: %[[DMB:.*]] = mdl.broadcast_to %[[DM]] like %[[X]] : tensor<3x1xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
// CHECK: %[[SHARE:.*]] = mdl.div %[[DMB]], %[[COUNT]] : tensor<3x4xf32>, tensor<3x1xf32> -> tensor<3x4xf32>
// CHECK: %[[DX:.*]] = mdl.select %[[EQ]], %[[SHARE]], %[[ZERO]] : tensor<3x4xi1>, tensor<3x4xf32>, tensor<f32> -> tensor<3x4xf32>
// CHECK: return %[[L]], %[[DX]], %[[DY]] : tensor<f32>, tensor<3x4xf32>, tensor<3x4xf32>
