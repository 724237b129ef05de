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

// Class weights and label smoothing: the weighted row sums (x * w, reduced
// over the classes), the labelled weight read with tensor.extract in the
// per-sample loss, and a weighted mean divided by the labels' summed
// weights (a second reduction over the batch).
// CHECK-LABEL: func.func @ce_weighted
// CHECK: arith.mulf
// CHECK: math.log
// CHECK: tensor.extract %arg2
// CHECK: tensor.extract %arg2
// CHECK: arith.divf
// CHECK: return {{.*}} : tensor<f32>
func.func @ce_weighted(%x: tensor<?x3xf32>, %l: tensor<?xi64>, %w: tensor<3xf32>) -> tensor<f32> {
  %0 = mdl.cross_entropy mean %x, %l weight %w {label_smoothing = 1.000000e-01 : f64} : tensor<?x3xf32>, tensor<?xi64>, tensor<3xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// The gradient with both options reads w[label] and w[c] per element.
// CHECK-LABEL: func.func @ce_grad_weighted
// CHECK: math.exp
// CHECK: tensor.extract %arg3
// CHECK: tensor.extract %arg3
// CHECK: return {{.*}} : tensor<?x3xf32>
func.func @ce_grad_weighted(%x: tensor<?x3xf32>, %l: tensor<?xi64>, %g: tensor<f32>, %w: tensor<3xf32>) -> tensor<?x3xf32> {
  %0 = mdl.cross_entropy_grad mean %x, %l, %g weight %w {label_smoothing = 1.000000e-01 : f64} : tensor<?x3xf32>, tensor<?xi64>, tensor<f32>, tensor<3xf32> -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
