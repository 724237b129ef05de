// RUN: modelc-opt %s -split-input-file --mdl-autodiff -verify-diagnostics
// Errors of --mdl-autodiff: a loss that depends on an op without gradient
// through a differentiable path (reported at that op, naming the path), a
// missing function, a function that is not a loss, and rules that cannot
// build their gradient (one error, the first failure).

mdl.parameter @w : tensor<4x3xf32> {init = #mdl.init<zeros>}
func.func @train_loss(%x: tensor<?x4xf32>) -> tensor<f32> {
  %w = mdl.param @w : tensor<4x3xf32>
  %h = mdl.matmul %x, %w : tensor<?x4xf32>, tensor<4x3xf32> -> tensor<?x3xf32>
  // expected-error @+1 {{'mdl.argmax' op has no gradient, but the loss of @train_loss depends on it through a differentiable path: @w -> mdl.matmul -> mdl.argmax -> mdl.cast -> mdl.reduce_mean -> loss}}
  %c = mdl.argmax %h {axis = 1 : i64} : tensor<?x3xf32> -> tensor<?xi64>
  %f = mdl.cast %c : tensor<?xi64> -> tensor<?xf32>
  %l = mdl.reduce_mean %f {axes = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// An op outside mdl has no gradient rule either.
func.func @train_loss(%x: tensor<3xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tensor.cast' op has no gradient, but the loss of @train_loss depends on it through a differentiable path: argument #0 -> tensor.cast -> mdl.reduce_sum -> loss}}
  %c = tensor.cast %x : tensor<3xf32> to tensor<?xf32>
  %l = mdl.reduce_sum %c {axes = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Integer arguments and comparisons that only select are fine; but a loss
// computed from a comparison of a parameter is not differentiable.
mdl.parameter @w : tensor<3xf32> {init = #mdl.init<zeros>}
func.func @train_loss(%x: tensor<3xf32>) -> tensor<f32> {
  %w = mdl.param @w : tensor<3xf32>
  // expected-error @+2 {{'mdl.cmp' op has no gradient, but the loss of @train_loss depends on it through a differentiable path: @w -> mdl.cmp -> mdl.cast -> mdl.reduce_sum -> loss}}
  // expected-note @+1 {{a comparison is a step: to keep or zero values by it, select with where(condition, x, 0) instead of multiplying by the cast condition}}
  %m = mdl.cmp gt, %w, %x : tensor<3xf32>, tensor<3xf32> -> tensor<3xi1>
  %f = mdl.cast %m : tensor<3xi1> -> tensor<3xf32>
  %l = mdl.reduce_sum %f {axes = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// expected-error @+1 {{mdl-autodiff: no function named @train_loss to differentiate}}
module {
  func.func @other(%x: tensor<f32>) -> tensor<f32> {
    return %x : tensor<f32>
  }
}

// -----

// expected-error @+1 {{mdl-autodiff: @train_loss must return exactly one 0-d float tensor (the loss)}}
func.func @train_loss(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}

// -----

// expected-error @+1 {{mdl-autodiff: cannot create @train_step: the module already has a symbol of that name}}
module {
  func.func @train_loss(%x: tensor<f32>) -> tensor<f32> {
    return %x : tensor<f32>
  }
  func.func @train_step() {
    return
  }
}

// -----

// A rule that cannot build its gradient reports one error at the op (the
// GradientBuilder keeps the first failure): concatenation along a dynamic
// dimension has no static window per input.
func.func @train_loss(%x: tensor<?x3xf32>, %y: tensor<?x3xf32>) -> tensor<f32> {
  // expected-error @+1 {{'mdl.concat' op cannot be differentiated: concatenation along a dynamic dimension}}
  %c = mdl.concat %x, %y {axis = 0 : i64} : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<?x3xf32>
  %l = mdl.reduce_sum %c {axes = array<i64: 0, 1>} : tensor<?x3xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The element count fails inside reduce_mean's rule; the rest of the rule
// builds nothing and the one error names the count.
func.func @train_loss(%x: tensor<?x?xf32>) -> tensor<f32> {
  // expected-error @+1 {{'mdl.reduce_mean' op cannot be differentiated: a mean over a dynamic dimension next to another dynamic dimension is not supported}}
  %m = mdl.reduce_mean %x {axes = array<i64: 1>} : tensor<?x?xf32> -> tensor<?xf32>
  %l = mdl.reduce_sum %m {axes = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  return %l : tensor<f32>
}
