// RUN: not modelc-opt %s --modelc-matmul-to-blas 2>&1 | FileCheck %s
// RUN: not modelc-opt %s --modelc-matmul-to-blas=callee=modelrt_cuda_sgemm 2>&1 | FileCheck %s --check-prefix=CUDA

// A symbol named like the callee (the `callee` option) with another
// signature cannot be called as sgemm: the pass fails at the module
// instead of making a wrong call.
// CHECK: matmul-to-blas-errors.mlir:[[@LINE+4]]:1: error: symbol 'cblas_sgemm' already exists with a signature other than cblas_sgemm's
// CUDA: matmul-to-blas-errors.mlir:[[@LINE+3]]:1: error: symbol 'modelrt_cuda_sgemm' already exists with a signature other than cblas_sgemm's
// CHECK-NOT: error:
// CUDA-NOT: error:
module {
  func.func private @cblas_sgemm(i32) -> ()
  func.func private @modelrt_cuda_sgemm(i32) -> ()
  func.func @mm(%a: memref<4x5xf32>, %b: memref<5x3xf32>, %c: memref<4x3xf32>) {
    linalg.matmul ins(%a, %b : memref<4x5xf32>, memref<5x3xf32>) outs(%c : memref<4x3xf32>)
    return
  }
}
