// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.cast.

// cast cannot change the shape.
func.func @f(%x: tensor<3xi64>) {
  // expected-error @+1 {{'mdl.cast' op result shape 4 differs from the input shape 3}}
  %0 = mdl.cast %x : tensor<3xi64> -> tensor<4xf32>
  return
}

// -----

// Unsupported element type.
func.func @f(%x: tensor<3xi64>) {
  // expected-error @+1 {{result #0 must be ranked tensor of}}
  %0 = mdl.cast %x : tensor<3xi64> -> tensor<3xf8E4M3FN>
  return
}
