// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.concat.

// Mismatched non-axis dimension.
func.func @f(%a: tensor<?x3xf32>, %b: tensor<?x4xf32>) {
  // expected-error @+1 {{'mdl.concat' op input #1 has size 4 in dimension 1, input #0 has 3}}
  %0 = mdl.concat %a, %b {axis = 0 : i64} : tensor<?x3xf32>, tensor<?x4xf32> -> tensor<?x3xf32>
  return
}

// -----

// Rank mismatch.
func.func @f(%a: tensor<?x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{input #1 must have the rank and element type of input #0}}
  %0 = mdl.concat %a, %b {axis = 0 : i64} : tensor<?x3xf32>, tensor<3xf32> -> tensor<?x3xf32>
  return
}

// -----

// axis out of range.
func.func @f(%a: tensor<?x3xf32>) {
  // expected-error @+1 {{axis 2 is out of range for a tensor of rank 2}}
  %0 = mdl.concat %a {axis = 2 : i64} : tensor<?x3xf32> -> tensor<?x3xf32>
  return
}

// -----

// No inputs.
func.func @f() {
  // expected-error @+1 {{needs at least one input}}
  %0 = "mdl.concat"() {axis = 0 : i64} : () -> tensor<3xf32>
  return
}
