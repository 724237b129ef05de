// Structure of the normalisation lowering: two-pass statistics over every
// dim but the channel, then one generic with rsqrt. Each statistic is a
// blocked sum: over H x W per (n, c) first, then the partial sums over the
// (dynamic) batch; the variance sums (x - mean)^2 around the mean. The sums
// accumulate in f64 (x converted by one generic first) and the statistics
// are converted back to f32.
// RUN: modelc-opt %s --convert-mdl-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @bn
// CHECK: ins(%arg0 : tensor<?x3x5x5xf32>) outs({{.*}} : tensor<?x3x5x5xf64>)
// CHECK: arith.extf
// CHECK: iterator_types = ["parallel", "parallel", "reduction", "reduction"]{{.*}} outs({{.*}} : tensor<?x3xf64>)
// CHECK: iterator_types = ["reduction", "parallel"]{{.*}} outs({{.*}} : tensor<3xf64>)
// CHECK: arith.divf
// CHECK: iterator_types = ["parallel", "parallel", "reduction", "reduction"]{{.*}} outs({{.*}} : tensor<?x3xf64>)
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: iterator_types = ["reduction", "parallel"]{{.*}} outs({{.*}} : tensor<3xf64>)
// CHECK: arith.truncf
// CHECK: math.rsqrt
// CHECK: return {{.*}} : tensor<?x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>
func.func @bn(%x: tensor<?x3x5x5xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<?x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>) {
  %y, %m, %v = mdl.batch_norm_train %x, %g, %b : tensor<?x3x5x5xf32>, tensor<3xf32>, tensor<3xf32> -> tensor<?x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>
  return %y, %m, %v : tensor<?x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>
}
