// RUN: modelc-opt %s --mdl-autodiff | FileCheck %s
// batch_norm_train {sync}: dgamma and dbeta stay this rank's sums (the
// runtime weights and sums parameter gradients over the ranks); dx sums its
// two per-channel reductions over the ranks, each weighted by the local
// element count n, and divides by (global count * n):
// dx = rstd * (dxhat - (U1 + xhat * U2) / (M * n)), U1 = all_reduce(n *
// sum(dxhat)), U2 = all_reduce(n * sum(dxhat * xhat)), M = all_reduce(n).
// mdl.all_reduce's own rule: the adjoint of a sum over the ranks is the
// sum over the ranks of the adjoint.

mdl.parameter @w : tensor<2x2xf32> {init = #mdl.init<ones>}
mdl.parameter @g : tensor<2xf32> {init = #mdl.init<ones>}
mdl.parameter @b : tensor<2xf32> {init = #mdl.init<zeros>}
func.func @train_loss(%x: tensor<?x2xf32>) -> tensor<f32> {
  %w = mdl.param @w : tensor<2x2xf32>
  %g = mdl.param @g : tensor<2xf32>
  %b = mdl.param @b : tensor<2xf32>
  %h = mdl.matmul %x, %w : tensor<?x2xf32>, tensor<2x2xf32> -> tensor<?x2xf32>
  %y, %m, %v = mdl.batch_norm_train %h, %g, %b {sync = true} : tensor<?x2xf32>, tensor<2xf32>, tensor<2xf32> -> tensor<?x2xf32>, tensor<2xf32>, tensor<2xf32>
  %l = mdl.reduce_mean %y {axes = array<i64: 0, 1>} : tensor<?x2xf32> -> tensor<f32>
  %r = mdl.all_reduce %l : tensor<f32>
  return %r : tensor<f32>
}

// CHECK-LABEL: func.func @train_step(
// CHECK-DAG: %[[ONE:.*]] = mdl.constant dense<1.000000e+00> : tensor<f32>
// CHECK-DAG: %[[G:.*]] = mdl.param @g
// CHECK: %[[H:.*]] = mdl.matmul
// CHECK: %[[Y:.*]], %[[MEAN:.*]], %[[VAR:.*]] = mdl.batch_norm_train %[[H]], %[[G]], %{{.*}} {sync = true}
// CHECK: %[[L:.*]] = mdl.reduce_mean %[[Y]]
// CHECK: %[[R:.*]] = mdl.all_reduce %[[L]] : tensor<f32>
// CHECK: %[[DR:.*]] = mdl.all_reduce %[[ONE]] : tensor<f32>
// CHECK: %[[DYS:.*]] = mdl.div %[[DR]], %{{.*}} : tensor<f32>, tensor<f32> -> tensor<f32>
// CHECK: %[[DY:.*]] = mdl.broadcast_to %{{.*}} like %[[Y]] : tensor<1x1xf32>, tensor<?x2xf32> -> tensor<?x2xf32>
// CHECK: %[[RSTD:.*]] = mdl.div %[[ONE]], %{{.*}} : tensor<f32>, tensor<2xf32> -> tensor<2xf32>
// CHECK: %[[C:.*]] = mdl.sub %[[H]], %[[MEAN]]
// CHECK: %[[XHAT:.*]] = mdl.mul %[[C]], %[[RSTD]]
// CHECK: %[[DB:.*]] = mdl.reduce_sum %[[DY]] {axes = array<i64: 0>} : tensor<?x2xf32> -> tensor<2xf32>
// CHECK: %[[GX:.*]] = mdl.mul %[[DY]], %[[XHAT]]
// CHECK: %[[DG:.*]] = mdl.reduce_sum %[[GX]] {axes = array<i64: 0>} : tensor<?x2xf32> -> tensor<2xf32>
// CHECK: %[[DXHAT:.*]] = mdl.mul %[[DY]], %[[G]]
// CHECK: %[[ONES:.*]] = mdl.broadcast_to %[[ONE]] like %[[H]]
// CHECK: %[[ALL:.*]] = mdl.reduce_sum %[[ONES]] {axes = array<i64: 0, 1>}
// CHECK: %[[N:.*]] = mdl.div %[[ALL]], %{{.*}} : tensor<f32>, tensor<f32> -> tensor<f32>
// CHECK: %[[M:.*]] = mdl.all_reduce %[[N]] : tensor<f32>
// CHECK: %[[S1:.*]] = mdl.reduce_sum %[[DXHAT]] {axes = array<i64: 0>, keepdims = true} : tensor<?x2xf32> -> tensor<1x2xf32>
// CHECK: %[[W1:.*]] = mdl.mul %[[S1]], %[[N]] : tensor<1x2xf32>, tensor<f32> -> tensor<1x2xf32>
// CHECK: %[[U1:.*]] = mdl.all_reduce %[[W1]] : tensor<1x2xf32>
// CHECK: %[[P:.*]] = mdl.mul %[[DXHAT]], %[[XHAT]]
// CHECK: %[[S2:.*]] = mdl.reduce_sum %[[P]] {axes = array<i64: 0>, keepdims = true} : tensor<?x2xf32> -> tensor<1x2xf32>
// CHECK: %[[W2:.*]] = mdl.mul %[[S2]], %[[N]] : tensor<1x2xf32>, tensor<f32> -> tensor<1x2xf32>
// CHECK: %[[U2:.*]] = mdl.all_reduce %[[W2]] : tensor<1x2xf32>
// CHECK: %[[MN:.*]] = mdl.mul %[[M]], %[[N]] : tensor<f32>, tensor<f32> -> tensor<f32>
// CHECK: %[[K:.*]] = mdl.div %[[ONE]], %[[MN]] : tensor<f32>, tensor<f32> -> tensor<f32>
// CHECK: %[[XU2:.*]] = mdl.mul %[[XHAT]], %[[U2]] : tensor<?x2xf32>, tensor<1x2xf32> -> tensor<?x2xf32>
// CHECK: %[[SUM:.*]] = mdl.add %[[U1]], %[[XU2]] : tensor<1x2xf32>, tensor<?x2xf32> -> tensor<?x2xf32>
// CHECK: %[[T:.*]] = mdl.mul %[[SUM]], %[[K]]
// CHECK: %[[INNER:.*]] = mdl.sub %[[DXHAT]], %[[T]]
// CHECK: %[[DX:.*]] = mdl.mul %[[RSTD]], %[[INNER]]
// CHECK: %[[DW:.*]] = mdl.matmul %{{.*}}, %[[DX]]
// CHECK: return %[[R]], %[[DW]], %[[DG]], %[[DB]]
