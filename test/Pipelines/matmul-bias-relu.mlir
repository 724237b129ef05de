// RUN: modelc-backend-test %s --last-stage=bufferization | FileCheck %s --check-prefix=BUF
// RUN: modelc-backend-test %s --last-stage=blas | FileCheck %s --check-prefix=BLAS
// RUN: modelc-backend-test %s | FileCheck %s --check-prefix=LLVM
// RUN: modelc-backend-test %s --no-blas | FileCheck %s --check-prefix=LOOPS

// y = relu(x @ w + b) with a dynamic batch dimension.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @dense_relu(%x: tensor<?x784xf32>, %w: tensor<784x256xf32>,
                      %b: tensor<256xf32>) -> tensor<?x256xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x784xf32>
  %e = tensor.empty(%n) : tensor<?x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<?x256xf32>) -> tensor<?x256xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<?x784xf32>, tensor<784x256xf32>)
                      outs(%acc : tensor<?x256xf32>) -> tensor<?x256xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<?x256xf32>, tensor<256xf32>) outs(%e : tensor<?x256xf32>) {
  ^bb0(%v: f32, %bias: f32, %o: f32):
    %s = arith.addf %v, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<?x256xf32>
  return %r : tensor<?x256xf32>
}

// The result became a caller-allocated out-param; no allocation remains.
// BUF-LABEL: func.func @dense_relu(
// BUF-SAME: %{{.*}}: memref<?x784xf32>, %{{.*}}: memref<784x256xf32>, %{{.*}}: memref<256xf32>, %[[OUT:.*]]: memref<?x256xf32>)
// BUF-NOT: -> memref
// BUF-NOT: memref.alloc
// BUF: linalg.generic {{.*}} outs(%[[OUT]] :
// BUF-NEXT: ^bb0(%{{.*}}: f32):
// BUF: linalg.generic {{.*}}["parallel", "parallel", "reduction"]{{.*}} outs(%[[OUT]] :
// BUF: arith.mulf
// BUF: arith.addf
// BUF: linalg.generic {{.*}} outs(%[[OUT]] :
// BUF: arith.maximumf
// BUF: return
// BUF-NOT: memref.copy

// BLAS: func.func private @cblas_sgemm(i32, i32, i32, i32, i32, i32, f32, !llvm.ptr, i32, !llvm.ptr, i32, f32, !llvm.ptr, i32)
// BLAS-LABEL: func.func @dense_relu(
// BLAS-NOT: "reduction"
// BLAS-DAG: %[[ROWMAJOR:.*]] = arith.constant 101 : i32
// BLAS-DAG: %[[NOTRANS:.*]] = arith.constant 111 : i32
// BLAS-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// BLAS-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// BLAS-DAG: %[[K:.*]] = arith.constant 784 : i32
// BLAS-DAG: %[[N:.*]] = arith.constant 256 : i32
// The batch size M is read from the out-param at run time. The product's
// zero fill is folded into beta = 0.
// BLAS: call @cblas_sgemm(%[[ROWMAJOR]], %[[NOTRANS]], %[[NOTRANS]], %{{.*}}, %[[N]], %[[K]], %[[ONE]], %{{.*}}, %[[K]], %{{.*}}, %[[N]], %[[ZERO]], %{{.*}}, %[[N]])
// BLAS-NOT: "reduction"
// BLAS: linalg.generic

// LLVM: llvm.func @cblas_sgemm(i32, i32, i32, i32, i32, i32, f32, !llvm.ptr, i32, !llvm.ptr, i32, f32, !llvm.ptr, i32)
// LLVM: llvm.func @dense_relu.k0.cblas_sgemm(
// LLVM: llvm.call @cblas_sgemm
// LLVM: llvm.func @dense_relu(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64,
// LLVM: llvm.call @dense_relu.k0.cblas_sgemm(
// LLVM: llvm.func @_mlir_ciface_dense_relu(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// LLVM-NOT: linalg.
// LLVM-NOT: memref.

// LOOPS-NOT: cblas_sgemm
// LOOPS: llvm.func @dense_relu
// LOOPS: llvm.fmul
// LOOPS: llvm.fadd
