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
