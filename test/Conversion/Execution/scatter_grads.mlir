// Numerical check of slice_grad (strided insert into zeros) and embedding_grad (scatter-add
// with repeated indices) against numpy in float64 (Inputs/gen.py scatter_grads); batches 1, 7, 65.
// RUN: /usr/bin/python3 %S/Inputs/gen.py scatter_grads %t.cases
// RUN: modelc-opt %s --convert-mdl-to-linalg -o %t.mlir
// RUN: modelc-backend-test %t.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.exe
// RUN: %t.exe %t.cases | FileCheck %s
// CHECK: 9 cases: PASS

func.func @slice_grad(%g: tensor<?x3x4xf32>, %x: tensor<?x10x7xf32>) -> tensor<?x10x7xf32> {
  %0 = mdl.slice_grad %g, %x {start = array<i64: 0, 2, 1>, stride = array<i64: 1, 3, 1>} : tensor<?x3x4xf32>, tensor<?x10x7xf32> -> tensor<?x10x7xf32>
  return %0 : tensor<?x10x7xf32>
}
func.func @embedding_grad(%g: tensor<?x6x65xf32>, %i: tensor<?x6xi64>, %t: tensor<11x65xf32>) -> tensor<11x65xf32> {
  %0 = mdl.embedding_grad %g, %i, %t : tensor<?x6x65xf32>, tensor<?x6xi64>, tensor<11x65xf32> -> tensor<11x65xf32>
  return %0 : tensor<11x65xf32>
}
func.func @embedding_grad_1d(%g: tensor<?x5xf32>, %i: tensor<?xi32>, %t: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %0 = mdl.embedding_grad %g, %i, %t : tensor<?x5xf32>, tensor<?xi32>, tensor<4x5xf32> -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}
