// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.batch_matmul.

// Contracting dimensions differ.
func.func @f(%a: tensor<?x8x16xf32>, %b: tensor<?x15x8xf32>) {
  // expected-error @+1 {{contracting dimensions differ: lhs has 16, rhs has 15}}
  %0 = mdl.batch_matmul %a, %b : tensor<?x8x16xf32>, tensor<?x15x8xf32> -> tensor<?x8x8xf32>
  return
}

// -----

// Batch sizes differ.
func.func @f(%a: tensor<2x8x16xf32>, %b: tensor<3x16x8xf32>) {
  // expected-error @+1 {{batch dimensions differ: lhs has 2, rhs has 3}}
  %0 = mdl.batch_matmul %a, %b : tensor<2x8x16xf32>, tensor<3x16x8xf32> -> tensor<2x8x8xf32>
  return
}

// -----

// Operands must be 3-D.
func.func @f(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>) {
  // expected-error @+1 {{operands must be 3-D}}
  %0 = mdl.batch_matmul %a, %b : tensor<8x16xf32>, tensor<16x8xf32> -> tensor<8x8xf32>
  return
}
