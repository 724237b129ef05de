// RUN: modelc-opt %s --split-input-file --modelc-prepare-entry-points | FileCheck %s

// Without the accuracy metric: @predict is a copy of @forward_eval, the
// other entry points keep their signatures, and the functions that only fed
// autodiff (@forward_train, @forward_eval, @train_loss) are gone.
func.func @forward_train(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  return %x : tensor<?x3xf32>
}
func.func @forward_eval(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %y = mdl.relu %x : tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}
func.func @train_loss(%x: tensor<?x3xf32>, %t: tensor<?x3xf32>) -> tensor<f32> {
  %l = mdl.mse_loss sum %x, %t : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<f32>
  return %l : tensor<f32>
}
func.func @train_step(%x: tensor<?x3xf32>, %t: tensor<?x3xf32>) -> (tensor<f32>, tensor<?x3xf32>) {
  %l = mdl.mse_loss sum %x, %t : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<f32>
  return %l, %x : tensor<f32>, tensor<?x3xf32>
}
func.func @eval_metrics(%x: tensor<?x3xf32>, %t: tensor<?x3xf32>) -> tensor<f32> {
  %l = mdl.mse_loss sum %x, %t : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<f32>
  return %l : tensor<f32>
}
// CHECK-NOT: @forward_train
// CHECK-NOT: @forward_eval
// CHECK-NOT: @train_loss
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: -> (tensor<f32>, tensor<?x3xf32>)
// CHECK-LABEL: func.func @eval_metrics(
// CHECK-SAME: -> tensor<f32>
// CHECK-LABEL: func.func @predict(
// CHECK-SAME: %[[X:.*]]: tensor<?x3xf32>) -> tensor<?x3xf32>
// CHECK: %[[Y:.*]] = mdl.relu %[[X]]
// CHECK: return %[[Y]]
// CHECK-NOT: func.func

// -----

// With the accuracy metric: @train_step also returns the number of correct
// predictions of its cross-entropy's logits, sum(argmax(logits, 1) ==
// labels) as an i64 tensor.
module attributes {mdl.config = {metrics = ["accuracy"]}} {
  func.func @forward_eval(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
    return %x : tensor<?x3xf32>
  }
  func.func @train_step(%x: tensor<?x3xf32>, %labels: tensor<?xi64>) -> tensor<f32> {
    %l = mdl.cross_entropy mean %x, %labels : tensor<?x3xf32>, tensor<?xi64> -> tensor<f32>
    return %l : tensor<f32>
  }
  func.func @eval_metrics(%x: tensor<?x3xf32>, %labels: tensor<?xi64>) -> (tensor<f32>, tensor<i64>) {
    %l = mdl.cross_entropy sum %x, %labels : tensor<?x3xf32>, tensor<?xi64> -> tensor<f32>
    %c = mdl.constant dense<0> : tensor<i64>
    return %l, %c : tensor<f32>, tensor<i64>
  }
}
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<?x3xf32>, %[[LABELS:[a-z0-9]+]]: tensor<?xi64>) -> (tensor<f32>, tensor<i64>)
// CHECK: %[[L:.*]] = mdl.cross_entropy mean %[[X]], %[[LABELS]]
// CHECK: %[[PRED:.*]] = mdl.argmax %[[X]] {axis = 1 : i64}
// CHECK: %[[EQ:.*]] = mdl.cmp eq, %[[PRED]], %[[LABELS]]
// CHECK: %[[INT:.*]] = mdl.cast %[[EQ]]
// CHECK: %[[N:.*]] = mdl.reduce_sum %[[INT]]
// CHECK: return %[[L]], %[[N]] : tensor<f32>, tensor<i64>
// CHECK-LABEL: func.func @eval_metrics(
// CHECK-LABEL: func.func @predict(
