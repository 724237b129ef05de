// RUN: modelc-opt %s --convert-mdl-to-linalg | FileCheck %s
// The sums over the ranks. mdl.all_reduce: its input converted to f64 (a
// generic), mdl.lib_sum_ranks into a fresh tensor, converted back.
// batch_norm_train {sync}: the element count per channel (N*H*W, from the
// dynamic batch) summed over the ranks through a one-element tensor, the
// per-channel sums summed before the division into the mean, and the
// centred squares summed before the division into the variance, all in f64.

// CHECK-LABEL: func.func @all_reduce
// CHECK: arith.extf
// CHECK: %[[E:.*]] = tensor.empty() : tensor<3xf64>
// CHECK: %[[S:.*]] = mdl.lib_sum_ranks %{{.*}}, %[[E]] : tensor<3xf64>, tensor<3xf64> -> tensor<3xf64>
// CHECK: linalg.generic {{.*}} ins(%[[S]] : tensor<3xf64>)
// CHECK: arith.truncf
// CHECK: return {{.*}} : tensor<3xf32>
func.func @all_reduce(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mdl.all_reduce %x : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @bn_sync
// CHECK: %[[N:.*]] = tensor.dim %{{.*}}, %c0
// CHECK: %[[COUNT:.*]] = arith.sitofp %{{.*}} : i64 to f64
// CHECK: %[[ONE:.*]] = tensor.from_elements %[[COUNT]] : tensor<1xf64>
// CHECK: %[[GCOUNT:.*]] = mdl.lib_sum_ranks %[[ONE]], %{{.*}} : tensor<1xf64>, tensor<1xf64> -> tensor<1xf64>
// CHECK: %[[TOTAL:.*]] = tensor.extract %[[GCOUNT]][%{{.*}}] : tensor<1xf64>
// CHECK: iterator_types = ["reduction", "parallel"]{{.*}} outs({{.*}} : tensor<3xf64>)
// CHECK: %[[SUM:.*]] = mdl.lib_sum_ranks %{{.*}}, %{{.*}} : tensor<3xf64>, tensor<3xf64> -> tensor<3xf64>
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<3xf64>)
// CHECK: arith.divf %{{.*}}, %[[TOTAL]] : f64
// CHECK: arith.subf
// CHECK: iterator_types = ["reduction", "parallel"]{{.*}} outs({{.*}} : tensor<3xf64>)
// CHECK: %[[SQ:.*]] = mdl.lib_sum_ranks %{{.*}}, %{{.*}} : tensor<3xf64>, tensor<3xf64> -> tensor<3xf64>
// CHECK: linalg.generic {{.*}} ins(%[[SQ]] : tensor<3xf64>)
// CHECK: arith.divf %{{.*}}, %[[TOTAL]] : f64
// CHECK: math.rsqrt
// CHECK-NOT: mdl.lib_sum_ranks
// CHECK: return {{.*}} : tensor<?x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>
func.func @bn_sync(%x: tensor<?x3x5x5xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<?x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>) {
  %y, %m, %v = mdl.batch_norm_train %x, %g, %b {sync = true} : tensor<?x3x5x5xf32>, tensor<3xf32>, tensor<3xf32> -> tensor<?x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>
  return %y, %m, %v : tensor<?x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>
}

// Without sync nothing is summed over the ranks.
// CHECK-LABEL: func.func @bn_local
// CHECK-NOT: mdl.lib_sum_ranks
// CHECK: return
func.func @bn_local(%x: tensor<?x3xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  %y, %m, %v = mdl.batch_norm_train %x, %g, %b : tensor<?x3xf32>, tensor<3xf32>, tensor<3xf32> -> tensor<?x3xf32>, tensor<3xf32>, tensor<3xf32>
  return %y : tensor<?x3xf32>
}
