// RUN: modelc-opt %s --modelc-unshare-empty-tensors | FileCheck %s

// One tensor.empty (as CSE leaves it) is the init of 20 fills. It keeps 16
// of its uses (the last 16: the use list runs backwards); the other 4
// share one clone, built right after it. An empty with at most 16 uses is
// left alone.
// CHECK-LABEL: func.func @shared
// CHECK: %[[E0:.*]] = tensor.empty(%{{.*}}) : tensor<?x4xf32>
// CHECK-NEXT: %[[E1:.*]] = tensor.empty(%{{.*}}) : tensor<?x4xf32>
// CHECK-NOT: tensor.empty(
// CHECK: linalg.fill {{.*}} outs(%[[E1]] :
// CHECK: linalg.fill {{.*}} outs(%[[E1]] :
// CHECK: linalg.fill {{.*}} outs(%[[E1]] :
// CHECK: linalg.fill {{.*}} outs(%[[E1]] :
// CHECK: linalg.fill {{.*}} outs(%[[E0]] :
// CHECK: linalg.fill {{.*}} outs(%[[E0]] :
// CHECK: linalg.fill {{.*}} outs(%[[E0]] :
// CHECK: linalg.fill {{.*}} outs(%[[E0]] :
// CHECK: linalg.fill {{.*}} outs(%[[E0]] :
// CHECK: linalg.fill {{.*}} outs(%[[E0]] :
// CHECK: linalg.fill {{.*}} outs(%[[E0]] :
// CHECK: linalg.fill {{.*}} outs(%[[E0]] :
// CHECK: linalg.fill {{.*}} outs(%[[E0]] :
// CHECK: linalg.fill {{.*}} outs(%[[E0]] :
// CHECK: linalg.fill {{.*}} outs(%[[E0]] :
// CHECK: linalg.fill {{.*}} outs(%[[E0]] :
// CHECK: linalg.fill {{.*}} outs(%[[E0]] :
// CHECK: linalg.fill {{.*}} outs(%[[E0]] :
// CHECK: linalg.fill {{.*}} outs(%[[E0]] :
// CHECK: linalg.fill {{.*}} outs(%[[E0]] :
// CHECK: tensor.empty() : tensor<4xf32>
// CHECK-NOT: tensor.empty
// CHECK: return
func.func @shared(%n: index) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %f6 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %f7 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %f8 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %f9 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %f10 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %f11 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %f12 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %f13 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %f14 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %f15 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %f16 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %f17 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %f18 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %f19 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %few = tensor.empty() : tensor<4xf32>
  %g0 = linalg.fill ins(%zero : f32) outs(%few : tensor<4xf32>) -> tensor<4xf32>
  %g1 = linalg.fill ins(%zero : f32) outs(%few : tensor<4xf32>) -> tensor<4xf32>
  return %f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8, %f9, %f10, %f11, %f12, %f13, %f14, %f15, %f16, %f17, %f18, %f19, %g0, %g1 : tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<4xf32>, tensor<4xf32>
}
