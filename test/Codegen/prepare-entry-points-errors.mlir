// RUN: modelc-opt %s --split-input-file --modelc-prepare-entry-points -verify-diagnostics

// A module without @train_step (autodiff has not run) is reported at the
// module.
// expected-error @below {{the module needs @train_step (run --mdl-autodiff), @eval_metrics and @forward_eval}}
module {
  func.func @forward_eval(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
    return %x : tensor<?x3xf32>
  }
  func.func @eval_metrics(%x: tensor<?x3xf32>, %t: tensor<?x3xf32>) -> tensor<f32> {
    %l = mdl.mse_loss sum %x, %t : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<f32>
    return %l : tensor<f32>
  }
}

// -----

// Nor can @predict be built without @forward_eval.
// expected-error @below {{the module needs @train_step (run --mdl-autodiff), @eval_metrics and @forward_eval}}
module {
  func.func @train_step(%x: tensor<?x3xf32>, %t: tensor<?x3xf32>) -> tensor<f32> {
    %l = mdl.mse_loss sum %x, %t : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<f32>
    return %l : tensor<f32>
  }
  func.func @eval_metrics(%x: tensor<?x3xf32>, %t: tensor<?x3xf32>) -> tensor<f32> {
    %l = mdl.mse_loss sum %x, %t : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<f32>
    return %l : tensor<f32>
  }
}

// -----

// An existing @predict is not overwritten.
// expected-error @below {{the module already defines @predict}}
module {
  func.func @forward_eval(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
    return %x : tensor<?x3xf32>
  }
  func.func @predict(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
    return %x : tensor<?x3xf32>
  }
  func.func @train_step(%x: tensor<?x3xf32>, %t: tensor<?x3xf32>) -> tensor<f32> {
    %l = mdl.mse_loss sum %x, %t : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<f32>
    return %l : tensor<f32>
  }
  func.func @eval_metrics(%x: tensor<?x3xf32>, %t: tensor<?x3xf32>) -> tensor<f32> {
    %l = mdl.mse_loss sum %x, %t : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<f32>
    return %l : tensor<f32>
  }
}

// -----

// @eval_metrics must take the inputs and the labels, nothing else.
func.func @forward_eval(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  return %x : tensor<?x3xf32>
}
func.func @train_step(%x: tensor<?x3xf32>, %t: tensor<?x3xf32>) -> tensor<f32> {
  %l = mdl.mse_loss sum %x, %t : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<f32>
  return %l : tensor<f32>
}
// expected-error @below {{@eval_metrics must take (inputs, labels)}}
func.func @eval_metrics(%x: tensor<?x3xf32>) -> tensor<f32> {
  %l = mdl.mse_loss sum %x, %x : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// @predict returns one tensor, so @forward_eval must too.
func.func @train_step(%x: tensor<?x3xf32>, %t: tensor<?x3xf32>) -> tensor<f32> {
  %l = mdl.mse_loss sum %x, %t : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<f32>
  return %l : tensor<f32>
}
func.func @eval_metrics(%x: tensor<?x3xf32>, %t: tensor<?x3xf32>) -> tensor<f32> {
  %l = mdl.mse_loss sum %x, %t : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<f32>
  return %l : tensor<f32>
}
// expected-error @below {{@forward_eval must return one tensor}}
func.func @forward_eval(%x: tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<?x3xf32>) {
  return %x, %x : tensor<?x3xf32>, tensor<?x3xf32>
}

// -----

// Accuracy counts class predictions: float labels (a regression) have none.
module attributes {mdl.config = {metrics = ["accuracy"]}} {
  func.func @forward_eval(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
    return %x : tensor<?x3xf32>
  }
  func.func @train_step(%x: tensor<?x3xf32>, %t: tensor<?x3xf32>) -> tensor<f32> {
    %l = mdl.mse_loss sum %x, %t : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<f32>
    return %l : tensor<f32>
  }
  // expected-error @below {{accuracy needs integer class labels and @eval_metrics returning (loss sum, correct)}}
  func.func @eval_metrics(%x: tensor<?x3xf32>, %t: tensor<?x3xf32>) -> (tensor<f32>, tensor<i64>) {
    %l = mdl.mse_loss sum %x, %t : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<f32>
    %c = mdl.constant dense<0> : tensor<i64>
    return %l, %c : tensor<f32>, tensor<i64>
  }
}

// -----

// With accuracy, @eval_metrics returns the correct count after the loss.
module attributes {mdl.config = {metrics = ["accuracy"]}} {
  func.func @forward_eval(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
    return %x : tensor<?x3xf32>
  }
  func.func @train_step(%x: tensor<?x3xf32>, %labels: tensor<?xi64>) -> tensor<f32> {
    %l = mdl.cross_entropy mean %x, %labels : tensor<?x3xf32>, tensor<?xi64> -> tensor<f32>
    return %l : tensor<f32>
  }
  // expected-error @below {{accuracy needs integer class labels and @eval_metrics returning (loss sum, correct)}}
  func.func @eval_metrics(%x: tensor<?x3xf32>, %labels: tensor<?xi64>) -> tensor<f32> {
    %l = mdl.cross_entropy sum %x, %labels : tensor<?x3xf32>, tensor<?xi64> -> tensor<f32>
    return %l : tensor<f32>
  }
}

// -----

// The training step's correct count comes from its cross-entropy: without
// one there are no logits to count.
module attributes {mdl.config = {metrics = ["accuracy"]}} {
  func.func @forward_eval(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
    return %x : tensor<?x3xf32>
  }
  // expected-error @below {{accuracy needs exactly one mdl.cross_entropy in @train_step, found 0}}
  func.func @train_step(%x: tensor<?x3xf32>, %labels: tensor<?xi64>) -> tensor<f32> {
    %l = mdl.reduce_sum %x {axes = array<i64: 0, 1>} : tensor<?x3xf32> -> tensor<f32>
    return %l : tensor<f32>
  }
  func.func @eval_metrics(%x: tensor<?x3xf32>, %labels: tensor<?xi64>) -> (tensor<f32>, tensor<i64>) {
    %l = mdl.cross_entropy sum %x, %labels : tensor<?x3xf32>, tensor<?xi64> -> tensor<f32>
    %c = mdl.constant dense<0> : tensor<i64>
    return %l, %c : tensor<f32>, tensor<i64>
  }
}

// -----

// Two cross-entropies leave the logits to count ambiguous.
module attributes {mdl.config = {metrics = ["accuracy"]}} {
  func.func @forward_eval(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
    return %x : tensor<?x3xf32>
  }
  // expected-error @below {{accuracy needs exactly one mdl.cross_entropy in @train_step, found 2}}
  func.func @train_step(%x: tensor<?x3xf32>, %labels: tensor<?xi64>) -> tensor<f32> {
    %a = mdl.cross_entropy mean %x, %labels : tensor<?x3xf32>, tensor<?xi64> -> tensor<f32>
    %b = mdl.cross_entropy sum %x, %labels : tensor<?x3xf32>, tensor<?xi64> -> tensor<f32>
    %l = mdl.add %a, %b : tensor<f32>, tensor<f32> -> tensor<f32>
    return %l : tensor<f32>
  }
  func.func @eval_metrics(%x: tensor<?x3xf32>, %labels: tensor<?xi64>) -> (tensor<f32>, tensor<i64>) {
    %l = mdl.cross_entropy sum %x, %labels : tensor<?x3xf32>, tensor<?xi64> -> tensor<f32>
    %c = mdl.constant dense<0> : tensor<i64>
    return %l, %c : tensor<f32>, tensor<i64>
  }
}
