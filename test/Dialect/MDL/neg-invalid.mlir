// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.neg.

// Generic form with a mismatched result type.
func.func @f(%x: tensor<3xf32>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "mdl.neg"(%x) : (tensor<3xf32>) -> tensor<4xf32>
  return
}

// -----

// bool tensors are not numeric.
func.func @f(%x: tensor<3xi1>) {
  // expected-error @+1 {{must be ranked tensor of 32-bit float or 64-bit float or bfloat16 type or 16-bit float or 32-bit signless integer or 64-bit signless integer values}}
  %0 = mdl.neg %x : tensor<3xi1>
  return
}
