// Numerical check of attention / attention_grad against PyTorch autograd in float64
// (Inputs/gen.py attention): causal self-attention, attention of 3 queries over 7 keys, a causal
// decoding shape (2 queries over 6 keys: the mask aligned at the bottom right), and 67 positions of
// width 33 (past the kernels' blocks); batches 1 and 7. The adjoint gets the forward's output
// rounded to f32, as training passes it.
// RUN: /usr/bin/python3 %S/Inputs/gen.py attention %t.cases
// RUN: modelc-opt %s --convert-mdl-to-linalg -o %t.mlir
// RUN: modelc-backend-test %t.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.exe
// RUN: %t.exe %t.cases | FileCheck %s
// The runtime's fused kernels above; again expanded by the compiler into the unfused products and
// softmax (the GPU's form).
// RUN: modelc-opt %s --convert-mdl-to-linalg --modelc-expand-library-ops -o %t.expanded.mlir
// RUN: modelc-backend-test %t.expanded.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.expanded.exe
// RUN: %t.expanded.exe %t.cases | FileCheck %s
// CHECK: 16 cases: PASS

func.func @attention_self_causal(%q: tensor<?x2x5x8xf32>, %k: tensor<?x2x5x8xf32>, %v: tensor<?x2x5x8xf32>) -> tensor<?x2x5x8xf32> {
  %o = mdl.attention %q, %k, %v {causal = true} : tensor<?x2x5x8xf32>, tensor<?x2x5x8xf32>, tensor<?x2x5x8xf32> -> tensor<?x2x5x8xf32>
  return %o : tensor<?x2x5x8xf32>
}
func.func @attention_grad_self_causal(%q: tensor<?x2x5x8xf32>, %k: tensor<?x2x5x8xf32>, %v: tensor<?x2x5x8xf32>, %o: tensor<?x2x5x8xf32>, %g: tensor<?x2x5x8xf32>) -> (tensor<?x2x5x8xf32>, tensor<?x2x5x8xf32>, tensor<?x2x5x8xf32>) {
  %dq, %dk, %dv = mdl.attention_grad %q, %k, %v, %o, %g {causal = true} : tensor<?x2x5x8xf32>, tensor<?x2x5x8xf32>, tensor<?x2x5x8xf32>, tensor<?x2x5x8xf32>, tensor<?x2x5x8xf32> -> tensor<?x2x5x8xf32>, tensor<?x2x5x8xf32>, tensor<?x2x5x8xf32>
  return %dq, %dk, %dv : tensor<?x2x5x8xf32>, tensor<?x2x5x8xf32>, tensor<?x2x5x8xf32>
}
func.func @attention_cross(%q: tensor<?x3x3x4xf32>, %k: tensor<?x3x7x4xf32>, %v: tensor<?x3x7x4xf32>) -> tensor<?x3x3x4xf32> {
  %o = mdl.attention %q, %k, %v : tensor<?x3x3x4xf32>, tensor<?x3x7x4xf32>, tensor<?x3x7x4xf32> -> tensor<?x3x3x4xf32>
  return %o : tensor<?x3x3x4xf32>
}
func.func @attention_grad_cross(%q: tensor<?x3x3x4xf32>, %k: tensor<?x3x7x4xf32>, %v: tensor<?x3x7x4xf32>, %o: tensor<?x3x3x4xf32>, %g: tensor<?x3x3x4xf32>) -> (tensor<?x3x3x4xf32>, tensor<?x3x7x4xf32>, tensor<?x3x7x4xf32>) {
  %dq, %dk, %dv = mdl.attention_grad %q, %k, %v, %o, %g : tensor<?x3x3x4xf32>, tensor<?x3x7x4xf32>, tensor<?x3x7x4xf32>, tensor<?x3x3x4xf32>, tensor<?x3x3x4xf32> -> tensor<?x3x3x4xf32>, tensor<?x3x7x4xf32>, tensor<?x3x7x4xf32>
  return %dq, %dk, %dv : tensor<?x3x3x4xf32>, tensor<?x3x7x4xf32>, tensor<?x3x7x4xf32>
}
func.func @attention_decode_causal(%q: tensor<?x2x2x8xf32>, %k: tensor<?x2x6x8xf32>, %v: tensor<?x2x6x8xf32>) -> tensor<?x2x2x8xf32> {
  %o = mdl.attention %q, %k, %v {causal = true} : tensor<?x2x2x8xf32>, tensor<?x2x6x8xf32>, tensor<?x2x6x8xf32> -> tensor<?x2x2x8xf32>
  return %o : tensor<?x2x2x8xf32>
}
func.func @attention_grad_decode_causal(%q: tensor<?x2x2x8xf32>, %k: tensor<?x2x6x8xf32>, %v: tensor<?x2x6x8xf32>, %o: tensor<?x2x2x8xf32>, %g: tensor<?x2x2x8xf32>) -> (tensor<?x2x2x8xf32>, tensor<?x2x6x8xf32>, tensor<?x2x6x8xf32>) {
  %dq, %dk, %dv = mdl.attention_grad %q, %k, %v, %o, %g {causal = true} : tensor<?x2x2x8xf32>, tensor<?x2x6x8xf32>, tensor<?x2x6x8xf32>, tensor<?x2x2x8xf32>, tensor<?x2x2x8xf32> -> tensor<?x2x2x8xf32>, tensor<?x2x6x8xf32>, tensor<?x2x6x8xf32>
  return %dq, %dk, %dv : tensor<?x2x2x8xf32>, tensor<?x2x6x8xf32>, tensor<?x2x6x8xf32>
}
func.func @attention_long_causal(%q: tensor<?x1x67x33xf32>, %k: tensor<?x1x67x33xf32>, %v: tensor<?x1x67x33xf32>) -> tensor<?x1x67x33xf32> {
  %o = mdl.attention %q, %k, %v {causal = true} : tensor<?x1x67x33xf32>, tensor<?x1x67x33xf32>, tensor<?x1x67x33xf32> -> tensor<?x1x67x33xf32>
  return %o : tensor<?x1x67x33xf32>
}
func.func @attention_grad_long_causal(%q: tensor<?x1x67x33xf32>, %k: tensor<?x1x67x33xf32>, %v: tensor<?x1x67x33xf32>, %o: tensor<?x1x67x33xf32>, %g: tensor<?x1x67x33xf32>) -> (tensor<?x1x67x33xf32>, tensor<?x1x67x33xf32>, tensor<?x1x67x33xf32>) {
  %dq, %dk, %dv = mdl.attention_grad %q, %k, %v, %o, %g {causal = true} : tensor<?x1x67x33xf32>, tensor<?x1x67x33xf32>, tensor<?x1x67x33xf32>, tensor<?x1x67x33xf32>, tensor<?x1x67x33xf32> -> tensor<?x1x67x33xf32>, tensor<?x1x67x33xf32>, tensor<?x1x67x33xf32>
  return %dq, %dk, %dv : tensor<?x1x67x33xf32>, tensor<?x1x67x33xf32>, tensor<?x1x67x33xf32>
}
