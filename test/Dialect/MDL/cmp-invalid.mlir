// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.cmp.

// Shapes that do not broadcast.
func.func @f(%x: tensor<3xf32>, %y: tensor<4xf32>) {
  // expected-error @+1 {{'mdl.cmp' op operands are not broadcast-compatible: lhs shape 3, rhs shape 4}}
  %0 = mdl.cmp lt, %x, %y : tensor<3xf32>, tensor<4xf32> -> tensor<3xi1>
  return
}

// -----

// Element types must match.
func.func @f(%x: tensor<3xf32>, %y: tensor<3xi32>) {
  // expected-error @+1 {{element types differ: lhs has 'f32', rhs has 'i32'}}
  %0 = mdl.cmp lt, %x, %y : tensor<3xf32>, tensor<3xi32> -> tensor<3xi1>
  return
}

// -----

// The result is i1.
func.func @f(%x: tensor<3xf32>, %y: tensor<3xf32>) {
  // expected-error @+1 {{result #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = mdl.cmp lt, %x, %y : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return
}

// -----

// Unknown predicate.
func.func @f(%x: tensor<3xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, lt, le, gt, ge]}}
  %0 = mdl.cmp lq, %x, %x : tensor<3xf32>, tensor<3xf32> -> tensor<3xi1>
  return
}
