// What the gradient lowerings reject, reported at the op: the conv and
// pooling adjoints need static channel and spatial sizes (only the batch may
// be dynamic) (embedding_grad's static table is already required by the verifier).
// RUN: modelc-opt %s --convert-mdl-to-linalg -split-input-file -verify-diagnostics

func.func @conv_grad_input_dynamic_spatial(%g: tensor<?x8x?x?xf32>, %w: tensor<8x3x3x3xf32>, %x: tensor<?x3x?x?xf32>) -> tensor<?x3x?x?xf32> {
  // expected-error @+2 {{cannot lower 'mdl.conv2d_grad_input' with a dynamic channel or spatial size (only the batch dimension may be dynamic)}}
  // expected-error @+1 {{failed to legalize operation 'mdl.conv2d_grad_input'}}
  %0 = mdl.conv2d_grad_input %g, %w, %x {padding = array<i64: 1, 1>} : tensor<?x8x?x?xf32>, tensor<8x3x3x3xf32>, tensor<?x3x?x?xf32> -> tensor<?x3x?x?xf32>
  return %0 : tensor<?x3x?x?xf32>
}

// -----

func.func @conv_grad_weight_dynamic_spatial(%g: tensor<?x8x?x?xf32>, %x: tensor<?x3x?x?xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<8x3x3x3xf32> {
  // expected-error @+2 {{cannot lower 'mdl.conv2d_grad_weight' with a dynamic channel or spatial size}}
  // expected-error @+1 {{failed to legalize operation 'mdl.conv2d_grad_weight'}}
  %0 = mdl.conv2d_grad_weight %g, %x, %w {padding = array<i64: 1, 1>} : tensor<?x8x?x?xf32>, tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32> -> tensor<8x3x3x3xf32>
  return %0 : tensor<8x3x3x3xf32>
}

// -----

func.func @max_pool_grad_dynamic_spatial(%g: tensor<?x8x?x?xf32>, %x: tensor<?x8x?x?xf32>) -> tensor<?x8x?x?xf32> {
  // expected-error @+2 {{cannot lower 'mdl.max_pool2d_grad' with a dynamic channel or spatial size}}
  // expected-error @+1 {{failed to legalize operation 'mdl.max_pool2d_grad'}}
  %0 = mdl.max_pool2d_grad %g, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x8x?x?xf32>, tensor<?x8x?x?xf32> -> tensor<?x8x?x?xf32>
  return %0 : tensor<?x8x?x?xf32>
}

// -----

func.func @avg_pool_grad_dynamic_spatial(%g: tensor<?x8x?x?xf32>, %x: tensor<?x8x?x?xf32>) -> tensor<?x8x?x?xf32> {
  // expected-error @+2 {{cannot lower 'mdl.avg_pool2d_grad' with a dynamic channel or spatial size}}
  // expected-error @+1 {{failed to legalize operation 'mdl.avg_pool2d_grad'}}
  %0 = mdl.avg_pool2d_grad %g, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x8x?x?xf32>, tensor<?x8x?x?xf32> -> tensor<?x8x?x?xf32>
  return %0 : tensor<?x8x?x?xf32>
}
