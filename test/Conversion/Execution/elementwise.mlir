// Numerical check of the elementwise lowering: every op, broadcasting
// included, on batch sizes 1, 7, 65 against float64 numpy references
// (Inputs/gen.py), through the CPU back end (Inputs/runner.cpp).
// RUN: /usr/bin/python3 %S/Inputs/gen.py elementwise %t.cases
// RUN: modelc-opt %s --convert-mdl-to-linalg -o %t.mlir
// RUN: modelc-backend-test %t.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.exe
// RUN: %t.exe %t.cases | FileCheck %s
// CHECK: add_bcast [65x65] max error
// CHECK: int_div_special [65x6] max error 0{{$}}
// CHECK: constant
// CHECK: 43 cases: PASS

func.func @add_bcast(%x: tensor<?x65xf32>, %b: tensor<65xf32>) -> tensor<?x65xf32> {
  %0 = mdl.add %x, %b : tensor<?x65xf32>, tensor<65xf32> -> tensor<?x65xf32>
  return %0 : tensor<?x65xf32>
}
func.func @sub_bcast(%c: tensor<1x65xf32>, %x: tensor<?x65xf32>) -> tensor<?x65xf32> {
  %0 = mdl.sub %c, %x : tensor<1x65xf32>, tensor<?x65xf32> -> tensor<?x65xf32>
  return %0 : tensor<?x65xf32>
}
func.func @mul(%x: tensor<?x65xf32>, %y: tensor<?x65xf32>) -> tensor<?x65xf32> {
  %0 = mdl.mul %x, %y : tensor<?x65xf32>, tensor<?x65xf32> -> tensor<?x65xf32>
  return %0 : tensor<?x65xf32>
}
func.func @div(%x: tensor<?x65xf32>, %y: tensor<?x65xf32>) -> tensor<?x65xf32> {
  %0 = mdl.div %x, %y : tensor<?x65xf32>, tensor<?x65xf32> -> tensor<?x65xf32>
  return %0 : tensor<?x65xf32>
}
func.func @pow(%x: tensor<?x65xf32>, %y: tensor<?x65xf32>) -> tensor<?x65xf32> {
  %0 = mdl.pow %x, %y : tensor<?x65xf32>, tensor<?x65xf32> -> tensor<?x65xf32>
  return %0 : tensor<?x65xf32>
}
func.func @max_min(%x: tensor<?x65xf32>, %c: tensor<?x1xf32>) -> (tensor<?x65xf32>, tensor<?x65xf32>) {
  %0 = mdl.max %x, %c : tensor<?x65xf32>, tensor<?x1xf32> -> tensor<?x65xf32>
  %1 = mdl.min %x, %c : tensor<?x65xf32>, tensor<?x1xf32> -> tensor<?x65xf32>
  return %0, %1 : tensor<?x65xf32>, tensor<?x65xf32>
}
func.func @unary(%x: tensor<?x65xf32>) -> (tensor<?x65xf32>, tensor<?x65xf32>, tensor<?x65xf32>, tensor<?x65xf32>, tensor<?x65xf32>, tensor<?x65xf32>) {
  %0 = mdl.neg %x : tensor<?x65xf32>
  %1 = mdl.abs %x : tensor<?x65xf32>
  %2 = mdl.exp %x : tensor<?x65xf32>
  %3 = mdl.relu %x : tensor<?x65xf32>
  %4 = mdl.tanh %x : tensor<?x65xf32>
  %5 = mdl.sigmoid %x : tensor<?x65xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<?x65xf32>, tensor<?x65xf32>, tensor<?x65xf32>, tensor<?x65xf32>, tensor<?x65xf32>, tensor<?x65xf32>
}
func.func @log_sqrt(%x: tensor<?x65xf32>) -> (tensor<?x65xf32>, tensor<?x65xf32>) {
  %0 = mdl.log %x : tensor<?x65xf32>
  %1 = mdl.sqrt %x : tensor<?x65xf32>
  return %0, %1 : tensor<?x65xf32>, tensor<?x65xf32>
}
func.func @gelu(%x: tensor<?x65xf32>) -> tensor<?x65xf32> {
  %0 = mdl.gelu %x : tensor<?x65xf32>
  return %0 : tensor<?x65xf32>
}
func.func @cmp_select(%x: tensor<?x65xf32>, %y: tensor<?x65xf32>) -> (tensor<?x65xi1>, tensor<?x65xf32>) {
  %m = mdl.cmp gt, %x, %y : tensor<?x65xf32>, tensor<?x65xf32> -> tensor<?x65xi1>
  %z = mdl.constant dense<0.0> : tensor<f32>
  %s = mdl.select %m, %x, %z : tensor<?x65xi1>, tensor<?x65xf32>, tensor<f32> -> tensor<?x65xf32>
  return %m, %s : tensor<?x65xi1>, tensor<?x65xf32>
}
func.func @int_div_special(%x: tensor<?x6xi64>, %y: tensor<?x6xi64>) -> tensor<?x6xi64> {
  %0 = mdl.div %x, %y : tensor<?x6xi64>, tensor<?x6xi64> -> tensor<?x6xi64>
  return %0 : tensor<?x6xi64>
}
func.func @int_ops(%x: tensor<?x7xi64>, %y: tensor<7xi64>) -> (tensor<?x7xi64>, tensor<?x7xi64>, tensor<?x7xi64>, tensor<?x7xi64>) {
  %0 = mdl.add %x, %y : tensor<?x7xi64>, tensor<7xi64> -> tensor<?x7xi64>
  %1 = mdl.div %x, %y : tensor<?x7xi64>, tensor<7xi64> -> tensor<?x7xi64>
  %2 = mdl.max %x, %y : tensor<?x7xi64>, tensor<7xi64> -> tensor<?x7xi64>
  %3 = mdl.abs %x : tensor<?x7xi64>
  return %0, %1, %2, %3 : tensor<?x7xi64>, tensor<?x7xi64>, tensor<?x7xi64>, tensor<?x7xi64>
}
func.func @casts(%x: tensor<?x65xf32>) -> (tensor<?x65xi32>, tensor<?x65xf64>, tensor<?x65xi1>) {
  %0 = mdl.cast %x : tensor<?x65xf32> -> tensor<?x65xi32>
  %1 = mdl.cast %x : tensor<?x65xf32> -> tensor<?x65xf64>
  %2 = mdl.cast %x : tensor<?x65xf32> -> tensor<?x65xi1>
  return %0, %1, %2 : tensor<?x65xi32>, tensor<?x65xf64>, tensor<?x65xi1>
}
func.func @constant() -> tensor<1x3xf32> {
  %0 = mdl.constant dense<[[1.5, -2.0, 3.25]]> : tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}
func.func @gelu_grad(%x: tensor<?x65xf32>, %g: tensor<?x65xf32>) -> tensor<?x65xf32> {
  %0 = mdl.gelu_grad %x, %g : tensor<?x65xf32>
  return %0 : tensor<?x65xf32>
}
