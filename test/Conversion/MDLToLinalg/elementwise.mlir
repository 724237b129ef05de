// Structure of the elementwise lowering: one linalg.generic per op with
// broadcasting maps (no materialised broadcast), dynamic batch sizes from
// tensor.dim, run-time size checks for a dynamic dim against a static one.
// RUN: modelc-opt %s --convert-mdl-to-linalg | FileCheck %s

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[COL0:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @add_bias
// CHECK: %[[D:.*]] = tensor.dim %arg0, %c0
// CHECK: tensor.empty(%[[D]]) : tensor<?x128xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.addf
// CHECK-NOT: linalg.broadcast
func.func @add_bias(%x: tensor<?x128xf32>, %b: tensor<128xf32>) -> tensor<?x128xf32> {
  %0 = mdl.add %x, %b : tensor<?x128xf32>, tensor<128xf32> -> tensor<?x128xf32>
  return %0 : tensor<?x128xf32>
}

// CHECK-LABEL: func.func @stretch_column
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[COL0]], #[[ID]]]
// CHECK: arith.maximumf
func.func @stretch_column(%x: tensor<?x10xf32>, %c: tensor<?x1xf32>) -> tensor<?x10xf32> {
  %0 = mdl.max %x, %c : tensor<?x10xf32>, tensor<?x1xf32> -> tensor<?x10xf32>
  return %0 : tensor<?x10xf32>
}

// CHECK-LABEL: func.func @dynamic_against_static
// CHECK: %[[DIM:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[DIM]], %c4
// CHECK: cf.assert %[[EQ]], "mdl lowering: broadcast operand sizes do not match at run time"
func.func @dynamic_against_static(%x: tensor<?x3xf32>, %y: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = mdl.mul %x, %y : tensor<?x3xf32>, tensor<4x3xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @math
// CHECK: math.erf
// CHECK: math.tanh
// CHECK: arith.cmpf ogt
// CHECK: arith.select
// CHECK: arith.fptosi {{.*}} : f32 to i64
// CHECK: arith.divsi
func.func @math(%x: tensor<?x4xf32>, %i: tensor<?x4xi64>) -> (tensor<?x4xf32>, tensor<?x4xi64>) {
  %0 = mdl.gelu %x : tensor<?x4xf32>
  %1 = mdl.tanh %0 : tensor<?x4xf32>
  %m = mdl.cmp gt, %1, %x : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xi1>
  %s = mdl.select %m, %1, %x : tensor<?x4xi1>, tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  %c = mdl.cast %s : tensor<?x4xf32> -> tensor<?x4xi64>
  %d = mdl.div %c, %i : tensor<?x4xi64>, tensor<?x4xi64> -> tensor<?x4xi64>
  return %s, %d : tensor<?x4xf32>, tensor<?x4xi64>
}
