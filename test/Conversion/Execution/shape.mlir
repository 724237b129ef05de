// Numerical check of the shape / embedding lowering against float64 references
// (Inputs/gen.py: numpy), through the CPU back end (Inputs/runner.cpp).
// RUN: /usr/bin/python3 %S/Inputs/gen.py shape %t.cases
// RUN: modelc-opt %s --convert-mdl-to-linalg -o %t.mlir
// RUN: modelc-backend-test %t.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.exe
// RUN: %t.exe %t.cases | FileCheck %s
// CHECK: 21 cases: PASS

func.func @reshape(%x: tensor<?x3136xf32>) -> tensor<?x64x7x7xf32> {
  %0 = mdl.reshape %x {shape = array<i64: -1, 64, 7, 7>} : tensor<?x3136xf32> -> tensor<?x64x7x7xf32>
  return %0 : tensor<?x64x7x7xf32>
}
func.func @flatten(%x: tensor<?x4x3x5xf32>) -> (tensor<?x60xf32>, tensor<?x4x15xf32>) {
  %0 = mdl.flatten %x : tensor<?x4x3x5xf32> -> tensor<?x60xf32>
  %1 = mdl.flatten %x {start_dim = 2 : i64} : tensor<?x4x3x5xf32> -> tensor<?x4x15xf32>
  return %0, %1 : tensor<?x60xf32>, tensor<?x4x15xf32>
}
func.func @transpose(%x: tensor<?x4x3x5xf32>) -> tensor<?x3x5x4xf32> {
  %0 = mdl.transpose %x {permutation = array<i64: 0, 2, 3, 1>} : tensor<?x4x3x5xf32> -> tensor<?x3x5x4xf32>
  return %0 : tensor<?x3x5x4xf32>
}
func.func @broadcast_like(%b: tensor<5xf32>, %like: tensor<?x3x5xf32>) -> tensor<?x3x5xf32> {
  %0 = mdl.broadcast_to %b like %like : tensor<5xf32>, tensor<?x3x5xf32> -> tensor<?x3x5xf32>
  return %0 : tensor<?x3x5xf32>
}
func.func @concat(%a: tensor<?x3xf32>, %c: tensor<?x5xf32>, %a2: tensor<?x3xf32>) -> (tensor<?x11xf32>, tensor<?x3xf32>) {
  %0 = mdl.concat %a, %c, %a2 {axis = 1 : i64} : tensor<?x3xf32>, tensor<?x5xf32>, tensor<?x3xf32> -> tensor<?x11xf32>
  %1 = mdl.concat %a, %a2 {axis = 0 : i64} : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<?x3xf32>
  return %0, %1 : tensor<?x11xf32>, tensor<?x3xf32>
}
func.func @slice(%x: tensor<?x10x7xf32>) -> tensor<?x3x4xf32> {
  %0 = mdl.slice %x {start = array<i64: 0, 2, 1>, size = array<i64: -1, 3, 4>, stride = array<i64: 1, 3, 1>} : tensor<?x10x7xf32> -> tensor<?x3x4xf32>
  return %0 : tensor<?x3x4xf32>
}
func.func @embedding(%i: tensor<?x6xi64>, %t: tensor<11x65xf32>) -> tensor<?x6x65xf32> {
  %0 = mdl.embedding %i, %t : tensor<?x6xi64>, tensor<11x65xf32> -> tensor<?x6x65xf32>
  return %0 : tensor<?x6x65xf32>
}
