// RUN: modelc-opt %s --mdl-autodiff | FileCheck %s
// layer_norm (over the trailing 4): dgamma = sum(dy * xhat), dbeta =
// sum(dy) over the leading axes, and dx = rstd * (dy*g - mean(dy*g) -
// xhat * mean(dy*g * xhat)), with xhat and rstd recomputed from the input.
// batch_norm_train (channel axis 1): dgamma = sum(dy * xhat), dbeta =
// sum(dy) over axes 0 and 2, xhat rebuilt from the op's batch_mean and
// batch_var results; the data input gets no gradient. Gradients come in
// parameter-table order (g, b, lg, lb).

mdl.parameter @g : tensor<2xf32> {init = #mdl.init<ones>}
mdl.parameter @b : tensor<2xf32> {init = #mdl.init<zeros>}
mdl.parameter @lg : tensor<4xf32> {init = #mdl.init<ones>}
mdl.parameter @lb : tensor<4xf32> {init = #mdl.init<zeros>}
func.func @train_loss(%x: tensor<?x2x4xf32>) -> tensor<f32> {
  %g = mdl.param @g : tensor<2xf32>
  %b = mdl.param @b : tensor<2xf32>
  %lg = mdl.param @lg : tensor<4xf32>
  %lb = mdl.param @lb : tensor<4xf32>
  %y, %m, %v = mdl.batch_norm_train %x, %g, %b : tensor<?x2x4xf32>, tensor<2xf32>, tensor<2xf32> -> tensor<?x2x4xf32>, tensor<2xf32>, tensor<2xf32>
  %n = mdl.layer_norm %y, %lg, %lb : tensor<?x2x4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<?x2x4xf32>
  %l = mdl.reduce_mean %n {axes = array<i64: 0, 1, 2>} : tensor<?x2x4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<?x2x4xf32>) -> (tensor<f32>, tensor<2xf32>, tensor<2xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-DAG: %[[EPS:.*]] = mdl.constant dense<9.99999974E-6> : tensor<f32>
// CHECK-DAG: %[[G:.*]] = mdl.param @g
// CHECK-DAG: %[[LG:.*]] = mdl.param @lg
// CHECK: %[[Y:.*]], %[[MEAN:.*]], %[[VAR:.*]] = mdl.batch_norm_train %[[X]], %[[G]]
// CHECK: %[[N:.*]] = mdl.layer_norm %[[Y]], %[[LG]]
// CHECK: %[[L:.*]] = mdl.reduce_mean %[[N]]
// CHECK: %[[DN:.*]] = mdl.broadcast_to %{{.*}} like %[[N]] : tensor<1x1x1xf32>, tensor<?x2x4xf32> -> tensor<?x2x4xf32>
// CHECK: %[[LMEAN:.*]] = mdl.reduce_mean %[[Y]] {axes = array<i64: 2>, keepdims = true} : tensor<?x2x4xf32> -> tensor<?x2x1xf32>
// CHECK: %[[LC:.*]] = mdl.sub %[[Y]], %[[LMEAN]]
// CHECK: %[[LVAR:.*]] = mdl.reduce_mean %{{.*}} {axes = array<i64: 2>, keepdims = true}
// CHECK: %[[LSUM:.*]] = mdl.add %[[LVAR]], %[[EPS]]
// CHECK: %[[LSTD:.*]] = mdl.sqrt %[[LSUM]] : tensor<?x2x1xf32>
// CHECK: %[[LRSTD:.*]] = mdl.div %{{.*}}, %[[LSTD]] : tensor<f32>, tensor<?x2x1xf32> -> tensor<?x2x1xf32>
// CHECK: %[[LXHAT:.*]] = mdl.mul %[[LC]], %[[LRSTD]]
// CHECK: %[[DLB:.*]] = mdl.reduce_sum %[[DN]] {axes = array<i64: 0, 1>} : tensor<?x2x4xf32> -> tensor<4xf32>
// CHECK: %[[DNX:.*]] = mdl.mul %[[DN]], %[[LXHAT]]
// CHECK: %[[DLG:.*]] = mdl.reduce_sum %[[DNX]] {axes = array<i64: 0, 1>} : tensor<?x2x4xf32> -> tensor<4xf32>
// CHECK: %[[DNG:.*]] = mdl.mul %[[DN]], %[[LG]] : tensor<?x2x4xf32>, tensor<4xf32> -> tensor<?x2x4xf32>
// CHECK: %[[DY:.*]] = mdl.mul %[[LRSTD]], %{{.*}} : tensor<?x2x1xf32>, tensor<?x2x4xf32> -> tensor<?x2x4xf32>
// CHECK: %[[M2:.*]] = mdl.reshape %[[MEAN]] {shape = array<i64: 2, 1>} : tensor<2xf32> -> tensor<2x1xf32>
// CHECK: %[[V2:.*]] = mdl.reshape %[[VAR]] {shape = array<i64: 2, 1>} : tensor<2xf32> -> tensor<2x1xf32>
// CHECK: %[[VE:.*]] = mdl.add %[[V2]], %[[EPS]]
// CHECK: %[[BSTD:.*]] = mdl.sqrt %[[VE]] : tensor<2x1xf32>
// CHECK: %[[BRSTD:.*]] = mdl.div %{{.*}}, %[[BSTD]]
// CHECK: %[[BC:.*]] = mdl.sub %[[X]], %[[M2]] : tensor<?x2x4xf32>, tensor<2x1xf32> -> tensor<?x2x4xf32>
// CHECK: %[[BXHAT:.*]] = mdl.mul %[[BC]], %[[BRSTD]]
// CHECK: %[[DB:.*]] = mdl.reduce_sum %[[DY]] {axes = array<i64: 0, 2>} : tensor<?x2x4xf32> -> tensor<2xf32>
// CHECK: %[[DYX:.*]] = mdl.mul %[[DY]], %[[BXHAT]]
// CHECK: %[[DG:.*]] = mdl.reduce_sum %[[DYX]] {axes = array<i64: 0, 2>} : tensor<?x2x4xf32> -> tensor<2xf32>
// CHECK-NOT: mdl.batch_norm_train
// CHECK: return %[[L]], %[[DG]], %[[DB]], %[[DLG]], %[[DLB]] : tensor<f32>, tensor<2xf32>, tensor<2xf32>, tensor<4xf32>, tensor<4xf32>
