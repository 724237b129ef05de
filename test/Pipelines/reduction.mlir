// RUN: modelc-backend-test %s --last-stage=bufferization | FileCheck %s --check-prefix=BUF
// RUN: modelc-backend-test %s | FileCheck %s --check-prefix=LLVM

// Row-wise sum of a dynamic-batch matrix: a reduction lowers to a loop nest
// whose inner loop carries the accumulator.
#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
func.func @row_sum(%x: tensor<?x7xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x7xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x7xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %acc, %v : f32
    linalg.yield %a : f32
  } -> tensor<?xf32>
  return %s : tensor<?xf32>
}

// BUF-LABEL: func.func @row_sum(
// BUF-SAME: %{{.*}}: memref<?x7xf32>, %[[OUT:.*]]: memref<?xf32>)
// BUF: linalg.generic {{.*}} outs(%[[OUT]] :
// BUF: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} outs(%[[OUT]]

// LLVM-NOT: cblas_sgemm
// LLVM: llvm.func @row_sum.k{{[0-9]+}}.generic(
// LLVM: llvm.fadd
// LLVM-LABEL: llvm.func @row_sum(
// LLVM: llvm.call @row_sum.k{{[0-9]+}}.generic(
// LLVM: llvm.func @_mlir_ciface_row_sum
