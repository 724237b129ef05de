// Numerical check of the batch_norm / layer_norm lowering against float64 references
// (Inputs/gen.py: numpy), through the CPU back end (Inputs/runner.cpp).
// RUN: /usr/bin/python3 %S/Inputs/gen.py normalization %t.cases
// RUN: modelc-opt %s --convert-mdl-to-linalg -o %t.mlir
// RUN: modelc-backend-test %t.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.exe
// RUN: %t.exe %t.cases | FileCheck %s
// CHECK: 8 cases: PASS

func.func @bn_train(%x: tensor<?x3x5x7xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<?x3x5x7xf32>, tensor<3xf32>, tensor<3xf32>) {
  %y, %m, %v = mdl.batch_norm_train %x, %g, %b : tensor<?x3x5x7xf32>, tensor<3xf32>, tensor<3xf32> -> tensor<?x3x5x7xf32>, tensor<3xf32>, tensor<3xf32>
  return %y, %m, %v : tensor<?x3x5x7xf32>, tensor<3xf32>, tensor<3xf32>
}
func.func @bn_eval(%x: tensor<?x3x5x7xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>, %rm: tensor<3xf32>, %rv: tensor<3xf32>) -> tensor<?x3x5x7xf32> {
  %y = mdl.batch_norm_eval %x, %g, %b, %rm, %rv {epsilon = 1.0e-3} : tensor<?x3x5x7xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32> -> tensor<?x3x5x7xf32>
  return %y : tensor<?x3x5x7xf32>
}
func.func @layer_norm(%x: tensor<?x6x65xf32>, %g: tensor<65xf32>, %b: tensor<65xf32>) -> tensor<?x6x65xf32> {
  %y = mdl.layer_norm %x, %g, %b : tensor<?x6x65xf32>, tensor<65xf32>, tensor<65xf32> -> tensor<?x6x65xf32>
  return %y : tensor<?x6x65xf32>
}
