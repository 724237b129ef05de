// Structure of the reduction lowering: reduction generics, keepdims through
// expand_shape, argmax with a (value, index) pair, max-subtracted softmax.
// RUN: modelc-opt %s --convert-mdl-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @sum_keep
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: tensor.expand_shape {{.*}} into tensor<?x1xf32>
func.func @sum_keep(%x: tensor<?x10xf32>) -> tensor<?x1xf32> {
  %0 = mdl.reduce_sum %x {axes = array<i64: 1>, keepdims = true} : tensor<?x10xf32> -> tensor<?x1xf32>
  return %0 : tensor<?x1xf32>
}

// A conv bias gradient (sum over N, H, W of NCHW) in two stages: first over
// N, whose innermost loops are parallel (rows added, vectorisable), then
// over H and W of the N-times-smaller partial sums.
// CHECK-LABEL: func.func @sum_bias_grad
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<?x4x5x6xf32>) outs(%{{.*}} : tensor<4x5x6xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<4x5x6xf32>) outs(%{{.*}} : tensor<4xf32>)
func.func @sum_bias_grad(%x: tensor<?x4x5x6xf32>) -> tensor<4xf32> {
  %0 = mdl.reduce_sum %x {axes = array<i64: 0, 2, 3>} : tensor<?x4x5x6xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// A trailing sum alone (no leading reduced dimension) stays one generic.
// CHECK-LABEL: func.func @sum_rows
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-NOT: linalg.generic
func.func @sum_rows(%x: tensor<?x10xf32>) -> tensor<?xf32> {
  %0 = mdl.reduce_sum %x {axes = array<i64: 1>} : tensor<?x10xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// CHECK-LABEL: func.func @argmax
// CHECK: linalg.generic {{.*}} outs({{.*}} : tensor<?xf32>, tensor<?xi64>)
// CHECK: arith.cmpf ogt
// CHECK: linalg.index 1
func.func @argmax(%x: tensor<?x10xf32>) -> tensor<?xi64> {
  %0 = mdl.argmax %x {axis = 1 : i64} : tensor<?x10xf32> -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// CHECK-LABEL: func.func @softmax
// CHECK: arith.maximumf
// CHECK: arith.subf
// CHECK-NEXT: math.exp
// CHECK: arith.addf
// CHECK: math.exp
// CHECK: arith.divf
func.func @softmax(%x: tensor<?x10xf32>) -> tensor<?x10xf32> {
  %0 = mdl.softmax %x {axis = 1 : i64} : tensor<?x10xf32>
  return %0 : tensor<?x10xf32>
}
