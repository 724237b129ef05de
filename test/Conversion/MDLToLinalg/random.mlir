// Structure of the dropout lowering: one generic with output and mask,
// Philox4x32-10 (10 rounds of two wide multiplies) on the linear index.
// RUN: modelc-opt %s --convert-mdl-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @dropout
// CHECK: tensor.extract %arg1[] : tensor<i64>
// CHECK: linalg.generic {{.*}} outs({{.*}} : tensor<?x128xf32>, tensor<?x128xi1>)
// CHECK-COUNT-20: arith.mului_extended
// CHECK: arith.cmpf oge
// CHECK: arith.select
func.func @dropout(%x: tensor<?x128xf32>, %s: tensor<i64>) -> (tensor<?x128xf32>, tensor<?x128xi1>) {
  %y, %m = mdl.dropout %x, %s {rate = 0.25 : f64} : tensor<?x128xf32>, tensor<i64> -> tensor<?x128xf32>, tensor<?x128xi1>
  return %y, %m : tensor<?x128xf32>, tensor<?x128xi1>
}
