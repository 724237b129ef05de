// RUN: modelc-backend-test %s --last-stage=blas | FileCheck %s

// Transposed operands map to the CBLAS transpose flags (111 = NoTrans,
// 112 = Trans); contractions sgemm cannot express stay linalg.generic.
func.func @tn(%a: tensor<5x4xf32>, %b: tensor<5x3xf32>, %c: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>,
                                      affine_map<(d0, d1, d2) -> (d2, d1)>,
                                      affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<5x4xf32>, tensor<5x3xf32>) outs(%c : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
// CHECK-LABEL: func.func @tn(
// A is stored [k=5, m=4]: lda = 4; ldb = ldc = 3.
// CHECK: call @cblas_sgemm(%c101_i32, %c112_i32, %c111_i32, %c4_i32, %c3_i32, %c5_i32, %cst, %{{.*}}, %c4_i32, %{{.*}}, %c3_i32, %cst, %{{.*}}, %c3_i32)

func.func @nt(%a: tensor<4x5xf32>, %b: tensor<3x5xf32>, %c: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = linalg.contract indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                        affine_map<(d0, d1, d2) -> (d1, d2)>,
                                        affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<4x5xf32>, tensor<3x5xf32>) outs(%c : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
// CHECK-LABEL: func.func @nt(
// B is stored [n=3, k=5]: ldb = 5.
// CHECK: call @cblas_sgemm(%c101_i32, %c111_i32, %c112_i32, %c4_i32, %c3_i32, %c5_i32, %cst, %{{.*}}, %c5_i32, %{{.*}}, %c5_i32, %cst, %{{.*}}, %c3_i32)

// Output transposed (C[n, m]): not an sgemm form here; stays a generic.
func.func @ct(%a: tensor<4x5xf32>, %b: tensor<5x3xf32>, %c: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %r = linalg.contract indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                        affine_map<(d0, d1, d2) -> (d2, d1)>,
                                        affine_map<(d0, d1, d2) -> (d1, d0)>]
      ins(%a, %b : tensor<4x5xf32>, tensor<5x3xf32>) outs(%c : tensor<3x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
// CHECK-LABEL: func.func @ct(
// CHECK-NOT: cblas_sgemm
// CHECK: linalg.generic {{.*}}"reduction"

// f64 and batched products are not sgemm: they stay generics too.
func.func @f64(%a: tensor<4x5xf64>, %b: tensor<5x3xf64>, %c: tensor<4x3xf64>) -> tensor<4x3xf64> {
  %r = linalg.matmul ins(%a, %b : tensor<4x5xf64>, tensor<5x3xf64>) outs(%c : tensor<4x3xf64>) -> tensor<4x3xf64>
  return %r : tensor<4x3xf64>
}
// CHECK-LABEL: func.func @f64(
// CHECK-NOT: cblas_sgemm
// CHECK: linalg.generic {{.*}}"reduction"

func.func @batched(%a: tensor<2x4x5xf32>, %b: tensor<2x5x3xf32>, %c: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x4x5xf32>, tensor<2x5x3xf32>) outs(%c : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %r : tensor<2x4x3xf32>
}
// CHECK-LABEL: func.func @batched(
// CHECK-NOT: cblas_sgemm
// CHECK: linalg.generic {{.*}}"reduction"

// The registered pipeline name gives the same result as the built one.
// RUN: modelc-backend-test %s --pass-pipeline='modelc-cpu-lowering{stop-after=blas}' | FileCheck %s

// A result that aliases an argument is copied into the out-param with a
// memcpy (no runtime helper needed).
// RUN: modelc-backend-test %s | FileCheck %s --check-prefix=LLVM
// Each kernel is its own noinline function (modelc-outline-kernels).
// LLVM-NOT: memrefCopy
// LLVM-LABEL: llvm.func @tn.k0.cblas_sgemm(
// LLVM-SAME: passthrough = ["noinline"]
// LLVM: llvm.call @cblas_sgemm
// LLVM-LABEL: llvm.func @tn.k1.copy(
// LLVM: llvm.intr.memcpy
// LLVM-LABEL: llvm.func @tn(
// LLVM: llvm.call @tn.k0.cblas_sgemm(
// LLVM: llvm.call @tn.k1.copy(
