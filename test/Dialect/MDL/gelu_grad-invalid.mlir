// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.gelu_grad.

// Operands must have the same type.
func.func @f(%x: tensor<?x4xf32>, %g: tensor<?x5xf32>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "mdl.gelu_grad"(%x, %g) : (tensor<?x4xf32>, tensor<?x5xf32>) -> tensor<?x4xf32>
  return
}

// -----

// Float only.
func.func @f(%x: tensor<4xi32>) {
  // expected-error @+1 {{must be ranked tensor of 32-bit float or 64-bit float or bfloat16 type or 16-bit float values}}
  %0 = mdl.gelu_grad %x, %x : tensor<4xi32>
  return
}
