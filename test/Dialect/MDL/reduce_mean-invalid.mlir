// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.reduce_mean.

// axis out of range.
func.func @f(%x: tensor<?x10xf32>) {
  // expected-error @+1 {{'mdl.reduce_mean' op axis 2 is out of range for a tensor of rank 2}}
  %0 = mdl.reduce_mean %x {axes = array<i64: 2>} : tensor<?x10xf32> -> tensor<?xf32>
  return
}

// -----

// Repeated axis.
func.func @f(%x: tensor<?x10xf32>) {
  // expected-error @+1 {{axis -1 is repeated}}
  %0 = mdl.reduce_mean %x {axes = array<i64: 1, -1>} : tensor<?x10xf32> -> tensor<?xf32>
  return
}

// -----

// Empty axes.
func.func @f(%x: tensor<?x10xf32>) {
  // expected-error @+1 {{axes must not be empty}}
  %0 = mdl.reduce_mean %x {axes = array<i64>} : tensor<?x10xf32> -> tensor<?x10xf32>
  return
}

// -----

// keepdims changes the result type.
func.func @f(%x: tensor<?x10xf32>) {
  // expected-error @+1 {{inferred type(s) 'tensor<?x1xf32>' are incompatible}}
  %0 = mdl.reduce_mean %x {axes = array<i64: 1>, keepdims = true} : tensor<?x10xf32> -> tensor<?xf32>
  return
}
