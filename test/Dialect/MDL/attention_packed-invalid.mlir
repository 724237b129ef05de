// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.attention_packed and mdl.attention_packed_grad.

func.func @f(%x: tensor<?x8x4x16xf32>) {
  // expected-error @+1 {{qkv must be BxTx3xHxD, got 'tensor<?x8x4x16xf32>'}}
  %0 = mdl.attention_packed %x : tensor<?x8x4x16xf32> -> tensor<?x8x16xf32>
  return
}

// -----

// Two parts, not three.
func.func @f(%x: tensor<?x8x2x4x16xf32>) {
  // expected-error @+1 {{qkv must be BxTx3xHxD, got 'tensor<?x8x2x4x16xf32>'}}
  %0 = mdl.attention_packed %x : tensor<?x8x2x4x16xf32> -> tensor<?x8x4x16xf32>
  return
}

// -----

func.func @f(%x: tensor<?x?x3x4x16xf32>) {
  // expected-error @+1 {{only the batch may be dynamic, got 'tensor<?x?x3x4x16xf32>'}}
  %0 = mdl.attention_packed %x : tensor<?x?x3x4x16xf32> -> tensor<?x?x4x16xf32>
  return
}

// -----

// The output's gradient has another width.
func.func @f(%x: tensor<?x8x3x4x16xf32>, %o: tensor<?x8x4x16xf32>, %g: tensor<?x8x4x8xf32>) {
  // expected-error @+1 {{output and grad must have the type 'tensor<?x8x4x16xf32>', got 'tensor<?x8x4x8xf32>'}}
  %0 = mdl.attention_packed_grad %x, %o, %g : tensor<?x8x3x4x16xf32>, tensor<?x8x4x16xf32>, tensor<?x8x4x8xf32> -> tensor<?x8x3x4x16xf32>
  return
}
