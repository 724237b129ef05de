// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.attention and mdl.attention_grad.

func.func @f(%q: tensor<?x8x16xf32>) {
  // expected-error @+1 {{query, key and value must be 4-D (BxHxTxD)}}
  %0 = mdl.attention %q, %q, %q : tensor<?x8x16xf32>, tensor<?x8x16xf32>, tensor<?x8x16xf32> -> tensor<?x8x16xf32>
  return
}

// -----

// The width differs.
func.func @f(%q: tensor<?x2x8x16xf32>, %k: tensor<?x2x8x8xf32>) {
  // expected-error @+1 {{query, key and value differ in dimension 3}}
  %0 = mdl.attention %q, %k, %k : tensor<?x2x8x16xf32>, tensor<?x2x8x8xf32>, tensor<?x2x8x8xf32> -> tensor<?x2x8x16xf32>
  return
}

// -----

func.func @f(%q: tensor<?x2x8x16xf32>, %k: tensor<?x2x6x16xf32>, %v: tensor<?x2x7x16xf32>) {
  // expected-error @+1 {{key and value have different lengths}}
  %0 = mdl.attention %q, %k, %v : tensor<?x2x8x16xf32>, tensor<?x2x6x16xf32>, tensor<?x2x7x16xf32> -> tensor<?x2x8x16xf32>
  return
}

// -----

func.func @f(%q: tensor<?x2x8x16xf32>, %k: tensor<?x2x6x16xf32>) {
  // expected-error @+1 {{a causal mask needs at least as many keys as queries, got 8 queries and 6 keys}}
  %0 = mdl.attention %q, %k, %k {causal = true} : tensor<?x2x8x16xf32>, tensor<?x2x6x16xf32>, tensor<?x2x6x16xf32> -> tensor<?x2x8x16xf32>
  return
}

// -----

func.func @f(%q: tensor<?x2x8x16xf32>, %g: tensor<?x2x8x8xf32>) {
  // expected-error @+1 {{output and grad must have the query's type}}
  %0:3 = mdl.attention_grad %q, %q, %q, %q, %g : tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<?x2x8x8xf32> -> tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>
  return
}

// -----

// Only the batch may be dynamic (the scale and the causal mask are built
// from the static sizes).
func.func @f(%q: tensor<?x2x?x16xf32>) {
  // expected-error @+1 {{only the batch may be dynamic, got 'tensor<?x2x?x16xf32>'}}
  %0 = mdl.attention %q, %q, %q : tensor<?x2x?x16xf32>, tensor<?x2x?x16xf32>, tensor<?x2x?x16xf32> -> tensor<?x2x?x16xf32>
  return
}
