// RUN: not modelc-backend-test %s 2>&1 | FileCheck %s

// A symbol named cblas_sgemm with another signature cannot be called as
// BLAS: the pipeline fails with an error instead of a wrong call.
func.func private @cblas_sgemm(i32) -> ()

func.func @mm(%a: tensor<4x5xf32>, %b: tensor<5x3xf32>, %c: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x5xf32>, tensor<5x3xf32>) outs(%c : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
// CHECK: error: symbol 'cblas_sgemm' already exists with a signature other than cblas_sgemm's
