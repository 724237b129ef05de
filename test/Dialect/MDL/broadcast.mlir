// RUN: modelc-opt %s | FileCheck %s
// Broadcasting shape inference: every written result type below must be the
// one the verifier infers (numpy rule, with `?` meeting 1, `?` or n).

// CHECK-LABEL: func.func @broadcast_rules(
func.func @broadcast_rules(%a: tensor<?x1xf32>, %b: tensor<1x5xf32>, %c: tensor<?x5xf32>,
                           %d: tensor<5xf32>, %e: tensor<f32>, %f: tensor<3x1x5xf32>,
                           %g: tensor<?x4x1xf32>) {
  // ? with 1 stays ?, 1 with 5 gives 5.
  // CHECK: mdl.add {{.*}} -> tensor<?x5xf32>
  %0 = mdl.add %a, %b : tensor<?x1xf32>, tensor<1x5xf32> -> tensor<?x5xf32>
  // Lower rank pads with leading 1s.
  // CHECK: mdl.sub {{.*}} -> tensor<?x5xf32>
  %1 = mdl.sub %c, %d : tensor<?x5xf32>, tensor<5xf32> -> tensor<?x5xf32>
  // A scalar broadcasts to anything.
  // CHECK: mdl.mul {{.*}} -> tensor<3x1x5xf32>
  %2 = mdl.mul %e, %f : tensor<f32>, tensor<3x1x5xf32> -> tensor<3x1x5xf32>
  // ? meets a static 3: the static size wins.
  // CHECK: mdl.div {{.*}} -> tensor<3x4x5xf32>
  %3 = mdl.div %g, %f : tensor<?x4x1xf32>, tensor<3x1x5xf32> -> tensor<3x4x5xf32>
  // ? with ? stays ?.
  // CHECK: mdl.max {{.*}} -> tensor<?x5xf32>
  %4 = mdl.max %a, %c : tensor<?x1xf32>, tensor<?x5xf32> -> tensor<?x5xf32>
  return
}
