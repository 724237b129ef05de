// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.broadcast_to.

// Incompatible target.
func.func @f(%b: tensor<3xf32>) {
  // expected-error @+1 {{'mdl.broadcast_to' op cannot broadcast 3 to 4x5}}
  %0 = mdl.broadcast_to %b {shape = array<i64: 4, 5>} : tensor<3xf32> -> tensor<4x5xf32>
  return
}

// -----

// Both shape and like.
func.func @f(%b: tensor<3xf32>, %x: tensor<?x3xf32>) {
  // expected-error @+1 {{needs exactly one of the 'shape' attribute and the 'like' operand}}
  %0 = mdl.broadcast_to %b like %x {shape = array<i64: 4, 3>} : tensor<3xf32>, tensor<?x3xf32> -> tensor<4x3xf32>
  return
}

// -----

// Neither shape nor like.
func.func @f(%b: tensor<3xf32>) {
  // expected-error @+1 {{needs exactly one of the 'shape' attribute and the 'like' operand}}
  %0 = mdl.broadcast_to %b : tensor<3xf32> -> tensor<3xf32>
  return
}

// -----

// A static shape cannot hold -1.
func.func @f(%b: tensor<3xf32>) {
  // expected-error @+1 {{'shape' must be fully static; use 'like' to broadcast to a dynamic shape}}
  %0 = mdl.broadcast_to %b {shape = array<i64: -1, 3>} : tensor<3xf32> -> tensor<?x3xf32>
  return
}

// -----

// Cannot shrink the rank.
func.func @f(%b: tensor<2x3xf32>, %x: tensor<3xf32>) {
  // expected-error @+1 {{cannot broadcast 2x3 to 3}}
  %0 = mdl.broadcast_to %b like %x : tensor<2x3xf32>, tensor<3xf32> -> tensor<3xf32>
  return
}
