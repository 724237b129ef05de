// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.cross_entropy.

// Float labels are rejected.
func.func @f(%x: tensor<?x10xf32>, %l: tensor<?xf32>) {
  // expected-error @+1 {{'mdl.cross_entropy' op labels must be integer class indices (i32 or i64), got element type 'f32'}}
  %0 = mdl.cross_entropy mean %x, %l : tensor<?x10xf32>, tensor<?xf32> -> tensor<f32>
  return
}

// -----

// Sample counts differ.
func.func @f(%x: tensor<4x10xf32>, %l: tensor<5xi64>) {
  // expected-error @+1 {{labels must have the logits' shape without the class dimension, 4 for logits 'tensor<4x10xf32>', got 'tensor<5xi64>'}}
  %0 = mdl.cross_entropy mean %x, %l : tensor<4x10xf32>, tensor<5xi64> -> tensor<f32>
  return
}

// -----

// Logits are [..., C].
func.func @f(%x: tensor<?xf32>, %l: tensor<?xi64>) {
  // expected-error @+1 {{logits must be [..., C] (rank >= 2) with a static C}}
  %0 = mdl.cross_entropy mean %x, %l : tensor<?xf32>, tensor<?xi64> -> tensor<f32>
  return
}

// -----

// Labels have the logits' rank minus one.
func.func @f(%x: tensor<?x10xf32>, %l: tensor<?x1xi64>) {
  // expected-error @+1 {{labels must have the logits' shape without the class dimension, ?}}
  %0 = mdl.cross_entropy mean %x, %l : tensor<?x10xf32>, tensor<?x1xi64> -> tensor<f32>
  return
}

// -----

// Unknown reduction.
func.func @f(%x: tensor<?x10xf32>, %l: tensor<?xi64>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'reduction' [mean, sum]}}
  %0 = mdl.cross_entropy none %x, %l : tensor<?x10xf32>, tensor<?xi64> -> tensor<f32>
  return
}

// -----

// One class weight per class, of the logits' element type.
func.func @f(%x: tensor<?x10xf32>, %l: tensor<?xi64>, %w: tensor<9xf32>) {
  // expected-error @+1 {{weight must be 'tensor<10xf32>' (one value per class), got 'tensor<9xf32>'}}
  %0 = mdl.cross_entropy mean %x, %l weight %w : tensor<?x10xf32>, tensor<?xi64>, tensor<9xf32> -> tensor<f32>
  return
}

// -----

// Label smoothing is in [0, 1).
func.func @f(%x: tensor<?x10xf32>, %l: tensor<?xi64>) {
  // expected-error @+1 {{label_smoothing must be in [0, 1), got 1.000000e+00}}
  %0 = mdl.cross_entropy mean %x, %l {label_smoothing = 1.0 : f64} : tensor<?x10xf32>, tensor<?xi64> -> tensor<f32>
  return
}

// -----

// Per-token labels: [B, T] for [B, T, C] logits, T equal.
func.func @f(%x: tensor<?x16x65xf32>, %l: tensor<?x15xi64>) {
  // expected-error @+1 {{labels must have the logits' shape without the class dimension, ?x16 for logits 'tensor<?x16x65xf32>', got 'tensor<?x15xi64>'}}
  %0 = mdl.cross_entropy mean %x, %l : tensor<?x16x65xf32>, tensor<?x15xi64> -> tensor<f32>
  return
}

// -----

// The class dimension is static.
func.func @f(%x: tensor<?x16x?xf32>, %l: tensor<?x16xi64>) {
  // expected-error @+1 {{logits must be [..., C] (rank >= 2) with a static C}}
  %0 = mdl.cross_entropy mean %x, %l : tensor<?x16x?xf32>, tensor<?x16xi64> -> tensor<f32>
  return
}

// -----

// ignore_index is an i64.
func.func @f(%x: tensor<?x10xf32>, %l: tensor<?xi64>) {
  // expected-error @+1 {{attribute 'ignore_index' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0 = mdl.cross_entropy mean %x, %l {ignore_index = 1.0 : f32} : tensor<?x10xf32>, tensor<?xi64> -> tensor<f32>
  return
}
