// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.argmax.

// axis out of range.
func.func @f(%x: tensor<?x10xf32>) {
  // expected-error @+1 {{'mdl.argmax' op axis 5 is out of range for a tensor of rank 2}}
  %0 = mdl.argmax %x {axis = 5 : i64} : tensor<?x10xf32> -> tensor<?xi64>
  return
}

// -----

// The result is i64.
func.func @f(%x: tensor<?x10xf32>) {
  // expected-error @+1 {{result #0 must be ranked tensor of 64-bit signless integer values}}
  %0 = mdl.argmax %x {axis = 1 : i64} : tensor<?x10xf32> -> tensor<?xi32>
  return
}

// -----

// Rank-0 input.
func.func @f(%x: tensor<f32>) {
  // expected-error @+1 {{input must be a tensor of rank >= 1}}
  %0 = mdl.argmax %x : tensor<f32> -> tensor<i64>
  return
}
