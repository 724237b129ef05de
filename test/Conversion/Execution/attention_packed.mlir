// Numerical check of attention_packed / attention_packed_grad against PyTorch autograd in float64
// (Inputs/gen.py attention_packed): qkv [B, T, 3, H, D] moved to [B, H, T, D] query, key and value,
// causal or full attention, the output moved to [B, T, H, D]; 5 and 7 positions, and 67 of width 33
// (past the kernels' blocks); batches 1 and 7. f32 runs the runtime's packed kernels, f64 the
// unfused mdl ops (moves, slices, products, softmax, concat). The adjoint gets the forward's
// output rounded to f32, as training passes it.
// RUN: /usr/bin/python3 %S/Inputs/gen.py attention_packed %t.cases
// RUN: modelc-opt %s --convert-mdl-to-linalg -o %t.mlir
// RUN: modelc-backend-test %t.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.exe
// RUN: %t.exe %t.cases | FileCheck %s
// The f32 library ops again, expanded by the compiler into the unfused form (the GPU's).
// RUN: modelc-opt %s --convert-mdl-to-linalg --modelc-expand-library-ops -o %t.expanded.mlir
// RUN: modelc-backend-test %t.expanded.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.expanded.exe
// RUN: %t.expanded.exe %t.cases | FileCheck %s
// CHECK: 24 cases: PASS

func.func @packed_causal_f32(%x: tensor<?x5x3x2x8xf32>) -> tensor<?x5x2x8xf32> {
  %o = mdl.attention_packed %x {causal = true} : tensor<?x5x3x2x8xf32> -> tensor<?x5x2x8xf32>
  return %o : tensor<?x5x2x8xf32>
}
func.func @packed_grad_causal_f32(%x: tensor<?x5x3x2x8xf32>, %o: tensor<?x5x2x8xf32>, %g: tensor<?x5x2x8xf32>) -> tensor<?x5x3x2x8xf32> {
  %d = mdl.attention_packed_grad %x, %o, %g {causal = true} : tensor<?x5x3x2x8xf32>, tensor<?x5x2x8xf32>, tensor<?x5x2x8xf32> -> tensor<?x5x3x2x8xf32>
  return %d : tensor<?x5x3x2x8xf32>
}
func.func @packed_causal_f64(%x: tensor<?x5x3x2x8xf64>) -> tensor<?x5x2x8xf64> {
  %o = mdl.attention_packed %x {causal = true} : tensor<?x5x3x2x8xf64> -> tensor<?x5x2x8xf64>
  return %o : tensor<?x5x2x8xf64>
}
func.func @packed_grad_causal_f64(%x: tensor<?x5x3x2x8xf64>, %o: tensor<?x5x2x8xf64>, %g: tensor<?x5x2x8xf64>) -> tensor<?x5x3x2x8xf64> {
  %d = mdl.attention_packed_grad %x, %o, %g {causal = true} : tensor<?x5x3x2x8xf64>, tensor<?x5x2x8xf64>, tensor<?x5x2x8xf64> -> tensor<?x5x3x2x8xf64>
  return %d : tensor<?x5x3x2x8xf64>
}
func.func @packed_full_f32(%x: tensor<?x7x3x3x4xf32>) -> tensor<?x7x3x4xf32> {
  %o = mdl.attention_packed %x : tensor<?x7x3x3x4xf32> -> tensor<?x7x3x4xf32>
  return %o : tensor<?x7x3x4xf32>
}
func.func @packed_grad_full_f32(%x: tensor<?x7x3x3x4xf32>, %o: tensor<?x7x3x4xf32>, %g: tensor<?x7x3x4xf32>) -> tensor<?x7x3x3x4xf32> {
  %d = mdl.attention_packed_grad %x, %o, %g : tensor<?x7x3x3x4xf32>, tensor<?x7x3x4xf32>, tensor<?x7x3x4xf32> -> tensor<?x7x3x3x4xf32>
  return %d : tensor<?x7x3x3x4xf32>
}
func.func @packed_full_f64(%x: tensor<?x7x3x3x4xf64>) -> tensor<?x7x3x4xf64> {
  %o = mdl.attention_packed %x : tensor<?x7x3x3x4xf64> -> tensor<?x7x3x4xf64>
  return %o : tensor<?x7x3x4xf64>
}
func.func @packed_grad_full_f64(%x: tensor<?x7x3x3x4xf64>, %o: tensor<?x7x3x4xf64>, %g: tensor<?x7x3x4xf64>) -> tensor<?x7x3x3x4xf64> {
  %d = mdl.attention_packed_grad %x, %o, %g : tensor<?x7x3x3x4xf64>, tensor<?x7x3x4xf64>, tensor<?x7x3x4xf64> -> tensor<?x7x3x3x4xf64>
  return %d : tensor<?x7x3x3x4xf64>
}
func.func @packed_long_f32(%x: tensor<?x67x3x2x33xf32>) -> tensor<?x67x2x33xf32> {
  %o = mdl.attention_packed %x {causal = true} : tensor<?x67x3x2x33xf32> -> tensor<?x67x2x33xf32>
  return %o : tensor<?x67x2x33xf32>
}
func.func @packed_grad_long_f32(%x: tensor<?x67x3x2x33xf32>, %o: tensor<?x67x2x33xf32>, %g: tensor<?x67x2x33xf32>) -> tensor<?x67x3x2x33xf32> {
  %d = mdl.attention_packed_grad %x, %o, %g {causal = true} : tensor<?x67x3x2x33xf32>, tensor<?x67x2x33xf32>, tensor<?x67x2x33xf32> -> tensor<?x67x3x2x33xf32>
  return %d : tensor<?x67x3x2x33xf32>
}
func.func @packed_long_f64(%x: tensor<?x67x3x2x33xf64>) -> tensor<?x67x2x33xf64> {
  %o = mdl.attention_packed %x {causal = true} : tensor<?x67x3x2x33xf64> -> tensor<?x67x2x33xf64>
  return %o : tensor<?x67x2x33xf64>
}
func.func @packed_grad_long_f64(%x: tensor<?x67x3x2x33xf64>, %o: tensor<?x67x2x33xf64>, %g: tensor<?x67x2x33xf64>) -> tensor<?x67x3x2x33xf64> {
  %d = mdl.attention_packed_grad %x, %o, %g {causal = true} : tensor<?x67x3x2x33xf64>, tensor<?x67x2x33xf64>, tensor<?x67x2x33xf64> -> tensor<?x67x3x2x33xf64>
  return %d : tensor<?x67x3x2x33xf64>
}
