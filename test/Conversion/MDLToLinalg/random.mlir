// Structure of the dropout lowering: one generic with output and mask over
// the flattened tensor, Philox4x32-10 (10 rounds of two wide multiplies)
// on counter i / 4, word i % 4 of its output for element i (row-major
// linear index); the results are reshaped back. An element count that is a
// multiple of 4 runs as [n / 4, 4] (counter, word: the rounds depend on the
// outer loop only), others as one long loop that divides the index.
// RUN: modelc-opt %s --convert-mdl-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @dropout
// CHECK: tensor.extract %arg1[] : tensor<i64>
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1]] : tensor<?x128xf32> into tensor<?xf32>
// CHECK: %[[GRP:.*]] = tensor.expand_shape %[[FLAT]] {{\[}}[0, 1]] {{.*}} : tensor<?xf32> into tensor<?x4xf32>
// CHECK: %[[R:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[GRP]] : tensor<?x4xf32>) outs({{.*}} : tensor<?x4xf32>, tensor<?x4xi1>)
// CHECK-DAG: linalg.index 0
// CHECK-DAG: linalg.index 1
// CHECK-COUNT-20: arith.mului_extended
// CHECK-COUNT-3: arith.select
// CHECK: arith.cmpf oge
// CHECK: arith.select
// CHECK: tensor.collapse_shape %[[R]]#0 {{\[}}[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1]] {{.*}} : tensor<?xf32> into tensor<?x128xf32>
// CHECK: tensor.collapse_shape %[[R]]#1 {{\[}}[0, 1]] : tensor<?x4xi1> into tensor<?xi1>
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1]] {{.*}} : tensor<?xi1> into tensor<?x128xi1>
func.func @dropout(%x: tensor<?x128xf32>, %s: tensor<i64>) -> (tensor<?x128xf32>, tensor<?x128xi1>) {
  %y, %m = mdl.dropout %x, %s {rate = 0.25 : f64} : tensor<?x128xf32>, tensor<i64> -> tensor<?x128xf32>, tensor<?x128xi1>
  return %y, %m : tensor<?x128xf32>, tensor<?x128xi1>
}

// 10 elements per row: one loop over the flattened tensor; the counter and
// the word come from dividing the index by 4.
// CHECK-LABEL: func.func @dropout_odd
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%{{.*}} : tensor<?xf32>)
// CHECK: linalg.index 0
// CHECK: arith.divui %{{.*}}, %c4
// CHECK: arith.remui %{{.*}}, %c4
func.func @dropout_odd(%x: tensor<?x10xf32>, %s: tensor<i64>) -> (tensor<?x10xf32>, tensor<?x10xi1>) {
  %y, %m = mdl.dropout %x, %s {rate = 0.25 : f64} : tensor<?x10xf32>, tensor<i64> -> tensor<?x10xf32>, tensor<?x10xi1>
  return %y, %m : tensor<?x10xf32>, tensor<?x10xi1>
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
