// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.embedding.

// Float indices.
func.func @f(%t: tensor<?xf32>, %w: tensor<10x3xf32>) {
  // expected-error @+1 {{'mdl.embedding' op indices must be i32 or i64, got 'tensor<?xf32>'}}
  %0 = mdl.embedding %t, %w : tensor<?xf32>, tensor<10x3xf32> -> tensor<?x3xf32>
  return
}

// -----

// The table is 2-D.
func.func @f(%t: tensor<?xi64>, %w: tensor<10xf32>) {
  // expected-error @+1 {{table must be a static 2-D NxD tensor}}
  %0 = mdl.embedding %t, %w : tensor<?xi64>, tensor<10xf32> -> tensor<?xf32>
  return
}
