// Accuracy of long reductions (issue 20): sums of 10^6 elements around 1000
// and batch-norm statistics over 2^19 of them against float64 references
// (Inputs/gen.py accuracy), through the CPU back end (Inputs/runner.cpp). A
// sequential float32 sum misses these by orders of magnitude more than the
// tolerances; the blocked sums of reduceDims (MDLToLinalg/Common.h) pass.
// RUN: /usr/bin/python3 %S/Inputs/gen.py accuracy %t.cases
// RUN: modelc-opt %s --convert-mdl-to-linalg -o %t.mlir
// RUN: modelc-backend-test %t.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.exe
// RUN: %t.exe %t.cases | FileCheck %s
// CHECK: 4 cases: PASS

func.func @sum_long(%x: tensor<1000000xf32>) -> tensor<f32> {
  %s = mdl.reduce_sum %x {axes = array<i64: 0>} : tensor<1000000xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @mean_long(%x: tensor<1000000xf32>) -> tensor<f32> {
  %s = mdl.reduce_mean %x {axes = array<i64: 0>} : tensor<1000000xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @bn_offset(%x: tensor<64x2x64x64xf32>, %g: tensor<2xf32>, %b: tensor<2xf32>) -> (tensor<64x2x64x64xf32>, tensor<2xf32>, tensor<2xf32>) {
  %y, %m, %v = mdl.batch_norm_train %x, %g, %b : tensor<64x2x64x64xf32>, tensor<2xf32>, tensor<2xf32> -> tensor<64x2x64x64xf32>, tensor<2xf32>, tensor<2xf32>
  return %y, %m, %v : tensor<64x2x64x64xf32>, tensor<2xf32>, tensor<2xf32>
}
func.func @bn_offset_var(%x: tensor<64x2x64x64xf32>, %g: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %y, %m, %v = mdl.batch_norm_train %x, %g, %b : tensor<64x2x64x64xf32>, tensor<2xf32>, tensor<2xf32> -> tensor<64x2x64x64xf32>, tensor<2xf32>, tensor<2xf32>
  return %v : tensor<2xf32>
}
