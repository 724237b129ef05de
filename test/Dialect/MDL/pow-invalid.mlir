// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.pow.

// Shapes that do not broadcast.
func.func @f(%x: tensor<?x128xf32>, %y: tensor<64xf32>) {
  // expected-error @+1 {{'mdl.pow' op operands are not broadcast-compatible: lhs shape ?x128, rhs shape 64}}
  %0 = mdl.pow %x, %y : tensor<?x128xf32>, tensor<64xf32> -> tensor<?x128xf32>
  return
}

// -----

// Element types must match.
func.func @f(%x: tensor<3xf32>, %y: tensor<3xf64>) {
  // expected-error @+1 {{element types differ: lhs has 'f32', rhs has 'f64'}}
  %0 = mdl.pow %x, %y : tensor<3xf32>, tensor<3xf64> -> tensor<3xf32>
  return
}

// -----

// The result must be the broadcast shape.
func.func @f(%x: tensor<4x1xf32>, %y: tensor<3xf32>) {
  // expected-error @+1 {{inferred type(s) 'tensor<4x3xf32>' are incompatible}}
  %0 = mdl.pow %x, %y : tensor<4x1xf32>, tensor<3xf32> -> tensor<4x1xf32>
  return
}

// -----

// pow is float only.
func.func @f(%x: tensor<3xi32>, %y: tensor<3xi32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit float or 64-bit float or bfloat16 type or 16-bit float values}}
  %0 = mdl.pow %x, %y : tensor<3xi32>, tensor<3xi32> -> tensor<3xi32>
  return
}
