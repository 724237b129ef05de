// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.max_pool2d.

// Input must be 4-D.
func.func @f(%x: tensor<?x28x28xf32>) {
  // expected-error @+1 {{input must be a 4-D NCHW tensor}}
  %0 = mdl.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x28x28xf32> -> tensor<?x14x14xf32>
  return
}

// -----

// stride must be positive.
func.func @f(%x: tensor<?x1x4x4xf32>) {
  // expected-error @+1 {{'stride' entries must be >= 1, got 0}}
  %0 = mdl.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 0, 2>} : tensor<?x1x4x4xf32> -> tensor<?x1x2x2xf32>
  return
}

// -----

// padding at most half the kernel.
func.func @f(%x: tensor<?x1x4x4xf32>) {
  // expected-error @+1 {{padding (2) must be at most half the kernel size (2)}}
  %0 = mdl.max_pool2d %x {kernel = array<i64: 2, 2>, padding = array<i64: 2, 0>, stride = array<i64: 2, 2>} : tensor<?x1x4x4xf32> -> tensor<?x1x4x2xf32>
  return
}

// -----

// Wrong result shape.
func.func @f(%x: tensor<?x1x4x4xf32>) {
  // expected-error @+1 {{inferred type(s) 'tensor<?x1x2x2xf32>' are incompatible}}
  %0 = mdl.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x1x4x4xf32> -> tensor<?x1x4x4xf32>
  return
}
