// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.batch_norm_eval.

// running_var must have one entry per channel.
func.func @f(%x: tensor<?x4xf32>, %g: tensor<4xf32>, %rv: tensor<3xf32>) {
  // expected-error @+1 {{'mdl.batch_norm_eval' op running_var must be 'tensor<4xf32>' (one entry per channel), got 'tensor<3xf32>'}}
  %0 = mdl.batch_norm_eval %x, %g, %g, %g, %rv : tensor<?x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3xf32> -> tensor<?x4xf32>
  return
}

// -----

// Element types must match.
func.func @f(%x: tensor<?x4xf32>, %g: tensor<4xf64>, %h: tensor<4xf32>) {
  // expected-error @+1 {{running_mean must be 'tensor<4xf32>' (one entry per channel), got 'tensor<4xf64>'}}
  %0 = mdl.batch_norm_eval %x, %h, %h, %g, %h : tensor<?x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf64>, tensor<4xf32> -> tensor<?x4xf32>
  return
}
