// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.batch_norm_train.

// gamma must have one entry per channel.
func.func @f(%x: tensor<?x32x4x4xf32>, %g: tensor<16xf32>, %b: tensor<32xf32>) {
  // expected-error @+1 {{'mdl.batch_norm_train' op gamma must be 'tensor<32xf32>' (one entry per channel), got 'tensor<16xf32>'}}
  %y, %m, %v = mdl.batch_norm_train %x, %g, %b : tensor<?x32x4x4xf32>, tensor<16xf32>, tensor<32xf32> -> tensor<?x32x4x4xf32>, tensor<32xf32>, tensor<32xf32>
  return
}

// -----

// Input rank >= 2.
func.func @f(%x: tensor<?xf32>, %g: tensor<1xf32>, %b: tensor<1xf32>) {
  // expected-error @+1 {{input must have rank >= 2 with static channels in dimension 1}}
  %y, %m, %v = mdl.batch_norm_train %x, %g, %b : tensor<?xf32>, tensor<1xf32>, tensor<1xf32> -> tensor<?xf32>, tensor<1xf32>, tensor<1xf32>
  return
}

// -----

// momentum in [0, 1].
func.func @f(%x: tensor<?x2xf32>, %g: tensor<2xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{momentum must be in [0, 1], got 1.5}}
  %y, %m, %v = mdl.batch_norm_train %x, %g, %b {momentum = 1.5 : f64} : tensor<?x2xf32>, tensor<2xf32>, tensor<2xf32> -> tensor<?x2xf32>, tensor<2xf32>, tensor<2xf32>
  return
}

// -----

// epsilon positive.
func.func @f(%x: tensor<?x2xf32>, %g: tensor<2xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{epsilon must be positive, got 0}}
  %y, %m, %v = mdl.batch_norm_train %x, %g, %b {epsilon = 0.0 : f64} : tensor<?x2xf32>, tensor<2xf32>, tensor<2xf32> -> tensor<?x2xf32>, tensor<2xf32>, tensor<2xf32>
  return
}
