// Numerical check of the dropout (Philox4x32-10 mask, bit-exact; element counts that are and are not
// multiples of 4; per_channel masks, one counter per feature map) lowering against float64 references
// (Inputs/gen.py: a numpy Philox checked against the Random123 known answer), through the CPU back end (Inputs/runner.cpp).
// RUN: /usr/bin/python3 %S/Inputs/gen.py random %t.cases
// RUN: modelc-opt %s --convert-mdl-to-linalg -o %t.mlir
// RUN: modelc-backend-test %t.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.exe
// RUN: %t.exe %t.cases | FileCheck %s
// CHECK: dropout_50 [1x3x65] max error 0
// CHECK: dropout_50_grouped [1x4x16] max error 0
// CHECK: dropout_channels_50 [1x3x5x7] max error 0
// CHECK: 9 cases: PASS

func.func @dropout_50(%x: tensor<?x3x65xf32>, %s: tensor<i64>) -> (tensor<?x3x65xf32>, tensor<?x3x65xi1>) {
  %y, %m = mdl.dropout %x, %s {rate = 0.5 : f64} : tensor<?x3x65xf32>, tensor<i64> -> tensor<?x3x65xf32>, tensor<?x3x65xi1>
  return %y, %m : tensor<?x3x65xf32>, tensor<?x3x65xi1>
}
func.func @dropout_25(%x: tensor<?x3x65xf32>, %s: tensor<i64>) -> (tensor<?x3x65xf32>, tensor<?x3x65xi1>) {
  %y, %m = mdl.dropout %x, %s {rate = 0.25 : f64} : tensor<?x3x65xf32>, tensor<i64> -> tensor<?x3x65xf32>, tensor<?x3x65xi1>
  return %y, %m : tensor<?x3x65xf32>, tensor<?x3x65xi1>
}
func.func @dropout_90(%x: tensor<?x3x65xf32>, %s: tensor<i64>) -> (tensor<?x3x65xf32>, tensor<?x3x65xi1>) {
  %y, %m = mdl.dropout %x, %s {rate = 0.9 : f64} : tensor<?x3x65xf32>, tensor<i64> -> tensor<?x3x65xf32>, tensor<?x3x65xi1>
  return %y, %m : tensor<?x3x65xf32>, tensor<?x3x65xi1>
}
func.func @dropout_50_grouped(%x: tensor<?x4x16xf32>, %s: tensor<i64>) -> (tensor<?x4x16xf32>, tensor<?x4x16xi1>) {
  %y, %m = mdl.dropout %x, %s {rate = 0.5 : f64} : tensor<?x4x16xf32>, tensor<i64> -> tensor<?x4x16xf32>, tensor<?x4x16xi1>
  return %y, %m : tensor<?x4x16xf32>, tensor<?x4x16xi1>
}
func.func @dropout_25_grouped(%x: tensor<?x4x16xf32>, %s: tensor<i64>) -> (tensor<?x4x16xf32>, tensor<?x4x16xi1>) {
  %y, %m = mdl.dropout %x, %s {rate = 0.25 : f64} : tensor<?x4x16xf32>, tensor<i64> -> tensor<?x4x16xf32>, tensor<?x4x16xi1>
  return %y, %m : tensor<?x4x16xf32>, tensor<?x4x16xi1>
}
func.func @dropout_90_grouped(%x: tensor<?x4x16xf32>, %s: tensor<i64>) -> (tensor<?x4x16xf32>, tensor<?x4x16xi1>) {
  %y, %m = mdl.dropout %x, %s {rate = 0.9 : f64} : tensor<?x4x16xf32>, tensor<i64> -> tensor<?x4x16xf32>, tensor<?x4x16xi1>
  return %y, %m : tensor<?x4x16xf32>, tensor<?x4x16xi1>
}
func.func @dropout_channels_50(%x: tensor<?x3x5x7xf32>, %s: tensor<i64>) -> (tensor<?x3x5x7xf32>, tensor<?x3x5x7xi1>) {
  %y, %m = mdl.dropout %x, %s {rate = 0.5 : f64, per_channel = true} : tensor<?x3x5x7xf32>, tensor<i64> -> tensor<?x3x5x7xf32>, tensor<?x3x5x7xi1>
  return %y, %m : tensor<?x3x5x7xf32>, tensor<?x3x5x7xi1>
}
func.func @dropout_channels_25(%x: tensor<?x3x5x7xf32>, %s: tensor<i64>) -> (tensor<?x3x5x7xf32>, tensor<?x3x5x7xi1>) {
  %y, %m = mdl.dropout %x, %s {rate = 0.25 : f64, per_channel = true} : tensor<?x3x5x7xf32>, tensor<i64> -> tensor<?x3x5x7xf32>, tensor<?x3x5x7xi1>
  return %y, %m : tensor<?x3x5x7xf32>, tensor<?x3x5x7xi1>
}
func.func @dropout_channels_90(%x: tensor<?x3x5x7xf32>, %s: tensor<i64>) -> (tensor<?x3x5x7xf32>, tensor<?x3x5x7xi1>) {
  %y, %m = mdl.dropout %x, %s {rate = 0.9 : f64, per_channel = true} : tensor<?x3x5x7xf32>, tensor<i64> -> tensor<?x3x5x7xf32>, tensor<?x3x5x7xi1>
  return %y, %m : tensor<?x3x5x7xf32>, tensor<?x3x5x7xi1>
}
