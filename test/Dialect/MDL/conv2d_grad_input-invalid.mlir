// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.conv2d_grad_input.

// grad must have the forward result shape.
func.func @f(%g: tensor<1x8x5x5xf32>, %w: tensor<8x3x3x3xf32>, %x: tensor<1x3x6x6xf32>) {
  // expected-error @+1 {{grad must have the forward result type 'tensor<1x8x4x4xf32>', got 'tensor<1x8x5x5xf32>'}}
  %0 = mdl.conv2d_grad_input %g, %w, %x : tensor<1x8x5x5xf32>, tensor<8x3x3x3xf32>, tensor<1x3x6x6xf32> -> tensor<1x3x6x6xf32>
  return
}

// -----

// The forward rules apply (groups).
func.func @f(%g: tensor<1x8x4x4xf32>, %w: tensor<8x3x3x3xf32>, %x: tensor<1x3x6x6xf32>) {
  // expected-error @+1 {{groups (2) must divide input channels (3) and output channels (8)}}
  %0 = mdl.conv2d_grad_input %g, %w, %x {groups = 2 : i64} : tensor<1x8x4x4xf32>, tensor<8x3x3x3xf32>, tensor<1x3x6x6xf32> -> tensor<1x3x6x6xf32>
  return
}

// -----

// The result has the input's type.
func.func @f(%g: tensor<1x8x4x4xf32>, %w: tensor<8x3x3x3xf32>, %x: tensor<1x3x6x6xf32>) {
  // expected-error @+1 {{inferred type(s) 'tensor<1x3x6x6xf32>' are incompatible}}
  %0 = mdl.conv2d_grad_input %g, %w, %x : tensor<1x8x4x4xf32>, tensor<8x3x3x3xf32>, tensor<1x3x6x6xf32> -> tensor<8x3x3x3xf32>
  return
}
