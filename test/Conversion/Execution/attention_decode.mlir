// Numerical check of one decoding step, mdl.attention_decode, against numpy
// in float64 (Inputs/gen.py attention_decode): the position's key and value
// written into row pos of the caches (the other rows random, never read
// past pos), and the query's attention over rows 0..pos; at the first, a
// middle and the last position. f32 through the runtime's
// modelrt_attention_decode, then expanded by the compiler (the masked
// attention over every row); f64 unfused.
// RUN: /usr/bin/python3 %S/Inputs/gen.py attention_decode %t.cases
// RUN: modelc-opt %s --convert-mdl-to-linalg -o %t.mlir
// RUN: modelc-backend-test %t.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.exe
// RUN: %t.exe %t.cases | FileCheck %s
// RUN: modelc-opt %s --convert-mdl-to-linalg --modelc-expand-library-ops -o %t.expanded.mlir
// RUN: modelc-backend-test %t.expanded.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.expanded.exe
// RUN: %t.expanded.exe %t.cases | FileCheck %s
// CHECK: 6 cases: PASS

func.func @decode_f32(%q: tensor<1x2x1x8xf32>, %k: tensor<1x2x1x8xf32>, %v: tensor<1x2x1x8xf32>, %kc: tensor<1x2x6x8xf32>, %vc: tensor<1x2x6x8xf32>, %pos: tensor<i64>) -> (tensor<1x2x1x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>) {
  %o, %k2, %v2 = mdl.attention_decode %q, %k, %v, %kc, %vc, %pos : tensor<1x2x1x8xf32>, tensor<1x2x1x8xf32>, tensor<1x2x1x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>, tensor<i64> -> tensor<1x2x1x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>
  return %o, %k2, %v2 : tensor<1x2x1x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>
}
func.func @decode_f64(%q: tensor<1x3x1x5xf64>, %k: tensor<1x3x1x5xf64>, %v: tensor<1x3x1x5xf64>, %kc: tensor<1x3x9x5xf64>, %vc: tensor<1x3x9x5xf64>, %pos: tensor<i64>) -> (tensor<1x3x1x5xf64>, tensor<1x3x9x5xf64>, tensor<1x3x9x5xf64>) {
  %o, %k2, %v2 = mdl.attention_decode %q, %k, %v, %kc, %vc, %pos : tensor<1x3x1x5xf64>, tensor<1x3x1x5xf64>, tensor<1x3x1x5xf64>, tensor<1x3x9x5xf64>, tensor<1x3x9x5xf64>, tensor<i64> -> tensor<1x3x1x5xf64>, tensor<1x3x9x5xf64>, tensor<1x3x9x5xf64>
  return %o, %k2, %v2 : tensor<1x3x1x5xf64>, tensor<1x3x9x5xf64>, tensor<1x3x9x5xf64>
}
