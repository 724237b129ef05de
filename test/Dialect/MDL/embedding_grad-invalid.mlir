// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.embedding_grad.

// grad must have the forward result shape S x D.
func.func @f(%g: tensor<?x16x32xf32>, %i: tensor<?x16xi64>, %t: tensor<100x64xf32>) {
  // expected-error @+1 {{grad must have the forward result type 'tensor<?x16x64xf32>'}}
  %0 = mdl.embedding_grad %g, %i, %t : tensor<?x16x32xf32>, tensor<?x16xi64>, tensor<100x64xf32> -> tensor<100x64xf32>
  return
}

// -----

// Integer indices only.
func.func @f(%g: tensor<4x8xf32>, %i: tensor<4xf32>, %t: tensor<10x8xf32>) {
  // expected-error @+1 {{indices must be i32 or i64}}
  %0 = mdl.embedding_grad %g, %i, %t : tensor<4x8xf32>, tensor<4xf32>, tensor<10x8xf32> -> tensor<10x8xf32>
  return
}

// -----

// Static 2-D table.
func.func @f(%g: tensor<4x8xf32>, %i: tensor<4xi64>, %t: tensor<?x8xf32>) {
  // expected-error @+1 {{table must be a static 2-D NxD tensor}}
  %0 = mdl.embedding_grad %g, %i, %t : tensor<4x8xf32>, tensor<4xi64>, tensor<?x8xf32> -> tensor<?x8xf32>
  return
}
