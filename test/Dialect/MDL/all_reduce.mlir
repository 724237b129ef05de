// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.all_reduce (any float tensor, its type kept) and of
// mdl.batch_norm_train's `sync` attribute.

// CHECK-LABEL: func.func @all_reduce(
// CHECK: %{{.*}} = mdl.all_reduce %{{.*}} : tensor<f32>
// CHECK: %{{.*}} = mdl.all_reduce %{{.*}} : tensor<?x3xf64>
func.func @all_reduce(%n: tensor<f32>, %s: tensor<?x3xf64>) -> (tensor<f32>, tensor<?x3xf64>) {
  %0 = mdl.all_reduce %n : tensor<f32>
  %1 = mdl.all_reduce %s : tensor<?x3xf64>
  return %0, %1 : tensor<f32>, tensor<?x3xf64>
}

// CHECK-LABEL: func.func @sync(
// CHECK: mdl.batch_norm_train %{{.*}}, %{{.*}}, %{{.*}} {sync = true} : tensor<?x2xf32>
func.func @sync(%x: tensor<?x2xf32>, %g: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<?x2xf32> {
  %y, %m, %v = mdl.batch_norm_train %x, %g, %b {sync = true} : tensor<?x2xf32>, tensor<2xf32>, tensor<2xf32> -> tensor<?x2xf32>, tensor<2xf32>, tensor<2xf32>
  return %y : tensor<?x2xf32>
}
