// Structure of the loss lowering: max-subtracted log-sum-exp, labelled
// logit via tensor.extract, reduction to a 0-d tensor, division for mean.
// RUN: modelc-opt %s --convert-mdl-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @ce
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: tensor.extract %arg0
// CHECK: math.log
// CHECK: arith.divf
// CHECK: return {{.*}} : tensor<f32>
func.func @ce(%x: tensor<?x10xf32>, %l: tensor<?xi64>) -> tensor<f32> {
  %0 = mdl.cross_entropy mean %x, %l : tensor<?x10xf32>, tensor<?xi64> -> tensor<f32>
  return %0 : tensor<f32>
}
