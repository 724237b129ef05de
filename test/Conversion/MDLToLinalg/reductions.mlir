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

// A sum over more than kReductionBlock (1024) elements is blocked: one long
// dimension is reshaped into [blocks, block] (10^6 = 1000 x 1000), each
// block summed in order, then the blocks' sums. f32 sums accumulate in f64
// (the input converted by one generic, the result converted back).
// CHECK-LABEL: func.func @sum_long
// CHECK: arith.extf
// CHECK: tensor.expand_shape {{.*}} output_shape [1000, 1000] : tensor<1000000xf64> into tensor<1000x1000xf64>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]{{.*}} outs({{.*}} : tensor<1000xf64>)
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction"]{{.*}} outs({{.*}} : tensor<f64>)
// CHECK: arith.truncf
func.func @sum_long(%x: tensor<1000000xf32>) -> tensor<f32> {
  %0 = mdl.reduce_sum %x {axes = array<i64: 0>} : tensor<1000000xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// Several reduced dimensions: the innermost ones up to 1024 elements first
// (H x W = 784 per (n, c)), then the partial sums over N. Short sums stay
// one generic (@sum_keep).
// CHECK-LABEL: func.func @sum_nhw
// CHECK: linalg.generic {{.*}} outs({{.*}} : tensor<?x8x28x28xf64>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]{{.*}} outs({{.*}} : tensor<?x8xf64>)
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]{{.*}} outs({{.*}} : tensor<8xf64>)
// CHECK: linalg.generic {{.*}} outs({{.*}} : tensor<8xf32>)
// CHECK-NOT: linalg.generic
func.func @sum_nhw(%x: tensor<?x8x28x28xf32>) -> tensor<8xf32> {
  %0 = mdl.reduce_sum %x {axes = array<i64: 0, 2, 3>} : tensor<?x8x28x28xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
