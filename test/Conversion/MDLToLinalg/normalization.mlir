// Structure of the normalisation lowering: two-pass statistics over every
// dim but the channel, then one generic with rsqrt. Each statistic is a
// blocked sum: over H x W per (n, c) first, then the partial sums over the
// (dynamic) batch; the variance sums (x - mean)^2 around the mean.
// RUN: modelc-opt %s --convert-mdl-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @bn
// CHECK: iterator_types = ["parallel", "parallel", "reduction", "reduction"]{{.*}} outs({{.*}} : tensor<?x3xf32>)
// CHECK: iterator_types = ["reduction", "parallel"]{{.*}} outs({{.*}} : tensor<3xf32>)
// CHECK: arith.divf
// CHECK: iterator_types = ["parallel", "parallel", "reduction", "reduction"]{{.*}} outs({{.*}} : tensor<?x3xf32>)
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: iterator_types = ["reduction", "parallel"]{{.*}} outs({{.*}} : tensor<3xf32>)
// CHECK: math.rsqrt
// CHECK: return {{.*}} : tensor<?x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>
func.func @bn(%x: tensor<?x3x5x5xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<?x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>) {
  %y, %m, %v = mdl.batch_norm_train %x, %g, %b : tensor<?x3x5x5xf32>, tensor<3xf32>, tensor<3xf32> -> tensor<?x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>
  return %y, %m, %v : tensor<?x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>
}
