// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.conv2d.

// Weight input channels must match.
func.func @f(%x: tensor<?x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{weight has 2 input channels per group, expected 3}}
  %0 = mdl.conv2d %x, %w : tensor<?x3x8x8xf32>, tensor<4x2x3x3xf32> -> tensor<?x4x6x6xf32>
  return
}

// -----

// Bias length must equal the output channels.
func.func @f(%x: tensor<?x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+1 {{bias must have shape 4}}
  %0 = mdl.conv2d %x, %w, %b : tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<5xf32> -> tensor<?x4x6x6xf32>
  return
}

// -----

// Kernel larger than the padded input.
func.func @f(%x: tensor<?x1x2x2xf32>, %w: tensor<1x1x3x3xf32>) {
  // expected-error @+1 {{window of size 3 does not fit the padded input of size 2}}
  %0 = mdl.conv2d %x, %w : tensor<?x1x2x2xf32>, tensor<1x1x3x3xf32> -> tensor<?x1x1x1xf32>
  return
}

// -----

// groups must divide the channels.
func.func @f(%x: tensor<?x3x8x8xf32>, %w: tensor<4x1x3x3xf32>) {
  // expected-error @+1 {{groups (2) must divide input channels (3) and output channels (4)}}
  %0 = mdl.conv2d %x, %w {groups = 2 : i64} : tensor<?x3x8x8xf32>, tensor<4x1x3x3xf32> -> tensor<?x4x6x6xf32>
  return
}

// -----

// stride needs two entries.
func.func @f(%x: tensor<?x1x8x8xf32>, %w: tensor<1x1x3x3xf32>) {
  // expected-error @+1 {{'stride' must have 2 entries (H, W), got 1}}
  %0 = mdl.conv2d %x, %w {stride = array<i64: 1>} : tensor<?x1x8x8xf32>, tensor<1x1x3x3xf32> -> tensor<?x1x6x6xf32>
  return
}

// -----

// Input must be NCHW.
func.func @f(%x: tensor<?x8x8xf32>, %w: tensor<1x1x3x3xf32>) {
  // expected-error @+1 {{input (NCHW) and weight (OIHW) must be 4-D}}
  %0 = mdl.conv2d %x, %w : tensor<?x8x8xf32>, tensor<1x1x3x3xf32> -> tensor<?x1x6x6xf32>
  return
}
