// Structure of the dropout lowering: one generic with output and mask over
// the flattened tensor (one long loop, which vectorises), Philox4x32-10
// (10 rounds of two wide multiplies) on its index, the linear index of the
// row-major element; the results are reshaped back.
// RUN: modelc-opt %s --convert-mdl-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @dropout
// CHECK: tensor.extract %arg1[] : tensor<i64>
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1]] : tensor<?x128xf32> into tensor<?xf32>
// CHECK: %[[R:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[FLAT]] : tensor<?xf32>) outs({{.*}} : tensor<?xf32>, tensor<?xi1>)
// CHECK: linalg.index 0
// CHECK-COUNT-20: arith.mului_extended
// CHECK: arith.cmpf oge
// CHECK: arith.select
// CHECK: tensor.expand_shape %[[R]]#0 {{\[}}[0, 1]] {{.*}} : tensor<?xf32> into tensor<?x128xf32>
// CHECK: tensor.expand_shape %[[R]]#1 {{\[}}[0, 1]] {{.*}} : tensor<?xi1> into tensor<?x128xi1>
func.func @dropout(%x: tensor<?x128xf32>, %s: tensor<i64>) -> (tensor<?x128xf32>, tensor<?x128xi1>) {
  %y, %m = mdl.dropout %x, %s {rate = 0.25 : f64} : tensor<?x128xf32>, tensor<i64> -> tensor<?x128xf32>, tensor<?x128xi1>
  return %y, %m : tensor<?x128xf32>, tensor<?x128xi1>
}

// A 0-d input is run as one element.
// CHECK-LABEL: func.func @dropout_scalar
// CHECK: tensor.expand_shape %arg0 [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK: linalg.generic
// CHECK: tensor.collapse_shape %{{.*}} [] : tensor<1xf32> into tensor<f32>
// CHECK: tensor.collapse_shape %{{.*}} [] : tensor<1xi1> into tensor<i1>
func.func @dropout_scalar(%x: tensor<f32>, %s: tensor<i64>) -> (tensor<f32>, tensor<i1>) {
  %y, %m = mdl.dropout %x, %s {rate = 0.5 : f64} : tensor<f32>, tensor<i64> -> tensor<f32>, tensor<i1>
  return %y, %m : tensor<f32>, tensor<i1>
}
