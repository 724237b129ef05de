// RUN: modelc-opt %s --mdl-autodiff=func=loss\ result=grad | FileCheck %s
// Without mdl.param reads the pass differentiates w.r.t. the float
// arguments: matmul's gradient is two matmuls with the right transposes.

func.func @loss(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %n: tensor<2xi64>) -> tensor<f32> {
  %y = mdl.matmul %a, %b : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
  %l = mdl.reduce_sum %y {axes = array<i64: 0, 1>} : tensor<2x4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: func.func @grad(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<3x4xf32>, %{{.*}}: tensor<2xi64>) -> (tensor<f32>, tensor<2x3xf32>, tensor<3x4xf32>)
// CHECK: %[[G:.*]] = mdl.broadcast_to
// CHECK-DAG: %[[BT:.*]] = mdl.transpose %[[B]] {permutation = array<i64: 1, 0>} : tensor<3x4xf32> -> tensor<4x3xf32>
// CHECK-DAG: %[[DA:.*]] = mdl.matmul %[[G]], %[[BT]] : tensor<2x4xf32>, tensor<4x3xf32> -> tensor<2x3xf32>
// CHECK-DAG: %[[AT:.*]] = mdl.transpose %[[A]] {permutation = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK-DAG: %[[DB:.*]] = mdl.matmul %[[AT]], %[[G]] : tensor<3x2xf32>, tensor<2x4xf32> -> tensor<3x4xf32>
// CHECK: return %{{.*}}, %[[DA]], %[[DB]]
