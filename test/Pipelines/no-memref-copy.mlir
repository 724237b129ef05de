// Pads and concat bufferize into memref.copy between strided views; the CPU
// pipeline must turn those into loops (modelc-memref-copy-to-linalg), never
// into a call to `memrefCopy`, which only libmlir_c_runner_utils defines and
// executables linked with the modelc runtime lack.
// RUN: modelc-backend-test %s --last-stage=blas | FileCheck %s --check-prefix=BUF
// RUN: modelc-backend-test %s | FileCheck %s --check-prefix=LLVM
// RUN: modelc-backend-test %s --emit=exe --link-input=%S/Inputs/empty-main.c -o %t.exe
// RUN: %t.exe

// BUF-LABEL: func.func @pad_concat(
// BUF: memref.copy
// LLVM-NOT: memrefCopy
// LLVM-LABEL: llvm.func @pad_concat(
// LLVM-NOT: memrefCopy
func.func @pad_concat(%x: tensor<?x3x5x5xf32>, %a: tensor<?x3xf32>,
                      %b: tensor<?x5xf32>)
    -> (tensor<?x3x7x7xf32>, tensor<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<?x3x5x5xf32> to tensor<?x3x7x7xf32>
  %n = tensor.dim %a, %c0 : tensor<?x3xf32>
  %e = tensor.empty(%n) : tensor<?x8xf32>
  %s0 = tensor.insert_slice %a into %e[0, 0] [%n, 3] [1, 1]
      : tensor<?x3xf32> into tensor<?x8xf32>
  %s1 = tensor.insert_slice %b into %s0[0, 3] [%n, 5] [1, 1]
      : tensor<?x5xf32> into tensor<?x8xf32>
  return %p, %s1 : tensor<?x3x7x7xf32>, tensor<?x8xf32>
}
