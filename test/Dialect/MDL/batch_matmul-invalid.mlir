// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.batch_matmul.

// Contracting dimensions differ.
func.func @f(%a: tensor<?x8x16xf32>, %b: tensor<?x15x8xf32>) {
  // expected-error @+1 {{contracting dimensions differ: lhs has 16, rhs has 15}}
  %0 = mdl.batch_matmul %a, %b : tensor<?x8x16xf32>, tensor<?x15x8xf32> -> tensor<?x8x8xf32>
  return
}

// -----

// Batch sizes differ and neither is 1.
func.func @f(%a: tensor<2x8x16xf32>, %b: tensor<3x16x8xf32>) {
  // expected-error @+1 {{batch dimensions do not broadcast: lhs has 2, rhs has 3}}
  %0 = mdl.batch_matmul %a, %b : tensor<2x8x16xf32>, tensor<3x16x8xf32> -> tensor<2x8x8xf32>
  return
}

// -----

// Two matrices are mdl.matmul's: one operand must be a stack.
func.func @f(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>) {
  // expected-error @+1 {{operands must be [..., M, K] and [..., K, N] with rank >= 2, one of rank >= 3}}
  %0 = mdl.batch_matmul %a, %b : tensor<8x16xf32>, tensor<16x8xf32> -> tensor<8x8xf32>
  return
}

// -----

// Batch dimensions aligned at the last: 4 against 3.
func.func @f(%a: tensor<?x4x8x16xf32>, %b: tensor<3x16x8xf32>) {
  // expected-error @+1 {{batch dimensions do not broadcast: lhs has ?x4, rhs has 3}}
  %0 = mdl.batch_matmul %a, %b : tensor<?x4x8x16xf32>, tensor<3x16x8xf32> -> tensor<?x4x8x8xf32>
  return
}

// -----

// The contracting dimension of a stack: K is the rhs's next-to-last.
func.func @f(%a: tensor<?x2x8x16xf32>, %b: tensor<?x2x8x16xf32>) {
  // expected-error @+1 {{contracting dimensions differ: lhs has 16, rhs has 8}}
  %0 = mdl.batch_matmul %a, %b : tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32> -> tensor<?x2x8x16xf32>
  return
}
