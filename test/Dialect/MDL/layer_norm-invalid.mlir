// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.layer_norm.

// Normalised shape must match the trailing dims.
func.func @f(%x: tensor<?x16x64xf32>, %g: tensor<32xf32>) {
  // expected-error @+1 {{'mdl.layer_norm' op normalised shape 32 must be static and equal the trailing dimensions of the input shape ?x16x64}}
  %0 = mdl.layer_norm %x, %g, %g : tensor<?x16x64xf32>, tensor<32xf32>, tensor<32xf32> -> tensor<?x16x64xf32>
  return
}

// -----

// gamma and beta agree.
func.func @f(%x: tensor<?x4xf32>, %g: tensor<4xf32>, %b: tensor<4xf64>) {
  // expected-error @+1 {{gamma and beta must have the same type}}
  %0 = mdl.layer_norm %x, %g, %b : tensor<?x4xf32>, tensor<4xf32>, tensor<4xf64> -> tensor<?x4xf32>
  return
}

// -----

// Cannot normalise over every dimension.
func.func @f(%x: tensor<4xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{normalised shape 4 must be static and equal the trailing dimensions}}
  %0 = mdl.layer_norm %x, %g, %g : tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}
