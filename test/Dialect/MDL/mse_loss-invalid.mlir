// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.mse_loss.

// Shapes must match.
func.func @f(%y: tensor<?x1xf32>, %t: tensor<?xf32>) {
  // expected-error @+1 {{'mdl.mse_loss' op input and target must have the same type, got 'tensor<?x1xf32>' and 'tensor<?xf32>'}}
  %0 = mdl.mse_loss mean %y, %t : tensor<?x1xf32>, tensor<?xf32> -> tensor<f32>
  return
}

// -----

// The result is a scalar of the input type.
func.func @f(%y: tensor<3xf32>, %t: tensor<3xf32>) {
  // expected-error @+1 {{inferred type(s) 'tensor<f32>' are incompatible}}
  %0 = mdl.mse_loss sum %y, %t : tensor<3xf32>, tensor<3xf32> -> tensor<f64>
  return
}

// -----

// Integer targets are rejected.
func.func @f(%y: tensor<3xf32>, %t: tensor<3xi64>) {
  // expected-error @+1 {{operand #1 must be ranked tensor of 32-bit float or 64-bit float or bfloat16 type or 16-bit float values}}
  %0 = mdl.mse_loss mean %y, %t : tensor<3xf32>, tensor<3xi64> -> tensor<f32>
  return
}
