// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.select.

// The condition must be i1.
func.func @f(%c: tensor<3xf32>, %x: tensor<3xf32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = mdl.select %c, %x, %x : tensor<3xf32>, tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return
}

// -----

// Value element types must match.
func.func @f(%c: tensor<3xi1>, %x: tensor<3xf32>, %y: tensor<3xf64>) {
  // expected-error @+1 {{element types differ: lhs has 'f32', rhs has 'f64'}}
  %0 = mdl.select %c, %x, %y : tensor<3xi1>, tensor<3xf32>, tensor<3xf64> -> tensor<3xf32>
  return
}

// -----

// The condition must broadcast with the values.
func.func @f(%c: tensor<4xi1>, %x: tensor<3xf32>) {
  // expected-error @+1 {{condition shape 4 does not broadcast with the value shape 3}}
  %0 = mdl.select %c, %x, %x : tensor<4xi1>, tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return
}
