// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.batch_norm_train: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @batch_norm_train(
// CHECK: %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = mdl.batch_norm_train %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {epsilon = 1.000000e-03 : f64, momentum = 1.000000e-02 : f64} : tensor<?x32x28x28xf32>, tensor<32xf32>, tensor<32xf32> -> tensor<?x32x28x28xf32>, tensor<32xf32>, tensor<32xf32>
// CHECK: return %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x32x28x28xf32>, tensor<32xf32>, tensor<32xf32>
// CHECK-LABEL: func.func @batch_norm_train_2d(
// CHECK: %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = mdl.batch_norm_train %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x4xf64>, tensor<4xf64>, tensor<4xf64> -> tensor<?x4xf64>, tensor<4xf64>, tensor<4xf64>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x4xf64>

func.func @batch_norm_train(%x: tensor<?x32x28x28xf32>, %g: tensor<32xf32>, %b: tensor<32xf32>) -> (tensor<?x32x28x28xf32>, tensor<32xf32>, tensor<32xf32>) {
  %y, %m, %v = mdl.batch_norm_train %x, %g, %b {epsilon = 1.000000e-03 : f64, momentum = 0.01 : f64} : tensor<?x32x28x28xf32>, tensor<32xf32>, tensor<32xf32> -> tensor<?x32x28x28xf32>, tensor<32xf32>, tensor<32xf32>
  return %y, %m, %v : tensor<?x32x28x28xf32>, tensor<32xf32>, tensor<32xf32>
}
func.func @batch_norm_train_2d(%x: tensor<?x4xf64>, %g: tensor<4xf64>, %b: tensor<4xf64>) -> tensor<?x4xf64> {
  %y, %m, %v = mdl.batch_norm_train %x, %g, %b : tensor<?x4xf64>, tensor<4xf64>, tensor<4xf64> -> tensor<?x4xf64>, tensor<4xf64>, tensor<4xf64>
  return %y : tensor<?x4xf64>
}
