// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.flatten.

// start_dim after end_dim.
func.func @f(%x: tensor<?x2x3xf32>) {
  // expected-error @+1 {{'mdl.flatten' op invalid dimension range [2, 1] for a tensor of rank 3}}
  %0 = mdl.flatten %x {end_dim = 1 : i64, start_dim = 2 : i64} : tensor<?x2x3xf32> -> tensor<?x6xf32>
  return
}

// -----

// Dimension out of range.
func.func @f(%x: tensor<?x2x3xf32>) {
  // expected-error @+1 {{invalid dimension range [3, -1]}}
  %0 = mdl.flatten %x {start_dim = 3 : i64} : tensor<?x2x3xf32> -> tensor<?x6xf32>
  return
}

// -----

// Wrong result type.
func.func @f(%x: tensor<?x2x3xf32>) {
  // expected-error @+1 {{inferred type(s) 'tensor<?x6xf32>' are incompatible}}
  %0 = mdl.flatten %x : tensor<?x2x3xf32> -> tensor<?x5xf32>
  return
}
