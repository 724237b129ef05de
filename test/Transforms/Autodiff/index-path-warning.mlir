// RUN: modelc-opt %s --mdl-autodiff -o /dev/null 2>&1 | FileCheck %s
// RUN: modelc-opt %s --mdl-autodiff=warn-unreached=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=LINTED
// @w reaches the loss only as the ids argmax picks, which have no gradient:
// a warning of its own, kept when the front end has already reported the
// unreached @unused (warn-unreached=false).

mdl.parameter @w : tensor<4x3xf32> {init = #mdl.init<zeros>}
mdl.parameter @table : tensor<3x2xf32> {init = #mdl.init<zeros>}
mdl.parameter @unused : tensor<2xf32> {init = #mdl.init<zeros>}
func.func @train_loss(%x: tensor<?x4xf32>, %labels: tensor<?xi64>) -> tensor<f32> {
  %w = mdl.param @w : tensor<4x3xf32>
  %h = mdl.matmul %x, %w : tensor<?x4xf32>, tensor<4x3xf32> -> tensor<?x3xf32>
  %ids = mdl.argmax %h {axis = 1 : i64} : tensor<?x3xf32> -> tensor<?xi64>
  %t = mdl.param @table : tensor<3x2xf32>
  %e = mdl.embedding %ids, %t : tensor<?xi64>, tensor<3x2xf32> -> tensor<?x2xf32>
  %l = mdl.cross_entropy mean %e, %labels : tensor<?x2xf32>, tensor<?xi64> -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK: index-path-warning.mlir:7:1: warning: the loss of @train_loss depends on @w only through values without a gradient (integers such as indices); its gradient is zero
// CHECK: index-path-warning.mlir:9:1: warning: @unused does not affect the loss of @train_loss; its gradient is zero

// LINTED: index-path-warning.mlir:7:1: warning: the loss of @train_loss depends on @w only
// LINTED-NOT: @unused
