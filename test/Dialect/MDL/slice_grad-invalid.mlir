// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.slice_grad.

// The window must lie inside the input.
func.func @f(%g: tensor<4xf32>, %x: tensor<10xf32>) {
  // expected-error @+1 {{dimension 0: last index 11 is outside the input dimension of size 10}}
  %0 = mdl.slice_grad %g, %x {start = array<i64: 2>, stride = array<i64: 3>} : tensor<4xf32>, tensor<10xf32> -> tensor<10xf32>
  return
}

// -----

// A dynamic grad dimension takes the whole (dynamic) extent.
func.func @f(%g: tensor<?x4xf32>, %x: tensor<?x10xf32>) {
  // expected-error @+1 {{dimension 0: a dynamic grad dimension needs a dynamic input dimension, start 0 and stride 1}}
  %0 = mdl.slice_grad %g, %x {start = array<i64: 1, 0>, stride = array<i64: 1, 1>} : tensor<?x4xf32>, tensor<?x10xf32> -> tensor<?x10xf32>
  return
}

// -----

// One start/stride entry per dimension.
func.func @f(%g: tensor<4xf32>, %x: tensor<10xf32>) {
  // expected-error @+1 {{start and stride must have 1 entries}}
  %0 = mdl.slice_grad %g, %x {start = array<i64: 0, 0>, stride = array<i64: 1>} : tensor<4xf32>, tensor<10xf32> -> tensor<10xf32>
  return
}

// -----

// Ranks must agree.
func.func @f(%g: tensor<4xf32>, %x: tensor<2x10xf32>) {
  // expected-error @+1 {{must have the rank and element type of the input}}
  %0 = mdl.slice_grad %g, %x {start = array<i64: 0>, stride = array<i64: 1>} : tensor<4xf32>, tensor<2x10xf32> -> tensor<2x10xf32>
  return
}

// -----

// stride must be positive.
func.func @f(%g: tensor<4xf32>, %x: tensor<10xf32>) {
  // expected-error @+1 {{dimension 0: start must be >= 0 and stride >= 1, got 0 and 0}}
  %0 = mdl.slice_grad %g, %x {start = array<i64: 0>, stride = array<i64: 0>} : tensor<4xf32>, tensor<10xf32> -> tensor<10xf32>
  return
}
