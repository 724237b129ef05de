// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.reshape.

// Element counts differ.
func.func @f(%x: tensor<4x6xf32>) {
  // expected-error @+1 {{'mdl.reshape' op cannot reshape 4x6 to 5x5: 24 vs 25 elements}}
  %0 = mdl.reshape %x {shape = array<i64: 5, 5>} : tensor<4x6xf32> -> tensor<5x5xf32>
  return
}

// -----

// Per-batch counts differ.
func.func @f(%x: tensor<?x6xf32>) {
  // expected-error @+1 {{cannot reshape ?x6 to ?x3: 6 vs 3 elements per batch entry}}
  %0 = mdl.reshape %x {shape = array<i64: -1, 3>} : tensor<?x6xf32> -> tensor<?x3xf32>
  return
}

// -----

// The batch dimension must stay dynamic.
func.func @f(%x: tensor<?x6xf32>) {
  // expected-error @+1 {{target dimension 0 must be -1 exactly when the input's dimension 0 is dynamic}}
  %0 = mdl.reshape %x {shape = array<i64: 2, 3>} : tensor<?x6xf32> -> tensor<2x3xf32>
  return
}

// -----

// Only dimension 0 may be -1.
func.func @f(%x: tensor<4x6xf32>) {
  // expected-error @+1 {{target size -1 at dimension 1 is invalid (only dimension 0 may be -1)}}
  %0 = mdl.reshape %x {shape = array<i64: 4, -1>} : tensor<4x6xf32> -> tensor<4x?xf32>
  return
}
