// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.matmul.

// Contracting dimensions differ.
func.func @f(%x: tensor<?x3200xf32>, %w: tensor<3136x10xf32>) {
  // expected-error @+1 {{'mdl.matmul' op contracting dimensions differ: lhs has 3200, rhs has 3136}}
  %0 = mdl.matmul %x, %w : tensor<?x3200xf32>, tensor<3136x10xf32> -> tensor<?x10xf32>
  return
}

// -----

// rhs must be 2-D.
func.func @f(%x: tensor<?x4xf32>, %w: tensor<2x4x3xf32>) {
  // expected-error @+1 {{rhs must be 2-D}}
  %0 = mdl.matmul %x, %w : tensor<?x4xf32>, tensor<2x4x3xf32> -> tensor<?x3xf32>
  return
}

// -----

// lhs must have rank >= 2.
func.func @f(%x: tensor<4xf32>, %w: tensor<4x3xf32>) {
  // expected-error @+1 {{lhs must have rank >= 2}}
  %0 = mdl.matmul %x, %w : tensor<4xf32>, tensor<4x3xf32> -> tensor<3xf32>
  return
}

// -----

// Element types must match.
func.func @f(%x: tensor<2x4xf32>, %w: tensor<4x3xf64>) {
  // expected-error @+1 {{element types differ}}
  %0 = mdl.matmul %x, %w : tensor<2x4xf32>, tensor<4x3xf64> -> tensor<2x3xf32>
  return
}

// -----

// The written result type must be the inferred one.
func.func @f(%x: tensor<?x4xf32>, %w: tensor<4x3xf32>) {
  // expected-error @+1 {{inferred type(s) 'tensor<?x3xf32>' are incompatible with return type(s) of operation 'tensor<?x4xf32>'}}
  %0 = mdl.matmul %x, %w : tensor<?x4xf32>, tensor<4x3xf32> -> tensor<?x4xf32>
  return
}

// -----

// bool tensors are not numeric.
func.func @f(%x: tensor<2x4xi1>, %w: tensor<4x3xi1>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of}}
  %0 = mdl.matmul %x, %w : tensor<2x4xi1>, tensor<4x3xi1> -> tensor<2x3xi1>
  return
}
