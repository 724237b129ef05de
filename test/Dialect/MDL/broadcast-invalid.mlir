// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Broadcasting shape inference rejects mismatches and wrong result types.

// Two static sizes that differ and are not 1.
func.func @f(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'mdl.add' op operands are not broadcast-compatible: lhs shape 2x3, rhs shape 4x3}}
  %0 = mdl.add %a, %b : tensor<2x3xf32>, tensor<4x3xf32> -> tensor<2x3xf32>
  return
}

// -----

// ? meeting a static 3 infers 3, not ?.
func.func @f(%a: tensor<?x1xf32>, %b: tensor<3x5xf32>) {
  // expected-error @+1 {{inferred type(s) 'tensor<3x5xf32>' are incompatible with return type(s) of operation 'tensor<?x5xf32>'}}
  %0 = mdl.add %a, %b : tensor<?x1xf32>, tensor<3x5xf32> -> tensor<?x5xf32>
  return
}

// -----

// Trailing alignment: 5 against 4 fails even with extra leading dims.
func.func @f(%a: tensor<2x3x5xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{lhs shape 2x3x5, rhs shape 4}}
  %0 = mdl.mul %a, %b : tensor<2x3x5xf32>, tensor<4xf32> -> tensor<2x3x5xf32>
  return
}
