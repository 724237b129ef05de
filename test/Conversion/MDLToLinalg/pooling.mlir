// Structure of the pooling lowering: -inf padding and accumulator for max,
// zero padding, a sum and a division by the kernel area for avg.
// RUN: modelc-opt %s --convert-mdl-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @max
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NEGINF]]
// CHECK: linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
func.func @max(%x: tensor<?x32x28x28xf32>) -> tensor<?x32x14x14xf32> {
  %0 = mdl.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x32x28x28xf32> -> tensor<?x32x14x14xf32>
  return %0 : tensor<?x32x14x14xf32>
}

// CHECK-LABEL: func.func @avg
// CHECK: tensor.pad
// CHECK: linalg.pooling_nchw_sum
// CHECK: arith.constant 9.000000e+00 : f32
// CHECK: arith.divf
func.func @avg(%x: tensor<?x3x7x7xf32>) -> tensor<?x3x4x4xf32> {
  %0 = mdl.avg_pool2d %x {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x3x7x7xf32> -> tensor<?x3x4x4xf32>
  return %0 : tensor<?x3x4x4xf32>
}
