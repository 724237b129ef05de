// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.conv2d_grad_weight.

// grad must have the forward result shape.
func.func @f(%g: tensor<1x8x6x6xf32>, %x: tensor<1x3x6x6xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{grad must have the forward result type 'tensor<1x8x4x4xf32>', got 'tensor<1x8x6x6xf32>'}}
  %0 = mdl.conv2d_grad_weight %g, %x, %w : tensor<1x8x6x6xf32>, tensor<1x3x6x6xf32>, tensor<8x3x3x3xf32> -> tensor<8x3x3x3xf32>
  return
}

// -----

// The forward rules apply (4-D operands).
func.func @f(%g: tensor<1x8x4x4xf32>, %x: tensor<3x6x6xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{input (NCHW) and weight (OIHW) must be 4-D}}
  %0 = mdl.conv2d_grad_weight %g, %x, %w : tensor<1x8x4x4xf32>, tensor<3x6x6xf32>, tensor<8x3x3x3xf32> -> tensor<8x3x3x3xf32>
  return
}
