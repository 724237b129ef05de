// Numerical check of the reduction / argmax / softmax lowering against float64 references
// (Inputs/gen.py: numpy), through the CPU back end (Inputs/runner.cpp).
// RUN: /usr/bin/python3 %S/Inputs/gen.py reductions %t.cases
// RUN: modelc-opt %s --convert-mdl-to-linalg -o %t.mlir
// RUN: modelc-backend-test %t.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.exe
// RUN: %t.exe %t.cases | FileCheck %s
// CHECK: 21 cases: PASS

func.func @reduce_sum_keep(%x: tensor<?x7x65xf32>) -> tensor<?x1x65xf32> {
  %0 = mdl.reduce_sum %x {axes = array<i64: 1>, keepdims = true} : tensor<?x7x65xf32> -> tensor<?x1x65xf32>
  return %0 : tensor<?x1x65xf32>
}
func.func @reduce_mean_02(%x: tensor<?x7x65xf32>) -> tensor<7xf32> {
  %0 = mdl.reduce_mean %x {axes = array<i64: 0, -1>} : tensor<?x7x65xf32> -> tensor<7xf32>
  return %0 : tensor<7xf32>
}
func.func @reduce_max_last(%x: tensor<?x7x65xf32>) -> tensor<?x7xf32> {
  %0 = mdl.reduce_max %x {axes = array<i64: -1>} : tensor<?x7x65xf32> -> tensor<?x7xf32>
  return %0 : tensor<?x7xf32>
}
func.func @reduce_sum_all(%x: tensor<?x7x65xf32>) -> tensor<f32> {
  %0 = mdl.reduce_sum %x {axes = array<i64: 0, 1, 2>} : tensor<?x7x65xf32> -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @argmax_ties(%x: tensor<?x7x65xi64>) -> tensor<?x65xi64> {
  %0 = mdl.argmax %x {axis = 1 : i64} : tensor<?x7x65xi64> -> tensor<?x65xi64>
  return %0 : tensor<?x65xi64>
}
func.func @argmax_float(%x: tensor<?x7x65xf32>) -> tensor<?x7x1xi64> {
  %0 = mdl.argmax %x {axis = 2 : i64, keepdims = true} : tensor<?x7x65xf32> -> tensor<?x7x1xi64>
  return %0 : tensor<?x7x1xi64>
}
func.func @softmax(%x: tensor<?x7x65xf32>) -> (tensor<?x7x65xf32>, tensor<?x7x65xf32>) {
  %0 = mdl.softmax %x {axis = 1 : i64} : tensor<?x7x65xf32>
  %1 = mdl.log_softmax %x {axis = -2 : i64} : tensor<?x7x65xf32>
  return %0, %1 : tensor<?x7x65xf32>, tensor<?x7x65xf32>
}
