// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.avg_pool2d_grad.

// grad must have the forward result shape.
func.func @f(%g: tensor<?x1x3x3xf32>, %x: tensor<?x1x4x4xf32>) {
  // expected-error @+1 {{grad must have the forward result type 'tensor<?x1x2x2xf32>', got 'tensor<?x1x3x3xf32>'}}
  %0 = mdl.avg_pool2d_grad %g, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x1x3x3xf32>, tensor<?x1x4x4xf32> -> tensor<?x1x4x4xf32>
  return
}

// -----

// The forward rules apply (padding at most half the kernel).
func.func @f(%g: tensor<?x1x4x2xf32>, %x: tensor<?x1x4x4xf32>) {
  // expected-error @+1 {{padding (2) must be at most half the kernel size (2)}}
  %0 = mdl.avg_pool2d_grad %g, %x {kernel = array<i64: 2, 2>, padding = array<i64: 2, 0>, stride = array<i64: 2, 2>} : tensor<?x1x4x2xf32>, tensor<?x1x4x4xf32> -> tensor<?x1x4x4xf32>
  return
}
