// RUN: modelc-opt %s --mdl-autodiff | FileCheck %s
// RUN: modelc-opt %s --mdl-autodiff | FileCheck %s --check-prefix=ONCE
// RUN: modelc-opt %s --mdl-autodiff | FileCheck %s --check-prefix=NOLOG
// cross_entropy's gradient is the stable fused form (softmax - onehot,
// scaled by the reduction) with no log or softmax of its own; dropout's
// gradient reuses the forward mask (no second dropout); relu's is a select
// on y > 0 (its result, so that x has no other use). A parameter the loss does not reach gets zeros and a warning.

mdl.parameter @w : tensor<4x3xf32> {init = #mdl.init<zeros>}
mdl.parameter @unused : tensor<2xf32> {init = #mdl.init<zeros>}
func.func @train_loss(%x: tensor<?x4xf32>, %labels: tensor<?xi64>, %seed: tensor<i64>) -> tensor<f32> {
  %w = mdl.param @w : tensor<4x3xf32>
  %h = mdl.matmul %x, %w : tensor<?x4xf32>, tensor<4x3xf32> -> tensor<?x3xf32>
  %r = mdl.relu %h : tensor<?x3xf32>
  %d, %m = mdl.dropout %r, %seed {rate = 0.25 : f64} : tensor<?x3xf32>, tensor<i64> -> tensor<?x3xf32>, tensor<?x3xi1>
  %l = mdl.cross_entropy mean %d, %labels : tensor<?x3xf32>, tensor<?xi64> -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: -> (tensor<f32>, tensor<4x3xf32>, tensor<2xf32>)
// CHECK-DAG: %[[ZEROS:.*]] = mdl.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-DAG: %[[SCALE:.*]] = mdl.constant dense<1.33333337> : tensor<f32>
// CHECK: %[[H:.*]] = mdl.matmul
// CHECK: %[[R:.*]] = mdl.relu %[[H]]
// CHECK: %[[D:[a-z0-9_]+]], %[[MASK:[a-z0-9_]+]] = mdl.dropout
// CHECK: %[[L:.*]] = mdl.cross_entropy mean %[[D]]
// CHECK: %[[DL:.*]] = mdl.cross_entropy_grad mean %[[D]], %{{.*}}, %{{.*}} : tensor<?x3xf32>, tensor<?xi64>, tensor<f32> -> tensor<?x3xf32>
// CHECK: %[[S:.*]] = mdl.mul %[[DL]], %[[SCALE]]
// CHECK: %[[DD:.*]] = mdl.select %[[MASK]], %[[S]], %{{.*}} : tensor<?x3xi1>, tensor<?x3xf32>, tensor<f32> -> tensor<?x3xf32>
// CHECK: %[[POS:.*]] = mdl.cmp gt, %[[R]], %{{.*}}
// CHECK: %[[DH:.*]] = mdl.select %[[POS]], %[[DD]], %{{.*}}
// CHECK: %[[DW:.*]] = mdl.matmul %{{.*}}, %[[DH]]
// CHECK: return %[[L]], %[[DW]], %[[ZEROS]]

// One dropout per function: train_loss's and train_step's forward copy.
// ONCE-COUNT-2: mdl.dropout
// ONCE-NOT: mdl.dropout
// NOLOG-NOT: {{mdl.log|mdl.softmax|mdl.exp}}
