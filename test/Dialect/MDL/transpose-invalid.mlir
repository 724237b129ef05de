// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.transpose.

// Not a permutation.
func.func @f(%x: tensor<?x8x16xf32>) {
  // expected-error @+1 {{'mdl.transpose' op permutation is not a permutation of 0..2}}
  %0 = mdl.transpose %x {permutation = array<i64: 0, 1, 1>} : tensor<?x8x16xf32> -> tensor<?x8x8xf32>
  return
}

// -----

// Wrong length.
func.func @f(%x: tensor<?x8x16xf32>) {
  // expected-error @+1 {{permutation has 2 entries, expected 3}}
  %0 = mdl.transpose %x {permutation = array<i64: 1, 0>} : tensor<?x8x16xf32> -> tensor<8x?xf32>
  return
}
