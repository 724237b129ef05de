// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.attention_decode and mdl.position_row.

// The query holds more than one position.
func.func @f(%q: tensor<1x2x3x8xf32>, %c: tensor<1x2x6x8xf32>, %pos: tensor<i64>) {
  // expected-error @+1 {{query, key and value must hold one position (BxHx1xD), got 'tensor<1x2x3x8xf32>'}}
  %0:3 = mdl.attention_decode %q, %q, %q, %c, %c, %pos : tensor<1x2x3x8xf32>, tensor<1x2x3x8xf32>, tensor<1x2x3x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>, tensor<i64> -> tensor<1x2x3x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>
  return
}

// -----

// The cache's heads are not the query's.
func.func @f(%q: tensor<1x2x1x8xf32>, %c: tensor<1x4x6x8xf32>, %pos: tensor<i64>) {
  // expected-error @+1 {{operands differ in dimension 1}}
  %0:3 = mdl.attention_decode %q, %q, %q, %c, %c, %pos : tensor<1x2x1x8xf32>, tensor<1x2x1x8xf32>, tensor<1x2x1x8xf32>, tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>, tensor<i64> -> tensor<1x2x1x8xf32>, tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>
  return
}

// -----

// The two caches have different lengths.
func.func @f(%q: tensor<1x2x1x8xf32>, %kc: tensor<1x2x6x8xf32>, %vc: tensor<1x2x5x8xf32>, %pos: tensor<i64>) {
  // expected-error @+1 {{the key and value caches differ}}
  %0:3 = mdl.attention_decode %q, %q, %q, %kc, %vc, %pos : tensor<1x2x1x8xf32>, tensor<1x2x1x8xf32>, tensor<1x2x1x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x5x8xf32>, tensor<i64> -> tensor<1x2x1x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x5x8xf32>
  return
}

// -----

// Mixed element types.
func.func @f(%q: tensor<1x2x1x8xf32>, %c: tensor<1x2x6x8xf64>, %pos: tensor<i64>) {
  // expected-error @+1 {{query, key, value and the caches must be 4-D (BxHxTxD) of one element type}}
  %0:3 = mdl.attention_decode %q, %q, %q, %c, %c, %pos : tensor<1x2x1x8xf32>, tensor<1x2x1x8xf32>, tensor<1x2x1x8xf32>, tensor<1x2x6x8xf64>, tensor<1x2x6x8xf64>, tensor<i64> -> tensor<1x2x1x8xf32>, tensor<1x2x6x8xf64>, tensor<1x2x6x8xf64>
  return
}

// -----

// The position is a 0-d i64 tensor.
func.func @f(%q: tensor<1x2x1x8xf32>, %c: tensor<1x2x6x8xf32>, %pos: tensor<1xi64>) {
  // expected-error @+1 {{operand #5 must be 0D tensor of 64-bit signless integer values}}
  %0:3 = mdl.attention_decode %q, %q, %q, %c, %c, %pos : tensor<1x2x1x8xf32>, tensor<1x2x1x8xf32>, tensor<1x2x1x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>, tensor<1xi64> -> tensor<1x2x1x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>
  return
}

// -----

// A positional table is 2-D.
func.func @f(%t: tensor<4x8x2xf32>, %pos: tensor<i64>) {
  // expected-error @+1 {{table must be a 2-D tensor [rows, width], got 'tensor<4x8x2xf32>'}}
  %0 = mdl.position_row %t, %pos : tensor<4x8x2xf32>, tensor<i64> -> tensor<1x8xf32>
  return
}

// -----

// The row's width is the table's.
func.func @f(%t: tensor<4x8xf32>, %pos: tensor<i64>) {
  // expected-error @+1 {{inferred type(s) 'tensor<1x8xf32>' are incompatible with return type(s) of operation 'tensor<1x4xf32>'}}
  %0 = mdl.position_row %t, %pos : tensor<4x8xf32>, tensor<i64> -> tensor<1x4xf32>
  return
}
