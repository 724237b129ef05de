// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.cross_entropy_grad.

// Labels must be integer class indices.
func.func @f(%l: tensor<?x10xf32>, %t: tensor<?xf32>, %g: tensor<f32>) {
  // expected-error @+1 {{labels must be integer class indices (i32 or i64), got element type 'f32'}}
  %0 = mdl.cross_entropy_grad mean %l, %t, %g : tensor<?x10xf32>, tensor<?xf32>, tensor<f32> -> tensor<?x10xf32>
  return
}

// -----

// Sample counts must agree.
func.func @f(%l: tensor<4x10xf32>, %t: tensor<3xi64>, %g: tensor<f32>) {
  // expected-error @+1 {{labels must have the logits' shape without the class dimension, 4 for logits 'tensor<4x10xf32>', got 'tensor<3xi64>'}}
  %0 = mdl.cross_entropy_grad mean %l, %t, %g : tensor<4x10xf32>, tensor<3xi64>, tensor<f32> -> tensor<4x10xf32>
  return
}

// -----

// The adjoint of the loss is a 0-d tensor.
func.func @f(%l: tensor<4x10xf32>, %t: tensor<4xi64>, %g: tensor<4xf32>) {
  // expected-error @+1 {{0D tensor of 32-bit float or 64-bit float or bfloat16 type or 16-bit float values}}
  %0 = mdl.cross_entropy_grad mean %l, %t, %g : tensor<4x10xf32>, tensor<4xi64>, tensor<4xf32> -> tensor<4x10xf32>
  return
}

// -----

// grad must have the logits' element type.
func.func @f(%l: tensor<4x10xf32>, %t: tensor<4xi64>, %g: tensor<f64>) {
  // expected-error @+1 {{grad must have the logits' element type}}
  %0 = mdl.cross_entropy_grad sum %l, %t, %g : tensor<4x10xf32>, tensor<4xi64>, tensor<f64> -> tensor<4x10xf32>
  return
}

// -----

// The gradient checks the class weights as the loss does.
func.func @f(%x: tensor<?x3xf32>, %l: tensor<?xi64>, %g: tensor<f32>, %w: tensor<3xf64>) {
  // expected-error @+1 {{weight must be 'tensor<3xf32>' (one value per class), got 'tensor<3xf64>'}}
  %0 = mdl.cross_entropy_grad mean %x, %l, %g weight %w : tensor<?x3xf32>, tensor<?xi64>, tensor<f32>, tensor<3xf64> -> tensor<?x3xf32>
  return
}

// -----

// Per-token labels follow the logits as for the loss.
func.func @f(%x: tensor<?x8x5xf32>, %l: tensor<?xi64>, %g: tensor<f32>) {
  // expected-error @+1 {{labels must have the logits' shape without the class dimension, ?x8 for logits 'tensor<?x8x5xf32>', got 'tensor<?xi64>'}}
  %0 = mdl.cross_entropy_grad mean %x, %l, %g : tensor<?x8x5xf32>, tensor<?xi64>, tensor<f32> -> tensor<?x8x5xf32>
  return
}
