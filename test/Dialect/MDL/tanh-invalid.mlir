// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.tanh.

// Generic form with a mismatched result type.
func.func @f(%x: tensor<3xf32>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "mdl.tanh"(%x) : (tensor<3xf32>) -> tensor<4xf32>
  return
}

// -----

// Float only.
func.func @f(%x: tensor<3xi32>) {
  // expected-error @+1 {{must be ranked tensor of 32-bit float or 64-bit float or bfloat16 type or 16-bit float values}}
  %0 = mdl.tanh %x : tensor<3xi32>
  return
}
