// Numerical check of the matmul / batch_matmul (stacks of rank 3 and 4, broadcast
// batch dimensions, a matrix times a stack) / conv2d lowering against float64 references
// (Inputs/gen.py: numpy, PyTorch conv2d in double), through the CPU back end (Inputs/runner.cpp).
// RUN: /usr/bin/python3 %S/Inputs/gen.py products %t.cases
// RUN: modelc-opt %s --convert-mdl-to-linalg -o %t.mlir
// RUN: modelc-backend-test %t.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.exe
// RUN: %t.exe %t.cases | FileCheck %s
// The convolutions are runtime calls (oneDNN by default); again with the
// runtime's im2col + OpenBLAS path, and with them expanded by the compiler.
// RUN: env MODELRT_BLAS=openblas %t.exe %t.cases | FileCheck %s
// RUN: modelc-opt %s --convert-mdl-to-linalg --modelc-expand-library-ops -o %t.expanded.mlir
// RUN: modelc-backend-test %t.expanded.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.expanded.exe
// RUN: %t.expanded.exe %t.cases | FileCheck %s
// CHECK: 24 cases: PASS

func.func @matmul2d(%x: tensor<?x63xf32>, %w: tensor<63x65xf32>) -> tensor<?x65xf32> {
  %0 = mdl.matmul %x, %w : tensor<?x63xf32>, tensor<63x65xf32> -> tensor<?x65xf32>
  return %0 : tensor<?x65xf32>
}
func.func @matmul3d(%x: tensor<?x7x63xf32>, %w: tensor<63x5xf32>) -> tensor<?x7x5xf32> {
  %0 = mdl.matmul %x, %w : tensor<?x7x63xf32>, tensor<63x5xf32> -> tensor<?x7x5xf32>
  return %0 : tensor<?x7x5xf32>
}
func.func @batch_matmul(%a: tensor<?x7x63xf32>, %b: tensor<?x63x5xf32>) -> tensor<?x7x5xf32> {
  %0 = mdl.batch_matmul %a, %b : tensor<?x7x63xf32>, tensor<?x63x5xf32> -> tensor<?x7x5xf32>
  return %0 : tensor<?x7x5xf32>
}
func.func @batch_matmul4d(%a: tensor<?x3x7x9xf32>, %b: tensor<?x3x9x5xf32>) -> tensor<?x3x7x5xf32> {
  %0 = mdl.batch_matmul %a, %b : tensor<?x3x7x9xf32>, tensor<?x3x9x5xf32> -> tensor<?x3x7x5xf32>
  return %0 : tensor<?x3x7x5xf32>
}
func.func @batch_matmul_broadcast(%a: tensor<?x1x7x9xf32>, %b: tensor<3x9x5xf32>) -> tensor<?x3x7x5xf32> {
  %0 = mdl.batch_matmul %a, %b : tensor<?x1x7x9xf32>, tensor<3x9x5xf32> -> tensor<?x3x7x5xf32>
  return %0 : tensor<?x3x7x5xf32>
}
func.func @batch_matmul_matrix_lhs(%a: tensor<7x9xf32>, %b: tensor<?x9x5xf32>) -> tensor<?x7x5xf32> {
  %0 = mdl.batch_matmul %a, %b : tensor<7x9xf32>, tensor<?x9x5xf32> -> tensor<?x7x5xf32>
  return %0 : tensor<?x7x5xf32>
}
func.func @conv_pad_bias(%x: tensor<?x3x13x11xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<?x5x13x11xf32> {
  %0 = mdl.conv2d %x, %w, %b {padding = array<i64: 1, 1>} : tensor<?x3x13x11xf32>, tensor<5x3x3x3xf32>, tensor<5xf32> -> tensor<?x5x13x11xf32>
  return %0 : tensor<?x5x13x11xf32>
}
func.func @conv_stride_dilation(%x: tensor<?x3x13x11xf32>, %w: tensor<5x3x3x3xf32>) -> tensor<?x5x5x4xf32> {
  %0 = mdl.conv2d %x, %w {stride = array<i64: 2, 2>, dilation = array<i64: 2, 2>} : tensor<?x3x13x11xf32>, tensor<5x3x3x3xf32> -> tensor<?x5x5x4xf32>
  return %0 : tensor<?x5x5x4xf32>
}
func.func @conv_groups(%x: tensor<?x4x9x9xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<?x6x9x9xf32> {
  %0 = mdl.conv2d %x, %w {padding = array<i64: 1, 1>, groups = 2 : i64} : tensor<?x4x9x9xf32>, tensor<6x2x3x3xf32> -> tensor<?x6x9x9xf32>
  return %0 : tensor<?x6x9x9xf32>
}
