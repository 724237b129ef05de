// Structure of the pooling lowering. f32 pooling with static sizes becomes
// a library op (LIB); its expansion (and f64 pooling, without a library op)
// is linalg: max without padding reads each window position through its
// own map (no reduction loop); max with padding has -inf padding and
// accumulator; avg has zero padding, a sum and a division by the kernel
// area.
// RUN: modelc-opt %s --convert-mdl-to-linalg | FileCheck %s --check-prefix=LIB
// RUN: modelc-opt %s --convert-mdl-to-linalg --modelc-expand-library-ops | FileCheck %s

// LIB-LABEL: func.func @max(
// LIB: %[[INIT:.*]] = tensor.empty(%{{.*}}) : tensor<?x32x14x14xf32>
// LIB: mdl.lib_max_pool2d %arg0, %[[INIT]] {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x32x28x28xf32>, tensor<?x32x14x14xf32> -> tensor<?x32x14x14xf32>
// LIB-LABEL: func.func @max_padded(
// LIB: mdl.lib_max_pool2d %arg0, %{{.*}} {kernel = array<i64: 3, 3>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>}
// LIB-LABEL: func.func @avg(
// LIB: mdl.lib_avg_pool2d %arg0, %{{.*}} {kernel = array<i64: 3, 3>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>}
// LIB-LABEL: func.func @max_f64(
// LIB-NOT: mdl.lib_
// LIB: linalg.generic

// CHECK-DAG: #[[P00:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 * 2, d3 * 2)>
// CHECK-DAG: #[[P01:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 * 2, d3 * 2 + 1)>
// CHECK-DAG: #[[P10:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 * 2 + 1, d3 * 2)>
// CHECK-DAG: #[[P11:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 * 2 + 1, d3 * 2 + 1)>
// CHECK-LABEL: func.func @max
// CHECK-NOT: linalg.pooling_nchw_max
// CHECK: linalg.generic {indexing_maps = [#[[P00]], #[[P01]], #[[P10]], #[[P11]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32, %[[D:.*]]: f32, %{{.*}}: f32):
// The first maximum wins, a NaN is taken over anything before it:
// CHECK: %[[G1:.*]] = arith.cmpf ogt, %[[B]], %[[A]] : f32
// CHECK: %[[N1:.*]] = arith.cmpf uno, %[[B]], %[[B]] : f32
// CHECK: %[[T1:.*]] = arith.ori %[[G1]], %[[N1]] : i1
// CHECK: %[[M1:.*]] = arith.select %[[T1]], %[[B]], %[[A]] : f32
// CHECK: arith.cmpf ogt, %[[C]], %[[M1]] : f32
// CHECK: %[[M2:.*]] = arith.select %{{.*}}, %[[C]], %[[M1]] : f32
// CHECK: arith.cmpf ogt, %[[D]], %[[M2]] : f32
// CHECK: %[[M3:.*]] = arith.select %{{.*}}, %[[D]], %[[M2]] : f32
// CHECK: linalg.yield %[[M3]]
func.func @max(%x: tensor<?x32x28x28xf32>) -> tensor<?x32x14x14xf32> {
  %0 = mdl.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x32x28x28xf32> -> tensor<?x32x14x14xf32>
  return %0 : tensor<?x32x14x14xf32>
}

// CHECK-LABEL: func.func @max_padded
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: tensor.pad
// CHECK: linalg.fill ins(%[[NEGINF]]
// CHECK: linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
func.func @max_padded(%x: tensor<?x3x7x7xf32>) -> tensor<?x3x4x4xf32> {
  %0 = mdl.max_pool2d %x {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x3x7x7xf32> -> tensor<?x3x4x4xf32>
  return %0 : tensor<?x3x4x4xf32>
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

// f64: no library op; the same window generic as f32's expansion.
// CHECK-LABEL: func.func @max_f64
// CHECK: linalg.generic {indexing_maps = [#[[P00]], #[[P01]], #[[P10]], #[[P11]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
func.func @max_f64(%x: tensor<?x32x28x28xf64>) -> tensor<?x32x14x14xf64> {
  %0 = mdl.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x32x28x28xf64> -> tensor<?x32x14x14xf64>
  return %0 : tensor<?x32x14x14xf64>
}
